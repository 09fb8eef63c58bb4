"""Kierki's deal facts: what the table counts beyond tricks

A Kierki deal records more than tricks (API.md K4): the trump suit named, the hearts, queens,
kings and jacks each player took, who took the king of hearts, the 7th and the last trick, and
who went out first and second in the Fan Tan.  They are kept in one JSON column, by seat, only
the facts a deal has (null for Mizerka and Misère deals).

Self-contained: plain names as they are at this revision.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 12:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("facts", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("deals", schema=None) as batch_op:
        batch_op.drop_column("facts")
