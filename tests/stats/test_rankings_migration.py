"""Migration 0012 ranks each (ruleset, preset, number of players) apart, and keeps the sums of each
year in ``player_year_totals``: the Misère's two scorings are two rankings."""

from __future__ import annotations

import json
import random
from datetime import date

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import select, text

from scorekeeper import stats
from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.rules import DealRecord, GameSetup, GameState, get_ruleset
from scorekeeper.stored_figures import GameResult
from tests.helpers import MIZERKA_DEALS
from tests.stats.checks import assert_totals_match, replayed, stored
from tests.stats.random_games import random_game
from tests.stats.test_stats_migration import DEAL, GAME, PLAYERS, SEATS

NAMES = ("Ann", "Bob", "Cid", "Dan")
AT = "2026-02-07 20:00:00"
ON = date(2026, 3, 1)


def misere(rng: random.Random, scoring: str | None) -> tuple[GameSetup, GameState]:
    """A finished Misère game of random legal deals, scored by ``scoring`` (None: not said, as
    games stored before the option existed)."""
    setup, played = random_game(rng, "misere", NAMES)
    if scoring is not None:
        setup = GameSetup(setup.ruleset, setup.players, setup.first_dealer, (("scoring", scoring),))
    records = [DealRecord(deal.contract, deal.bids, deal.tricks) for deal in played.deals]
    return setup, get_ruleset("misere").replay(setup, records)


def store_as_0001(game_id: str, setup: GameSetup, state: GameState) -> None:
    """One game as schema 0001 knew it (plain SQL), its players the first of ``NAMES``."""
    run = db.session.execute
    values = {"ruleset": setup.ruleset, "options": json.dumps(dict(setup.options))}
    run(text(GAME), {"id": game_id, "at": AT, **values, "first_dealer": setup.first_dealer})
    for position in range(len(setup.players)):
        run(text(SEATS), {"game": game_id, "position": position, "player": position + 1})
    for deal in state.deals:
        facts = {
            "contract": deal.contract if setup.ruleset == "mizerka" else None,
            "bids": None if deal.bids is None else json.dumps(list(deal.bids)),
            "tricks": json.dumps(list(deal.tricks or ())),
        }
        run(text(DEAL), {"game": game_id, "number": deal.number, "at": AT, **facts})


def ranked(key: str, period: str = "all") -> dict[str, tuple[int, int, int, int]]:
    """A ranking's rows: name -> (games, wins, deals, points)."""
    table = stats.rankings(stats.Filters(key, period), ON)
    return {row.name: (row.games, row.wins, row.deals, row.points) for row in table.rows}


def expected(*states: GameState) -> dict[str, tuple[int, int, int, int]]:
    """What a ranking of these finished games shows, from the engine's replay."""
    sums = {name: [0, 0, 0, 0] for name in NAMES[: len(states[0].setup.players)]}
    for state in states:
        for standing in state.standings:
            name = state.setup.players[standing.seat]
            figures = sums[name]
            figures[0] += 1
            figures[1] += standing.rank == 1
            figures[2] += state.completed_deals
            figures[3] += state.totals[standing.seat]
    return {name: (games, wins, deals, points) for name, (games, wins, deals, points) in sums.items()}


def test_0012_ranks_the_misere_scorings_apart(old_app: Flask) -> None:
    rng = random.Random(12)
    mizerka = get_ruleset("mizerka")
    mizerka_setup = GameSetup("mizerka", NAMES[:3], 2)
    mizerka_deals = [DealRecord(deal.contract, tricks=deal.tricks) for deal in MIZERKA_DEALS]
    games = {
        "Standard0001": misere(rng, None),
        "Standard0002": misere(rng, "standard"),
        "Variant00001": misere(rng, "variant"),
        "Mizerka00001": (mizerka_setup, mizerka.replay(mizerka_setup, mizerka_deals)),
    }
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        for player, name in enumerate(NAMES, start=1):
            db.session.execute(text(PLAYERS), {"id": player, "name": name, "key": name.lower(), "at": AT})
        for game_id, (setup, state) in games.items():
            store_as_0001(game_id, setup, state)
        db.session.commit()
        upgrade(directory=migrations_dir(), revision="0011")  # figures by ruleset (0002), totals (0005)
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        assert dict(db.session.execute(select(GameResult.game_id, GameResult.ranking).distinct()).all()) == {
            "Standard0001": "misere/standard/4",
            "Standard0002": "misere/standard/4",
            "Variant00001": "misere/variant/4",
            "Mizerka00001": "mizerka/standard/3",
        }
        for game_id in games:
            assert stored(game_id) == replayed(game_id), game_id
        assert_totals_match()
        standard = expected(games["Standard0001"][1], games["Standard0002"][1])
        variant = expected(games["Variant00001"][1])
        assert {figures[0] for figures in standard.values()} == {2}
        for period in ("all", "year", "30d"):
            assert ranked("misere/standard/4", period) == standard
            assert ranked("misere/variant/4", period) == variant
        # MIZERKA_DEALS: Ann and Bob end on +3 and share the win, Cid on -6.
        assert ranked("mizerka/standard/3") == {
            "Ann": (1, 1, 18, 3),
            "Bob": (1, 1, 18, 3),
            "Cid": (1, 0, 18, -6),
        }
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0011")
        # One ranking a ruleset again, all time under the year 0 beside the year played.
        rows = db.session.execute(
            text("SELECT ruleset, year, games, points FROM player_totals WHERE player_id = 1")
        ).all()
        both = standard["Ann"][3] + variant["Ann"][3]
        assert sorted(tuple(row) for row in rows) == [
            ("misere", 0, 3, both),
            ("misere", 2026, 3, both),
            ("mizerka", 0, 1, 3),
            ("mizerka", 2026, 1, 3),
        ]
        db.session.remove()
