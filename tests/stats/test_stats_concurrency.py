"""Two games that share a player, written at the same moment: the kept totals still add up."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Flask

from scorekeeper import services, stats
from scorekeeper.extensions import db
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
