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

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


# The key as this revision defines it (scorekeeper/rules/names.py at the time), carried here so
# the migration never changes when the app's code does.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_BLANK_FILLERS = {0x2800, 0x1D159, 0x2028, 0x2029}
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _invisible(char):
    point = ord(char)
    return (
        any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)
        or point in _BLANK_FILLERS
        or unicodedata.category(char) in _HIDDEN_CATEGORIES
    )


def name_key(name):
    visible = "".join(char for char in " ".join(name.split()) if not _invisible(char))
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())
    return " ".join(folded.split())


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
