"""Rankings per preset and number of players; the sums of each year in a table of their own

A ranking was one ruleset; it is now one (ruleset, preset, number of players), as games of
different presets score on different scales (RULES.md "House rules"): the Misère's two scorings
are ranked apart, and so will Kierki's presets and tables of three and four be.
``game_results.ruleset`` gives way to ``ranking``, a key such as ``misere/variant/4``, filled from
the game's ruleset, its preset option (the Misère's ``scoring``, Kierki's ``preset``; absent:
``standard``) and its number of seats; its indexes are made again on it.

``player_totals`` held the all-time sums under the sentinel year 0 beside the sums of each year;
now it keeps the all-time sums alone (one row a player and ranking), and ``player_year_totals``
one row a player, ranking and year.  Both hold figures derived from ``game_results``, so they
are made again here and filled from them, as the app sums them.

Self-contained: plain table definitions and SQL as they are at this revision.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 09:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

ALL_TIME = 0
"""``player_totals.year`` of the all-time sums before this revision."""
#: The option that chooses a ruleset's preset; a ruleset not named here has one preset.
PRESET_OPTION = {"misere": "scoring", "kierki": "preset"}
SUMS = ("games", "wins", "deals", "deal_wins", "points", "best")
MIN_FOR_PERCENT = 5
NO_FIGURE = -1_000_000_000
#: The sorts read from an index (as migration 0005 made them).
SORTS = {
    "wins": ("wins", "points"),
    "games": ("games", "wins", "points"),
    "points": ("points", "wins"),
    "best": ("best_key", "wins", "points"),
    "win_pct": ("win_pct_key", "wins", "points"),
    "average": ("average_key", "wins", "points"),
}

GAMES = sa.table("games", sa.column("id", sa.String), sa.column("ruleset", sa.String), sa.column("options", sa.JSON))
SEATS = sa.table("seats", sa.column("game_id", sa.String), sa.column("position", sa.Integer))
GAME_RESULTS = sa.table(
    "game_results",
    sa.column("game_id", sa.String),
    sa.column("player_id", sa.Integer),
    sa.column("ruleset", sa.String),
    sa.column("ranking", sa.String),
    sa.column("played_on", sa.Date),
    sa.column("finished", sa.Boolean),
    sa.column("rank", sa.Integer),
    sa.column("total", sa.Integer),
    sa.column("deals_played", sa.Integer),
    sa.column("deals_won", sa.Integer),
)


def ranking_of(ruleset, options, seats):
    """The key of a game's ranking: ``misere/variant/4``."""
    option = PRESET_OPTION.get(ruleset)
    preset = (options or {}).get(option) if option else None
    return f"{ruleset}/{preset or 'standard'}/{seats}"


def fill_rankings():
    """Each game's rows of ``game_results`` get its ranking."""
    seats = (
        sa.select(SEATS.c.game_id, sa.func.count().label("seats"))
        .group_by(SEATS.c.game_id)
        .subquery()
    )
    games = op.get_bind().execute(
        sa.select(GAMES.c.id, GAMES.c.ruleset, GAMES.c.options, seats.c.seats).join(
            seats, seats.c.game_id == GAMES.c.id
        )
    )
    rows = [
        {"game": game_id, "ranking": ranking_of(ruleset, options, count)}
        for game_id, ruleset, options, count in games
    ]
    if rows:
        op.get_bind().execute(
            sa.update(GAME_RESULTS)
            .where(GAME_RESULTS.c.game_id == sa.bindparam("game"))
            .values(ranking=sa.bindparam("ranking")),
            rows,
        )


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


def totals_table(name, group, by_year):
    """A table of each player's sums by ``group`` (ruleset or ranking) and (``by_year``) year, its
    sort keys, and an index per sort within (``group``, year)."""
    years = ["year"] if by_year else []
    table = op.create_table(
        name,
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column(group, sa.String(length=40 if group == "ranking" else 20), nullable=False),
        *(sa.Column(year, sa.Integer(), nullable=False) for year in years),
        *(sa.Column(column, sa.Integer(), nullable=column == "best") for column in SUMS),
        ratio_key("win_pct_key", "wins", "games", MIN_FOR_PERCENT),
        ratio_key("deal_pct_key", "deal_wins", "deals", MIN_FOR_PERCENT),
        ratio_key("average_key", "points", "games", 1),
        sa.Column("best_key", sa.Integer(), sa.Computed(f"COALESCE(best, {NO_FIGURE})", persisted=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f(f"fk_{name}_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", group, *years, name=op.f(f"pk_{name}")),
        postgresql_with={"fillfactor": 75},
    )
    for sort, columns in SORTS.items():
        op.create_index(f"ix_{name}_by_{sort}", name, [group, *years, *columns], unique=False)
    return table


def fill(table, group, year=None, *grouped):
    """Each player's sums from ``game_results`` by ``group``, with ``year`` (an expression, or
    None: no year) and grouped by ``grouped`` too; every row a player with a deal, as the app keeps them."""
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
    years = [] if year is None else [year]
    query = (
        sa.select(r.player_id, r[group], *years, *sums)
        .select_from(GAME_RESULTS)
        .group_by(r.player_id, r[group], *grouped)
        .having(sa.func.sum(r.deals_played) > 0)
    )
    columns = ["player_id", group, *(["year"] if years else []), *SUMS]
    op.execute(table.insert().from_select(columns, query))


def played_in():
    return sa.cast(sa.extract("year", GAME_RESULTS.c.played_on), sa.Integer)


def replace_column(old, new, length):
    """``game_results``: ``new`` (filled before) takes the place of ``old`` in the table and its indexes."""
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.alter_column(new, existing_type=sa.String(length=length), nullable=False)
        batch_op.drop_index("ix_game_results_by_date")
        batch_op.drop_index(f"ix_game_results_player_id_{old}_played_on")
        batch_op.drop_column(old)
        batch_op.create_index("ix_game_results_by_date", [new, "played_on"], unique=False)
        batch_op.create_index(f"ix_game_results_player_id_{new}_played_on", ["player_id", new, "played_on"], unique=False)


def upgrade():
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ranking", sa.String(length=40), nullable=True))
    fill_rankings()
    replace_column("ruleset", "ranking", 40)
    op.drop_table("player_totals")
    fill(totals_table("player_totals", "ranking", by_year=False), "ranking")
    fill(totals_table("player_year_totals", "ranking", by_year=True), "ranking", played_in(), played_in())


def downgrade():
    with op.batch_alter_table("game_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ruleset", sa.String(length=20), nullable=True))
    op.execute("UPDATE game_results SET ruleset = (SELECT ruleset FROM games WHERE games.id = game_results.game_id)")
    replace_column("ranking", "ruleset", 20)
    op.drop_table("player_year_totals")
    op.drop_table("player_totals")
    table = totals_table("player_totals", "ruleset", by_year=True)
    fill(table, "ruleset", sa.literal(ALL_TIME, sa.Integer))
    fill(table, "ruleset", played_in(), played_in())
