"""A season's pencil: its key's hash, and the keyring's pencils and hand-over tokens for a season

``seasons.edit_key_hash`` (as a night's; nullable: a season stored before has no key, and nobody may
change or delete it), ``season_pencils`` and ``season_hand_overs`` (as ``night_pencils`` and
``night_hand_overs``). Seasons stored before keep every setting; no key is made for them.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 18:30:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.add_column(sa.Column("edit_key_hash", sa.String(length=64), nullable=True))

    op.create_table(
        "season_pencils",
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("season_id", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["device_hash"],
            ["devices.token_hash"],
            name=op.f("fk_season_pencils_device_hash_devices"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_season_pencils_season_id_seasons"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("device_hash", "season_id", name=op.f("pk_season_pencils")),
    )
    with op.batch_alter_table("season_pencils", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_season_pencils_season_id"), ["season_id"], unique=False)

    op.create_table(
        "season_hand_overs",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("season_id", sa.String(length=24), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name=op.f("fk_season_hand_overs_season_id_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_season_hand_overs")),
    )
    with op.batch_alter_table("season_hand_overs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_season_hand_overs_season_id"), ["season_id"], unique=False)


def downgrade():
    with op.batch_alter_table("season_hand_overs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_season_hand_overs_season_id"))
    op.drop_table("season_hand_overs")
    with op.batch_alter_table("season_pencils", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_season_pencils_season_id"))
    op.drop_table("season_pencils")
    with op.batch_alter_table("seasons", schema=None) as batch_op:
        batch_op.drop_column("edit_key_hash")
