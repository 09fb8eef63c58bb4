"""Migration 0002 gives the games stored before it a date and their figures for rankings."""

from __future__ import annotations

import json
import random
from datetime import date
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import select, text

from scorekeeper import stats
from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules import DealRecord, get_ruleset
from scorekeeper.stored_figures import GameResult
from tests.helpers import MIZERKA_DEALS
from tests.stats.checks import assert_figures_match, assert_totals_match, replayed, stored
from tests.stats.random_games import random_game

PLAYERS = "INSERT INTO players (id, name, name_key, created_at) VALUES (:id, :name, :key, :at)"
GAMES = (
    "INSERT INTO games (id, ruleset, options, first_dealer, edit_key_hash, version, created_at, updated_at)"
    " VALUES (:id, 'mizerka', '{}', 2, 'x', 1, :at, :at)"
)
SEATS = "INSERT INTO seats (game_id, position, player_id) VALUES (:game, :position, :player)"
DEALS = (
    "INSERT INTO deals (game_id, number, contract, bids, tricks, created_at, updated_at)"
    " VALUES (:game, :number, :contract, NULL, :tricks, :at, :at)"
)


def store_as_0001(games: dict[str, tuple[str, int]]) -> None:
    """Ann, Bob and Cid, and Mizerka games written as schema 0001 knew them (plain SQL):
    game id -> (when it was created, the number of deals recorded)."""
    run = db.session.execute
    for player, name in enumerate(("Ann", "Bob", "Cid"), start=1):
        run(text(PLAYERS), {"id": player, "name": name, "key": name.lower(), "at": min(games.values())[0]})
    for game_id, (at, deals) in games.items():
        run(text(GAMES), {"id": game_id, "at": at})
        for position in range(3):
            run(text(SEATS), {"game": game_id, "position": position, "player": position + 1})
        for deal in MIZERKA_DEALS[:deals]:
            values = {"number": deal.number, "contract": deal.contract, "tricks": str(list(deal.tricks))}
            run(text(DEALS), {"game": game_id, "at": at, **values})
    db.session.commit()


def test_games_stored_before_0002_get_a_date_and_their_figures(old_app: Flask) -> None:
    """Rows written as schema 0001 knew them (plain SQL): a finished game and one after two deals."""
    at = "2025-11-07 20:00:00"
    games = {"Finished001": (at, 18), "Halfway0001": ("2025-12-24 23:30:00", 2)}
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        run = db.session.execute
        for player, name in enumerate(("Ann", "Bob", "Cid"), start=1):
            run(text(PLAYERS), {"id": player, "name": name, "key": name.lower(), "at": at})
        for game_id, (created, deals) in games.items():
            run(text(GAMES), {"id": game_id, "at": created})
            for position in range(3):
                run(text(SEATS), {"game": game_id, "position": position, "player": position + 1})
            for deal in MIZERKA_DEALS[:deals]:
                tricks = json.dumps(list(deal.tricks))
                values = {"number": deal.number, "contract": deal.contract, "tricks": tricks, "at": created}
                run(text(DEALS), {"game": game_id, **values})
        db.session.commit()
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        assert db.session.get(Game, "Finished001").played_on == date(2025, 11, 7)
        assert db.session.get(Game, "Halfway0001").played_on == date(2025, 12, 24)
        assert db.session.get(Game, "Halfway0001").note is None
        rows = db.session.execute(
            select(
                GameResult.game_id,
                GameResult.finished,
                GameResult.total,
                GameResult.rank,
                GameResult.deals_played,
            ).order_by(GameResult.game_id, GameResult.seat)
        ).all()
        # tests/helpers.MIZERKA_DEALS: Ann and Bob end on +3, Cid on -6; after two deals +2 -2 0.
        assert [tuple(row) for row in rows] == [
            ("Finished001", True, 3, 1, 18),
            ("Finished001", True, 3, 1, 18),
            ("Finished001", True, -6, 3, 18),
            ("Halfway0001", False, 2, 1, 2),
            ("Halfway0001", False, -2, 3, 2),
            ("Halfway0001", False, 0, 2, 2),
        ]
        assert_figures_match("Finished001")
        assert_figures_match("Halfway0001")
        ranked = stats.rankings(stats.Filters(), date(2026, 1, 1))
        assert [(r.name, r.games, r.wins, r.deals) for r in ranked.rows] == [
            ("Ann", 1, 1, 20),
            ("Bob", 1, 1, 20),
            ("Cid", 1, 0, 20),
        ]
        db.session.remove()


GAME = (
    "INSERT INTO games (id, ruleset, options, first_dealer, edit_key_hash, version, created_at, updated_at)"
    " VALUES (:id, :ruleset, :options, :first_dealer, 'x', 1, :at, :at)"
)
DEAL = (
    "INSERT INTO deals (game_id, number, contract, bids, tricks, created_at, updated_at)"
    " VALUES (:game, :number, :contract, :bids, :tricks, :at, :at)"
)


def test_0002_scores_old_games_exactly_as_the_rules_engine_does(old_app: Flask) -> None:
    """The migration scores with its own frozen copy of the rules: it must agree with the engine.

    Random legal games of both rulesets (Misère with both scorings), finished, halfway, and
    halfway with the next deal declared but not played.
    """
    rng = random.Random(2002)
    at = "2025-11-07 20:00:00"
    names = ("Ann", "Bob", "Cid", "Dan")
    game_ids = []
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        run = db.session.execute
        for player, name in enumerate(names, start=1):
            run(text(PLAYERS), {"id": player, "name": name, "key": name.lower(), "at": at})
        for index in range(24):
            ruleset_id = ("mizerka", "misere")[index % 2]
            options = {"scoring": "variant"} if index % 4 == 3 else {}
            setup, state = random_game(rng, ruleset_id, names[: get_ruleset(ruleset_id).player_count])
            played = [DealRecord(deal.contract, deal.bids, deal.tricks) for deal in state.deals]
            kept = (len(played), rng.randrange(len(played)), rng.randrange(len(played) - 1))[index % 3]
            deals = played[:kept]
            if index % 3 == 2:  # the next deal declared, its tricks not yet entered
                deals.append(DealRecord(played[kept].contract, played[kept].bids, None))
            game_id = f"Old{index:08d}"
            game_ids.append(game_id)
            values = {
                "ruleset": ruleset_id,
                "options": json.dumps(options),
                "first_dealer": setup.first_dealer,
            }
            run(text(GAME), {"id": game_id, "at": at, **values})
            for position in range(len(setup.players)):
                run(text(SEATS), {"game": game_id, "position": position, "player": position + 1})
            for number, deal in enumerate(deals, start=1):
                facts = {
                    "contract": deal.contract,
                    "bids": None if deal.bids is None else json.dumps(list(deal.bids)),
                    "tricks": None if deal.tricks is None else json.dumps(list(deal.tricks)),
                }
                run(text(DEAL), {"game": game_id, "number": number, "at": at, **facts})
        db.session.commit()
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        for game_id in game_ids:
            assert stored(game_id) == replayed(game_id), game_id
        assert_totals_match()
        db.session.remove()


def test_no_migration_imports_the_app() -> None:
    """A migration must not change when the app's code does: it carries what it needs itself."""
    versions = Path(migrations_dir()) / "versions"
    importing = [
        path.name
        for path in sorted(versions.glob("*.py"))
        if any(
            line.strip().startswith(("import scorekeeper", "from scorekeeper"))
            for line in path.read_text().splitlines()
        )
    ]
    assert importing == []
