"""Migration 0004 gives the games stored before it their status (finished or not) and the club's indexes."""

from __future__ import annotations

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.stats.test_stats_migration import store_as_0001


def test_games_stored_before_0004_get_their_status(old_app: Flask) -> None:
    """Rows written as schema 0001 knew them (plain SQL), brought to 0003: finished, half played, new."""
    at = "2026-02-07 20:00:00"
    games = {"Finished003": 18, "Halfway0003": 5, "NotBegun003": 0}
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        store_as_0001({game_id: (at, deals) for game_id, deals in games.items()})
        upgrade(directory=migrations_dir(), revision="0003")  # figures back-filled (0002)
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        assert {game_id: db.session.get(Game, game_id).finished for game_id in games} == {
            "Finished003": True,
            "Halfway0003": False,
            "NotBegun003": False,
        }
        indexes = {index["name"] for index in inspect(db.engine).get_indexes("games")}
        assert "ix_games_listing" in indexes
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0004")  # before 0010 dropped the other one
        indexes = {index["name"] for index in inspect(db.engine).get_indexes("games")}
        assert {"ix_games_listing", "ix_games_updated_at"} <= indexes
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0003")
        assert "finished" not in {column["name"] for column in inspect(db.engine).get_columns("games")}
        db.session.remove()
