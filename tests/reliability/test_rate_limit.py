"""Game creation through the API is rate-limited per client address; over the limit: 429 rate_limited."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from limits import parse_many

from scorekeeper.config import GAME_CREATE_RATE_LIMIT, REDIS_OPTIONS, rate_limit_defaults
from scorekeeper.extensions import db
from tests.conftest import make_test_app
from tests.helpers import csrf_from, game_count, page
from tests.perf.perf_support import new_game
from tests.reliability.conftest import LiveServer, report

PLAYERS = ["Ann", "Bob", "Cid"]
GAME = {"players": PLAYERS, "first_dealer": "Ann"}


def limited_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest, **config: Any) -> Flask:
    settings = {"RATELIMIT_ENABLED": True, "GAME_CREATE_RATE_LIMIT": "3 per minute", **config}
    return make_test_app(backend, tmp_path, request, **settings)


@pytest.fixture
def limited(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Flask]]:
    apps: list[Flask] = []

    def build(**config: Any) -> Flask:
        apps.append(limited_app(backend, tmp_path, request, **config))
        return apps[-1]

    yield build
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def create(client: FlaskClient, address: str = "192.0.2.10", forwarded_for: str | None = None) -> Any:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return client.post("/api/v1/games", json=GAME, headers=headers, environ_base={"REMOTE_ADDR": address})


def assert_rate_limited(response: Any) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert set(error) == {"code", "message", "field"}
    assert error["code"] == "rate_limited" and error["message"] and error["field"] is None
    assert int(response.headers["Retry-After"]) > 0


def test_over_the_limit_a_client_gets_429_and_nothing_is_created(limited: Callable[..., Flask]) -> None:
    app = limited()
    client = app.test_client()
    for _ in range(3):
        assert create(client).status_code == 201
    refused = create(client)
    assert_rate_limited(refused)
    assert game_count(app) == 3
    # Import is another way to create a game: same budget, refused before the body is even read.
    assert_rate_limited(
        client.post("/api/v1/games/import", json={}, environ_base={"REMOTE_ADDR": "192.0.2.10"})
    )
    # Another address has its own budget.
    assert create(client, address="192.0.2.11").status_code == 201


def _finished_export(app: Flask) -> dict[str, Any]:
    """A finished game's export, the game made by the services (outside any client's budget)."""
    game_id, _key = new_game(app, 18)
    exported = app.test_client().get(f"/api/v1/games/{game_id}/export")
    assert exported.status_code == 200
    data: dict[str, Any] = exported.get_json()
    return data


def _new_game_form(client: FlaskClient, names: list[str]) -> Any:
    data = {"csrf_token": csrf_from(page(client, "/games/new")), "first_dealer": "0"}
    data.update({f"players-{seat}": name for seat, name in enumerate(names)})
    return client.post("/games/new?game=mizerka", data=data)


def _import_form(client: FlaskClient, export: dict[str, Any] | None) -> Any:
    text = "" if export is None else json.dumps(export)
    data = {"csrf_token": csrf_from(page(client, "/games/import")), "text": text, "again": "1"}
    return client.post("/games/import", data=data)


def assert_page_rate_limited(response: Any, language: str) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)[:300]
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    assert int(response.headers["Retry-After"]) > 0


#: What the 429 page says, in each language (a word of it).
TOO_MANY = {"en": "Too many games", "pl": "zbyt wiele", "it": "troppe partite"}


@pytest.mark.parametrize("language", ["en", "pl", "it"])
def test_one_budget_for_every_way_to_create_a_game(limited: Callable[..., Flask], language: str) -> None:
    """API create and import, the new-game and import pages, rematch: counted together (issue 31, 6)."""
    app = limited(GAME_CREATE_RATE_LIMIT="5 per minute")
    export = _finished_export(app)
    client = app.test_client()
    client.get(f"/language/{language}?next=/")
    # One game by each of the five ways.
    assert client.post("/api/v1/games", json=GAME).status_code == 201
    assert client.post("/api/v1/games/import", json=export).status_code == 201
    assert _new_game_form(client, PLAYERS).status_code == 303
    imported = _import_form(client, export)  # this phone now holds the imported game's pencil
    assert imported.status_code == 303, imported.get_data(as_text=True)[:300]
    finished_id = imported.headers["Location"].rsplit("/", 1)[1]
    rematch_token = csrf_from(page(client, f"/games/{finished_id}"))
    rematch = client.post(f"/games/{finished_id}/rematch", data={"csrf_token": rematch_token})
    assert rematch.status_code == 303, rematch.get_data(as_text=True)[:300]
    assert game_count(app) == 1 + 5
    # Over the budget every way is refused, before the body is judged (these bodies are all bad).
    headers = {"Accept-Language": language}
    assert_rate_limited(client.post("/api/v1/games", json={"players": []}, headers=headers))
    refused = client.post("/api/v1/games/import", data="not json", headers=headers)
    assert_rate_limited(refused)
    assert TOO_MANY[language] in refused.get_json()["error"]["message"]
    for response in (
        _new_game_form(client, ["", "", ""]),
        _new_game_form(client, PLAYERS),
        _import_form(client, None),
        _import_form(client, export),
        client.post(f"/games/{finished_id}/rematch", data={"csrf_token": rematch_token}),
    ):
        assert_page_rate_limited(response, language)
        assert TOO_MANY[language] in response.get_data(as_text=True)
    assert game_count(app) == 1 + 5
    # The forms are still there to read; another client has its own budget.
    assert client.get("/games/new").status_code == 200
    assert client.get("/games/import").status_code == 200
    other = app.test_client()
    data = {"csrf_token": csrf_from(page(other, "/games/new")), "first_dealer": "0"}
    data.update({f"players-{seat}": name for seat, name in enumerate(PLAYERS)})
    answer = other.post("/games/new?game=mizerka", data=data, environ_base={"REMOTE_ADDR": "192.0.2.77"})
    assert answer.status_code == 303


def test_the_limit_is_only_on_creating_games(limited: Callable[..., Flask]) -> None:
    app = limited(GAME_CREATE_RATE_LIMIT="1 per minute")
    client = app.test_client()
    created = create(client).get_json()
    assert_rate_limited(create(client))
    game_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_key']}"}
    for number in (1, 2, 3):  # playing on, reading and the pages are not limited
        contract = ["hearts", "clubs", "mizerka"][number - 1]
        body = {"number": number, "contract": contract, "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}}
        recorded = client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=auth)
        assert recorded.status_code == 201, recorded.get_data(as_text=True)
        assert client.get(f"/api/v1/games/{game_id}").status_code == 200
        assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get("/api/v1/rulesets").status_code == 200


def test_a_forged_forwarded_for_does_not_dodge_the_limit(limited: Callable[..., Flask]) -> None:
    """Without a trusted proxy in front, X-Forwarded-For is the client's own say-so: ignored."""
    client = limited().test_client()
    for i in range(3):
        assert create(client, forwarded_for=f"203.0.113.{i}").status_code == 201
    assert_rate_limited(create(client, forwarded_for="203.0.113.99"))


