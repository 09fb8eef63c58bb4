"""Which games count (``Filters``), and each player's summed figures under them (``Record``):
stored in ``player_totals`` for all time and ``player_year_totals`` for this year, summed from
``game_results`` for the last 30 days."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from sqlalchemy import Float, and_, case, cast, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..models import Player
from ..rules.ranking import DEFAULT_RANKING, Ranking, find_ranking, rating_of
from ..stored_figures import (
    MIN_FOR_PERCENT,
    NO_FIGURE,
    GameResult,
    PlayerTotal,
    PlayerYearTotal,
    RatedGames,
    Rating,
)
from .ratings import Rated

PERIODS = {"all": _l("All time"), "year": _l("This year"), "30d": _l("Last 30 days")}


def ranking_name(ranking: Ranking) -> str:
    """A ranking's name in the request's language: the ruleset, then the preset and the number of
    players where the ruleset has several and the preset's name does not say it ("Game · Variant",
    "Game · Standard · 4 players", "Game · Short (4 players)")."""
    ruleset = ranking.ruleset
    parts = [gettext(ruleset.name)]
    if len(ruleset.presets) > 1:
        parts.append(gettext(ranking.preset.label))
    if len(ruleset.seat_counts) > 1 and not ranking.preset.player_counts:  # "Short (4 players)" says it
        # NOTE: how many play in a ranking of a game played by 3 or 4 ("Game · Standard · 4 players").
        parts.append(ngettext("%(num)d player", "%(num)d players", ranking.players))
    return " · ".join(parts)


@dataclass(frozen=True)
class Filters:
    """Which games count: one ranking (its key), and all time, this year or the last 30 days (by
    date played)."""

    ranking: str = DEFAULT_RANKING
    period: str = "all"

    def since(self, today: date) -> date | None:
        """The first date that counts (None: all time)."""
        if self.period == "year":
            return date(today.year, 1, 1)
        if self.period == "30d":
            return today - timedelta(days=29)  # today and the 29 days before it
        return None

    @property
    def stored(self) -> bool:
        """Whether the period's sums are stored (all time, this year), not summed when shown."""
        return self.period != "30d"

    def where(self, today: date) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = [GameResult.ranking == self.ranking]
        since = self.since(today)
        if since is not None:
            conditions.append(GameResult.played_on >= since)
        return conditions

    def with_period(self, period: str) -> Filters:
        return replace(self, period=period)

    @property
    def chosen(self) -> Ranking:
        return find_ranking(self.ranking)

    @property
    def ranking_name(self) -> str:
        return ranking_name(self.chosen)

    @property
    def period_label(self) -> str:
        return str(PERIODS[self.period])


def percent(part: int, whole: int) -> int | None:
    """``part`` of ``whole`` in whole percent, rounded half up; None below the threshold."""
    if whole < MIN_FOR_PERCENT:
        return None
    return (200 * part + whole) // (2 * whole)


