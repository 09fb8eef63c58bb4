"""Figures across games: rankings, a player's statistics, and the per-game figures behind them.

Every figure comes from the replay.  ``figures`` turns one replayed game into
rows of ``game_results`` and ``deal_results``; the services rewrite those rows,
and the game's players' all-time ``player_totals``, in the same transaction as
every write to the game (``write_results``), so the pages below read or sum
them in SQL with a fixed number of queries, whatever the number of games or
deals.  Tests check all three always equal the replay.

Definitions (the rankings page says the same in words):

* a *game played* is a finished game; it is *won* by everyone whose total is
  highest (ties count as wins for all tied);
* a *deal played* is a completed deal of any game, finished or not; it is *won*
  by everyone whose score in it is highest (ties count for all tied);
* points, the average per game and the best game count finished games only;
* percentages are shown from ``MIN_FOR_PERCENT`` games (or deals) on.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from sqlalchemy import (
    Float,
    Integer,
    String,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from .extensions import db
from .models import DealResult, Game, GameResult, Player, PlayerTotal, Seat
from .rules import RULESETS, GameState, get_ruleset

MIN_FOR_PERCENT = 5
DEFAULT_RULESET = "mizerka"
PERIODS = {"all": "All time", "year": "This year", "30d": "Last 30 days"}
RECENT_GAMES = 10
CHART_GAMES = 200


# -- figures of one game (pure) ------------------------------------------------------------------


def figures(
    state: GameState, *, game_id: str, player_ids: Sequence[int], played_on: date
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``game_results`` and ``deal_results`` rows of one replayed game, as plain dicts.

    Pure: the services, the migration that back-fills old games and the demo
    seeder all call this, so there is one way to compute a figure.
    """
    seats = range(len(player_ids))
    rank_of = {standing.seat: standing.rank for standing in state.standings}
    deals_won = [0 for _ in seats]
    picks = [0 for _ in seats]
    completed = 0
    deal_rows: list[dict[str, Any]] = []
    for deal in state.deals:
        if deal.scores is None or deal.tricks is None:
            continue  # a pending deal has no score yet
        completed += 1
        best = max(deal.scores)
        if deal.chooser is not None:
            picks[deal.chooser] += 1
        for seat in seats:
            won = deal.scores[seat] == best
            deals_won[seat] += won
            if deal.bids is not None:
                made: bool | None = deal.tricks[seat] == deal.bids[seat]
            elif deal.quotas is not None:
                # Mizerka: the score is +-(tricks - quota) with the sign that rewards the aim.
                made = deal.scores[seat] >= 0
            else:
                made = None
            chooser = deal.chooser == seat
            deal_rows.append(
                {
                    "game_id": game_id,
                    "number": deal.number,
                    "seat": seat,
                    "player_id": player_ids[seat],
                    "contract": deal.contract,
                    "role": deal.roles[seat],
                    "chooser": chooser,
                    "pick": picks[seat] if chooser else None,
                    "score": deal.scores[seat],
                    "made": made,
                    "won": won,
                }
            )
    game_rows = [
        {
            "game_id": game_id,
            "seat": seat,
            "player_id": player_ids[seat],
            "ruleset": state.setup.ruleset,
            "played_on": played_on,
            "finished": state.finished,
            "total": state.totals[seat],
            "rank": rank_of[seat],
            "deals_played": completed,
            "deals_won": deals_won[seat],
        }
        for seat in seats
    ]
    return game_rows, deal_rows


def write_results(game: Game, state: GameState) -> None:
    """Replace the game's stored figures with those of ``state`` (inside the caller's transaction)."""
    game_rows, deal_rows = figures(
        state,
        game_id=game.id,
        player_ids=[seat.player_id for seat in game.seats],
        played_on=game.played_on,
    )
    db.session.execute(delete(DealResult).where(DealResult.game_id == game.id))
    db.session.execute(delete(GameResult).where(GameResult.game_id == game.id))
    # render_nulls: rows with and without a None (``pick``, ``made``) go in one batch, not one statement each.
    db.session.execute(insert(GameResult).execution_options(render_nulls=True), game_rows)
    if deal_rows:
        db.session.execute(insert(DealResult).execution_options(render_nulls=True), deal_rows)
    refresh_totals([row["player_id"] for row in game_rows], game.ruleset)