def test_behind_a_trusted_proxy_each_client_has_its_own_budget(limited: Callable[..., Flask]) -> None:
    """SCOREKEEPER_PROXY_HOPS=1 (PROXY_HOPS): the address the proxy saw, not the proxy's own."""
    client = limited(PROXY_HOPS=1).test_client()
    proxy = "10.0.0.1"
    for _ in range(3):
        assert create(client, address=proxy, forwarded_for="198.51.100.1").status_code == 201
    assert_rate_limited(create(client, address=proxy, forwarded_for="198.51.100.1"))
    assert create(client, address=proxy, forwarded_for="198.51.100.2").status_code == 201


def test_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RATELIMIT_ENABLED", "RATELIMIT_STORAGE_URI", "GAME_CREATE_RATE_LIMIT", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    defaults = rate_limit_defaults()
    assert defaults["RATELIMIT_ENABLED"] is True
    assert defaults["RATELIMIT_STORAGE_URI"] == "memory://"
    assert defaults["GAME_CREATE_RATE_LIMIT"] == GAME_CREATE_RATE_LIMIT
    assert [str(limit) for limit in parse_many(GAME_CREATE_RATE_LIMIT)] == [
        "30 per 1 minute",
        "300 per 1 day",
    ]
    monkeypatch.setenv("RATELIMIT_ENABLED", "0")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "redis://cache:6379")
    monkeypatch.setenv("GAME_CREATE_RATE_LIMIT", "5 per hour")
    assert rate_limit_defaults() == {
        "RATELIMIT_ENABLED": False,
        "RATELIMIT_STORAGE_URI": "redis://cache:6379",
        "RATELIMIT_STORAGE_OPTIONS": REDIS_OPTIONS,
        # Redis unreachable: counted in memory, per process, until it answers (README).
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "RATELIMIT_SWALLOW_ERRORS": True,
        "RATELIMIT_HEADERS_ENABLED": True,
        "GAME_CREATE_RATE_LIMIT": "5 per hour",
    }


@pytest.mark.slow
def test_the_production_server_answers_429_over_the_limit(
    start_server: Callable[..., LiveServer], request: pytest.FixtureRequest
) -> None:
    """gunicorn with the limit from the environment (one worker: in memory, each worker counts alone)."""
    server = start_server(workers=1, GAME_CREATE_RATE_LIMIT="2 per minute", RATELIMIT_STORAGE_URI="memory://")
    answers = [server.api("POST", "/games", GAME) for _ in range(4)]
    assert [answer.status for answer in answers] == [201, 201, 429, 429]
    for answer in answers[2:]:
        assert answer.json["error"]["code"] == "rate_limited"
        assert int(answer.header("Retry-After")) > 0
    game_id = answers[0].json["id"]
    assert server.api("GET", f"/games/{game_id}").status == 200
    report(
        request, "rate limit 2 per minute on gunicorn: 4 tried, 2 created, 2 refused with 429 rate_limited"
    )


def test_every_spelling_of_one_address_shares_one_budget(limited: Callable[..., Flask]) -> None:
    app = limited()
    client = app.test_client()
    # One IPv6 client, spelt six ways: three games between them, then 429.
    spellings = [
        "2001:db8::1",
        "2001:DB8::1",
        "2001:0db8:0000:0000:0000:0000:0000:0001",
        "2001:db8:0:0:0:0:0:1",
        "2001:db8::0:1",
        "2001:0DB8::0001",
    ]
    assert [create(client, address=spelt).status_code for spelt in spellings] == [201] * 3 + [429] * 3
    # One IPv4 client, plain and mapped into IPv6.
    mapped = ["192.0.2.40", "::ffff:192.0.2.40", "::FFFF:c000:228", "0:0:0:0:0:ffff:192.0.2.40"]
    assert [create(client, address=spelt).status_code for spelt in mapped] == [201] * 3 + [429]
    assert game_count(app) == 6


def test_an_ipv6_client_is_counted_by_its_64_block(limited: Callable[..., Flask]) -> None:
    app = limited()
    client = app.test_client()
    block = [f"2001:db8:1:2:{n:x}::{n:x}" for n in range(1, 121)]
    answers = Counter(create(client, address=address).status_code for address in block)
    assert answers == {201: 3, 429: 117}
    # The next /64 is someone else.
    assert create(client, address="2001:db8:1:3::1").status_code == 201
    assert game_count(app) == 4
