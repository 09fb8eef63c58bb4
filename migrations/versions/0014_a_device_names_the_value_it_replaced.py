"""``devices.replaces``: the device value a new one was made from, at a grant

At every grant a phone's keyring is copied to a new device value (a value planted in the browser
never gains its keys).  The old value stays until the phone shows the new one (at its next
grant), so a grant whose answer is lost costs the phone nothing; this column names it.

Self-contained: plain names as they are at this revision.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 03:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("replaces", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_devices_replaces", ["replaces"], unique=False)


def downgrade():
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.drop_index("ix_devices_replaces")
        batch_op.drop_column("replaces")
