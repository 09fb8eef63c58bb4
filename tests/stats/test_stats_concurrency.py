"""Two games that share a player, written at the same moment: the kept totals still add up."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

from flask import Flask

from scorekeeper import services, stats
from scorekeeper.extensions import db
from scorekeeper.models import today
from tests.helpers import MIZERKA_DEALS
from tests.stats.checks import assert_totals_match


def play_each(play: Callable[[str], None], games: list[str]) -> None:
    """``play`` for every game at once, each in a thread of its own; back when all are done."""
    threads = [threading.Thread(target=play, args=(game_id,)) for game_id in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


def test_simultaneous_writes_to_games_sharing_a_player(app: Flask) -> None:
    with app.app_context():
        games = [
            services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Cid")[0].id,
            services.create_game("mizerka", ["Ann", "Dan", "Eve"], "Eve")[0].id,
        ]
        db.session.remove()
    rounds = 6
    barrier = threading.Barrier(len(games))
    failures: list[BaseException] = []

    def play(game_id: str) -> None:
        try:
            with app.app_context():
                for deal in MIZERKA_DEALS[:rounds]:
                    barrier.wait(timeout=30)  # both games write Ann's totals at once
                    services.record_deal(
                        game_id, number=deal.number, contract=deal.contract, tricks=list(deal.tricks)
                    )
                db.session.remove()
        except BaseException as error:
            failures.append(error)
            barrier.abort()

    play_each(play, games)
    assert not failures, failures
    with app.app_context():
        assert_totals_match()
        people = {person.name: person for person in stats.people()}
        assert people["Ann"].games == 2
        db.session.remove()


def test_the_window_rolled_while_games_in_it_are_written(app: Flask) -> None:
    """The kept window of the last 30 days summed again, over and over, while deals go into a game
    in it and into one that each roll takes in or out: every write lands on one side of each
    roll, and the rows still add up (``keep_recent``)."""
    day = today()
    with app.app_context():
        games = [
            services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Cid")[0].id,
            # In the window of ``day``, not in that of the day after.
            services.create_game("mizerka", ["Ann", "Dan", "Eve"], "Eve", played_on=str(day - timedelta(29)))[
                0
            ].id,
        ]
        db.session.remove()
    playing = threading.Event()
    playing.set()
    failures: list[BaseException] = []
    rolls = 0

    def play(game_id: str) -> None:
        try:
            with app.app_context():
                for deal in MIZERKA_DEALS:
                    services.record_deal(
                        game_id, number=deal.number, contract=deal.contract, tricks=list(deal.tricks)
                    )
                db.session.remove()
        except BaseException as error:
            failures.append(error)

    def roll() -> None:
        nonlocal rolls
        try:
            with app.app_context():
                while playing.is_set():
                    stats.keep_recent(day + timedelta(rolls % 2))
                    rolls += 1
                db.session.remove()
        except BaseException as error:
            failures.append(error)

    roller = threading.Thread(target=roll)
    roller.start()
    play_each(play, games)
    playing.clear()
    roller.join(timeout=60)
    assert not failures, failures
    assert rolls > 2
    with app.app_context():
        assert_totals_match()
        db.session.remove()