def write_new(*, game_id: str, player_ids: Sequence[int], played_on: date, state: GameState) -> None:
    """Store the figures of a game just created (inside its transaction): its rows of ``game_results``.

    It has no deals yet, so it adds nothing to any ``player_totals``: those rows are left as
    they are (a player with no row yet gets one when their first deal is scored).
    """
    game_rows, deal_rows = figures(state, game_id=game_id, player_ids=player_ids, played_on=played_on)
    connection = db.session.connection()
    connection.execute(insert(GameResult.__table__), game_rows)
    if deal_rows:
        connection.execute(_INSERT_DEAL_ROWS, deal_rows)


def write_changes(
    *,
    game_id: str,
    player_ids: Sequence[int],
    played_on: date,
    before: GameState,
    after: GameState,
) -> None:
    """Bring the game's stored figures from those of ``before`` to those of ``after``.

    For a write to an existing game (inside its transaction): the stored rows are the
    figures of ``before`` (every write keeps them so), so only the rows that differ are
    written: recording a deal inserts that deal's rows and updates the game's, and the
    players' all-time ``player_totals`` move by the difference instead of being re-summed.
    Statements are built once (below) and sent with ``executemany``: a deal costs a
    handful of round trips, whatever the number of deals or games.
    """
    old_games, old_deals = figures(before, game_id=game_id, player_ids=player_ids, played_on=played_on)
    new_games, new_deals = figures(after, game_id=game_id, player_ids=player_ids, played_on=played_on)
    connection = db.session.connection()

    old_by_key = {(row["number"], row["seat"]): row for row in old_deals}
    new_by_key = {(row["number"], row["seat"]): row for row in new_deals}
    gone = sorted({number for number, seat in old_by_key if (number, seat) not in new_by_key})
    if gone:
        connection.execute(_DELETE_DEAL_ROWS, {"game_id": game_id, "numbers": gone})
    added = [row for key, row in new_by_key.items() if key not in old_by_key]
    if added:
        connection.execute(_INSERT_DEAL_ROWS, added)
    changed = [row for key, row in new_by_key.items() if key in old_by_key and old_by_key[key] != row]
    if changed:
        connection.execute(_UPDATE_DEAL_ROWS, [_keyed(row, _DEAL_ROW_KEY) for row in changed])

    if old_games != new_games:
        params: dict[str, Any] = {"of_game": game_id}
        for row in new_games:
            params.update((f"{column}_{row['seat']}", row[column]) for column in _GAME_ROW_CHANGES)
        connection.execute(_update_game_rows(len(new_games)), params)
    _move_totals(before.setup.ruleset, old_games, new_games)


def _keyed(row: dict[str, Any], key: tuple[str, ...]) -> dict[str, Any]:
    """``row`` as parameters of an UPDATE by primary key ``key`` (``key_*`` find it, the rest is set)."""
    return {f"key_{column}" if column in key else column: value for column, value in row.items()}


def _by_key(table: Any, key: tuple[str, ...]) -> Any:
    """UPDATE ``table`` WHERE its primary key ``key`` equals the ``key_*`` parameters; SET the others."""
    return update(table).where(*(table.c[column] == bindparam(f"key_{column}") for column in key))


