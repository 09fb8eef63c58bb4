"""Cached pages (scorekeeper.caching) are the pages a fresh render gives, never stale ones, and never
one visitor's; each kind of write drops exactly the club pages it changes."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from helpers import csrf_from, follow, page, parse_html

from scorekeeper import create_app, services, transfer
from scorekeeper.extensions import db
from scorekeeper.rules import Refusal
from tests.perf.perf_support import DEALS, PLAYERS, new_game, record, with_pencil

#: A form's per-page values: its CSRF token and the Idempotency-Key drawn into it.
CSRF_VALUE = re.compile(r'(name="(?:csrf_token|idempotency_key)" type="hidden" value=")[^"]+(")')


def without_tokens(html: str) -> str:
    return CSRF_VALUE.sub(r"\1…\2", html)


@pytest.fixture
def uncached(app: Flask) -> Iterator[Flask]:
    """A second app on the same database that caches nothing: every page rendered afresh."""
    other = create_app(
        {**app.config, "CACHE_TYPE": "NullCache", "CACHE_NO_NULL_WARNING": True, "AUTO_MIGRATE": False}
    )
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def urls(game_id: str) -> list[str]:
    return [f"/games/{game_id}", f"/games/{game_id}/scoresheet", f"/api/v1/games/{game_id}"]


@pytest.mark.parametrize("deals", [0, 9, 18])
@pytest.mark.parametrize("scorer", [False, True], ids=["watcher", "scorer"])
def test_a_cached_page_is_the_page_rendered_afresh(
    app: Flask, uncached: Flask, deals: int, scorer: bool
) -> None:
    game_id, key = new_game(app, deals)
    cached_client, fresh_client = app.test_client(), uncached.test_client()
    if scorer:
        with_pencil(cached_client, game_id, key)
        with_pencil(fresh_client, game_id, key)
    for url in [*urls(game_id), "/", "/rankings"]:
        first, again = cached_client.get(url), cached_client.get(url)
        fresh = fresh_client.get(url)
        assert first.status_code == again.status_code == fresh.status_code == 200
        assert again.headers.get("ETag") == fresh.headers.get("ETag")
        assert again.headers.get("Cache-Control") == fresh.headers.get("Cache-Control")
        texts = {without_tokens(r.get_data(as_text=True)) for r in (first, again, fresh)}
        assert len(texts) == 1, url


def test_every_write_shows_at_once(app: Flask, client: FlaskClient) -> None:
    game_id, _key = new_game(app, 3)
    before = {url: page(client, url) for url in urls(game_id)}
    record(app, game_id, 4)
    after = {url: page(client, url) for url in urls(game_id)}
    for url in urls(game_id):
        assert after[url] != before[url], url
    api = f"/api/v1/games/{game_id}"
    assert len(json.loads(after[api])["deals"]) == 4
    # An undo takes the game back to 3 deals, under a new version: the cached 4-deal copy stays unused.
    with app.app_context():
        services.undo_deal(game_id, 4)
        db.session.remove()
    assert len(json.loads(page(client, api))["deals"]) == 3


def test_a_renamed_player_shows_on_every_cached_page(app: Flask, client: FlaskClient) -> None:
    game_id, _key = new_game(app, 18)
    with app.app_context():
        ann = services.find_player("Ann").id
    club = ["/", "/rankings", f"/players/{ann}"]
    for url in [*urls(game_id), *club]:
        assert "Zoe" not in page(client, url)
    with app.app_context():
        services.rename_player(ann, "Zoe")
        db.session.remove()
    for url in [*urls(game_id), *club]:
        assert "Zoe" in page(client, url), url


def test_a_flashed_message_shows_once_and_is_not_cached(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(app, 17)
    scorer = with_pencil(client, game_id, key)
    html = page(scorer, f"/games/{game_id}")
    contract, tricks = DEALS[17]
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "number": 18, "contract": contract}
    for seat, count in enumerate(tricks):
        data[f"tricks-{seat}"] = count
    declared = follow(scorer, scorer.post(f"/games/{game_id}/deals", data=data))
    assert parse_html(declared).find(cls="flashes")
    assert parse_html(page(scorer, f"/games/{game_id}")).first(cls="flashes") is None


@pytest.mark.parametrize("url", ["/", "/rankings", "game"])
def test_a_page_with_a_message_waiting_is_drawn_for_it_and_not_cached(app: Flask, url: str) -> None:
    game_id, _key = new_game(app, 18)
    url = f"/games/{game_id}" if url == "game" else url
    visitor, other = app.test_client(), app.test_client()
    page(other, url)  # cached
    with visitor.session_transaction() as session:
        session["_flashes"] = [("ok", "A message for this visitor")]
    assert "A message for this visitor" in page(visitor, url)
    assert "A message for this visitor" not in page(visitor, url)
    assert "A message for this visitor" not in page(other, url)


def test_each_phone_gets_its_own_working_form_token(app: Flask) -> None:
    """A finished game's page has the rematch form: each scorer's page carries their own token."""
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
def test_a_cached_page_holds_nothing_of_one_visitor(app: Flask, scorer: bool, language: str) -> None:
    """One visitor's query string never reaches another visitor through a cached copy (issue 31, 5)."""
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


