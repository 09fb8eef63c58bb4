"""Kept renderings (scorekeeper.pagecache) are the pages a fresh render gives, never stale ones."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, follow, page, parse_html
from perf_support import DEALS, PLAYERS, new_game, with_pencil

from scorekeeper import create_app, pagecache, services
from scorekeeper.extensions import db

CSRF_VALUE = re.compile(r'(name="csrf_token" type="hidden" value=")[^"]+(")')


def without_tokens(html: str) -> str:
    return CSRF_VALUE.sub(r"\1…\2", html)


def assert_tokens_valid(app: Flask, client: FlaskClient, html: str) -> None:
    """The page's form tokens are there, and each is one the visitor's session accepts."""
    from flask_wtf.csrf import validate_csrf

    tokens = re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert tokens and pagecache.CSRF_PLACEHOLDER not in html, html[:200]
    session = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert session is not None
    with app.test_request_context(headers={"Cookie": f"{session.key}={session.value}"}):
        for token in tokens:
            validate_csrf(token)  # raises if the token is not this session's


@pytest.fixture
def uncached(app: Flask) -> Iterator[Flask]:
    """A second app on the same database that keeps nothing: every page rendered afresh."""
    other = create_app({**app.config, "PAGE_CACHE_SIZE": 0, "AUTO_MIGRATE": False})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def urls(game_id: str) -> list[str]:
    return [f"/games/{game_id}", f"/games/{game_id}/scoresheet", f"/api/v1/games/{game_id}"]


@pytest.mark.parametrize("deals", [0, 9, 18])
@pytest.mark.parametrize("scorer", [False, True], ids=["watcher", "scorer"])
def test_a_kept_page_is_the_page_rendered_afresh(
    app: Flask, uncached: Flask, deals: int, scorer: bool
) -> None:
    game_id, key = new_game(app, deals)
    cached_client, fresh_client = app.test_client(), uncached.test_client()
    if scorer:
        with_pencil(cached_client, game_id, key)
        with_pencil(fresh_client, game_id, key)
    for url in urls(game_id):
        first, again = cached_client.get(url), cached_client.get(url)
        fresh = fresh_client.get(url)
        assert first.status_code == again.status_code == fresh.status_code == 200
        assert again.headers.get("ETag") == fresh.headers.get("ETag")
        assert again.headers.get("Cache-Control") == fresh.headers.get("Cache-Control")
        texts = {without_tokens(r.get_data(as_text=True)) for r in (first, again, fresh)}
        assert len(texts) == 1, url


def record(app: Flask, game_id: str, number: int) -> None:
    contract, tricks = DEALS[number - 1]
    with app.app_context():
        services.record_deal(
            game_id, number=number, contract=contract, tricks=dict(zip(PLAYERS, tricks, strict=True))
        )
        db.session.remove()


def test_every_write_shows_at_once(app: Flask, client: FlaskClient) -> None:
    game_id, _key = new_game(app, 3)
    before = {url: page(client, url) for url in urls(game_id)}
    record(app, game_id, 4)
    after = {url: page(client, url) for url in urls(game_id)}
    for url in urls(game_id):
        assert after[url] != before[url], url
    api = f"/api/v1/games/{game_id}"
    assert len(json.loads(after[api])["deals"]) == 4
    # An undo takes the game back to 3 deals, under a new version: the kept 4-deal copy stays unused.
    with app.app_context():
        services.undo_deal(game_id, 4)
        db.session.remove()
    assert len(json.loads(page(client, api))["deals"]) == 3


def test_a_renamed_player_shows_on_every_kept_page(app: Flask, client: FlaskClient) -> None:
    game_id, _key = new_game(app, 18)
    for url in urls(game_id):
        assert "Zoe" not in page(client, url)
    with app.app_context():
        services.rename_player(services.find_player("Ann").id, "Zoe")
        db.session.remove()
    for url in urls(game_id):
        assert "Zoe" in page(client, url), url


def test_a_flashed_message_shows_once_and_is_not_kept(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(app, 17)
    scorer = with_pencil(client, game_id, key)
    html = page(scorer, f"/games/{game_id}")  # rendered and kept
    contract, tricks = DEALS[17]
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "number": 18, "contract": contract}
    for seat, count in enumerate(tricks):
        data[f"tricks-{seat}"] = count
    declared = follow(scorer, scorer.post(f"/games/{game_id}/deals", data=data))
    assert parse_html(declared).find(cls="flashes")
    assert parse_html(page(scorer, f"/games/{game_id}")).first(cls="flashes") is None


def test_each_phone_gets_its_own_working_form_token(app: Flask) -> None:
    """A finished game's page has the rematch form: a kept copy must carry each visitor's own token."""
    game_id, key = new_game(app, 18)
    # Two phones holding the pencil (the rematch form is the scorer's).
    first = with_pencil(app.test_client(), game_id, key)
    second = with_pencil(app.test_client(), game_id, key)
    first_html, second_html = page(first, f"/games/{game_id}"), page(second, f"/games/{game_id}")
    assert csrf_from(first_html) != csrf_from(second_html)
    response = second.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_from(second_html)})
    assert response.status_code == 303


REFLECTED = "ATTACKER7q"


@pytest.mark.parametrize("scorer", [False, True], ids=["watcher", "scorer"])
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_kept_page_holds_nothing_of_one_visitor_s_request(app: Flask, scorer: bool, language: str) -> None:
    """One visitor's query string never reaches another visitor through a kept copy (issue 31, 5)."""
    app.config["CLUB_PAGE_SETTLE_SECONDS"] = 0  # club pages are kept at once
    game_id, key = new_game(app, 9)
    with app.app_context():
        player_id = services.find_player("Ann").id
        db.session.remove()
    attacker, visitor = app.test_client(), app.test_client()
    for client in (attacker, visitor):
        client.get(f"/language/{language}?next=/")
        if scorer:
            with_pencil(client, game_id, key)
    game, sheet = f"/games/{game_id}", f"/games/{game_id}/scoresheet"
    for url in ["/", "/rankings", f"/players/{player_id}", game, sheet]:
        page(attacker, f"{url}?from={REFLECTED}&next=//evil.example")
        for seen in (url, f"{url}?other=1"):
            html = page(visitor, seen)
            assert REFLECTED not in html and "evil.example" not in html, seen
    # The game's pages name themselves, whatever came with the request: the language switch comes
    # back to the page itself.
    other = "it" if language == "pl" else "pl"
    for url in (game, sheet):
        html = page(attacker, f"{url}?from={REFLECTED}")
        assert REFLECTED not in html, url
        links = {a.attrs.get("href") for a in parse_html(html).find_all("a")}
        assert f"/language/{other}?next={url}" in links


