"""A player's page: record, contracts, head-to-head, recent games and the chart, in four queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import Integer, String, and_, case, cast, func, literal, null, select, union_all
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import DealResult, Game, GameResult, Player
from ..rules import get_ruleset
from .sums import Filters, Record, is_true, percent, record_of, summed_records

RECENT_GAMES = 10
CHART_GAMES = 200


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
    summed = summed_records(filters, today, player_id)
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
    record = record_of(found)

    # Contracts: as chooser where a player chooses (Mizerka), else every deal of that kind.
    as_chooser = ruleset.declares_contract
    contract_query = (
        select(
            literal("contract").label("kind"),
            DealResult.contract.label("text"),
            DealResult.pick.label("number"),
            # One UNION ALL with the head-to-head rows: each column is named for both.
            func.count().label("times_or_games"),
            func.sum(DealResult.score).label("points_or_ahead"),
            func.sum(is_true(DealResult.made)).label("made_or_behind"),
            func.count(DealResult.made).label("made_of_or_level"),
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
    picks_per_game = ruleset.choices_per_player
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    pick_counts: dict[str, list[int]] = defaultdict(lambda: [0] * picks_per_game)
    head_to_head: list[HeadToHead] = []
    for row in db.session.execute(union_all(contract_query, head_query)):
        if row.kind == "head":
            head_to_head.append(
                HeadToHead(
                    player_id=row.number,
                    name=row.text,
                    games=row.times_or_games,
                    ahead=int(row.points_or_ahead),
                    behind=int(row.made_or_behind),
                    level=int(row.made_of_or_level),
                )
            )
            continue
        contract_sums = sums[row.text]
        contract_sums[0] += row.times_or_games
        contract_sums[1] += int(row.points_or_ahead or 0)
        contract_sums[2] += int(row.made_or_behind or 0)
        contract_sums[3] += int(row.made_of_or_level or 0)
        if row.number is not None and 1 <= row.number <= picks_per_game:
            pick_counts[row.text][row.number - 1] += row.times_or_games
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
