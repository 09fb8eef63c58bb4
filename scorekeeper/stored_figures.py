"""Tables of figures copied from the replay: each player's results per game and per deal, their sums
per ranking (for all time and per year) and their ratings.

Scores, roles and totals are replayed from the deals (``models.py`` holds the facts); these tables
keep a copy of the replayed figures so rankings can be summed in SQL.  The services rewrite them in
the same transaction as every write to a game, and tests check they always equal the replay.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Computed, Float, ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db

RANKING_LENGTH = 40
"""The longest key of a ranking (``rules.ranking``: ``ruleset/preset/4``)."""
MIN_FOR_PERCENT = 5
"""Games (or deals) from which a share of them won is shown, and ranked."""
NO_FIGURE = -1_000_000_000
"""A sort key where the figure is not shown (too few games): below any real one, so it ranks last."""
#: The sorts of the rankings read in order from an index of ``player_totals`` (ranking, the
#: column, then the tie-breaks, more wins and more points) and of ``player_year_totals`` (ranking,
#: year, the same).  Only the columns a finished
#: game moves: deals, deals won and their share move with every deal, and an index on them
#: would have every deal rewrite every index entry of its players' rows (PostgreSQL updates a
#: row in place only while no indexed column changes), which cost recording a deal a sixth of
#: its speed.  Sorted by those three, the rankings read every stored row.
INDEXED_SORTS = {
    "wins": ("wins", "points"),
    "games": ("games", "wins", "points"),
    "points": ("points", "wins"),
    "best": ("best_key", "wins", "points"),
    "win_pct": ("win_pct_key", "wins", "points"),
    "average": ("average_key", "wins", "points"),
}


def _ratio_key(part: str, whole: str, least: int) -> Computed:
    """part / whole where whole >= least, else ``NO_FIGURE``: computed by the database itself."""
    return Computed(
        f"CASE WHEN {whole} >= {least} THEN CAST({part} AS FLOAT) / {whole} ELSE {NO_FIGURE} END",
        persisted=True,
    )


class GameResult(db.Model):  # type: ignore[name-defined,misc]
    """One player's figures in one game, copied from the replay for rankings.

    The game's ranking (``rules.ranking``: its ruleset, preset and number of players), date and
    whether it is finished are repeated here so that a ranking is one GROUP BY over this table alone.
    """

    __tablename__ = "game_results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    ranking: Mapped[str] = mapped_column(String(RANKING_LENGTH))
    played_on: Mapped[date]
    finished: Mapped[bool]
    total: Mapped[int]
    rank: Mapped[int]
    """Place by total, equal totals sharing it (1, 1, 3); 1 in a finished game is a win."""
    deals_played: Mapped[int]
    deals_won: Mapped[int]
    """Completed deals in which this player's score was the highest (ties count for all tied)."""

    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        # The rankings of the last 30 days sum one ranking's rows of that period: this index
        # covers that query, and gives just those rows (by date) without touching the table.
        # The player page reads one person's rows.
        # A period's rows, by date: the last 30 days rolled forward, a re-sum of them.  Only
        # columns no deal changes, so that PostgreSQL updates a game's rows in place (HOT) as its
        # deals go in, and SQLite rewrites no index entry.
        Index("ix_game_results_by_date", "ranking", "played_on"),
        # The player page reads one person's rows.
        Index("ix_game_results_player_id_ranking_played_on", "player_id", "ranking", "played_on"),
        # Room on each page for a row's next version (a game's rows change with every deal).
        {"postgresql_with": {"fillfactor": 75}},
    )


class DealResult(db.Model):  # type: ignore[name-defined,misc]
    """One player's part in one completed deal, copied from the replay for player statistics."""

    __tablename__ = "deal_results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    contract: Mapped[str] = mapped_column(String(20))
    role: Mapped[str] = mapped_column(String(12))
    chooser: Mapped[bool]
    pick: Mapped[int | None]
    """For the chooser: this was their 1st, 2nd ... choice of the game (1 to its contracts)."""
    score: Mapped[int]
    made: Mapped[bool | None]
    """Quota made or bid made exactly; None where there is neither."""
    won: Mapped[bool]
    """Highest score of the deal (ties count for all tied)."""
    taken: Mapped[int | None]
    """What the contract counts that this player took (``Ruleset.taken``); None elsewhere."""
    bets: Mapped[int | None]
    """The side bets (``Ruleset.side_bets``: doubles) this player took part in, made or faced; None in a
    game without side bets."""
    bets_made: Mapped[int | None]
    bets_won: Mapped[int | None]
    """Side bets whose settlement was positive for this player (negative: ``bets_lost``; 0 neither)."""
    bets_lost: Mapped[int | None]
    bet_points: Mapped[int | None]
    """What the side bets moved for this player in the deal."""


