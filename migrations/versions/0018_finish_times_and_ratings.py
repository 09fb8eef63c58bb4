"""Ratings: a game's finish time, each player's OpenSkill rating per game and house rule

``games.finished_at``: when a finished game finished, the order its ratings are applied in.  Filled
here for the finished games stored before this revision: a game whose deals were all stored at one
moment (an import, which stores a game with its deals in one write) finished at the end of the day
it was played on; any other when its last deal was last stored (that deal's ``updated_at``).

``ratings``: a player's mu, sigma and finished games in one rating (a ruleset and preset, whatever
the table's size); ``rated_games``: the last game each rating has applied (finish time, id), how
many it holds and whether a replay is owed ("updating"), whose row a write that rates takes first.
Both start empty: ``flask rebuild-stats`` computes the ratings of the games stored before this
revision.

Self-contained: plain names as they are at this revision.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 15:00:00
"""

from datetime import datetime, time

import sqlalchemy as sa
from alembic import op


revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.String),
    sa.column("played_on", sa.Date),
    sa.column("finished", sa.Boolean),
    sa.column("finished_at", sa.DateTime),
)
deals = sa.table(
    "deals",
    sa.column("game_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("created_at", sa.DateTime),
    sa.column("updated_at", sa.DateTime),
)


def upgrade():
    # A plain ADD COLUMN: a batch copy would drop the table, and SQLite's foreign keys would cascade
    # the drop to the games' seats, deals and figures.
    op.add_column("games", sa.Column("finished_at", sa.DateTime(), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.String(length=40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "rating", name=op.f("pk_ratings")),
    )
    op.create_table(
        "rated_games",
        sa.Column("rating", sa.String(length=40), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("game_id", sa.String(length=24), nullable=True),
        sa.Column("games", sa.Integer(), server_default="0", nullable=False),
        sa.Column("updating", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("changes", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("rating", name=op.f("pk_rated_games")),
    )
    connection = op.get_bind()
    moments = sa.func.count(sa.distinct(deals.c.created_at))
    per_game = (
        sa.select(deals.c.game_id, moments.label("moments"), sa.func.max(deals.c.number).label("last"))
        .group_by(deals.c.game_id)
        .subquery()
    )
    rows = connection.execute(
        sa.select(games.c.id, games.c.played_on, per_game.c.moments, deals.c.updated_at)
        .join(per_game, per_game.c.game_id == games.c.id)
        .join(deals, sa.and_(deals.c.game_id == games.c.id, deals.c.number == per_game.c.last))
        .where(games.c.finished)
    ).all()
    finished = [
        {
            "of_game": row.id,
            "at": datetime.combine(row.played_on, time.max) if row.moments == 1 else row.updated_at,
        }
        for row in rows
    ]
    if finished:
        connection.execute(
            games.update().where(games.c.id == sa.bindparam("of_game")).values(finished_at=sa.bindparam("at")),
            finished,
        )


def downgrade():
    op.drop_table("rated_games")
    op.drop_table("ratings")
    op.drop_column("games", "finished_at")
