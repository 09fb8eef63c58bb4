"""Idempotency keys of deal writes, kept with their answers for the life of the game

``idempotency_keys`` holds each ``Idempotency-Key`` a deal write (POST, PUT, PATCH, DELETE)
came with, per game, with a fingerprint of the request and the answer it got (status and
body), so the same key again is answered the same and changes nothing.  Deleted with its
game.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 06:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "idempotency_keys",
        sa.Column("game_id", sa.String(length=24), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_idempotency_keys_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "key", name=op.f("pk_idempotency_keys")),
    )


def downgrade():
    op.drop_table("idempotency_keys")