class TotalColumns:
    """The columns ``player_totals`` and ``player_year_totals`` share: one player's sums in one
    ranking, copied from ``game_results``, and the sort keys the database keeps from them.

    Moved for the game's players in the same transaction as every write to a game; the
    rankings for all time and for this year read these rows (one a player) instead of
    summing every game of the period.  Every row ranks: a player's first deal makes it, and
    an undo that leaves it without deals removes it (a game without deals adds nothing).
    """

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    ranking: Mapped[str] = mapped_column(String(RANKING_LENGTH), primary_key=True)
    games: Mapped[int]
    """Finished games."""
    wins: Mapped[int]
    deals: Mapped[int]
    deal_wins: Mapped[int]
    points: Mapped[int]
    """Points in finished games."""
    best: Mapped[int | None]
    """Best total in a finished game."""
    # Sort keys of the figures shown as a share or an average, and of the best game, computed by the
    # database from the sums above (no writer sets them), so that an index ranks by each.
    win_pct_key: Mapped[float] = mapped_column(Float, _ratio_key("wins", "games", MIN_FOR_PERCENT))
    deal_pct_key: Mapped[float] = mapped_column(Float, _ratio_key("deal_wins", "deals", MIN_FOR_PERCENT))
    average_key: Mapped[float] = mapped_column(Float, _ratio_key("points", "games", 1))
    best_key: Mapped[int] = mapped_column(Computed(f"COALESCE(best, {NO_FIGURE})", persisted=True))


def _sort_indexes(table: str, *within: str) -> tuple[Any, ...]:
    """``__table_args__`` of a totals table: an index per sort of ``INDEXED_SORTS`` within
    (ranking, ``within``), and room on each page for a row's next version (a deal moves only
    unindexed columns, so PostgreSQL can write it beside the old one without touching an index)."""
    return (
        *(
            Index(f"ix_{table}_by_{sort}", "ranking", *within, *columns)
            for sort, columns in INDEXED_SORTS.items()
        ),
        {"postgresql_with": {"fillfactor": 75}},
    )


class PlayerTotal(TotalColumns, db.Model):  # type: ignore[name-defined,misc]
    """One player's sums in one ranking, over every game (the rankings of all time)."""

    __tablename__ = "player_totals"
    __table_args__ = _sort_indexes("player_totals")


class PlayerYearTotal(TotalColumns, db.Model):  # type: ignore[name-defined,misc]
    """One player's sums in one ranking, over the games played in one year (the rankings of this year)."""

    __tablename__ = "player_year_totals"

    year: Mapped[int] = mapped_column(primary_key=True)
    __table_args__ = _sort_indexes("player_year_totals", "year")


class Rating(db.Model):  # type: ignore[name-defined,misc]
    """One player's rating in one rating (``rules.ranking.rating_of``: a ruleset and preset, whatever
    the table's size): OpenSkill's mu and sigma after their ``games`` finished games of it, in the order
    the games finished (``stats.ratings``).  Derived like the totals: rewritten by the writes that
    change it, never by a read."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[str] = mapped_column(String(RANKING_LENGTH), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int]


class RatedGames(db.Model):  # type: ignore[name-defined,misc]
    """How far one rating has been applied: the last game in the order of finishing (its finish time
    and id) whose update the stored ratings hold.  Its row is the rating's lock: a write that rates a
    game takes it first, so two writes rate in turn, and a game that finished after it is applied on
    top of the stored ratings, any other by replaying the rating's games."""

    __tablename__ = "rated_games"

    rating: Mapped[str] = mapped_column(String(RANKING_LENGTH), primary_key=True)
    finished_at: Mapped[datetime | None]
    game_id: Mapped[str | None] = mapped_column(String(24))
    games: Mapped[int] = mapped_column(default=0, server_default="0")
    """The finished games the rating holds: a replay of more than ``RATINGS_REPLAY_AT_ONCE`` is left
    to run after the write commits."""
    updating: Mapped[bool] = mapped_column(default=False, server_default=false())
    """A replay is owed: the stored ratings miss a change until it has run (the pages say so)."""
    changes: Mapped[int] = mapped_column(default=0, server_default="0")
    """Bumped by every write that rates a game or owes a replay: a replay computed meanwhile is stale."""
