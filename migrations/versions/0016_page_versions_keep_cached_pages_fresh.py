"""Page versions: the key of the club's cached pages, bumped by each write in its own transaction

``page_versions``: for each kind of club page (``home``, ``standings``, ``players``, and
``player-<id>`` for each player) up to 16 rows (shards, one bumped at random by each write, so
that writes to different games seldom wait on one row), counting the committed writes that
changed it.  The cached
copies of the club's pages were keyed by tags kept in the cache itself (Redis), which a write
deleted after its commit; a write made while Redis was unreachable left stale pages behind, and a
delete racing a page view failed the write.  Nothing to fill: a missing row reads as version 0.

Self-contained: plain names as they are at this revision.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 02:45:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "page_versions",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("shard", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", "shard", name=op.f("pk_page_versions")),
    )


def downgrade():
    op.drop_table("page_versions")