def test_each_language_has_its_own_copy(app: Flask) -> None:
    game_id, _key = new_game(app, 9)
    english, polish = app.test_client(), app.test_client()
    polish.get("/language/pl?next=/")
    for url in ["/", "/rankings", f"/games/{game_id}"]:
        assert 'lang="en"' in page(english, url).split(">", 2)[1], url
        assert 'lang="pl"' in page(polish, url).split(">", 2)[1], url
        assert 'lang="en"' in page(english, url).split(">", 2)[1], url


def test_the_bench_routes_exist_only_when_asked_for(app: Flask) -> None:
    client = app.test_client()
    assert client.post("/_bench/insert").status_code in (404, 405)
    assert client.get("/_bench/worker").status_code == 404


# -- what each write drops -------------------------------------------------------------------------


@pytest.fixture
def drawn(app: Flask) -> Iterator[Counter[str]]:
    """How often each club page is drawn (rendered) while the test runs."""
    counts: Counter[str] = Counter()

    def seen(sender: Flask, template: Any, context: Any, **extra: Any) -> None:
        counts[str(template.name)] += 1

    template_rendered.connect(seen, app)
    yield counts
    template_rendered.disconnect(seen, app)


CLUB = {"home": "web/home.html", "rankings": "web/rankings.html", "player": "web/player.html"}


class Club:
    """A club with a finished game (Ann, Bob, Cid), one in progress, and one Dan played, and a
    visitor who looks at the home page, the rankings and two players' pages."""

    def __init__(self, app: Flask, drawn: Counter[str]) -> None:
        self.app, self.drawn = app, drawn
        self.finished, self.finished_key = new_game(app, 18)
        self.playing, _ = new_game(app, 5)
        new_game(app, 18, players=["Dan", "Eve", "Fay"])
        with app.app_context():
            self.ann = services.find_player("Ann").id
            self.dan = services.find_player("Dan").id
        self.visitor = app.test_client()
        self.redrawn: set[str] = set()
        self.urls = {
            "home": "/",
            "rankings": "/rankings",
            "ann": f"/players/{self.ann}",
            "dan": f"/players/{self.dan}",
        }
        self.look()

    def look(self) -> dict[str, str]:
        """Every page once; which were drawn afresh (not served from the cache)."""
        pages = {}
        for name, url in self.urls.items():
            before = sum(self.drawn.values())
            html = page(self.visitor, url)
            pages[name] = html
            if sum(self.drawn.values()) > before:
                self.redrawn.add(name)
        return pages

    def after(self, write: Any) -> tuple[set[str], dict[str, str]]:
        """The pages drawn afresh after ``write`` (run in an app context), and the pages."""
        with self.app.app_context():
            write()
            db.session.remove()
        self.redrawn = set()
        pages = self.look()
        again = set(self.redrawn)
        self.redrawn = set()
        self.look()
        assert self.redrawn == set(), "a page drawn again with no write between"
        return again, pages


@pytest.fixture
def club(app: Flask, drawn: Counter[str]) -> Club:
    return Club(app, drawn)


def deal(game_id: str, number: int) -> None:
    contract, tricks = DEALS[number - 1]
    services.record_deal(
        game_id, number=number, contract=contract, tricks=dict(zip(PLAYERS, tricks, strict=True))
    )


def test_nothing_is_drawn_again_without_a_write(club: Club) -> None:
    assert club.after(lambda: None)[0] == set()


