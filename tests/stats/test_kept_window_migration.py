"""Migration 0006 keeps a window of the last 30 days, and leaves a game's rows of figures to HOT updates."""

from __future__ import annotations

from datetime import date

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, select, text

from scorekeeper import stats
from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import RECENT, KeptWindow
from tests.stats.checks import assert_totals_match
from tests.stats.test_stats_migration import store_as_0001
from tests.stats.test_year_totals_migration import STORED


def test_the_window_is_summed_at_the_first_view_after_0006(old_app: Flask) -> None:
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        store_as_0001(STORED)
        upgrade(directory=migrations_dir(), revision="0005")
        before = sorted(tuple(row) for row in db.session.execute(text("SELECT * FROM player_totals")))
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        assert db.session.scalar(select(KeptWindow.since)) is None  # none kept yet
        indexes = {index["name"] for index in inspect(db.engine).get_indexes("game_results")}
        assert "ix_game_results_by_date" in indexes and "ix_game_results_rankings" not in indexes
        if db.engine.dialect.name == "postgresql":
            options = db.session.scalar(
                text("SELECT reloptions FROM pg_class WHERE oid = 'game_results'::regclass")
            )
            assert options == ["fillfactor=75"]
        # 2026-02-01 to 2026-03-02: one finished game and five deals of another.
        recent = stats.rankings(stats.Filters("mizerka", "30d"), date(2026, 3, 2))
        assert (recent.count, sorted((row.name, row.games, row.deals) for row in recent.rows)) == (
            3,
            [("Ann", 1, 23), ("Bob", 1, 23), ("Cid", 1, 23)],
        )
        assert db.session.scalar(select(KeptWindow.since)) == date(2026, 2, 1)
        assert db.session.scalar(text(f"SELECT count(*) FROM player_totals WHERE year = {RECENT}")) == 3
        assert_totals_match()
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0005")
        assert sorted(tuple(row) for row in db.session.execute(text("SELECT * FROM player_totals"))) == before
        indexes = {index["name"] for index in inspect(db.engine).get_indexes("game_results")}
        assert "ix_game_results_rankings" in indexes and "ix_game_results_by_date" not in indexes
        assert "kept_window" not in inspect(db.engine).get_table_names()
        db.session.remove()
