"""Club nights (CLUB.md): create one, check players in, seat and start rounds, read the standings.

A night's facts are its row, its players present, its rounds' seats and its tables' ordinary games;
the seating and the points are the pure ``scorekeeper.nights`` package's. Every write locks the night
(bumps its version) first, so two directors' phones cannot seat one round twice. Night points are
read from the table games' stored figures (``game_results``: each seat's total and place, kept equal
to the replay by every write to the game), so a correction at a table moves the night's standings
with the same write.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from functools import cached_property

from sqlalchemy import delete, insert, literal, select, update

from ..errors import not_found, refusal
from ..extensions import db
from ..models import (
    NIGHT_NAME_LENGTH,
    Device,
    GameResult,
    HandOver,
    Night,
    NightGrant,
    NightHandOver,
    NightPlayer,
    NightRound,
    NightTable,
    Player,
    utcnow,
)
from ..nights.points import Standing, TableResult, night_standings
from ..nights.seating import Round, Table, plan_night, repeats, seat_swiss, swap
from ..rules import N_, RuleError, Ruleset, get_ruleset, validate_name, validate_note
from .games import _people_named, insert_game, parse_played_on
from .keyring import HandOverOutcome, new_token
from .keys import hash_key, hash_matches, new_edit_key, new_game_id
from .store import plausible_id, transaction

SEATINGS = ("mix", "swiss")
FIRST_ROUNDS = ("random", "order")
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
    return _view(night)


def _view(night: Night) -> NightView:
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


# --- creating a night ---------------------------------------------------------------------------


def _whole(raw: object, field_name: str, low: int, high: int, message: str) -> int:
    if isinstance(raw, bool):
        raise RuleError("invalid_night", message, field_name, {"low": low, "high": high})
    try:
        value = int(str(raw).strip()) if not isinstance(raw, int) else raw
    except ValueError:
        raise RuleError("invalid_night", message, field_name, {"low": low, "high": high}) from None
    if not low <= value <= high:
        raise RuleError("invalid_night", message, field_name, {"low": low, "high": high})
    return value


def parse_night_name(raw: object) -> str:
    name = validate_note(raw, limit=NIGHT_NAME_LENGTH)
    if not name:
        raise RuleError("invalid_night", N_("Give the night a name."), "name")
    return name


def create_night(
    name: object,
    ruleset_id: object,
    options: Mapping[str, object] | None = None,
    *,
    rounds: object = None,
    seating: object = "mix",
    first_round: object = "random",
    hide_standings: bool = False,
    played_on: object = None,
    seed: object = None,
) -> tuple[str, str]:
    """A new night (its id and its key, shown once: the API's Bearer key; the page's director holds
    the night's pencil instead). Its tables play ``ruleset_id`` with ``options`` (the preset)."""
    ruleset = get_ruleset(ruleset_id)
    checked = dict(ruleset.validate_options(dict(options or {})))
    if not night_seat_counts(ruleset, checked):
        raise RuleError("invalid_options", N_("This preset cannot be played at a club night."), "options")
    title = parse_night_name(name)
    planned = None
    if rounds is not None and str(rounds).strip():
        planned = _whole(
            rounds, "rounds", 1, MOST_ROUNDS, N_("Rounds: a whole number from %(low)d to %(high)d.")
        )
    if seating not in SEATINGS:
        raise RuleError("invalid_night", N_("Choose Mix or Swiss seating."), "seating")
    if first_round not in FIRST_ROUNDS:
        raise RuleError("invalid_night", N_("Choose how round 1 is seated."), "first_round")
    drawn = (
        secrets.randbelow(1_000_000)
        if seed is None or not str(seed).strip()
        else _whole(seed, "seed", 0, 999_999, N_("Seed: a whole number from %(low)d to %(high)d."))
    )
    day = parse_played_on(played_on)
    key = new_edit_key()
    night_id = new_game_id()
    with transaction():
        db.session.add(
            Night(
                id=night_id,
                name=title,
                ruleset=ruleset.id,
                options=checked,
                rounds=planned,
                seating=seating,
                first_round=first_round,
                seed=drawn,
                hide_standings=bool(hide_standings),
                edit_key_hash=hash_key(key),
                version=0,
                played_on=day,
                created_at=utcnow(),
                clock_minutes=45,
            )
        )
    return night_id, key


# --- writes ---------------------------------------------------------------------------------------


def _lock(night_id: str, expected_version: int | None = None) -> Night:
    """The night, its version bumped first (the lock every write to it takes); ``not_found``."""
    if not plausible_id(night_id):
        raise not_found("night")
    bumped = db.session.execute(
        update(Night).where(Night.id == night_id).values(version=Night.version + 1).returning(Night.version)
    ).first()
    if bumped is None:
        raise not_found("night")
    if expected_version is not None and bumped[0] != expected_version + 1:
        raise refusal("stale", N_("The night has changed since this page was loaded. Look again."))
    night = db.session.get(Night, night_id, populate_existing=True)
    assert night is not None
    return night


def _refuse_started(night: NightView, number: int) -> None:
    if any(r.number == number and r.started for r in night.rounds):
        raise refusal(
            "round_started", N_("Round %(round)d has started: its seats no longer change."), round=number
        )


def check_in(night_id: str, name: object, *, expected_version: int | None = None) -> int:
    """``name`` is present from the next round (an existing person by the app's name key, else a new
    one); the rounds not started are planned again. Returns the player's id. Checking in twice is
    once; a player who had left is back from the next round."""
    with transaction():
        night = _lock(night_id, expected_version)
        ((person_id, _name),) = _people_named([_player_name(name)])
        view = _view(night)
        number = view.next_number
        found = db.session.get(NightPlayer, (night_id, person_id))
        if found is None:
            if len(view.players) >= MOST_PLAYERS:
                raise RuleError(
                    "invalid_night",
                    N_("A night takes at most %(most)d players."),
                    "name",
                    {"most": MOST_PLAYERS},
                )
            position = max((p.position for p in view.players), default=0) + 1
            db.session.add(
                NightPlayer(night_id=night_id, player_id=person_id, position=position, from_round=number)
            )
        elif found.left_after is not None:
            found.left_after = None
            found.from_round = max(found.from_round, number) if not view.started else number
        db.session.flush()
        _replan(night)
    return person_id


def _player_name(raw: object) -> str:
    return validate_name(raw, in_game=True)


def remove_player(night_id: str, player_id: int, *, expected_version: int | None = None) -> None:
    """The player leaves before the next round: gone from the night when they played no round yet,
    else marked as having left after the current round. The rounds not started are planned again."""
    with transaction():
        night = _lock(night_id, expected_version)
        found = db.session.get(NightPlayer, (night_id, player_id))
        if found is None:
            raise not_found("player")
        view = _view(night)
        played = any(player_id in r.as_played().seated for r in view.started)
        if not played and not any(player_id in r.sitting_out for r in view.started):
            db.session.delete(found)
        else:
            found.left_after = len(view.started)
        db.session.flush()
        _replan(night)


def move_player(night_id: str, player_id: int, places: int, *, expected_version: int | None = None) -> None:
    """Move a player up (negative ``places``) or down the director's order; before round 1 only
    does it seat anyone (round 1 in the director's order)."""
    with transaction():
        night = _lock(night_id, expected_version)
        rows = list(
            db.session.execute(
                select(NightPlayer).where(NightPlayer.night_id == night_id).order_by(NightPlayer.position)
            ).scalars()
        )
        index = next((i for i, row in enumerate(rows) if row.player_id == player_id), None)
        if index is None:
            raise not_found("player")
        target = max(0, min(len(rows) - 1, index + places))
        moved = rows.pop(index)
        rows.insert(target, moved)
        for position, row in enumerate(rows, start=1):
            row.position = -position  # two passes: no clash while the positions change hands
        db.session.flush()
        for row in rows:
            row.position = -row.position
        db.session.flush()
        _replan(night)


def _replan(night: Night) -> None:
    """The rounds not started, planned anew from who is present now (Mix: all the rounds left at
    once; Swiss: nothing planned ahead). Only where a round was already seated ahead."""
    view = _view(night)
    if view.next_round is None:
        return
    _drop_unstarted(night.id)
    db.session.flush()
    _seat(night, _view(night))


def _drop_unstarted(night_id: str) -> None:
    started = select(NightRound.number).where(
        NightRound.night_id == night_id, NightRound.started_at.is_not(None)
    )
    db.session.execute(
        delete(NightTable).where(NightTable.night_id == night_id, NightTable.round.not_in(started))
    )
    db.session.execute(
        delete(NightRound).where(NightRound.night_id == night_id, NightRound.started_at.is_(None))
    )


def _seat(night: Night, view: NightView) -> int:
    """Seat the next round (and, under Mix with a number of rounds, every round left); the number of
    rounds seated (0: too few present for a table)."""
    number = view.next_number
    if view.rounds_planned is not None and number > view.rounds_planned:
        return 0
    present = [p.id for p in view.present_for(number)]
    history = tuple(r.as_played() for r in view.started)
    counts = view.seat_counts
    planned: tuple[Round, ...]
    if view.seating == "swiss" and history:
        standing = [row.player for row in view.standings if row.player in present]
        swiss = seat_swiss(standing, counts, history, seed=view.seed)
        planned = () if swiss is None else (swiss,)
    else:
        left = (
            1
            if view.rounds_planned is None or view.seating == "swiss"
            else view.rounds_planned - len(history)
        )
        order = [p.id for p in view.present_for(number)] if view.first_round == "order" else None
        planned = plan_night(present, counts, left, history, seed=view.seed, order=order)
    _store_rounds(night.id, number, planned)
    return len(planned)


def _store_rounds(night_id: str, first: int, rounds: Sequence[Round]) -> None:
    for offset, seated in enumerate(rounds):
        number = first + offset
        db.session.add(NightRound(night_id=night_id, number=number, sitting_out=list(seated.sitting_out)))
        for table in seated.tables:
            db.session.add(
                NightTable(
                    night_id=night_id,
                    round=number,
                    number=table.number,
                    seats=list(table.seats),
                    first_dealer=table.first_dealer,
                    link_generation=0,
                )
            )
    db.session.flush()


def seat_next_round(night_id: str, *, expected_version: int | None = None) -> int:
    """Seat the next round (it starts when the director says): its number. Refused while the current
    round has tables playing, once the planned rounds are all seated, or with fewer present than a
    table takes."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = _view(night)
        upcoming = view.next_round
        if upcoming is not None:
            return upcoming.number
        if view.rounds_planned is not None and view.next_number > view.rounds_planned:
            raise refusal(
                "night_over", N_("All %(rounds)d rounds have been played."), rounds=view.rounds_planned
            )
        current = view.current
        if view.seating == "swiss" and current is not None and not current.done:
            raise refusal(
                "round_in_progress",
                N_("Round %(round)d is still being played: Swiss seats the next one from its results."),
                round=current.number,
            )
        if not _seat(night, view):
            raise refusal(
                "too_few_players",
                N_("Too few players are present for a table (%(fewest)d or more)."),
                fewest=min(view.seat_counts),
            )
        return view.next_number


def swap_players(night_id: str, first: int, second: int, *, expected_version: int | None = None) -> None:
    """Exchange two players' places in the next round (not started); under Mix the rounds after it are
    planned again around it."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = _view(night)
        upcoming = view.next_round
        if upcoming is None:
            raise refusal("invalid_swap", N_("Seat the next round first."), "first")
        history = view.history_before(upcoming.number)
        try:
            swapped = swap(upcoming.as_played(), first, second, history)
        except ValueError:
            raise refusal(
                "invalid_swap", N_("Choose two different players of the round."), "second"
            ) from None
        _drop_unstarted(night_id)
        db.session.flush()
        _store_rounds(night_id, upcoming.number, [swapped])
        if view.seating == "mix" and view.rounds_planned is not None:
            left = view.rounds_planned - upcoming.number
            if left > 0:
                present = [p.id for p in view.present_for(upcoming.number + 1)]
                later = plan_night(present, view.seat_counts, left, (*history, swapped), seed=view.seed)
                _store_rounds(night_id, upcoming.number + 1, later)


def start_round(night_id: str, table_link: TableLink, *, expected_version: int | None = None) -> int:
    """Start the next seated round: each table's ordinary game is stored (its players in seat order,
    its first dealer the seating's), with a scoring link for the table's first phone. Refused while
    the current round has a table playing."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = _view(night)
        upcoming = view.next_round
        if upcoming is None:
            raise refusal("round_in_progress", N_("Seat the next round first."))
        current = view.current
        if current is not None and not current.done:
            raise refusal(
                "round_in_progress",
                N_("Round %(round)d is still being played: close its unfinished tables first."),
                round=current.number,
            )
        names = view.names
        for table in upcoming.tables:
            setup = view.ruleset.make_setup(
                [names[player] for player in table.seats], names[table.first_dealer], dict(view.options)
            )
            game, _key = insert_game(
                view.ruleset,
                setup,
                (),
                played_on=view.played_on,
                note=f"{view.name} · {upcoming.number}/{table.number}"[:200],
            )
            db.session.execute(
                update(NightTable)
                .where(
                    NightTable.night_id == night_id,
                    NightTable.round == upcoming.number,
                    NightTable.number == table.number,
                )
                .values(game_id=game.id)
            )
            _hand_over_for(game.id, table_link(night_id, upcoming.number, table.number, 0))
        db.session.execute(
            update(NightRound)
            .where(NightRound.night_id == night_id, NightRound.number == upcoming.number)
            .values(started_at=utcnow())
        )
        night.clock_started_at = None
        return upcoming.number


class TableLink:
    """The token of a table's scoring link, made from the server's secret, the night, the round, the
    table and the link's generation: the director's page shows it again without the token being
    stored (only its hash is, as any hand-over's), and a renewed link is a new generation."""

    def __init__(self, secret: str) -> None:
        self.secret = secret.encode("utf-8")

    def __call__(self, night_id: str, round_number: int, table: int, generation: int) -> str:
        message = f"scorekeeper-table:{night_id}:{round_number}:{table}:{generation}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()


def _hand_over_for(game_id: str, token: str) -> None:
    """The table's game hands its pencil to the first phone that brings ``token`` (its earlier
    tokens no longer work)."""
    db.session.execute(delete(HandOver).where(HandOver.game_id == game_id))
    db.session.add(
        HandOver(token_hash=hash_key(token), game_id=game_id, expires_at=utcnow() + TABLE_LINK_LIFETIME)
    )


def renew_table_link(night_id: str, round_number: int, table_number: int, table_link: TableLink) -> None:
    """A new scoring link for a table (the old one stops working); the phones that hold the table's
    pencil keep it."""
    with transaction():
        _lock(night_id)
        table = db.session.get(NightTable, (night_id, round_number, table_number))
        if table is None or table.game_id is None:
            raise not_found("game")
        table.link_generation += 1
        _hand_over_for(table.game_id, table_link(night_id, round_number, table_number, table.link_generation))


def close_table(night_id: str, round_number: int, table_number: int) -> None:
    """The director closes a table whose game did not finish: it scores as it stands, marked
    unfinished, and no longer holds the round up."""
    with transaction():
        night = _lock(night_id)
        view = _view(night)
        found = next(
            (
                t
                for r in view.started
                if r.number == round_number
                for t in r.tables
                if t.number == table_number
            ),
            None,
        )
        if found is None:
            raise not_found("game")
        if found.finished:
            return
        db.session.execute(
            update(NightTable)
            .where(
                NightTable.night_id == night_id,
                NightTable.round == round_number,
                NightTable.number == table_number,
            )
            .values(closed_at=utcnow())
        )


def start_clock(night_id: str, minutes: object) -> None:
    """Start the round clock: ``minutes`` from now."""
    length = _whole(
        minutes, "minutes", *CLOCK_MINUTES, N_("Minutes: a whole number from %(low)d to %(high)d.")
    )
    with transaction():
        night = _lock(night_id)
        night.clock_minutes = length
        night.clock_started_at = utcnow()


def set_hidden(night_id: str, hidden: bool) -> None:
    """Hide (or show) the standings while a round's tables are playing."""
    with transaction():
        night = _lock(night_id)
        night.hide_standings = hidden


# --- the director's pencil (the keyring's, for a night) -----------------------------------------


def night_key_matches(night: NightView, key: str | None) -> bool:
    """Whether ``key`` is the night's (the API's Bearer key)."""
    return hash_matches(night.edit_key_hash, key)


def holds_night(device_hash: str | None, night_id: str) -> bool:
    """Whether the device holds the night's pencil (one query)."""
    if device_hash is None or not plausible_id(night_id):
        return False
    found = db.session.execute(
        select(literal(1)).where(NightGrant.device_hash == device_hash, NightGrant.night_id == night_id)
    ).first()
    return found is not None


def add_night_grant(device_hash: str, night_id: str) -> None:
    """The device holds the night's pencil (in the caller's transaction, after ``device_for_grant``)."""
    exists = db.session.get(NightGrant, (device_hash, night_id))
    if exists is None and db.session.get(Device, device_hash) is not None:
        db.session.execute(
            insert(NightGrant).values(device_hash=device_hash, night_id=night_id, created_at=utcnow())
        )


def new_night_hand_over(night_id: str, lifetime: timedelta) -> str:
    """A one-time token handing the night's pencil to another phone (as a game's); the night's spent
    and expired ones go. In a transaction."""
    at = utcnow()
    db.session.execute(
        delete(NightHandOver).where(
            NightHandOver.night_id == night_id,
            (NightHandOver.expires_at <= at) | NightHandOver.used_at.is_not(None),
        )
    )
    token = new_token()
    db.session.add(NightHandOver(token_hash=hash_key(token), night_id=night_id, expires_at=at + lifetime))
    return token


def use_night_hand_over(night_id: str, token: str) -> HandOverOutcome:
    """Spend a night's hand-over token (one conditional UPDATE, as a game's). In a transaction."""
    if not token:
        return HandOverOutcome.UNKNOWN
    at, hashed = utcnow(), hash_key(token)
    this = (NightHandOver.token_hash == hashed) & (NightHandOver.night_id == night_id)
    spent = db.session.execute(
        update(NightHandOver)
        .where(this, NightHandOver.used_at.is_(None), NightHandOver.expires_at > at)
        .values(used_at=at)
        .execution_options(synchronize_session=False)
    )
    if getattr(spent, "rowcount", 0) == 1:
        return HandOverOutcome.TAKEN
    row = db.session.execute(select(NightHandOver.used_at).where(this)).first()
    if row is None:
        return HandOverOutcome.UNKNOWN
    return HandOverOutcome.USED if row[0] is not None else HandOverOutcome.EXPIRED


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


def standings_rows(night: NightView) -> list[tuple[Standing, str]]:
    names = night.names
    return [(row, names.get(row.player, "?")) for row in night.standings]


def margin_text(margin: Fraction) -> str:
    """A margin as the pages show it: two decimals, signed."""
    return f"{float(margin):+.2f}"


def iter_tables(night: NightView) -> Iterable[SeatedTable]:
    for played in night.rounds:
        yield from played.tables
