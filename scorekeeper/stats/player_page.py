"""A player's page: record, contracts, head-to-head, recent games, the chart and the best game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import Game, Player
from ..rules import Contract, Ruleset
from ..stored_figures import DealResult, GameResult
from .sums import Filters, Record, average, is_true, percent, rated, record_of, summed_records

RECENT_GAMES = 10
CHART_GAMES = 200


@dataclass(frozen=True)
class ContractFigures:
    """How a player fared with one contract (as chooser where a player chooses; else in every deal)."""

    contract: str
    label: str
    times: int
    by_pick: tuple[int, ...]
    """How often it was their 1st, 2nd ... choice of the game (where a player chooses)."""
    points: int
    made: int
    made_of: int
    taken: int = 0
    """What the contract counts that the player took, summed over ``taken_of`` deals (``Ruleset.taken``)."""
    taken_of: int = 0
    taken_or_not: bool = False
    """Whether ``taken`` counts deals (a card taken or not), else cards or tricks."""

    @property
    def taken_average(self) -> Decimal | None:
        """Tricks or cards taken per deal, to one decimal place."""
        return average(self.taken, self.taken_of)

    @property
    def taken_pct(self) -> int | None:
        return percent(self.taken, self.taken_of)

    @property
    def average(self) -> Decimal | None:
        """Points per deal, to one decimal place as every average the pages show."""
        return average(self.points, self.times)

    @property
    def made_pct(self) -> int | None:
        return percent(self.made, self.made_of)

    @property
    def average_pick(self) -> Decimal | None:
        weighted = sum(position * count for position, count in enumerate(self.by_pick, start=1))
        return average(weighted, sum(self.by_pick))


@dataclass(frozen=True)
class BetFigures:
    """A player's side bets (doubles) in a game that has them: taken part in (made or faced), made,
    won (their settlement positive for the player), lost (negative) and the points they moved."""

    bets: int
    made: int
    won: int
    lost: int
    points: int

    @property
    def faced(self) -> int:
        return self.bets - self.made

    @property
    def won_pct(self) -> int | None:
        return percent(self.won, self.bets)


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
    """Whether the contract figures are the player's own choices or every deal (no one chooses)."""
    head_to_head: list[HeadToHead]
    recent: list[GameLine]
    series: list[GameLine]
    """Finished games in date order, at most the last ``CHART_GAMES``."""
    best_game: GameLine | None
    picks: int = 0
    bets: BetFigures | None = None
    """The side bets' figures, in a game that has side bets (doubles)."""

    @property
    def shows_taken(self) -> bool:
        """Whether the figures per contract say what the player took (a game that counts more than
        tricks), not quotas or bids made."""
        return bool(self.filters.chosen.ruleset.facts)

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
    def made_apart(self) -> ContractFigures | None:
        """The figures of the contract the ruleset counts apart (``Ruleset.made_apart``), if any."""
        apart = self.filters.chosen.ruleset.made_apart
        return next((c for c in self.contracts if c.contract == apart), None) if apart else None


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
    """Everything on a player's page, in six queries whatever the number of games; None: no such player."""
    where = [GameResult.player_id == player_id, *filters.where(today)]
    finished = [*where, GameResult.finished]
    ruleset = filters.chosen.ruleset
    summed = summed_records(filters, today, player_id)
    columns = (summed.c[column] for column in ("games", "wins", "deals", "deal_wins", "points", "best"))
    query = select(Player.id.label("player_id"), Player.name, *columns).outerjoin(
        summed, summed.c.player_id == Player.id
    )
    found = db.session.execute(rated(query, filters, Player.id).where(Player.id == player_id)).one_or_none()
    if found is None:
        return None
    record = record_of(found)
    contracts, bets = _contracts(where, ruleset)
    return PlayerStats(
        player_id=player_id,
        name=record.name,
        filters=filters,
        record=record,
        contracts=contracts,
        as_chooser=ruleset.declares_contract,
        head_to_head=_head_to_head(finished),
        recent=_recent(where, player_id),
        series=_lines(finished, *_NEWEST_FIRST, limit=CHART_GAMES)[::-1],
        best_game=next(iter(_lines(finished, GameResult.total.desc(), *_NEWEST_FIRST, limit=1)), None),
        picks=ruleset.choices_per_player,
        bets=bets,
    )


#: A deal row's side-bet columns, summed for ``BetFigures`` in its order.
BET_SUMS = ("bets", "bets_made", "bets_won", "bets_lost", "bet_points")


