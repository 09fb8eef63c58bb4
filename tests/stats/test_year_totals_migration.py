"""Migration 0005 keeps each player's sums year by year, and indexes the rankings by each column."""

from __future__ import annotations

from datetime import date

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, select, text

from scorekeeper import stats
from scorekeeper.database import migrations_dir, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.stored_figures import INDEXED_SORTS, NO_FIGURE, PlayerTotal, PlayerYearTotal
from tests.stats.checks import assert_totals_match
from tests.stats.test_stats_migration import store_as_0001

#: Game id -> (when it was created, and so played; deals recorded).
STORED = {
    "Finished025": ("2025-11-07 20:00:00", 18),
    "Finished026": ("2026-02-07 20:00:00", 18),
    "Halfway0026": ("2026-03-01 20:00:00", 5),
}


def test_sums_stored_before_0005_are_kept_by_year_too(old_app: Flask) -> None:
    """Rows written as schema 0001 knew them (plain SQL), brought to 0004, then to the newest."""
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        store_as_0001(STORED)
        upgrade(directory=migrations_dir(), revision="0004")  # all-time totals back-filled (0002)
        all_time_before = sorted(
            tuple(row) for row in db.session.execute(text("SELECT * FROM player_totals"))
        )
        db.session.remove()
    upgrade_schema(old_app)
    with old_app.app_context():
        assert_totals_match()  # all time and each year, for everyone, equal the game rows
        kept = {
            (name, None): (games, deals, key)
            for name, games, deals, key in db.session.execute(
                select(Player.name, PlayerTotal.games, PlayerTotal.deals, PlayerTotal.win_pct_key).join(
                    Player, Player.id == PlayerTotal.player_id
                )
            )
        }
        kept.update(
            {
                (name, year): (games, deals, key)
                for name, year, games, deals, key in db.session.execute(
                    select(
                        Player.name,
                        PlayerYearTotal.year,
                        PlayerYearTotal.games,
                        PlayerYearTotal.deals,
                        PlayerYearTotal.win_pct_key,
                    ).join(Player, Player.id == PlayerYearTotal.player_id)
                )
            }
        )
        # Two finished games and five deals of a third: 2 games and 41 deals all time, one
        # game a year; no share of games won is shown (nor ranked) below five games.
        assert kept == {
            (name, year): figures
            for name in ("Ann", "Bob", "Cid")
            for year, figures in {
                None: (2, 41, NO_FIGURE),
                2025: (1, 18, NO_FIGURE),
                2026: (1, 23, NO_FIGURE),
            }.items()
        }
        this_year = stats.rankings(stats.Filters("mizerka/standard/3", "year"), date(2026, 3, 2))
        assert (this_year.count, sorted((row.name, row.games, row.deals) for row in this_year.rows)) == (
            3,
            [("Ann", 1, 23), ("Bob", 1, 23), ("Cid", 1, 23)],
        )
        for table in ("player_totals", "player_year_totals"):
            indexes = {index["name"] for index in inspect(db.engine).get_indexes(table)}
            assert {f"ix_{table}_by_{sort}" for sort in INDEXED_SORTS} <= indexes
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0004")
        assert (
            sorted(tuple(row) for row in db.session.execute(text("SELECT * FROM player_totals")))
            == all_time_before
        )
        db.session.remove()
