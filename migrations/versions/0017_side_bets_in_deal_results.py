"""A player's side bets in a deal (Barbu's doubles), for the player page's figures

``deal_results``: ``bets`` (the side bets the player took part in: made or faced, a redouble
counting as its double), ``bets_made`` (those they made), ``bets_won`` and ``bets_lost`` (whose
settlement was positive, negative for them; 0 is neither) and ``bet_points`` (what they moved for
the player).  Null for games without side bets.  ``flask rebuild-stats`` fills the rows of games
stored before this revision.

Self-contained: plain names as they are at this revision.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 13:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

COLUMNS = ("bets", "bets_made", "bets_won", "bets_lost", "bet_points")


def upgrade():
    with op.batch_alter_table("deal_results", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("deal_results", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
