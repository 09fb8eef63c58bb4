"""Club nights (CLUB.md): a night, its players present, its rounds and tables, its director's pencil

``nights`` (the game and preset its tables play, rounds, seating, seed, hidden standings, its key's
hash, the round clock), ``night_players`` (who is present, from which round, until which),
``night_rounds`` (who sat out, when the round started) and ``night_tables`` (seats, first dealer,
the table's ordinary game once started, closed unfinished, which scoring link is good);
``night_pencils`` and ``night_hand_overs``: the keyring's grants and hand-over tokens for a night.
Only new tables: nothing stored before changes.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0019
Revises: 0017
Create Date: 2026-11-28 14:40:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "nights",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("ruleset", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("seating", sa.String(length=10), nullable=False),
        sa.Column("first_round", sa.String(length=10), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("hide_standings", sa.Boolean(), nullable=False),
        sa.Column("edit_key_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("clock_started_at", sa.DateTime(), nullable=True),
        sa.Column("clock_minutes", sa.Integer(), nullable=False),
        sa.CheckConstraint("first_round IN ('random', 'order')", name=op.f("ck_nights_night_first_round")),
        sa.CheckConstraint("seating IN ('mix', 'swiss')", name=op.f("ck_nights_night_seating")),
        sa.CheckConstraint("rounds IS NULL OR rounds >= 1", name=op.f("ck_nights_night_rounds_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nights")),
    )
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.create_index("ix_nights_created_at", ["created_at"], unique=False)

    op.create_table(
        "night_pencils",
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["device_hash"],
            ["devices.token_hash"],
            name=op.f("fk_night_pencils_device_hash_devices"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name=op.f("fk_night_pencils_night_id_nights"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("device_hash", "night_id", name=op.f("pk_night_pencils")),
    )
    with op.batch_alter_table("night_pencils", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_night_pencils_night_id"), ["night_id"], unique=False)

    op.create_table(
        "night_hand_overs",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name=op.f("fk_night_hand_overs_night_id_nights"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_night_hand_overs")),
    )
    with op.batch_alter_table("night_hand_overs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_night_hand_overs_night_id"), ["night_id"], unique=False)

    op.create_table(
        "night_players",
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("from_round", sa.Integer(), nullable=False),
        sa.Column("left_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name=op.f("fk_night_players_night_id_nights"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_night_players_player_id_players")
        ),
        sa.PrimaryKeyConstraint("night_id", "player_id", name=op.f("pk_night_players")),
    )
    with op.batch_alter_table("night_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_night_players_player_id"), ["player_id"], unique=False)

    op.create_table(
        "night_rounds",
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("sitting_out", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("number >= 1", name=op.f("ck_night_rounds_night_round_positive")),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name=op.f("fk_night_rounds_night_id_nights"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("night_id", "number", name=op.f("pk_night_rounds")),
    )
    op.create_table(
        "night_tables",
        sa.Column("night_id", sa.String(length=24), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=24), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("link_generation", sa.Integer(), nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_night_tables_night_table_positive")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_night_tables_game_id_games"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["night_id"], ["nights.id"], name=op.f("fk_night_tables_night_id_nights"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("night_id", "round", "number", name=op.f("pk_night_tables")),
        sa.UniqueConstraint("game_id", name=op.f("uq_night_tables_game_id")),
    )


def downgrade():
    op.drop_table("night_tables")
    op.drop_table("night_rounds")
    with op.batch_alter_table("night_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_night_players_player_id"))

    op.drop_table("night_players")
    with op.batch_alter_table("night_hand_overs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_night_hand_overs_night_id"))

    op.drop_table("night_hand_overs")
    with op.batch_alter_table("night_pencils", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_night_pencils_night_id"))

    op.drop_table("night_pencils")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_index("ix_nights_created_at")

    op.drop_table("nights")
