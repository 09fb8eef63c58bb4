"""Round 1 of a night seated by rating

``nights.first_round`` may be ``rating`` (round 1 by the ordinal of the night's game's rating).
Nothing stored before changes.

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
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_nights_night_first_round"), type_="check")
        batch_op.create_check_constraint("night_first_round", "first_round IN ('random', 'order', 'rating')")


def downgrade():
    op.execute("UPDATE nights SET first_round = 'order' WHERE first_round = 'rating'")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_nights_night_first_round"), type_="check")
        batch_op.create_check_constraint("night_first_round", "first_round IN ('random', 'order')")