def test_the_bench_routes_exist_only_when_asked_for(app: Flask) -> None:
    client = app.test_client()
    assert client.post("/_bench/insert").status_code in (404, 405)
    assert client.get("/_bench/worker").status_code == 404


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the bodies gzip compresses while the test runs (the app's two places that do)."""
    import gzip

    from scorekeeper import compression

    sizes: list[int] = []
    real = gzip.compress

    def counting(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        sizes.append(len(data))
        return real(data, *args, **kwargs)

    def counting_parts(parts: list[bytes]) -> list[bytes]:
        sizes.append(sum(len(part) for part in parts))
        return deflated(parts)

    deflated = pagecache._deflated
    monkeypatch.setattr(compression.gzip, "compress", counting)
    monkeypatch.setattr(pagecache.gzip, "compress", counting)
    monkeypatch.setattr(pagecache, "_deflated", counting_parts)
    return sizes


@pytest.mark.parametrize("scorer", [False, True], ids=["watcher", "scorer"])
def test_a_kept_page_is_compressed_once(app: Flask, uncached: Flask, scorer: bool, made: list[int]) -> None:
    """Served again from the cache, a page reuses its gzip; what the phone unpacks is the fresh page.

    The scorer's game page carries a new form token each time: the page around it is compressed
    once, and each answer unpacks to the page with its own token (the one the form must send).
    """
    import gzip

    game_id, key = new_game(app, 9)
    client, fresh_client = app.test_client(), uncached.test_client()
    if scorer:
        with_pencil(client, game_id, key)
        with_pencil(fresh_client, game_id, key)
    gz = {"Accept-Encoding": "gzip"}
    for url in urls(game_id):
        made.clear()
        answers = [client.get(url, headers=gz) for _ in range(3)]
        assert [r.headers.get("Content-Encoding") for r in answers] == ["gzip"] * 3, url
        assert len(made) == 1, (url, made)
        fresh = fresh_client.get(url).get_data(as_text=True)
        for answer in answers:
            unpacked = gzip.decompress(answer.get_data()).decode()
            assert without_tokens(unpacked) == without_tokens(fresh), url
            if scorer and url == f"/games/{game_id}":
                assert_tokens_valid(app, client, unpacked)
        # A phone that does not take gzip gets the same page uncompressed.
        plain = client.get(url)
        assert "Content-Encoding" not in plain.headers
        assert without_tokens(plain.get_data(as_text=True)) == without_tokens(fresh), url


def test_a_kept_club_page_is_compressed_once(app: Flask, made: list[int]) -> None:
    import gzip

    new_game(app, 18)
    app.config["CLUB_PAGE_SETTLE_SECONDS"] = 0
    client = app.test_client()
    with app.app_context():
        player_id = db.session.execute(db.text("SELECT min(id) FROM players")).scalar_one()
    for url in ["/", "/rankings", f"/players/{player_id}"]:
        made.clear()
        answers = [client.get(url, headers={"Accept-Encoding": "gzip"}) for _ in range(3)]
        bodies = {gzip.decompress(answer.get_data()) for answer in answers}
        assert len(bodies) == 1 and len(made) == 1, (url, made)


def test_the_kept_pages_are_bounded_by_their_bytes() -> None:
    """Bigger pages taking the places of smaller ones never push a worker past its bytes."""
    cache = pagecache.PageCache(size=100, max_bytes=50_000)
    small, big = "s" * 4_000, "b" * 16_000  # weigh 5,000 and 20,000
    for n in range(10):
        cache.keep(("small", n), small)
    assert len(cache) == 10 and cache.weight == 50_000
    cache.keep("big", big)
    # The four least recently used small pages made room; the newest six stay.
    assert cache.weight == 50_000 and len(cache) == 7
    assert [cache.get(("small", n)) is not None for n in range(10)] == [False] * 4 + [True] * 6
    assert cache.get("big") is not None
    cache.get(("small", 4))  # used again: the next page pushes out ("small", 5) first
    cache.keep("big again", big)
    assert cache.get(("small", 4)) is not None and cache.get(("small", 5)) is None
    assert cache.weight <= 50_000


def test_a_page_heavier_than_the_whole_cache_is_not_kept_and_replaces_its_old_copy() -> None:
    cache = pagecache.PageCache(size=100, max_bytes=10_000)
    cache.keep("page", "x" * 1_000)
    assert cache.get("page") is not None
    cache.keep("page", "x" * 9_000)  # weighs 11,250
    assert cache.get("page") is None and cache.weight == 0 and len(cache) == 0
    cache.keep("page", "x" * 2_000)
    cache.discard("page")
    assert cache.weight == 0


def test_the_apps_page_cache_takes_its_bounds_from_the_config(app: Flask) -> None:
    bounds = {"PAGE_CACHE_SIZE": 7, "PAGE_CACHE_BYTES": 12_345}
    other = create_app({**app.config, **bounds, "AUTO_MIGRATE": False})
    try:
        kept = other.extensions["scorekeeper_page_cache"]
        assert (kept.size, kept.max_weight) == (7, 12_345)
        defaults = app.extensions["scorekeeper_page_cache"]
        assert (defaults.size, defaults.max_weight) == (pagecache.DEFAULT_SIZE, pagecache.DEFAULT_BYTES)
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.mark.parametrize(
    "parts",
    [
        ["<p>", "</p>"],
        ["", ""],
        ["", "<form>", ""],
        ["<li>x</li>" * 9000, "<td>y</td>" * 8000, "end"],
        ["no form"],
    ],
    ids=["one token", "the token alone", "at both ends", "parts over 64 kB", "no token"],
)
@pytest.mark.parametrize("token", [b"IjM2Zm.aGVsbG8.c2lnbmVk", b"", b"t" * 300])
def test_a_kept_page_with_its_token_unpacks_to_the_filled_page(parts: list[str], token: bytes) -> None:
    """One valid gzip stream (its checksum and size those of the page), whatever the token, with
    nothing after its end; the token goes in uncompressed, never compressed with the page."""
    import gzip
    import zlib

    kept = pagecache.Kept(pagecache.CSRF_PLACEHOLDER.join(parts))
    filled = kept.body.replace(pagecache.CSRF_PLACEHOLDER_BYTES, token)
    packed = kept.gzipped_with(token, filled)
    assert gzip.decompress(packed) == filled
    unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert unpacker.decompress(packed) == filled and unpacker.eof and not unpacker.unused_data
    if len(parts) > 1:
        if token:
            assert packed.count(token) == len(parts) - 1  # stored as it is, once per form
        other = kept.body.replace(pagecache.CSRF_PLACEHOLDER_BYTES, b"other")
        assert gzip.decompress(kept.gzipped_with(b"other", other)) == other