def average(total: int, count: int) -> Decimal | None:
    """``total`` per ``count`` (points per game) to one decimal place, rounded half up; None for no count."""
    if not count:
        return None
    return (Decimal(total) / Decimal(count)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


class Record(NamedTuple):
    """A player's summed figures under some filters (a tuple: a ranking makes a thousand of them)."""

    player_id: int
    name: str
    games: int
    wins: int
    deals: int
    deal_wins: int
    points: int
    best: int | None
    rating: Rated | None = None
    """The player's rating in the ranking's game and house rule (any period), None before their first."""
    updating: bool = False
    """The rating waits for a replay (``stats.ratings.replay``): the pages say it is being updated."""

    @property
    def win_pct(self) -> int | None:
        return percent(self.wins, self.games)

    @property
    def deal_pct(self) -> int | None:
        return percent(self.deal_wins, self.deals)

    @property
    def average(self) -> Decimal | None:
        return average(self.points, self.games)


#: A ``Record``'s sums, as ``player_totals`` keeps them and ``record_columns`` sums them.
SUMS = ("games", "wins", "deals", "deal_wins", "points", "best")


def is_true(column: Any) -> Any:
    return case((column, 1), else_=0)


def record_columns() -> list[Any]:
    finished = GameResult.finished
    return [
        func.sum(is_true(finished)).label("games"),
        func.sum(case((and_(finished, GameResult.rank == 1), 1), else_=0)).label("wins"),
        func.sum(GameResult.deals_played).label("deals"),
        func.sum(GameResult.deals_won).label("deal_wins"),
        func.sum(case((finished, GameResult.total), else_=0)).label("points"),
        func.max(case((finished, GameResult.total), else_=None)).label("best"),
    ]


def _ratio_key(part: Any, whole: Any, least: int) -> Any:
    """part / whole where whole >= least, else ``NO_FIGURE``: as ``player_totals`` keeps it."""
    return case((whole >= least, cast(part, Float) / whole), else_=NO_FIGURE)


def summed_records(
    filters: Filters,
    today: date,
    player_id: int | None = None,
    *,
    stored: bool = True,
    finished: bool = False,
) -> Any:
    """A subquery: per player with a game or a deal, the sums under ``filters``, the name and the
    sort keys; from the stored totals where they hold the period (``stored``), else summed from
    ``game_results``.  ``finished``: only the players with a finished game (the rankings).
    """
    if stored and filters.stored:
        totals = PlayerYearTotal if filters.period == "year" else PlayerTotal
        columns = (*("player_id", *SUMS), "win_pct_key", "deal_pct_key", "average_key", "best_key")
        stored_rows = select(*(getattr(totals, column) for column in columns), Player.name, Player.name_key)
        stored_rows = stored_rows.join(Player, Player.id == totals.player_id)
        stored_rows = stored_rows.where(totals.ranking == filters.ranking)
        if totals is PlayerYearTotal:
            stored_rows = stored_rows.where(PlayerYearTotal.year == today.year)
        if finished:  # the indexes by sort hold ``games`` too
            stored_rows = stored_rows.where(totals.games > 0)
        if player_id is not None:
            stored_rows = stored_rows.where(totals.player_id == player_id)
        return stored_rows.subquery()
    sums = (
        select(GameResult.player_id, *record_columns())
        .where(*filters.where(today))
        .group_by(GameResult.player_id)
    )
    if player_id is not None:
        sums = sums.where(GameResult.player_id == player_id)
    summed = sums.subquery()
    c = summed.c
    return (
        select(
            summed,
            Player.name,
            Player.name_key,
            _ratio_key(c.wins, c.games, MIN_FOR_PERCENT).label("win_pct_key"),
            _ratio_key(c.deal_wins, c.deals, MIN_FOR_PERCENT).label("deal_pct_key"),
            _ratio_key(c.points, c.games, 1).label("average_key"),
            func.coalesce(c.best, NO_FIGURE).label("best_key"),
        )
        .join(Player, Player.id == c.player_id)
        .where(c.games > 0 if finished else or_(c.games > 0, c.deals > 0))
        .subquery()
    )


def rated(query: Any, filters: Filters, player_id: Any) -> Any:
    """``query`` with the columns of a player's rating in the filters' ranking (``record_of`` reads them)
    and whether it is updating, joined to ``player_id``: they ride along the row of the player's sums."""
    rating = rating_of(filters.ranking)
    return (
        query.add_columns(Rating.mu, Rating.sigma, Rating.games.label("rated_games"), RatedGames.updating)
        .outerjoin(Rating, and_(Rating.player_id == player_id, Rating.rating == rating))
        .outerjoin(RatedGames, RatedGames.rating == rating)
    )


def record_of(row: Any) -> Record:
    games, wins, deals, deal_wins, points = (int(getattr(row, column) or 0) for column in SUMS[:-1])
    best = None if row.best is None else int(row.best)
    mu = getattr(row, "mu", None)
    rating = None if mu is None else Rated(mu, row.sigma, row.rated_games)
    updating = bool(getattr(row, "updating", False))
    return Record(row.player_id, row.name, games, wins, deals, deal_wins, points, best, rating, updating)
