"""What the ratings cost the writes, in SQL statements: nothing for a deal of a game in progress; the
write that finishes a game a fixed few (take the rating's row, read the players' ratings, write them);
a correction of a finished game nothing while its places stand, else a replay of a fixed number of
statements however many games the rating holds."""

from __future__ import annotations

import pytest
from flask import Flask
from perf_support import DEALS, PLAYERS, StatementCounter, new_game

from scorekeeper import services
from scorekeeper.extensions import db

#: The statements of the write that finishes a game that the rating adds, and those of a replay.
FINISHING, REPLAY = 3, 5
#: The whole write that finishes a game (a deal's statements, its game's ``finished`` and finish time
#: in one, the rating's three) and a correction that moves a finished game's places (a deal's
#: statements, the players' totals summed again, the replay's five): the statements of a mid-game deal
#: stay as they were (tests/perf/test_write_budget.py), these two carry the ratings.
FINISHING_WRITE, MOVING_CORRECTION = 12, 17


def rating_statements(statements: list[str]) -> list[str]:
    """The statements of the ratings: on their tables, and the replay's read of the games in order."""
    return [
        s
        for s in statements
        if "ratings" in s
        or "rated_games" in s
        or (s.startswith("SELECT") and "ORDER BY games.finished_at" in s)
    ]


def written(app: Flask, counter: StatementCounter, write: object) -> list[str]:
    with app.app_context(), counter.counting() as statements:
        write()  # type: ignore[operator]
        db.session.remove()
    return list(statements)


def finish(game_id: str, players: list[str] = PLAYERS) -> None:
    contract, tricks = DEALS[17]
    services.record_deal(
        game_id, number=18, contract=contract, tricks=dict(zip(players, tricks, strict=True))
    )


@pytest.mark.every_database
def test_a_deal_in_progress_touches_no_rating(app: Flask) -> None:
    game_id, _key = new_game(app, 16)
    counter = StatementCounter(app, whole=True)
    contract, tricks = DEALS[16]
    statements = written(
        app,
        counter,
        lambda: services.record_deal(
            game_id, number=17, contract=contract, tricks=dict(zip(PLAYERS, tricks, strict=True))
        ),
    )
    assert rating_statements(statements) == []


@pytest.mark.every_database
def test_finishing_a_game_rates_it_in_a_few_statements(app: Flask) -> None:
    new_game(app, 18)  # a first game: the rating's row is there already
    game_id, _key = new_game(app, 17)
    counter = StatementCounter(app, whole=True)
    statements = written(app, counter, lambda: finish(game_id))
    assert len(rating_statements(statements)) == FINISHING, statements
    assert len(statements) <= FINISHING_WRITE, "\n".join(statements)


@pytest.mark.every_database
@pytest.mark.parametrize("games", [1, 4])
def test_a_correction_that_moves_a_finished_games_places_replays_in_fixed_statements(
    app: Flask, games: int
) -> None:
    first, _key = new_game(app, 18)
    for _ in range(games - 1):
        new_game(app, 18)
    counter = StatementCounter(app, whole=True)
    moved = written(
        app, counter, lambda: services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})
    )
    assert len(rating_statements(moved)) == REPLAY, moved
    assert len(moved) <= MOVING_CORRECTION, "\n".join(moved)
    # Deal 18 as (3, 5, 5) leaves Cid and Ann tied first again, as DEALS did: places as before it.
    kept = written(
        app, counter, lambda: services.update_deal(first, 18, tricks={"Cid": 3, "Ann": 5, "Bob": 5})
    )
    back = written(
        app, counter, lambda: services.update_deal(first, 18, tricks={"Cid": 3, "Ann": 5, "Bob": 5})
    )
    assert len(rating_statements(kept)) == REPLAY  # from Bob first back to the tie: moved
    assert rating_statements(back) == []  # the same places: nothing to rate
