"""A club night read whole for its pages and the API: players, rounds, tables, the table games'
figures and the standings derived from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property

from sqlalchemy import select

from ...errors import not_found
from ...extensions import db
from ...models import Night, NightPlayer, NightRound, NightTable, Player
from ...nights.points import Standing, TableResult, night_standings
from ...nights.seating import Round, Table, repeats
from ...rules import Ruleset, get_ruleset
from ...rules.ranking import Ranking, ranked_as, rating_of
from ...stored_figures import GameResult, Rating
from ..store import plausible_id

SEATINGS = ("mix", "swiss")
FIRST_ROUNDS = ("random", "order", "rating")
MOST_ROUNDS = 20
MOST_PLAYERS = 120
CLOCK_MINUTES = (10, 180)
#: How long a table's scoring link stays good: the whole night.
TABLE_LINK_LIFETIME = timedelta(hours=18)


# --- what a page or the API reads ---------------------------------------------------------------


@dataclass(frozen=True)
class Present:
    """A player of the night: their name, the director's order, from which round, until which."""

    id: int
    name: str
    position: int
    from_round: int
    left_after: int | None

    def plays(self, number: int) -> bool:
        """Whether they are present for round ``number``."""
        return self.from_round <= number and (self.left_after is None or number <= self.left_after)


@dataclass(frozen=True)
class SeatedTable:
    round: int
    number: int
    seats: tuple[int, ...]
    first_dealer: int
    game_id: str | None
    closed: bool
    link_generation: int
    totals: tuple[int, ...] | None = None
    places: tuple[int, ...] | None = None
    finished: bool = False

    @property
    def done(self) -> bool:
        """Finished, or closed by the director: it no longer holds the round up."""
        return self.finished or self.closed

    @property
    def first_dealer_seat(self) -> int:
        return self.seats.index(self.first_dealer)


@dataclass(frozen=True)
class SeatedRound:
    number: int
    started: bool
    sitting_out: tuple[int, ...]
    tables: tuple[SeatedTable, ...]

    @property
    def done(self) -> bool:
        return self.started and all(table.done for table in self.tables)

    def table_of(self, player: int) -> SeatedTable | None:
        return next((table for table in self.tables if player in table.seats), None)

    def as_played(self) -> Round:
        return Round(
            tables=tuple(Table(t.number, t.seats, t.first_dealer) for t in self.tables),
            sitting_out=self.sitting_out,
        )


@dataclass(frozen=True)
class NightView:
    """A night read whole (five queries): what every page and the API show of it."""

    id: str
    name: str
    ruleset: Ruleset
    options: Mapping[str, str]
    rounds_planned: int | None
    seating: str
    first_round: str
    seed: int
    hide_standings: bool
    version: int
    played_on: date
    clock_started_at: datetime | None
    clock_minutes: int
    edit_key_hash: str
    players: tuple[Present, ...]
    rounds: tuple[SeatedRound, ...] = field(default=())

    @property
    def names(self) -> dict[int, str]:
        return {player.id: player.name for player in self.players}

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return night_seat_counts(self.ruleset, self.options)

    @property
    def rating(self) -> str:
        """The key of the rating the night's game counts in (``rules.ranking.rating_of``)."""
        return night_rating(self.ruleset, self.options)

    @property
    def preset_label(self) -> str:
        return preset_of(self.ruleset, self.options)

    @property
    def started(self) -> tuple[SeatedRound, ...]:
        return tuple(r for r in self.rounds if r.started)

    @property
    def current(self) -> SeatedRound | None:
        """The last round started; None before the first."""
        started = self.started
        return started[-1] if started else None

    @property
    def next_round(self) -> SeatedRound | None:
        """The round seated but not started yet (the next to start); None: none seated."""
        return next((r for r in self.rounds if not r.started), None)

    @property
    def next_number(self) -> int:
        return len(self.started) + 1

    @property
    def over(self) -> bool:
        """Every planned round started and done."""
        return (
            self.rounds_planned is not None
            and len(self.started) >= self.rounds_planned
            and (self.current is None or self.current.done)
        )

    @property
    def shown(self) -> SeatedRound | None:
        """The round the projector and the players' phones show: the next one once the current
        one is done and the next is seated, else the current one (or the first seated)."""
        current, upcoming = self.current, self.next_round
        if current is None or (current.done and upcoming is not None):
            return upcoming
        return current

    def present_for(self, number: int) -> tuple[Present, ...]:
        return tuple(player for player in self.players if player.plays(number))

    @cached_property
    def results(self) -> tuple[TableResult, ...]:
        return tuple(
            TableResult(
                round=table.round,
                table=table.number,
                players=table.seats,
                places=table.places,
                totals=table.totals,
                finished=table.finished,
            )
            for played in self.started
            for table in played.tables
            if table.places is not None and table.totals is not None
        )

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """The night's standings as they stand (every started table as it is now)."""
        sat_out = {played.number: played.sitting_out for played in self.started}
        return night_standings([p.id for p in self.players], self.results, sat_out)

    @property
    def standings_hidden(self) -> bool:
        """Hidden from the room: the director chose so and a table of the round is still playing."""
        current = self.current
        return self.hide_standings and current is not None and not current.done

    def history_before(self, number: int) -> tuple[Round, ...]:
        return tuple(r.as_played() for r in self.rounds if r.number < number)

    def repeats_of(self, seated: SeatedRound) -> int:
        """How many pairs at this round's tables met earlier in the night."""
        return repeats(seated.as_played(), self.history_before(seated.number))


