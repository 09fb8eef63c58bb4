"""Which games count (``Filters``), and each player's summed figures under them (``Record``).

The rankings and the player pages both read these sums: all time from the kept
``player_totals``, for a period summed from ``game_results`` in SQL.  Percentages are
shown from ``MIN_FOR_PERCENT`` games (or deals) on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..models import GameResult, Player, PlayerTotal
from ..rules import get_ruleset

MIN_FOR_PERCENT = 5
DEFAULT_RULESET = "mizerka"
PERIODS = {"all": _l("All time"), "year": _l("This year"), "30d": _l("Last 30 days")}


@dataclass(frozen=True)
class Filters:
    """Which games count: one ruleset, and all time, this year or the last 30 days (by date played)."""

    ruleset: str = DEFAULT_RULESET
    period: str = "all"

    def since(self, today: date) -> date | None:
        """The first date that counts (None: all time)."""
        if self.period == "year":
            return date(today.year, 1, 1)
        if self.period == "30d":
            return today - timedelta(days=29)  # today and the 29 days before it
        return None

    def where(self, today: date) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = [GameResult.ruleset == self.ruleset]
        since = self.since(today)
        if since is not None:
            conditions.append(GameResult.played_on >= since)
        return conditions

    def with_ruleset(self, ruleset: str) -> Filters:
        return replace(self, ruleset=ruleset)

    def with_period(self, period: str) -> Filters:
        return replace(self, period=period)

    @property
    def ruleset_name(self) -> str:
        return str(gettext(get_ruleset(self.ruleset).name))

    @property
    def period_label(self) -> str:
        return str(PERIODS[self.period])


def percent(part: int, whole: int) -> int | None:
    """``part`` of ``whole`` in whole percent, rounded half up; None below the threshold."""
    if whole < MIN_FOR_PERCENT:
        return None
    return (200 * part + whole) // (2 * whole)


def average(points: int, games: int) -> Decimal | None:
    """Points per game to one decimal place, rounded half up (None without games)."""
    if not games:
        return None
    return (Decimal(points) / Decimal(games)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


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

    @property
    def win_pct(self) -> int | None:
        return percent(self.wins, self.games)

    @property
    def deal_pct(self) -> int | None:
        return percent(self.deal_wins, self.deals)

    @property
    def average(self) -> Decimal | None:
        return average(self.points, self.games)


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


def summed_records(filters: Filters, today: date, player_id: int | None = None, *, kept: bool = True) -> Any:
    """Per player, the sums under ``filters``, with the name (a subquery).

    All time, they are the kept ``player_totals`` (``kept``); for a period they are summed
    from ``game_results``, grouped by player id alone so that the sums read the covering
    index in order (no sort on SQLite), the names joined afterwards.
    """
    sums: Any
    if kept and filters.since(today) is None:
        sums = select(
            PlayerTotal.player_id,
            PlayerTotal.games,
            PlayerTotal.wins,
            PlayerTotal.deals,
            PlayerTotal.deal_wins,
            PlayerTotal.points,
            PlayerTotal.best,
        ).where(PlayerTotal.ruleset == filters.ruleset)
        if player_id is not None:
            sums = sums.where(PlayerTotal.player_id == player_id)
    else:
        sums = (
            select(GameResult.player_id, *record_columns())
            .where(*filters.where(today))
            .group_by(GameResult.player_id)
        )
        if player_id is not None:
            sums = sums.where(GameResult.player_id == player_id)
    summed = sums.subquery()
    return (
        select(summed, Player.name, Player.name_key)
        .join(Player, Player.id == summed.c.player_id)
        .where(or_(summed.c.games > 0, summed.c.deals > 0))
        .subquery()
    )


def record_of(row: Any) -> Record:
    return Record(
        player_id=row.player_id,
        name=row.name,
        games=int(row.games or 0),
        wins=int(row.wins or 0),
        deals=int(row.deals or 0),
        deal_wins=int(row.deal_wins or 0),
        points=int(row.points or 0),
        best=None if row.best is None else int(row.best),
    )