def _contracts(where: list[Any], ruleset: Ruleset) -> tuple[list[ContractFigures], BetFigures | None]:
    """Each contract's figures: as chooser where a player chooses, else every deal of it; and
    in a game with side bets, the player's side bets over every deal (the same query, by chooser)."""
    betting = ruleset.has_side_bets
    query = (
        select(
            DealResult.contract,
            DealResult.pick,
            DealResult.chooser,
            func.count().label("times"),
            func.sum(DealResult.score).label("points"),
            func.sum(is_true(DealResult.made)).label("made"),
            func.count(DealResult.made).label("made_of"),
            func.sum(DealResult.taken).label("taken"),
            func.count(DealResult.taken).label("taken_of"),
            *(func.sum(getattr(DealResult, name)).label(name) for name in (BET_SUMS if betting else ())),
        )
        .join(GameResult, and_(GameResult.game_id == DealResult.game_id, GameResult.seat == DealResult.seat))
        .where(*where)
        .group_by(DealResult.contract, DealResult.pick, DealResult.chooser)
    )
    if ruleset.declares_contract and not betting:
        query = query.where(DealResult.chooser)
    every = db.session.execute(query).all()  # a row per contract, pick and chooser or not
    rows = [row for row in every if row.chooser or not ruleset.declares_contract]
    bets = (
        BetFigures(*(sum(int(getattr(row, name) or 0) for row in every) for name in BET_SUMS))
        if betting
        else None
    )

    def figures(contract: Contract) -> ContractFigures:
        mine = [row for row in rows if row.contract == contract.id]
        sums = {name: sum(int(getattr(row, name) or 0) for row in mine) for name in SUMMED}
        picks = range(1, ruleset.choices_per_player + 1)
        by_pick = tuple(sum(row.times for row in mine if row.pick == pick) for pick in picks)
        return ContractFigures(
            contract.id,
            contract.label,
            by_pick=by_pick,
            **sums,
            taken_or_not=ruleset.taken_or_not(contract.id),
        )

    return [figures(contract) for contract in ruleset.contracts], bets


#: The sums per contract, as ``_contracts`` selects them.
SUMMED = ("times", "points", "made", "made_of", "taken", "taken_of")


def _head_to_head(finished: list[Any]) -> list[HeadToHead]:
    """Each other player's finished games with this one, most games first."""
    other = aliased(GameResult)
    rows = db.session.execute(
        select(
            other.player_id,
            Player.name,
            func.count().label("games"),
            func.sum(case((GameResult.total > other.total, 1), else_=0)).label("ahead"),
            func.sum(case((GameResult.total < other.total, 1), else_=0)).label("behind"),
            func.sum(case((GameResult.total == other.total, 1), else_=0)).label("level"),
        )
        .join(other, and_(other.game_id == GameResult.game_id, other.player_id != GameResult.player_id))
        .join(Player, Player.id == other.player_id)
        .where(*finished)
        .group_by(other.player_id, Player.name)
    )
    found = [
        HeadToHead(
            player_id=row.player_id,
            name=row.name,
            games=row.games,
            ahead=int(row.ahead),
            behind=int(row.behind),
            level=int(row.level),
        )
        for row in rows
    ]
    return sorted(found, key=lambda h: (-h.games, h.name.casefold()))


_LINE_COLUMNS = (
    GameResult.game_id,
    GameResult.played_on,
    Game.note,
    GameResult.finished,
    GameResult.total,
    GameResult.rank,
    GameResult.deals_played,
    Game.created_at.label("created"),
)
_NEWEST_FIRST = (GameResult.played_on.desc(), Game.created_at.desc())


def _lines(where: list[Any], *order_by: Any, limit: int) -> list[GameLine]:
    """The first ``limit`` of the player's games in ``order_by``."""
    query = select(*_LINE_COLUMNS).join(Game, Game.id == GameResult.game_id).where(*where)
    return [_line(row) for row in db.session.execute(query.order_by(*order_by).limit(limit))]


def _recent(where: list[Any], player_id: int) -> list[GameLine]:
    """The last games, newest first, each with the names of the others at the table in seat order."""
    recent_ids = (
        select(GameResult.game_id)
        .join(Game, Game.id == GameResult.game_id)
        .where(*where)
        .order_by(*_NEWEST_FIRST)
        .limit(RECENT_GAMES)
        .subquery()
    )
    seat = aliased(GameResult)
    seats = db.session.execute(
        select(*_LINE_COLUMNS, Player.name.label("other_name"), seat.player_id.label("other_id"), seat.seat)
        .join(Game, Game.id == GameResult.game_id)
        .join(recent_ids, recent_ids.c.game_id == GameResult.game_id)
        .join(seat, seat.game_id == GameResult.game_id)
        .join(Player, Player.id == seat.player_id)
        .where(GameResult.player_id == player_id)
    )
    rows = sorted(seats, key=lambda row: (row.game_id, row.seat))
    rows.sort(key=lambda row: (row.played_on, row.created), reverse=True)  # stable: newest game first
    by_game: dict[str, list[Any]] = {}
    for row in rows:  # a row per seat of each game
        by_game.setdefault(row.game_id, []).append(row)
    return [
        replace(_line(game[0]), others=tuple(row.other_name for row in game if row.other_id != player_id))
        for game in by_game.values()
    ]
