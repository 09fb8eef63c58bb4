"""Migration 0002 gives the games stored before it a date and their figures for rankings."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import select, text

from scorekeeper import create_app, stats
from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import Game, GameResult
from tests.conftest import database_config
from tests.helpers import MIZERKA_DEALS
from tests.stats.checks import assert_figures_match


def empty_schema(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.session.remove()


@pytest.fixture
def old_app(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Flask]:
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "AUTO_MIGRATE": False,
            **database_config(backend, tmp_path, request),
        }
    )
    empty_schema(app)
    yield app
    empty_schema(app)
    with app.app_context():
        db.engine.dispose()


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
