"""Drop ``ix_games_updated_at``: nothing reads the games by the time of their last write any more

The club's kept pages were once named by the latest ``games.updated_at``; a write now drops the
copies it changes, so the index only cost every write its upkeep.

Self-contained: plain names as they are at this revision.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 09:00:00
"""

from alembic import op


revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_updated_at")


def downgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_updated_at", ["updated_at"], unique=False)
