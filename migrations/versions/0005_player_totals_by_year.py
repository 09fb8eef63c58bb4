"""Kept sums by year for the rankings; the period's rows read by date

``player_totals`` gains ``year`` (0: all time, as before; else the sums of the games played
in that year), part of its key: the rankings and the player pages for this year read one
kept row a player instead of summing every game of the year.  It also gains sort keys the
database keeps from the sums (the shares won, the average, the best game; a figure not
shown yet sorts last), and an index per column a finished game moves, by which the rankings
sort: a page of the rankings is read in order and its players counted from an index,
whatever the size of the club.  Every row ranks (a player with a deal).  The table holds figures derived from ``game_results``, so
it is made again here and filled from them.

``ix_game_results_rankings`` now orders a ruleset's rows by date first: the last 30 days,
still summed from ``game_results``, read only that period's rows.

Self-contained: plain table definitions and SQL as they are at this revision.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 02:40:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ALL_TIME = 0
FIGURES = ("finished", "rank", "total", "deals_played", "deals_won")
GAME_RESULTS = sa.table(
    "game_results",
    sa.column("player_id", sa.Integer),
    sa.column("ruleset", sa.String),
    sa.column("played_on", sa.Date),
    sa.column("finished", sa.Boolean),
    *(sa.column(name, sa.Integer) for name in FIGURES[1:]),
)
SUMS = ("games", "wins", "deals", "deal_wins", "points", "best")


MIN_FOR_PERCENT = 5
NO_FIGURE = -1_000_000_000
#: The sorts read from an index: only columns a finished game moves (a deal moves the others;
#: were they indexed, PostgreSQL could not write a deal's new row version in place).
SORTS = {
    "wins": ("wins", "points"),
    "games": ("games", "wins", "points"),
    "points": ("points", "wins"),
    "best": ("best_key", "wins", "points"),
    "win_pct": ("win_pct_key", "wins", "points"),
    "average": ("average_key", "wins", "points"),
}


def ratio_key(name, part, whole, least):
    return sa.Column(
        name,
        sa.Float(),
        sa.Computed(
            f"CASE WHEN {whole} >= {least} THEN CAST({part} AS FLOAT) / {whole} ELSE {NO_FIGURE} END",
            persisted=True,
        ),
        nullable=False,
    )


def player_totals(by_year):
    """``player_totals`` as it is with (``by_year``: and its sort keys and indexes) and without the year."""
    key = ["player_id", "ruleset", "year"] if by_year else ["player_id", "ruleset"]
    keys = [
        ratio_key("win_pct_key", "wins", "games", MIN_FOR_PERCENT),
        ratio_key("deal_pct_key", "deal_wins", "deals", MIN_FOR_PERCENT),
        ratio_key("average_key", "points", "games", 1),
        sa.Column("best_key", sa.Integer(), sa.Computed(f"COALESCE(best, {NO_FIGURE})", persisted=True), nullable=False),
    ]
    table = op.create_table(
        "player_totals",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(length=20), nullable=False),
        *([sa.Column("year", sa.Integer(), nullable=False)] if by_year else []),
        *(sa.Column(name, sa.Integer(), nullable=name == "best") for name in SUMS),
        *(keys if by_year else []),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_player_totals_player_id_players")),
        sa.PrimaryKeyConstraint(*key, name=op.f("pk_player_totals")),
        **({"postgresql_with": {"fillfactor": 75}} if by_year else {}),
    )
    if by_year:
        for name, columns in SORTS.items():
            op.create_index(
                f"ix_player_totals_by_{name}",
                "player_totals",
                ["ruleset", "year", *columns],
                unique=False,
            )
    return table


def fill(table, by_year):
    """Each player's sums from ``game_results``: all time, and (``by_year``) year by year."""
    r = GAME_RESULTS.c
    finished = r.finished
    sums = [
        sa.func.sum(sa.case((finished, 1), else_=0)),
        sa.func.sum(sa.case((sa.and_(finished, r.rank == 1), 1), else_=0)),
        sa.func.sum(r.deals_played),
        sa.func.sum(r.deals_won),
        sa.func.sum(sa.case((finished, r.total), else_=0)),
        sa.func.max(sa.case((finished, r.total), else_=None)),
    ]
    played_in = sa.cast(sa.extract("year", r.played_on), sa.Integer)
    years = [(sa.literal(ALL_TIME, sa.Integer), ())]
    if by_year:
        years.append((played_in, (played_in,)))
    selects = [
        sa.select(r.player_id, r.ruleset, *([year] if by_year else []), *sums)
        .select_from(GAME_RESULTS)
        .group_by(r.player_id, r.ruleset, *grouped)
        .having(sa.func.sum(r.deals_played) > 0)  # every row ranks: a player with a deal
        for year, grouped in years
    ]
    columns = ["player_id", "ruleset", *(["year"] if by_year else []), *SUMS]
    op.execute(table.insert().from_select(columns, sa.union_all(*selects) if by_year else selects[0]))


def rankings_index(first):
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.drop_index("ix_game_results_rankings")
        batch_op.create_index("ix_game_results_rankings", ["ruleset", *first, *FIGURES], unique=False)


def upgrade():
    op.drop_table("player_totals")
    fill(player_totals(by_year=True), by_year=True)
    rankings_index(["played_on", "player_id"])


def downgrade():
    rankings_index(["player_id", "played_on"])
    op.drop_table("player_totals")
    fill(player_totals(by_year=False), by_year=False)
