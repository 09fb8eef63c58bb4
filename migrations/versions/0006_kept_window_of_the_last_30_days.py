"""Kept sums of the last 30 days; a game's rows of figures updated in place

``player_totals`` keeps a third row a player, ``year`` = -1: the sums of the games played
on or after ``kept_window.since``.  Writers move it with the others; once a day it is rolled
forward (summed again for the new day's last 30 days) at the first view that needs it.  The
new ``kept_window`` is left empty here, so that first view sums them.

The rankings of the last 30 days no longer sum ``game_results``, so its covering index gives
way to one on (ruleset, played_on) alone: a deal changes no indexed column of a game's rows,
and PostgreSQL updates them in place (with room left on each page for it: fillfactor 75).

Self-contained: plain table definitions and SQL as they are at this revision.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 06:20:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

RECENT = -1
#: ``ix_game_results_rankings`` as migration 0005 left it.
COVERED = ["ruleset", "played_on", "player_id", "finished", "rank", "total", "deals_played", "deals_won"]


def upgrade():
    op.create_table(
        "kept_window",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("since", sa.Date(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_kept_window_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kept_window")),
    )
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.drop_index("ix_game_results_rankings")
        batch_op.create_index("ix_game_results_by_date", ["ruleset", "played_on"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE game_results SET (fillfactor = 75)")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE game_results RESET (fillfactor)")
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.drop_index("ix_game_results_by_date")
        batch_op.create_index("ix_game_results_rankings", COVERED, unique=False)
    op.execute(f"DELETE FROM player_totals WHERE year = {RECENT}")
    op.drop_table("kept_window")
