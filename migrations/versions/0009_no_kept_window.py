"""The last 30 days summed when shown: no kept window

The rankings of the last 30 days are summed from ``game_results`` by a plain GROUP BY (and
cached until a write changes them), so ``player_totals`` no longer keeps a third row a player
(``year`` = -1) and ``kept_window`` goes.

Self-contained: plain table definitions and SQL as they are at this revision.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 09:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    op.execute("DELETE FROM player_totals WHERE year = -1")
    op.drop_table("kept_window")


def downgrade():
    # Left empty, as migration 0006 left it: the first view of the last 30 days sums them again.
    op.create_table(
        "kept_window",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("since", sa.Date(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_kept_window_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kept_window")),
    )
