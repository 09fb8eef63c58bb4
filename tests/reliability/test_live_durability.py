"""What a server answered 201 for is on disk: SIGKILL to all of gunicorn, restart, and it is there.

The whole process group (master and every worker) is killed at once, with no
chance to flush or close anything, the way a crash or an OOM kill would end it.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.reliability.conftest import Call, LiveDatabase, LiveServer, report

pytestmark = pytest.mark.slow

PLAYERS = ["Ann", "Bob", "Cid"]
# Legal deals for Ann, Bob, Cid with Ann dealing first (choosers Bob, Cid, Ann, ...).
DEALS = [
    ("hearts", {"Ann": 1, "Bob": 7, "Cid": 5}),
    ("clubs", {"Ann": 2, "Bob": 6, "Cid": 5}),
    ("mizerka", {"Ann": 4, "Bob": 9, "Cid": 0}),
    ("diamonds", {"Ann": 3, "Bob": 3, "Cid": 7}),
    ("no-trumps", {"Ann": 0, "Bob": 9, "Cid": 4}),
    ("spades", {"Ann": 5, "Bob": 2, "Cid": 6}),
    ("clubs", {"Ann": 10, "Bob": 3, "Cid": 0}),
    ("hearts", {"Ann": 1, "Bob": 7, "Cid": 5}),
    ("spades", {"Ann": 3, "Bob": 1, "Cid": 9}),
    ("mizerka", {"Ann": 6, "Bob": 6, "Cid": 1}),
    ("diamonds", {"Ann": 2, "Bob": 8, "Cid": 3}),
    ("no-trumps", {"Ann": 6, "Bob": 0, "Cid": 7}),
]


KILL_DURING = 6  # the deal whose request is in flight when the server is killed


def new_game(server: LiveServer) -> tuple[str, str]:
    answer = server.api("POST", "/games", {"players": PLAYERS, "first_dealer": "Ann"})
    assert answer.status == 201, answer.text
    return answer.json["id"], answer.json["edit_key"]


def deal_body(number: int) -> dict[str, Any]:
    contract, tricks = DEALS[number - 1]
    return {"number": number, "contract": contract, "tricks": tricks}


def test_a_deal_acknowledged_just_before_sigkill_is_there_after_restart(
    start_server: Callable[..., LiveServer], live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    server = start_server(workers=2)
    game_id, key = new_game(server)
    answer = server.api("POST", f"/games/{game_id}/deals", deal_body(1), key=key)
    server.kill()  # the moment the 201 is read: no graceful shutdown, nothing flushed by the app
    assert answer.status == 201, answer.text
    acknowledged = answer.json

    restarted = start_server(workers=2)
    state = restarted.api("GET", f"/games/{game_id}")
    assert state.status == 200, state.text
    (deal,) = state.json["deals"]
    assert deal == acknowledged, "the stored deal differs from the one acknowledged"
    assert state.json["totals"] == acknowledged["totals"]
    # The database is writable again: no lock, journal or half transaction left behind.
    answer = restarted.api("POST", f"/games/{game_id}/deals", deal_body(2), key=key)
    assert answer.status == 201, answer.text
    rows = live_database.rows("SELECT number FROM deals WHERE game_id = :game ORDER BY number", game=game_id)
    assert rows == [(1,), (2,)]
    report(request, "SIGKILL right after a 201: 1 acknowledged, 1 found after restart, 0 lost")


def test_sigkill_in_the_middle_of_a_stream_of_deals_loses_nothing_acknowledged(
    start_server: Callable[..., LiveServer], live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """A scorer records deal after deal; the server dies while the next one is on its way.

    Every deal answered 201 must survive; the one in flight is either wholly there or wholly not.
    """
    server = start_server(workers=2)
    game_id, key = new_game(server)
    acknowledged: list[dict[str, Any]] = []
    deal_sent = threading.Event()
    stopped: list[BaseException] = []
    path = f"/api/v1/games/{game_id}/deals"

    def scorer() -> None:
        try:
            for number in range(1, len(DEALS) + 1):
                body, headers = Call(
                    "POST", path, deal_body(number), {"Authorization": f"Bearer {key}"}
                ).encoded()
                connection = server.connection()
                try:
                    connection.request("POST", path, body=body, headers=headers)
                    if number == KILL_DURING:
                        deal_sent.set()  # the whole request is on its way: now pull the plug
                    response = connection.getresponse()
                    answer = response.read()
                finally:
                    connection.close()
                assert response.status == 201, answer
                acknowledged.append(json.loads(answer))
        except (OSError, http.client.HTTPException, AssertionError) as error:  # the server vanished
            stopped.append(error)
        finally:
            deal_sent.set()

    thread = threading.Thread(target=scorer, daemon=True)
    thread.start()
    assert deal_sent.wait(timeout=25)
    server.kill()
    thread.join(timeout=25)
    assert not thread.is_alive()
    assert stopped, "the scorer did not notice the server die"
    assert len(acknowledged) >= KILL_DURING - 1

    restarted = start_server(workers=2)
    state = restarted.api("GET", f"/games/{game_id}")
    assert state.status == 200, state.text
    stored = state.json["deals"]
    assert stored[: len(acknowledged)] == acknowledged, "an acknowledged deal was lost or changed"
    in_flight = stored[len(acknowledged) :]
    assert len(in_flight) <= 1
    for deal in in_flight:  # committed, but the answer never reached the scorer
        body = deal_body(deal["number"])
        assert (deal["contract"], deal["tricks"]) == (body["contract"], body["tricks"])
    rows = live_database.rows("SELECT number FROM deals WHERE game_id = :game ORDER BY number", game=game_id)
    assert [row[0] for row in rows] == [deal["number"] for deal in stored]
    report(
        request,
        f"SIGKILL during a stream: {len(acknowledged)} acknowledged, {len(stored)} found after restart "
        f"({len(in_flight)} committed in flight), 0 lost",
    )
