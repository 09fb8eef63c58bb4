"""Name keys fold look-alikes

A player's ``name_key`` (how two names are compared) now also folds
compatibility forms (NFKC: full-width letters, ligatures) and drops invisible
characters, so look-alike names are one name.  The keys stored before are
recomputed.  Should two existing people now share a key, the later one keeps
its old key: they stay two records, which the administrator may merge.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 05:10:00
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.rules.names import name_key

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String), sa.column('name_key', sa.String))
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name, players.c.name_key).order_by(players.c.id)).all()
    taken = {row.name_key for row in rows}
    for row in rows:
        key = name_key(row.name)
        if key == row.name_key or key in taken:
            continue
        taken.discard(row.name_key)
        taken.add(key)
        connection.execute(players.update().where(players.c.id == row.id).values(name_key=key))


def downgrade():
    pass  # the old keys were case folds of the names: the new ones are as good a key for them
