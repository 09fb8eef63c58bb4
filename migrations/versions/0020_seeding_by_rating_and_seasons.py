"""Round 1 of a night seated by rating, and seasons

``nights.first_round`` may be ``rating`` (round 1 by the ordinal of the night's game's rating);
``seasons``: a season's name, dates, game and preset, and how many of a player's best nights count
(its table is read from the nights); nights are found by game and date. Nothing stored before changes.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 16:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("ruleset", sa.String(length=20), nullable=False),
        sa.Column("preset", sa.String(length=20), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("best >= 1", name=op.f("ck_seasons_season_best_positive")),
        sa.CheckConstraint("ends_on >= starts_on", name=op.f("ck_seasons_season_dates_in_order")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
    )
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.create_index("ix_seasons_created_at", ["created_at"], unique=False)
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_nights_night_first_round"), type_="check")
        batch_op.create_check_constraint("night_first_round", "first_round IN ('random', 'order', 'rating')")
        batch_op.create_index("ix_nights_ruleset_played_on", ["ruleset", "played_on"], unique=False)


def downgrade():
    op.execute("UPDATE nights SET first_round = 'order' WHERE first_round = 'rating'")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_index("ix_nights_ruleset_played_on")
        batch_op.drop_constraint(op.f("ck_nights_night_first_round"), type_="check")
        batch_op.create_check_constraint("night_first_round", "first_round IN ('random', 'order')")
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.drop_index("ix_seasons_created_at")
    op.drop_table("seasons")