def _counted(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """What one game row adds to its player's totals: games, wins, deals, deals won, points."""
    finished = bool(row["finished"])
    return (
        int(finished),
        int(finished and row["rank"] == 1),
        row["deals_played"],
        row["deals_won"],
        row["total"] if finished else 0,
    )


def _move_totals(ruleset: str, old_games: list[dict[str, Any]], new_games: list[dict[str, Any]]) -> None:
    """Move each player's ``player_totals`` by the difference between their old and new game row.

    Sums move by their difference; the best game only grows, so a finished game whose total
    changes, or that is no longer finished, re-sums that player's totals instead.  So does a
    player whose row is not there (a concurrent re-sum replaced it): never a wrong total.
    One statement moves them all.
    """
    resum: list[int] = []
    moves: list[tuple[int, list[int], int | None]] = []  # player, deltas, a new best game's total
    for old, new in zip(old_games, new_games, strict=True):
        if old["finished"] and (not new["finished"] or old["total"] != new["total"]):
            resum.append(new["player_id"])
            continue
        delta = [n - o for n, o in zip(_counted(new), _counted(old), strict=True)]
        new_best = new["total"] if new["finished"] and not old["finished"] else None
        if any(delta) or new_best is not None:
            moves.append((new["player_id"], delta, new_best))
    if moves:
        params: dict[str, Any] = {"of_ruleset": ruleset}
        for i, (player_id, delta, new_best) in enumerate(moves):
            params[f"player_{i}"] = player_id
            params[f"best_{i}"] = new_best
            params.update((f"{column}_{i}", value) for column, value in zip(_TOTALS, delta, strict=True))
        result = db.session.connection().execute(_move_totals_statement(len(moves)), params)
        if result.rowcount != len(moves):
            resum.extend(player_id for player_id, _delta, _best in moves)
    if resum:
        refresh_totals(resum, ruleset)


_DEAL_ROW_KEY = ("game_id", "number", "seat")
# render_nulls: rows with and without a None (``pick``, ``made``) go in one batch, not one statement each.
_INSERT_DEAL_ROWS = insert(DealResult.__table__).execution_options(render_nulls=True)
_UPDATE_DEAL_ROWS = _by_key(DealResult.__table__, _DEAL_ROW_KEY)
_DELETE_DEAL_ROWS = delete(DealResult.__table__).where(
    DealResult.__table__.c.game_id == bindparam("game_id"),
    DealResult.__table__.c.number.in_(bindparam("numbers", expanding=True)),
)
#: What a write to a game's deals can change in its rows of ``game_results``.
_GAME_ROW_CHANGES = ("finished", "total", "rank", "deals_played", "deals_won")
#: The sums of ``player_totals`` that move by a difference.
_TOTALS = ("games", "wins", "deals", "deal_wins", "points")


@functools.cache
def _update_game_rows(seats: int) -> Any:
    """One UPDATE for every row of a game: each column set seat by seat (CASE seat WHEN ...)."""
    table = GameResult.__table__
    values = {
        column: case(
            *(
                (table.c.seat == seat, bindparam(f"{column}_{seat}", type_=table.c[column].type))
                for seat in range(seats)
            ),
            else_=table.c[column],
        )
        for column in _GAME_ROW_CHANGES
    }
    return update(table).where(table.c.game_id == bindparam("of_game")).values(values)


@functools.cache
def _move_totals_statement(players: int) -> Any:
    """One UPDATE moving ``players`` players' totals by their differences (CASE player_id WHEN ...).

    The best game only grows: to the new total when it is higher (or there was none).
    """
    totals = PlayerTotal.__table__
    ids = [bindparam(f"player_{i}", type_=Integer) for i in range(players)]

    def per_player(value: Any, else_: Any) -> Any:
        return case(*((totals.c.player_id == ids[i], value(i)) for i in range(players)), else_=else_)

    def grown(i: int) -> Any:
        best = bindparam(f"best_{i}", type_=Integer)
        grows = and_(best.is_not(None), or_(totals.c.best.is_(None), totals.c.best < best))
        return case((grows, best), else_=totals.c.best)

    values: dict[str, Any] = {
        column: totals.c[column]
        + per_player(lambda i, column=column: bindparam(f"{column}_{i}", type_=Integer), 0)
        for column in _TOTALS
    }
    values["best"] = per_player(grown, totals.c.best)
    return (
        update(totals)
        .where(totals.c.ruleset == bindparam("of_ruleset"), totals.c.player_id.in_(ids))
        .values(values)
    )


def refresh_totals(player_ids: Sequence[int] | None = None, ruleset: str | None = None) -> None:
    """Rewrite ``player_totals`` from ``game_results``: for some players (and one ruleset), or all.

    The players' rows are locked first (PostgreSQL), so two games sharing a player that
    are written at the same moment take turns here, and the second sums what the first wrote.
    """
    ids: list[int] = []
    if player_ids is not None:
        ids = sorted(set(player_ids))
        # FOR NO KEY UPDATE: it queues writers here but not the foreign-key checks (KEY SHARE) of
        # the rows just inserted for these players; FOR UPDATE would deadlock two such writers.
        lock = select(Player.id).where(Player.id.in_(ids)).order_by(Player.id).with_for_update(key_share=True)
        db.session.execute(lock)
    stale = delete(PlayerTotal)
    sums = select(GameResult.player_id, GameResult.ruleset, *_record_columns()).group_by(
        GameResult.player_id, GameResult.ruleset
    )
    if player_ids is not None:
        stale = stale.where(PlayerTotal.player_id.in_(ids))
        sums = sums.where(GameResult.player_id.in_(ids))
    if ruleset is not None:
        stale = stale.where(PlayerTotal.ruleset == ruleset)
        sums = sums.where(GameResult.ruleset == ruleset)
    db.session.execute(stale)
    columns = ["player_id", "ruleset", "games", "wins", "deals", "deal_wins", "points", "best"]
    db.session.execute(insert(PlayerTotal).from_select(columns, sums))


# -- filters ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """Which games count: one ruleset, and all time, this year or the last 30 days (by date played)."""

    ruleset: str = DEFAULT_RULESET
    period: str = "all"

    @classmethod
    def from_args(cls, args: Any) -> Filters:
        """From query arguments ``game`` and ``period``; anything unknown falls back to the default."""
        ruleset = args.get("game", DEFAULT_RULESET)
        period = args.get("period", "all")
        return cls(
            ruleset=ruleset if ruleset in RULESETS else DEFAULT_RULESET,
            period=period if period in PERIODS else "all",
        )

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
        return get_ruleset(self.ruleset).name

    @property
    def period_label(self) -> str:
        return PERIODS[self.period]


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


# -- rankings ---------------------------------------------------------------------------------------


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


def _is_true(column: Any) -> Any:
    return case((column, 1), else_=0)


def _record_columns() -> list[Any]:
    finished = GameResult.finished
    return [
        func.sum(_is_true(finished)).label("games"),
        func.sum(case((and_(finished, GameResult.rank == 1), 1), else_=0)).label("wins"),
        func.sum(GameResult.deals_played).label("deals"),
        func.sum(GameResult.deals_won).label("deal_wins"),
        func.sum(case((finished, GameResult.total), else_=0)).label("points"),
        func.max(case((finished, GameResult.total), else_=None)).label("best"),
    ]


def _summed(filters: Filters, today: date, player_id: int | None = None, *, kept: bool = True) -> Any:
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
            select(GameResult.player_id, *_record_columns())
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


def _record(row: Any) -> Record:
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


#: Sortable columns: id -> (label, descending first?).
COLUMNS: dict[str, tuple[str, bool]] = {
    "name": ("Player", False),
    "games": ("Games", True),
    "wins": ("Won", True),
    "win_pct": ("Won %", True),
    "deals": ("Deals", True),
    "deal_wins": ("Deals won", True),
    "deal_pct": ("Deals won %", True),
    "points": ("Points", True),
    "average": ("Per game", True),
    "best": ("Best game", True),
}
DEFAULT_SORT = "wins"
PER_PAGE = 100


@dataclass(frozen=True)
class Rankings:
    filters: Filters
    rows: list[Record]
    """This page's rows."""
    sort: str
    descending: bool
    page: int = 1
    pages: int = 1
    count: int = 0
    """Players ranked, on every page."""
    first: int = 1
    """Position of this page's first row."""


def _ratio(part: Any, whole: Any, least: int) -> Any:
    """part / whole where whole >= least, else NULL (a percentage not shown yet sorts last)."""
    return case((whole >= least, cast(part, Float) / whole), else_=None)


def _order(summed: Any, sort: str, descending: bool) -> list[Any]:
    """ORDER BY for one column.  Players without a figure there (too few games) come last; equal
    figures (and the figureless) go by more wins, then more points, then the name."""
    c = summed.c
    if sort == "name":
        return [c.name_key.desc() if descending else c.name_key.asc()]
    value = {
        "games": c.games,
        "wins": c.wins,
        "win_pct": _ratio(c.wins, c.games, MIN_FOR_PERCENT),
        "deals": c.deals,
        "deal_wins": c.deal_wins,
        "deal_pct": _ratio(c.deal_wins, c.deals, MIN_FOR_PERCENT),
        "points": c.points,
        "average": _ratio(c.points, c.games, 1),
        "best": c.best,
    }[sort]
    first = value.desc().nulls_last() if descending else value.asc().nulls_last()
    return [first, c.wins.desc(), c.points.desc(), c.name_key.asc()]


def rankings(
    filters: Filters,
    today: date,
    sort: str = DEFAULT_SORT,
    descending: bool | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
    *,
    kept: bool = True,
) -> Rankings:
    """Players with a game or a deal under ``filters``, sorted by ``sort``: one page of them.

    One query: the database sums, sorts and cuts the page, so only the rows shown reach Python.
    """
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    if descending is None:
        descending = COLUMNS[sort][1]
    summed = _summed(filters, today, kept=kept)
    page = max(1, page)

    def fetch(page: int) -> list[Any]:
        query = (
            select(summed, func.count().over().label("ranked"))
            .order_by(*_order(summed, sort, descending))
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
        return list(db.session.execute(query))

    rows = fetch(page)
    if not rows and page > 1:  # past the last page (an old link): show the last one
        count = db.session.execute(select(func.count()).select_from(summed)).scalar_one()
        page = max(1, -(-count // per_page))
        rows = fetch(page)
    count = rows[0].ranked if rows else 0
    return Rankings(
        filters,
        [_record(row) for row in rows],
        sort,
        descending,
        page=page,
        pages=max(1, -(-count // per_page)),
        count=count,
        first=(page - 1) * per_page + 1,
    )


# -- one player -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContractFigures:
    """How a player fared with one contract (as chooser, in Mizerka; in every deal, in Misère)."""

    contract: str
    label: str
    times: int
    by_pick: tuple[int, ...]
    """How often it was their 1st, 2nd ... choice of the game (Mizerka)."""
    points: int
    made: int
    made_of: int

    @property
    def average(self) -> Decimal | None:
        if not self.times:
            return None
        return (Decimal(self.points) / Decimal(self.times)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

    @property
    def made_pct(self) -> int | None:
        return percent(self.made, self.made_of)

    @property
    def average_pick(self) -> Decimal | None:
        picked = sum(self.by_pick)
        if not picked:
            return None
        weighted = sum(position * count for position, count in enumerate(self.by_pick, start=1))
        return (Decimal(weighted) / Decimal(picked)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class HeadToHead:
    player_id: int
    name: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class GameLine:
    """One of the player's games, for the recent list and the chart."""

    game_id: str
    played_on: date
    note: str | None
    finished: bool
    total: int
    rank: int
    deals_played: int
    others: tuple[str, ...] = ()

    @property
    def won(self) -> bool:
        return self.finished and self.rank == 1


@dataclass(frozen=True)
class PlayerStats:
    player_id: int
    name: str
    filters: Filters
    record: Record
    contracts: list[ContractFigures]
    as_chooser: bool
    """Whether the contract figures are the player's own choices (Mizerka) or every deal (Misère)."""
    head_to_head: list[HeadToHead]
    recent: list[GameLine]
    series: list[GameLine]
    """Finished games in date order, at most the last ``CHART_GAMES``."""
    best_game: GameLine | None
    picks: int = field(default=0)

    @property
    def best_contract(self) -> ContractFigures | None:
        played = [c for c in self.contracts if c.times]
        return max(played, key=lambda c: (c.average, c.times)) if played else None

    @property
    def worst_contract(self) -> ContractFigures | None:
        played = [c for c in self.contracts if c.times]
        if len(played) < 2:
            return None
        return min(played, key=lambda c: (c.average, -c.times))

    @property
    def mizerka(self) -> ContractFigures | None:
        if self.filters.ruleset != "mizerka":
            return None
        return next((c for c in self.contracts if c.contract == "mizerka"), None)


def _line(row: Any) -> GameLine:
    return GameLine(
        game_id=row.game_id,
        played_on=row.played_on,
        note=row.note,
        finished=bool(row.finished),
        total=row.total,
        rank=row.rank,
        deals_played=row.deals_played,
    )


def player_stats(player_id: int, filters: Filters, today: date) -> PlayerStats | None:
    """Everything on a player's page, in four queries whatever the number of games; None: no such player.

    1. the player with their record; 2. their contracts and their head-to-head, as one
    UNION ALL; 3. their recent games with everyone who sat in them, the chart's games
    and the best game, as one UNION ALL (sorted here); and the name of each.
    """
    where = [GameResult.player_id == player_id, *filters.where(today)]
    ruleset = get_ruleset(filters.ruleset)
    summed = _summed(filters, today, player_id)
    found = db.session.execute(
        select(
            Player.id.label("player_id"),
            Player.name,
            *(summed.c[column] for column in ("games", "wins", "deals", "deal_wins", "points", "best")),
        )
        .outerjoin(summed, summed.c.player_id == Player.id)
        .where(Player.id == player_id)
    ).one_or_none()
    if found is None:
        return None
    record = _record(found)

    # Contracts: as chooser where a player chooses (Mizerka), else every deal of that kind.
    as_chooser = ruleset.declares_contract
    contract_query = (
        select(
            literal("contract").label("kind"),
            DealResult.contract.label("text"),
            DealResult.pick.label("number"),
            func.count().label("a"),  # times
            func.sum(DealResult.score).label("b"),  # points
            func.sum(_is_true(DealResult.made)).label("c"),  # made
            func.count(DealResult.made).label("d"),  # made of
        )
        .join(GameResult, and_(GameResult.game_id == DealResult.game_id, GameResult.seat == DealResult.seat))
        .where(*where)
        .group_by(DealResult.contract, DealResult.pick)
    )
    if as_chooser:
        contract_query = contract_query.where(DealResult.chooser)
    # Head to head: every finished game this player shared with each other player.
    other = GameResult.__table__.alias("other")
    head_query = (
        select(
            literal("head").label("kind"),
            Player.name,
            other.c.player_id,
            func.count(),  # games
            func.sum(case((GameResult.total > other.c.total, 1), else_=0)),  # ahead
            func.sum(case((GameResult.total < other.c.total, 1), else_=0)),  # behind
            func.sum(case((GameResult.total == other.c.total, 1), else_=0)),  # level
        )
        .join(other, and_(other.c.game_id == GameResult.game_id, other.c.player_id != GameResult.player_id))
        .join(Player, Player.id == other.c.player_id)
        .where(*where, GameResult.finished)
        .group_by(other.c.player_id, Player.name)
    )
    picks_per_game = ruleset.deal_count // ruleset.player_count if as_chooser else 0
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    pick_counts: dict[str, list[int]] = defaultdict(lambda: [0] * picks_per_game)
    head_to_head: list[HeadToHead] = []
    for row in db.session.execute(union_all(contract_query, head_query)):
        if row.kind == "head":
            head_to_head.append(HeadToHead(row.number, row.text, row.a, int(row.b), int(row.c), int(row.d)))
            continue
        figures_ = sums[row.text]
        figures_[0] += row.a
        figures_[1] += int(row.b or 0)
        figures_[2] += int(row.c or 0)
        figures_[3] += int(row.d or 0)
        if row.number is not None and 1 <= row.number <= picks_per_game:
            pick_counts[row.text][row.number - 1] += row.a
    head_to_head.sort(key=lambda h: (-h.games, h.name.casefold()))
    contracts = [
        ContractFigures(
            contract=c.id,
            label=c.label,
            times=sums[c.id][0],
            by_pick=tuple(pick_counts[c.id]),
            points=sums[c.id][1],
            made=sums[c.id][2],
            made_of=sums[c.id][3],
        )
        for c in ruleset.contracts
    ]

    line_columns = (
        GameResult.game_id,
        GameResult.played_on,
        Game.note,
        GameResult.finished,
        GameResult.total,
        GameResult.rank,
        GameResult.deals_played,
        Game.created_at.label("created"),
    )
    newest_first = (GameResult.played_on.desc(), Game.created_at.desc())
    # Recent games with everyone who sat in them (the last games, joined to their seats) ...
    recent_ids = (
        select(GameResult.game_id, Game.created_at)
        .join(Game, Game.id == GameResult.game_id)
        .where(*where)
        .order_by(*newest_first)
        .limit(RECENT_GAMES)
        .subquery()
    )
    seat = aliased(GameResult)
    recent_query = (
        select(
            literal("recent").label("kind"),
            *line_columns,
            Player.name.label("other_name"),
            seat.player_id.label("other_id"),
            seat.seat.label("other_seat"),
        )
        .join(Game, Game.id == GameResult.game_id)
        .join(recent_ids, recent_ids.c.game_id == GameResult.game_id)
        .join(seat, seat.game_id == GameResult.game_id)
        .join(Player, Player.id == seat.player_id)
        .where(GameResult.player_id == player_id)
    )
    # ... the chart's games (the last CHART_GAMES finished) and the best game.
    finished = [*where, GameResult.finished]
    # Typed NULLs: PostgreSQL types a bare NULL in a subquery as text, which no integer matches.
    no_seat = (
        cast(null(), String).label("other_name"),
        cast(null(), Integer).label("other_id"),
        cast(null(), Integer).label("other_seat"),
    )
    chart_games = (
        select(literal("chart").label("kind"), *line_columns, *no_seat)
        .join(Game, Game.id == GameResult.game_id)
        .where(*finished)
        .order_by(*newest_first)
        .limit(CHART_GAMES)
        .subquery()
    )
    best_game = (
        select(literal("best").label("kind"), *line_columns, *no_seat)
        .join(Game, Game.id == GameResult.game_id)
        .where(*finished)
        .order_by(GameResult.total.desc(), *newest_first)
        .limit(1)
        .subquery()
    )
    lines: Sequence[Any] = db.session.execute(
        union_all(recent_query, select(chart_games), select(best_game))
    ).all()
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for row in lines:
        by_kind[row.kind].append(row)

    seats = sorted(by_kind["recent"], key=lambda row: (row.game_id, row.other_seat))
    seats.sort(key=lambda row: (row.played_on, row.created), reverse=True)  # stable: newest game first
    recent: list[GameLine] = []
    others: dict[str, list[str]] = {}
    for row in seats:  # a row per seat of each game
        if row.game_id not in others:
            others[row.game_id] = []
            recent.append(_line(row))
        if row.other_id != player_id:
            others[row.game_id].append(row.other_name)
    recent = [replace(line, others=tuple(others[line.game_id])) for line in recent]
    series = [_line(row) for row in sorted(by_kind["chart"], key=lambda row: (row.played_on, row.created))]
    best_row = by_kind["best"][0] if by_kind["best"] else None
    return PlayerStats(
        player_id=player_id,
        name=record.name,
        filters=filters,
        record=record,
        contracts=contracts,
        as_chooser=as_chooser,
        head_to_head=head_to_head,
        recent=recent,
        series=series,
        best_game=None if best_row is None else _line(best_row),
        picks=picks_per_game,
    )


# -- lists of people ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PersonLine:
    player_id: int
    name: str
    games: int
    last_played: date | None


def people() -> list[PersonLine]:
    """Every player with how many games they sat in and when they last played, most recent first."""
    last = func.max(GameResult.played_on)
    query = (
        select(Player.id, Player.name, func.count(GameResult.game_id).label("games"), last.label("last"))
        .outerjoin(GameResult, GameResult.player_id == Player.id)
        .group_by(Player.id, Player.name, Player.name_key)
        .order_by(Player.name_key)
    )
    return [PersonLine(row.id, row.name, row.games, row.last) for row in db.session.execute(query)]


def known_players() -> list[str]:
    """Every player's name, alphabetically (for the new-game type-ahead)."""
    return list(db.session.execute(select(Player.name).order_by(Player.name_key)).scalars())


def recent_players(limit: int) -> list[str]:
    """Names of the people in the most recently started games (for the new-game tap list)."""
    query = (
        select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .join(Game, Game.id == Seat.game_id)
        .order_by(Game.created_at.desc(), Seat.game_id, Seat.position)
        .limit(limit * 4)
    )
    names = dict.fromkeys(db.session.execute(query).scalars())
    return list(names)[:limit]


__all__ = [
    "COLUMNS",
    "MIN_FOR_PERCENT",
    "PERIODS",
    "Filters",
    "PlayerStats",
    "Rankings",
    "Record",
    "figures",
    "known_players",
    "people",
    "player_stats",
    "rankings",
    "recent_players",
    "write_changes",
    "write_new",
    "write_results",
]
