"""A poll the app answered 304 is answered the same without it while the game's version stands
(``scorekeeper.polls``); a new version, a phone's pencil due a check, an old key cookie: the app."""

from __future__ import annotations

import functools
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import polls, serving
from tests.perf.perf_support import new_game, record, with_pencil

POLL = {"X-Scorekeeper-Poll": "1", "Accept-Encoding": "gzip"}


class Counted:
    """The game page's view, counting the requests that reach it."""

    def __init__(self, app: Flask) -> None:
        view = app.view_functions["web.game"]
        self.calls = 0

        @functools.wraps(view)
        def counted(**kwargs: Any) -> Any:
            self.calls += 1
            return view(**kwargs)

        app.view_functions["web.game"] = counted


def poll(client: FlaskClient, game_id: str, tag: str) -> Any:
    return client.get(f"/games/{game_id}", headers={**POLL, "If-None-Match": tag})


def test_a_poll_answered_304_is_answered_again_without_the_app(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(app, 2)
    tag = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    view = Counted(app)
    first = poll(client, game_id, tag)
    assert (first.status_code, view.calls) == (304, 1)
    again = [poll(client, game_id, tag) for _ in range(3)]
    assert [answer.status_code for answer in again] == [304, 304, 304]
    assert view.calls == 1  # the app answered the first alone
    assert [sorted(answer.headers.items()) for answer in again] == [sorted(first.headers.items())] * 3
    assert again[0].headers["ETag"] == tag and again[0].headers["Scorekeeper-Access"] == "watch"

    record(app, game_id, 3)  # a new version: the app draws the page, with the new tag
    moved = poll(client, game_id, tag)
    assert (moved.status_code, view.calls) == (200, 2)
    assert moved.headers["ETag"].startswith('"v') and moved.headers["ETag"] != tag


def test_another_language_or_encoding_is_asked_of_the_app(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(app, 1)
    tag = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    view = Counted(app)
    assert poll(client, game_id, tag).status_code == 304
    polish = client.get(f"/games/{game_id}", headers={**POLL, "If-None-Match": tag, "Accept-Language": "pl"})
    assert polish.status_code == 200 and polish.headers["ETag"].endswith('-pl:gzip"')
    plain = client.get(f"/games/{game_id}", headers={"X-Scorekeeper-Poll": "1", "If-None-Match": tag})
    assert plain.status_code == 200 and ":gzip" not in plain.headers["ETag"]
    assert view.calls == 3


def test_a_phone_with_a_device_cookie_has_its_pencil_checked_by_the_app(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, key = new_game(app, 1)
    watcher = app.test_client()
    scorer = with_pencil(client, game_id, key)
    tags = [
        phone.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
        for phone in (watcher, scorer)
    ]
    assert "-r-" in tags[0] and "-e-" in tags[1]  # the scorer's own page
    monkeypatch.setattr(polls, "PENCIL_SECONDS", 0.0)  # a pencil's answer is kept no time at all
    view = Counted(app)
    assert [poll(watcher, game_id, tags[0]).status_code for _ in range(3)] == [304, 304, 304]
    assert view.calls == 1  # no pencil to check: kept
    assert [poll(scorer, game_id, tags[1]).status_code for _ in range(3)] == [304, 304, 304]
    assert view.calls == 4  # each asked of the app


def test_what_the_app_must_read_itself_is_never_kept() -> None:
    base = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/games/abc123",
        "HTTP_IF_NONE_MATCH": '"v3-r-en"',
        "HTTP_X_SCOREKEEPER_POLL": "1",
    }
    assert polls.Polls.key(base) is not None
    assert polls.Polls.key(base | {"HTTP_COOKIE": "sk_edit_abc123=key"}) is None  # taken over by the app
    assert polls.Polls.key(base | {"REQUEST_METHOD": "HEAD"}) is None
    assert polls.Polls.key(base | {"QUERY_STRING": "x=1"}) is None
    assert polls.Polls.key(base | {"PATH_INFO": "/games/abc123/scoresheet"}) is None
    assert polls.Polls.key({k: v for k, v in base.items() if k != "HTTP_X_SCOREKEEPER_POLL"}) is None
    assert polls.Polls.key({k: v for k, v in base.items() if k != "HTTP_IF_NONE_MATCH"}) is None


def test_a_poll_that_waited_behind_the_proxy_is_told_to_come_back_later(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(app, 1)
    tag = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    view = Counted(app)
    took = time.time()
    late = {"X-Request-Start": f"t={took - 5:.3f}"}  # nginx took it 5 s ago
    shed = client.get(f"/games/{game_id}", headers={**POLL, **late, "If-None-Match": tag})
    assert (shed.status_code, view.calls) == (503, 0)
    spread = range(serving.RETRY_AFTER - serving.RETRY_SPREAD, serving.RETRY_AFTER + serving.RETRY_SPREAD + 1)
    assert int(shed.headers["Retry-After"]) in spread
    in_millis = {"X-Request-Start": str(int((took - 5) * 1000))}
    assert client.get(f"/games/{game_id}", headers={**POLL, **in_millis}).status_code == 503
    page = client.get(f"/games/{game_id}", headers=late)  # a page opened afresh is never turned away
    fresh = client.get(f"/games/{game_id}", headers={**POLL, "X-Request-Start": f"t={time.time():.3f}"})
    assert (page.status_code, fresh.status_code, view.calls) == (200, 200, 2)