def preset_of(ruleset: Ruleset, options: Mapping[str, str]) -> str:
    """The label (a message id) of the preset the night's tables play."""
    chosen = options.get(ruleset.preset_option or "", ruleset.presets[0].id)
    return next((p.label for p in ruleset.presets if p.id == chosen), ruleset.presets[0].label)


def night_rating(ruleset: Ruleset, options: Mapping[str, str]) -> str:
    """The rating a night's tables count in: its game and the preset its preset ranks with."""
    chosen = options.get(ruleset.preset_option or "", ruleset.presets[0].id)
    preset = next((p for p in ruleset.presets if p.id == chosen), ruleset.presets[0])
    return rating_of(Ranking(ruleset, ranked_as(ruleset, preset), ruleset.player_count).key)


def ordinals(rating: str, players: Sequence[int]) -> dict[int, float]:
    """The players' ordinals (mu - 3 sigma) in ``rating``: only those with a rated game (one query)."""
    if not players:
        return {}
    rows = db.session.execute(
        select(Rating.player_id, Rating.mu, Rating.sigma).where(
            Rating.rating == rating, Rating.player_id.in_(list(players)), Rating.games > 0
        )
    )
    return {row.player_id: row.mu - 3 * row.sigma for row in rows}


def night_seat_counts(ruleset: Ruleset, options: Mapping[str, str]) -> tuple[int, ...]:
    """The table sizes a night may seat: the game's, those its preset plays with."""
    chosen = options.get(ruleset.preset_option or "", ruleset.presets[0].id)
    preset = next((p for p in ruleset.presets if p.id == chosen), ruleset.presets[0])
    return tuple(count for count in ruleset.seat_counts if preset.plays_with(count))


def load_night(night_id: str) -> NightView:
    """The night with its players, rounds, tables and the table games' figures; ``not_found``."""
    if not plausible_id(night_id):
        raise not_found("night")
    night = db.session.get(Night, night_id)
    if night is None:
        raise not_found("night")
    return read_night(night)


def read_night(night: Night) -> NightView:
    players = tuple(
        Present(
            id=row.player_id,
            name=name,
            position=row.position,
            from_round=row.from_round,
            left_after=row.left_after,
        )
        for row, name in db.session.execute(
            select(NightPlayer, Player.name)
            .join(Player, Player.id == NightPlayer.player_id)
            .where(NightPlayer.night_id == night.id)
            .order_by(NightPlayer.position)
        ).all()
    )
    rounds = (
        db.session.execute(
            select(NightRound).where(NightRound.night_id == night.id).order_by(NightRound.number)
        )
        .scalars()
        .all()
    )
    tables = (
        db.session.execute(
            select(NightTable)
            .where(NightTable.night_id == night.id)
            .order_by(NightTable.round, NightTable.number)
        )
        .scalars()
        .all()
    )
    games = [table.game_id for table in tables if table.game_id is not None]
    figures: dict[str, dict[int, tuple[int, int, bool]]] = {}
    if games:
        for row in db.session.execute(
            select(
                GameResult.game_id,
                GameResult.player_id,
                GameResult.total,
                GameResult.rank,
                GameResult.finished,
            ).where(GameResult.game_id.in_(games))
        ):
            figures.setdefault(row.game_id, {})[row.player_id] = (row.total, row.rank, row.finished)
    by_round: dict[int, list[SeatedTable]] = {}
    for table in tables:
        seats = tuple(int(player) for player in table.seats)
        found = figures.get(table.game_id or "")
        totals = places = None
        finished = False
        if found is not None and all(player in found for player in seats):
            totals = tuple(found[player][0] for player in seats)
            places = tuple(found[player][1] for player in seats)
            finished = all(found[player][2] for player in seats)
        by_round.setdefault(table.round, []).append(
            SeatedTable(
                round=table.round,
                number=table.number,
                seats=seats,
                first_dealer=table.first_dealer,
                game_id=table.game_id,
                closed=table.closed_at is not None,
                link_generation=table.link_generation,
                totals=totals,
                places=places,
                finished=finished,
            )
        )
    seated = tuple(
        SeatedRound(
            number=row.number,
            started=row.started_at is not None,
            sitting_out=tuple(int(player) for player in row.sitting_out),
            tables=tuple(by_round.get(row.number, ())),
        )
        for row in rounds
    )
    return NightView(
        id=night.id,
        name=night.name,
        ruleset=get_ruleset(night.ruleset),
        options=dict(night.options or {}),
        rounds_planned=night.rounds,
        seating=night.seating,
        first_round=night.first_round,
        seed=night.seed,
        hide_standings=night.hide_standings,
        version=night.version,
        played_on=night.played_on,
        clock_started_at=night.clock_started_at,
        clock_minutes=night.clock_minutes,
        edit_key_hash=night.edit_key_hash,
        players=players,
        rounds=seated,
    )


# --- reading for the check-in page ---------------------------------------------------------------


def regulars(night: NightView, most: int = 80) -> list[tuple[int, str]]:
    """People who played a night of the same game before and are not here yet (the check-in page's
    names to tap), most recent nights first, by name."""
    here = {p.id for p in night.players if p.left_after is None}
    rows = db.session.execute(
        select(NightPlayer.player_id, Player.name)
        .join(Player, Player.id == NightPlayer.player_id)
        .join(Night, Night.id == NightPlayer.night_id)
        .where(Night.ruleset == night.ruleset.id, Night.id != night.id)
        .order_by(Night.created_at.desc())
        .limit(most * 4)
    ).all()
    seen: dict[int, str] = {}
    for player_id, name in rows:
        if player_id not in here and player_id not in seen:
            seen[player_id] = name
    return sorted(seen.items(), key=lambda item: item[1].casefold())[:most]
