"""Idempotency keys keep their answers compressed

``idempotency_keys.body`` (the answer as sent, text) becomes ``answer``: the same bytes compressed
with zlib.  A ``PATCH .../deals`` answers the game's whole state, kilobytes of JSON that repeat
the players' names in every deal; compressed it is a few hundred bytes, so a client sending
many writes with new keys (every key is kept for the life of its game) stores little for each.

Self-contained: plain table definitions as they are at this revision.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 03:00:00
"""

import zlib

import sqlalchemy as sa
from alembic import op


revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

KEYS = sa.table(
    "idempotency_keys",
    sa.column("game_id", sa.String),
    sa.column("key", sa.String),
    sa.column("body", sa.Text),
    sa.column("answer", sa.LargeBinary),
)
THE_KEY = sa.and_(KEYS.c.game_id == sa.bindparam("g"), KEYS.c.key == sa.bindparam("k"))


def upgrade():
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answer", sa.LargeBinary(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(KEYS.c.game_id, KEYS.c.key, KEYS.c.body)).all()
    packed = [{"g": game_id, "k": key, "a": zlib.compress(body.encode())} for game_id, key, body in rows]
    if packed:
        connection.execute(sa.update(KEYS).where(THE_KEY).values(answer=sa.bindparam("a")), packed)
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.alter_column("answer", existing_type=sa.LargeBinary(), nullable=False)
        batch_op.drop_column("body")


def downgrade():
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.add_column(sa.Column("body", sa.Text(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(KEYS.c.game_id, KEYS.c.key, KEYS.c.answer)).all()
    plain = [{"g": game_id, "k": key, "b": zlib.decompress(answer).decode()} for game_id, key, answer in rows]
    if plain:
        connection.execute(sa.update(KEYS).where(THE_KEY).values(body=sa.bindparam("b")), plain)
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.alter_column("body", existing_type=sa.Text(), nullable=False)
        batch_op.drop_column("answer")
