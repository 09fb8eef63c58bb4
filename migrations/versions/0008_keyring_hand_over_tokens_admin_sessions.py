"""The keys a phone holds on the server (devices, grants); one-time hand-over tokens; admin sessions

A phone's edit keys were one cookie per game (two paths each): browsers drop cookies past
about 180 a site, and the Cookie header grew with every game.  Now one device cookie names a
row of ``devices`` (the hash of its random token), and ``grants`` says which games it holds.
A hand-over link carries a one-time token (``hand_overs``: its hash, its game, its expiry),
never the edit key.  The administrator's sign-in is a row of ``admin_sessions``, so signing
out ends it everywhere and it expires.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 06:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "devices",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_devices")),
    )
    op.create_table(
        "grants",
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["device_hash"],
            ["devices.token_hash"],
            name=op.f("fk_grants_device_hash_devices"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_grants_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("device_hash", "game_id", name=op.f("pk_grants")),
    )
    op.create_index(op.f("ix_grants_game_id"), "grants", ["game_id"], unique=False)
    op.create_table(
        "hand_overs",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=24), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_hand_overs_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_hand_overs")),
    )
    op.create_index(op.f("ix_hand_overs_game_id"), "hand_overs", ["game_id"], unique=False)
    op.create_table(
        "admin_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("key_mark", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_admin_sessions")),
    )
    op.create_index(op.f("ix_admin_sessions_expires_at"), "admin_sessions", ["expires_at"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_admin_sessions_expires_at"), table_name="admin_sessions")
    op.drop_table("admin_sessions")
    op.drop_index(op.f("ix_hand_overs_game_id"), table_name="hand_overs")
    op.drop_table("hand_overs")
    op.drop_index(op.f("ix_grants_game_id"), table_name="grants")
    op.drop_table("grants")
    op.drop_table("devices")
