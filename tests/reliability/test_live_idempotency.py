"""One change sent by many clients at once with one Idempotency-Key, against a real gunicorn server.

Two tabs of one phone (or a tab and its Background Sync) sending the same queue send the same
keyed request at the same moment.  Exactly one of them applies it; every other answer is that
one's answer again (``Idempotent-Replayed: true``) once it committed, never a refusal that would
tell the phone its change was not taken, and never a 500.  A transient ``409 conflict`` (a lock
not granted in time on a loaded machine) is allowed: sent again, it too gets the first answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.reliability.conftest import Answer, Call, LiveDatabase, LiveServer, race, report
from tests.reliability.test_live_concurrency import (
    assert_replays,
    game_state,
    new_game,
    no_server_errors,
    play_deals,
    tricks_of,
)

pytestmark = pytest.mark.slow

CLIENTS = 20


def settled(server: LiveServer, call: Call, answers: list[Answer]) -> list[Answer]:
    """``answers``, each transient conflict sent again (as the phone's queue does) until it is not."""
    result = []
    for answer in answers:
        for _ in range(5):
            if answer.status != 409 or answer.json["error"]["code"] != "conflict":
                break
            answer = server.request(call.method, call.path, call.body, call.headers)
        result.append(answer)
    return result


def assert_applied_once(answers: list[Answer], status: int) -> Answer:
    """Every answer is the same ``status`` and body, and exactly one is not a replay; returns it."""
    no_server_errors(answers)
    assert {answer.status for answer in answers} == {status}, [(a.status, a.text[:200]) for a in answers]
    assert len({answer.body for answer in answers}) == 1
    made = [answer for answer in answers if answer.header("Idempotent-Replayed") != "true"]
    assert len(made) == 1, [answer.header("Idempotent-Replayed") for answer in answers]
    return made[0]


def test_one_keyed_change_sent_by_20_clients_at_once_is_applied_once(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    game_id, key = new_game(live_server)
    play_deals(live_server, game_id, key, 4)
    auth = {"Authorization": f"Bearer {key}"}
    version = live_server.api("GET", f"/games/{game_id}").header("ETag")
    following: dict[str, Any] = game_state(live_server, game_id)["next_deal"]
    body = {"number": 5, "contract": following["available_contracts"][0], "tricks": tricks_of(40)}
    # With If-Match too: the clients that lose the race find the key before the stale version.
    post = Call(
        "POST",
        f"/api/v1/games/{game_id}/deals",
        body,
        {**auth, "Idempotency-Key": "tab-deal-5", "If-Match": version},
    )
    made = assert_applied_once(settled(live_server, post, race(live_server, [post] * CLIENTS)), 201)
    assert made.json["number"] == 5
    state = assert_replays(live_server, live_database, game_id)
    assert len(state["deals"]) == 5

    undo = Call("DELETE", f"/api/v1/games/{game_id}/deals/5", None, {**auth, "Idempotency-Key": "tab-undo-5"})
    assert_applied_once(settled(live_server, undo, race(live_server, [undo] * CLIENTS)), 204)
    assert len(assert_replays(live_server, live_database, game_id)["deals"]) == 4
    # The deal undone is not recorded again by its key, however late it comes.
    again = settled(live_server, post, [live_server.request(post.method, post.path, post.body, post.headers)])
    assert again[0].status == 201 and again[0].header("Idempotent-Replayed") == "true"
    assert again[0].body == made.body
    assert len(assert_replays(live_server, live_database, game_id)["deals"]) == 4
    rows = live_database.rows(
        "SELECT key FROM idempotency_keys WHERE game_id = :game ORDER BY key", game=game_id
    )
    assert [row[0] for row in rows] == ["tab-deal-5", "tab-undo-5"]
    report(request, f"one key x{CLIENTS} clients, POST then DELETE: each applied once, the rest replayed")
