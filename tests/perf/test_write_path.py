"""Recording a deal through the API: a fixed handful of statements, and safe when writes cross.

The write reads the game at most once (the edit-key check reads what the write needs; a
deal on a game this worker wrote last starts from its kept copy unread), works out the
change, then claims the game with a compare-and-swap on its version and writes the deal
and the figures that differ.  If another write lands between the read and the claim, the
write locks the game, reads it again and starts over.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from perf_support import DEALS, PLAYERS, StatementCounter, new_game

from scorekeeper import services
from scorekeeper.errors import ConflictError
from scorekeeper.extensions import db
from tests.stats.checks import assert_figures_match

#: The edit-key check that reads the game, the claim, the deal, and its figures (3 tables, the
#: players' kept totals in two statements: all time and the year, then the window of 30 days).
WRITE_BUDGET = 7


def post_deal(client, game_id: str, key: str, number: int):  # type: ignore[no-untyped-def]
    contract, tricks = DEALS[number - 1]
    body = {"number": number, "contract": contract, "tricks": dict(zip(PLAYERS, tricks, strict=True))}
    return client.post(
        f"/api/v1/games/{game_id}/deals",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def test_recording_a_deal_sends_as_many_statements_late_in_a_game_as_early(app: Flask) -> None:
    counter = StatementCounter(app)
    # These players have scored a deal before, as at any table after its first evening: their
    # all-time totals exist.  (A player's first scored deal also creates their totals row.)
    new_game(app, 1)
    counts = {}
    for number in (1, 9, 18):
        game_id, key = new_game(app, number - 1)
        with counter.counting() as statements:
            response = post_deal(app.test_client(), game_id, key, number)
        assert response.status_code == 201, response.get_data(as_text=True)
        counts[number] = list(statements)
    sizes = {number: len(statements) for number, statements in counts.items()}
    # Deal 18 also finishes the game; that changes no statement, only the figures they carry.
    assert len(set(sizes.values())) == 1, counts
    assert sizes[1] <= WRITE_BUDGET, counts[1]


def test_a_write_that_lost_the_race_starts_over_from_the_new_state(app: Flask) -> None:
    game_id, key = new_game(app, 2)
    with app.app_context():
        seen = services.authorised_snapshot(game_id, key)  # phone A reads: deal 3 is next
        services.record_deal(game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]))  # phone B
        with pytest.raises(ConflictError) as refused:
            services.record_deal(game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]), seen=seen)
        assert refused.value.code == "wrong_deal_number"
        # A correction worked out from the old snapshot is applied to the game as it is now.
        written = services.update_deal(game_id, 1, tricks=[13, 0, 0], seen=seen)
        assert written.state.completed_deals == 3
        assert written.deal is not None and written.deal.tricks == (13, 0, 0)
        assert_figures_match(game_id)
        db.session.remove()


def test_a_deal_worked_out_on_a_read_that_another_write_overtook_is_made_on_the_new_state(app: Flask) -> None:
    """The claim fails while the deal itself could go in (on PostgreSQL in the same statement):
    all of it is undone, and the deal is worked out again on the game as the other write left it."""
    game_id, key = new_game(app, 2)
    with app.app_context():
        seen = services.authorised_snapshot(game_id, key)  # phone A reads: deal 3 is next
        services.update_deal(game_id, 1, tricks=[13, 0, 0])  # phone B corrects deal 1
        written = services.record_deal(
            game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]), seen=seen
        )
        assert written.deal is not None and written.deal.number == 3
        assert written.state.deals[0].tricks == (13, 0, 0)  # B's correction stands under A's deal
        game = services.get_game(game_id)
        assert game.version == seen.version + 2
        assert [deal.number for deal in game.state.deals] == [1, 2, 3]
        assert game.state.totals == written.state.totals
        assert_figures_match(game_id)
        db.session.remove()


def test_a_stale_snapshot_with_if_match_is_refused(app: Flask) -> None:
    game_id, key = new_game(app, 2)
    with app.app_context():
        seen = services.authorised_snapshot(game_id, key)
        services.undo_deal(game_id, 2)
        with pytest.raises(ConflictError) as refused:
            services.update_deal(game_id, 1, tricks=[13, 0, 0], expected_version=seen.version, seen=seen)
        assert refused.value.code == "stale"
        assert services.get_game(game_id).state.completed_deals == 1
        db.session.remove()


def by_name(tricks: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(PLAYERS, tricks, strict=True))


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/deals", {"number": 3, "contract": DEALS[2][0], "tricks": by_name(DEALS[2][1])}),
        ("PUT", "/deals/2", {"tricks": by_name((13, 0, 0))}),
        (
            "PATCH",
            "/deals",
            {"deals": [{"number": 1, "tricks": by_name((5, 4, 4))}, {"number": 2, "contract": "spades"}]},
        ),
    ],
)
def test_a_dry_run_reads_the_game_once_and_writes_nothing(
    app: Flask, method: str, path: str, body: object
) -> None:
    counter = StatementCounter(app)
    game_id, key = new_game(app, 2)
    with counter.counting() as statements:
        response = app.test_client().open(
            f"/api/v1/games/{game_id}{path}?dry_run=true",
            method=method,
            data=json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert len(statements) == 1, statements  # the edit-key check's snapshot, which the preview reuses
    assert statements[0].startswith("SELECT"), statements


def test_correcting_many_deals_at_once_costs_no_more_statements_than_one(app: Flask) -> None:
    counter = StatementCounter(app)
    new_game(app, 1)  # these players have scored before (see above)
    game_id, key = new_game(app, 9)
    # Deals 1-5 with other tricks: every deal's figures change, in one statement per table.
    body = {"deals": [{"number": n, "tricks": by_name(DEALS[n % 5][1])} for n in range(1, 6)]}
    with counter.counting() as statements:
        response = app.test_client().patch(
            f"/api/v1/games/{game_id}/deals",
            data=json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert len(statements) <= WRITE_BUDGET, statements
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()


@contextlib.contextmanager
def driver_commands(sent: list[bytes]) -> Iterator[None]:
    """The commands psycopg sends on its own (BEGIN, COMMIT, ROLLBACK) while in the block."""
    from psycopg._connection_base import BaseConnection

    def exec_command(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(bytes(command))
        return usual(self, command, *args, **kwargs)

    usual = BaseConnection._exec_command
    BaseConnection._exec_command = exec_command  # type: ignore[method-assign]
    try:
        yield
    finally:
        BaseConnection._exec_command = usual  # type: ignore[method-assign]


def test_a_deal_costs_one_round_trip_on_postgresql(app: Flask, backend: str) -> None:
    """The claim, the deal and its figures in three tables: one statement (CTEs).

    This worker's last write left the game: the deal is worked out from that copy unread, and
    the claim takes the game only if its row is still the copy's.  Each statement is a round
    trip through the driver, the larger part of a deal's cost there (bench/README.md); SQLite
    runs in-process, where the six stay apart.
    """
    counter = StatementCounter(app, whole=True)
    new_game(app, 1)  # the players' totals exist, as at any table after its first evening
    game_id, key = new_game(app, 4)
    commands: list[bytes] = []
    with counter.counting() as statements, driver_commands(commands):
        response = post_deal(app.test_client(), game_id, key, 5)
    assert response.status_code == 201, response.get_data(as_text=True)
    if backend == "postgresql":
        assert len(statements) == 1, statements
        written = statements[0]
        assert written.startswith("WITH step_0 AS (UPDATE games SET version"), written
        for table in (
            "INSERT INTO deals ",
            "INSERT INTO deal_results",
            "UPDATE game_results",
            "INSERT INTO player_totals",
        ):
            assert table in written, written
        # The statement is its own transaction: no BEGIN and COMMIT round trips around it.
        assert commands == [], commands
    else:
        assert len(statements) == WRITE_BUDGET - 1, statements
        assert statements[0].startswith("UPDATE games SET version"), statements
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()


def _kept_totals_set(statements: list[str]) -> str:
    """The SET of the upsert that moves the players' kept totals, among ``statements``."""
    written = next(statement for statement in statements if "INSERT INTO player_totals" in statement)
    upsert = written[written.index("INSERT INTO player_totals") :]
    return upsert[upsert.index("DO UPDATE SET") :].split("RETURNING")[0]


@pytest.mark.parametrize(("number", "sets_game_totals"), [(5, False), (18, True)])
def test_a_deal_sets_the_totals_a_finished_game_moves_only_when_it_finishes_the_game(
    app: Flask, number: int, sets_game_totals: bool
) -> None:
    """The rankings' indexes hold games, wins, points and the best game, which only a finished
    game moves.  A deal before the last sets only the deal columns, so the database rewrites no
    index entry (SQLite rewrites those of every column an UPDATE sets, changed or not)."""
    counter = StatementCounter(app, whole=True)
    game_id, key = new_game(app, number - 1)
    with counter.counting() as statements:
        response = post_deal(app.test_client(), game_id, key, number)
    assert response.status_code == 201, response.get_data(as_text=True)
    assignments = _kept_totals_set(list(statements))
    assert {column: bool(re.search(rf"\b{column} = ", assignments)) for column in ("deals", "deal_wins")} == {
        "deals": True,
        "deal_wins": True,
    }, assignments
    assert {
        column: bool(re.search(rf"\b{column} = ", assignments))
        for column in ("games", "wins", "points", "best")
    } == {column: sets_game_totals for column in ("games", "wins", "points", "best")}, assignments
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()
