"""The cache is a help, never a condition (issue 41, points 3 to 6): a write that committed is
answered as committed whatever the cache does, without Redis every page is drawn afresh and every
write stored, ``/readyz`` names what does not answer, and no client can add cache keys at will."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, page, start_game

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from tests.conftest import make_test_app
from tests.perf.perf_support import DEALS, PLAYERS

#: A Redis nobody answers at: a port of this machine nothing listens on.
UNREACHABLE = "redis://127.0.0.1:6399/0"


@pytest.fixture
def club_app(
    backend: str, tmp_path: Any, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Flask]]:
    """An app as a club runs it: ``REDIS_URL`` in the environment, the rate limits on."""
    apps: list[Flask] = []

    def build(redis_url: str, **config: Any) -> Flask:
        monkeypatch.setenv("REDIS_URL", redis_url)
        apps.append(make_test_app(backend, tmp_path, request, RATELIMIT_ENABLED=True, **config))
        return apps[-1]

    yield build
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def drawn_afresh(app: Flask, url: str) -> str:
    """``url`` as an app on the same database that caches nothing draws it."""
    fresh = create_app({**app.config, "CACHE_TYPE": "NullCache", "CACHE_NO_NULL_WARNING": True})
    try:
        return page(fresh.test_client(), url)
    finally:
        with fresh.app_context():
            db.session.remove()
            db.engine.dispose()


def api_game(client: FlaskClient) -> tuple[str, str]:
    answer = client.post("/api/v1/games", json={"players": PLAYERS, "first_dealer": PLAYERS[0]})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()["id"], answer.get_json()["edit_key"]


def api_deal(client: FlaskClient, game_id: str, key: str, number: int) -> Any:
    contract, tricks = DEALS[number - 1]
    body = {"number": number, "contract": contract, "tricks": dict(zip(PLAYERS, tricks, strict=True))}
    return client.post(
        f"/api/v1/games/{game_id}/deals", json=body, headers={"Authorization": f"Bearer {key}"}
    )


def stored_deals(app: Flask, game_id: str) -> int:
    with app.app_context():
        count = len(services.snapshot(game_id).records)
        db.session.remove()
    return count


def test_a_write_is_answered_as_stored_when_a_page_view_races_what_it_drops(
    club_app: Callable[..., Flask], redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 3: a page view between a write's commit and what the write then drops in Redis puts
    it back at once (what two app servers under load do).  The write is answered 201, it is
    stored, and the next page shows it."""
    app = club_app(redis_url)
    client = app.test_client()
    game_id, key = api_game(client)
    before = page(client, "/")
    assert page(client, "/") == before  # kept in Redis
    deleting = redis.Redis.delete

    def racing_delete(self: redis.Redis, *names: Any) -> Any:
        kept = {name: self.get(name) for name in names}
        answer = deleting(self, *names)
        for name, value in kept.items():
            if value is not None:
                self.set(name, value)  # the page view that came in between
        return answer

    monkeypatch.setattr(redis.Redis, "delete", racing_delete)
    monkeypatch.setattr(redis.Redis, "unlink", racing_delete)
    for number in (1, 2):
        answer = api_deal(client, game_id, key, number)
        assert answer.status_code == 201, answer.get_data(as_text=True)
        assert stored_deals(app, game_id) == number
        after = page(client, "/")
        assert after != before and after == drawn_afresh(app, "/"), number
        before = after


def test_without_redis_every_page_is_drawn_afresh_and_every_write_stored(
    club_app: Callable[..., Flask],
) -> None:
    """Point 4: Redis down (nothing answers at ``REDIS_URL``): the pages, the API, the new game,
    the admin sign-in and the deal writes all answer as they would with it; ``/healthz`` says the
    app serves, ``/readyz`` that Redis is missing."""
    app = club_app(UNREACHABLE)
    client = app.test_client()
    game_id, key = api_game(client)
    for number in (1, 2, 3):
        answer = api_deal(client, game_id, key, number)
        assert answer.status_code == 201, answer.get_data(as_text=True)
    assert stored_deals(app, game_id) == 3
    with app.app_context():
        ann = services.find_player("Ann").id
    for url in ["/", "/rankings", f"/players/{ann}", f"/games/{game_id}", f"/games/{game_id}/scoresheet"]:
        assert page(client, url) == page(client, url) == drawn_afresh(app, url), url
    state = client.get(f"/api/v1/games/{game_id}")
    assert state.status_code == 200 and len(state.get_json()["deals"]) == 3
    assert start_game(client, ["Ann", "Bob", "Dan"])  # the new-game page, a limited form
    wrong = client.post("/admin", data={"csrf_token": csrf_from(page(client, "/admin")), "key": "wrong"})
    assert wrong.status_code == 403
    health, ready = client.get("/healthz"), client.get("/readyz")
    assert (health.status_code, health.get_data(as_text=True)) == (200, "ok\n")
    assert (ready.status_code, ready.get_data(as_text=True)) == (503, "missing: redis\n")
    assert ready.mimetype == "text/plain"


def test_readyz_answers_ok_when_everything_it_uses_answers(
    club_app: Callable[..., Flask], redis_url: str, app: Flask
) -> None:
    for ready_app in (app, club_app(redis_url)):  # without Redis at all, and with it
        answer = ready_app.test_client().get("/readyz")
        assert (answer.status_code, answer.get_data(as_text=True)) == (200, "ok\n")
        assert answer.headers["Cache-Control"] == "no-store"


def test_no_client_adds_cache_keys_at_will(
    club_app: Callable[..., Flask], redis_url: str, request: pytest.FixtureRequest
) -> None:
    """Point 6: only the club pages' canonical addresses are kept: unknown, repeated or malformed
    query parameters, a next page or a cursor are drawn afresh, never a new key in Redis."""
    app = club_app(redis_url)
    client = app.test_client()
    game_id, key = api_game(client)
    api_deal(client, game_id, key, 1)
    with app.app_context():
        ann = services.find_player("Ann").id
    canonical = ["/", "/rankings", "/rankings?sort=points&dir=asc", f"/players/{ann}?period=year"]
    for url in canonical:
        page(client, url)
    kept = redis.Redis.from_url(redis_url)
    request.addfinalizer(kept.close)
    keys = set(kept.keys("scorekeeper:*"))
    for _ in range(100):
        junk = secrets.token_hex(6)
        for url in [
            f"/?playing_after={junk}",
            f"/?finished_after={junk}",
            f"/?utm_source={junk}",
            f"/rankings?sort={junk}",
            f"/rankings?page={len(junk)}{junk[:2]}",
            f"/rankings?game=mizerka&game={junk}",
            f"/players/{ann}?period={junk}",
            f"/players/{ann}?{junk}=1",
        ]:
            assert client.get(url).status_code == 200, url
    added = set(kept.keys("scorekeeper:*")) - keys
    assert not added, f"{len(added)} keys added by 800 requests"
    # The same page spelt otherwise is the same copy, naming itself the one way.
    assert page(client, "/rankings?dir=asc&sort=points") == page(client, "/rankings?sort=points&dir=asc")
    assert set(kept.keys("scorekeeper:*")) == keys
