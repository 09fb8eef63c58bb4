"""Game status and indexes for the club's pages

Adds ``games.finished`` (kept by every write to a game, like the figures for rankings), so
the home page lists games in progress and the newest finished ones from an index instead of
replaying games; back-filled here from ``game_results``.  Adds the indexes that list games
by status and date (``ix_games_listing``) and find the club's latest write
(``ix_games_updated_at``, the stamp of the club's kept pages).

Self-contained: plain table definitions and SQL as they are at this revision.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 05:30:00
"""

import sqlalchemy as sa
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    # NOT NULL needs a default for the rows already there (SQLite cannot add it otherwise); every
    # write sets the column from then on, and the UPDATE below sets it for the games stored so far.
    op.add_column('games', sa.Column('finished', sa.Boolean(), nullable=False, server_default=sa.false()))
    # A game is finished when its stored figures say so (they are kept equal to the replay).
    op.execute(
        'UPDATE games SET finished = EXISTS ('
        'SELECT 1 FROM game_results WHERE game_results.game_id = games.id AND game_results.finished)'
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_listing', ['finished', 'created_at', 'id'], unique=False)
        batch_op.create_index('ix_games_updated_at', ['updated_at'], unique=False)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_updated_at')
        batch_op.drop_index('ix_games_listing')
    # Plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+): a batch rebuild of games would cascade.
    op.drop_column('games', 'finished')