def test_a_deal_in_a_game_in_progress_changes_the_home_page_and_its_players_pages(club: Club) -> None:
    redrawn, _ = club.after(lambda: deal(club.playing, 6))
    assert redrawn == {"home", "ann"}  # Dan, not at that table, keeps his cached page
    assert "rankings" not in redrawn  # the rankings count finished games only


def test_a_deal_that_finishes_a_game_changes_the_rankings(club: Club) -> None:
    _, before = club.after(lambda: [deal(club.playing, number) for number in range(6, 18)])
    redrawn, after = club.after(lambda: deal(club.playing, 18))
    assert redrawn == {"home", "rankings", "ann", "dan"}
    assert after["rankings"] != before["rankings"]


def test_a_correction_of_a_finished_game_changes_the_rankings(club: Club) -> None:
    _, before = club.after(lambda: None)
    redrawn, after = club.after(lambda: services.update_deal(club.finished, 18, tricks=[1, 11, 1]))
    assert redrawn == {"home", "rankings", "ann", "dan"}
    assert after["rankings"] != before["rankings"]


def test_an_import_changes_the_rankings(club: Club) -> None:
    with club.app.app_context():
        export = transfer.export_game(services.snapshot(club.finished))
        db.session.remove()
    redrawn, _ = club.after(lambda: transfer.import_game(export))
    assert redrawn == {"home", "rankings", "ann", "dan"}


def test_a_new_game_or_a_rematch_changes_the_home_page_and_its_players_pages(club: Club) -> None:
    redrawn, _ = club.after(lambda: services.create_game("mizerka", ["Ann", "Gus", "Hal"], "Ann"))
    assert redrawn == {"home", "ann"}
    redrawn, _ = club.after(lambda: services.rematch(club.finished))
    assert redrawn == {"home", "ann"}


def test_a_rename_or_a_merge_changes_every_club_page(club: Club) -> None:
    redrawn, after = club.after(lambda: services.rename_player(club.ann, "Zoe"))
    assert redrawn == {"home", "rankings", "ann", "dan"}
    assert all("Zoe" in after[name] for name in ("home", "rankings", "ann")), after
    with club.app.app_context():
        gus = services.create_game("mizerka", ["Gus", "Eve", "Fay"], "Gus")[0].setup.players[0]
        gus_id = services.find_player(gus).id
        db.session.remove()
    redrawn, _ = club.after(lambda: services.merge_players(gus_id, club.dan))
    assert redrawn == {"home", "rankings", "ann", "dan"}


def test_a_refused_write_changes_nothing(club: Club) -> None:
    def refused() -> None:
        with pytest.raises(Refusal):
            services.record_deal(club.playing, number=6, contract="hearts", tricks=[13, 13, 0])

    assert club.after(refused)[0] == set()


def test_a_club_page_s_gzipped_copy_is_its_cached_copy_gzipped_and_follows_every_write(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone that takes gzip gets the cached club page's gzipped copy (cached beside it, not made again),
    byte for byte the plain copy once unpacked, in its own language, and a write changes both at once."""
    import gzip

    from scorekeeper import compression

    made: list[str] = []
    compress = compression.compress.after_request

    def counted(response: Any) -> Any:
        made.append(response.mimetype)
        return compress(response)

    monkeypatch.setattr(compression.compress, "after_request", counted)
    game_id, _key = new_game(app, 3)
    english, polish = app.test_client(), app.test_client()
    polish.get("/language/pl?next=/")
    gzip_header = {"Accept-Encoding": "gzip"}
    for phone, language in ((english, "en"), (polish, "pl")):
        for url in ("/", "/rankings"):
            plain = page(phone, url)
            made.clear()
            for _ in range(2):  # the first drawn and cached with its gzipped copy; the second from them
                packed = phone.get(url, headers=gzip_header)
                assert packed.headers["Content-Encoding"] == "gzip", url
                assert int(packed.headers["Content-Length"]) == len(packed.data), url
                assert gzip.decompress(packed.data).decode() == plain, url
                assert f'lang="{language}"' in plain.split(">", 2)[1]
            assert made == ["text/html"], url  # gzipped once, for the first
    home_before = gzip.decompress(english.get("/", headers=gzip_header).data)
    record(app, game_id, 4)
    home_after = gzip.decompress(english.get("/", headers=gzip_header).data)
    assert home_after != home_before
    assert home_after.decode() == page(english, "/")
