"""What a player took in a Kierki deal, for the player page's figures per contract

``deal_results.taken``: the count the deal's contract counts for that player (tricks, hearts,
queens, kings and jacks; 1 for the king of hearts' taker; the 7th and the last trick taken; 1 for
the Fan Tan's first two out), so a player's page says how often they took the king of hearts or
how many tricks they made a trump deal.  Null for the other games' deals.  Kierki's games were
first stored at the revision before this one; ``flask rebuild-stats`` fills their rows.

Self-contained: plain names as they are at this revision.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 10:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deal_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("taken", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("deal_results", schema=None) as batch_op:
        batch_op.drop_column("taken")
