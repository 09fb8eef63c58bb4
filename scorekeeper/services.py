"""Use cases, each in one transaction: load the game, replay, apply, persist.

Views and the API call these and nothing lower.  Every rule is checked by the
rules engine; a rejected call raises ``RuleError`` (or ``ServiceError``, its
subclass for conflicts and access) and leaves the database as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from . import stats
from .extensions import db
from .models import NOTE_LENGTH, Deal, DealResult, Game, GameResult, Player, Seat, today, utcnow
from .rules import (
    MAX_NAME_LENGTH,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    RuleError,
    Ruleset,
    get_ruleset,
    name_key,
    normalise_name,
)
from .rules.base import _has_control_characters

UNSET: Any = object()


class ServiceError(RuleError):
    """A refusal that is not about the rules of the game (conflicts, access, missing things)."""


def not_found(what: str = "game") -> ServiceError:
    return ServiceError("not_found", f"There is no such {what}.", None)


def conflict() -> ServiceError:
    return ServiceError(
        "conflict",
        "Someone else changed this game at the same moment; nothing was saved. Look again and retry.",
        None,
    )


# PostgreSQL: serialization failure, deadlock detected, lock timeout.  SQLite: busy, locked.
CONTENTION_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
SQLITE_BUSY, SQLITE_LOCKED = 5, 6


def is_contention(error: DBAPIError) -> bool:
    """Whether a database error means another writer got there first (a 409), not a fault (a 500).

    A unique constraint refusing a concurrent double submit counts, and so does a
    lock not granted in time; anything else (a missing table, a lost connection)
    is a real fault and must not be passed off as "someone else changed this game".
    """
    if isinstance(error, IntegrityError):
        return True
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in CONTENTION_SQLSTATES
    sqlite_code = getattr(error.orig, "sqlite_errorcode", None)
    if sqlite_code is not None:
        return sqlite_code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)
    return False


def conflict_or_fault(error: DBAPIError) -> Exception:
    """What to raise for a database error met while writing: ``conflict`` or the error itself."""
    return conflict() if is_contention(error) else error


@dataclass(frozen=True)
class LoadedGame:
    """A game row with its replayed state."""

    game: Game
    ruleset: Ruleset
    setup: GameSetup
    state: GameState

    @property
    def id(self) -> str:
        return self.game.id

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.setup.players[seat]


# -- keys and ids ------------------------------------------------------------------


def new_game_id() -> str:
    """11 URL-safe characters, 64 random bits: unguessable, not sequential."""
    return secrets.token_urlsafe(8)


def new_edit_key() -> str:
    """A 192-bit secret; only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    # The key is high-entropy random, so a fast hash is as strong as a slow one here.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(game: Game, key: str | None) -> bool:
    """Constant-time check of an edit key against the game's stored hash."""
    return hash_matches(game.edit_key_hash, key)


def hash_matches(key_hash: str, key: str | None) -> bool:
    """Constant-time check of an edit key against a stored hash."""
    if not key:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


def authorised_snapshot(game_id: str, key: str | None) -> Snapshot:
    """The game as a write needs it, once ``key`` is shown to be its edit key.

    Refuses with ``not_found``, ``auth_required`` or ``bad_key``.  The snapshot is then
    handed to the write (``seen=``), which claims the game only if it is still current.
    """
    seen = snapshot(game_id)
    if key is None:
        raise ServiceError(
            "auth_required", "Changing a game needs its edit key: Authorization: Bearer <key>.", None
        )
    if not hash_matches(seen.edit_key_hash, key):
        raise ServiceError("bad_key", "That is not this game's edit key.", None)
    return seen


# -- reading -----------------------------------------------------------------------


def setup_of(game: Game) -> GameSetup:
    return _setup(game.ruleset, game.player_names, game.first_dealer, game.options)


def _setup(
    ruleset: str, players: tuple[str, ...], first_dealer: int, options: Mapping[str, Any] | None
) -> GameSetup:
    return GameSetup(
        ruleset=ruleset,
        players=players,
        first_dealer=first_dealer,
        options=tuple(sorted((str(k), str(v)) for k, v in (options or {}).items())),
    )


def records_of(deals: Sequence[Any]) -> list[DealRecord]:
    """The records of ``deals``: ``Deal`` objects or rows, anything with contract, bids and tricks."""
    return [
        DealRecord(
            contract=deal.contract,
            bids=None if deal.bids is None else tuple(deal.bids),
            tricks=None if deal.tricks is None else tuple(deal.tricks),
        )
        for deal in deals
    ]


def replay(game: Game) -> LoadedGame:
    """Replay a game's recorded deals through its ruleset."""
    ruleset = get_ruleset(game.ruleset)
    setup = setup_of(game)
    state = ruleset.replay(setup, records_of(game.deals))
    return LoadedGame(game=game, ruleset=ruleset, setup=setup, state=state)


def get_game(game_id: str) -> LoadedGame:
    """The game with its replayed state, or ``not_found``."""
    game = db.session.get(Game, game_id) if _plausible_id(game_id) else None
    if game is None:
        raise not_found()
    return replay(game)


def game_version(game_id: str) -> int | None:
    """The game's write counter, from one cheap query (for ETags)."""
    known = game_version_and_key(game_id)
    return None if known is None else known[0]


def game_version_and_key(game_id: str) -> tuple[int, str] | None:
    """The game's write counter and key hash, from one cheap query (for ETags)."""
    if not _plausible_id(game_id):
        return None
    row = db.session.connection().execute(_VERSION_AND_KEY, {"game_id": game_id}).one_or_none()
    return None if row is None else (row[0], row[1])


def ping() -> None:
    """One trivial query: the database answers."""
    db.session.execute(select(1)).scalar_one()


def list_games(limit: int = 100) -> list[LoadedGame]:
    """Recent games replayed: in progress first, then finished, newest first within each."""
    games = db.session.execute(select(Game).order_by(Game.created_at.desc()).limit(limit)).scalars().all()
    loaded = [replay(game) for game in games]
    return sorted(loaded, key=lambda g: g.state.finished)  # stable: keeps newest first


def _plausible_id(game_id: str) -> bool:
    # Ids are URL-safe base64; anything else (a NUL byte breaks PostgreSQL) cannot be one.
    return _ID_RE.fullmatch(game_id) is not None


_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")


# -- writing -----------------------------------------------------------------------


def create_game(
    ruleset_id: object,
    players: Sequence[object],
    first_dealer: object = None,
    options: Mapping[str, object] | None = None,
    *,
    played_on: object = None,
    note: object = None,
) -> tuple[LoadedGame, str]:
    """Create a game; returns it with its edit key (shown once, stored as a hash).

    ``played_on`` (a date or ``YYYY-MM-DD``) defaults to today; ``note`` is optional.
    """
    ruleset = get_ruleset(ruleset_id)
    setup = ruleset.make_setup(players, first_dealer, options, draw=secrets.randbelow(ruleset.player_count))
    day = parse_played_on(played_on)
    text = parse_note(note)
    key = new_edit_key()
    state = ruleset.replay(setup, [])
    try:
        people = _players_named(setup.players)
        game = Game(
            id=new_game_id(),
            ruleset=ruleset.id,
            options=setup.options_dict,
            first_dealer=setup.first_dealer,
            edit_key_hash=hash_key(key),
            played_on=day,
            note=text,
        )
        game.seats = [Seat(position=i, player=person) for i, person in enumerate(people)]
        db.session.add(game)
        db.session.flush()
        # A game without deals adds nothing to anyone's totals: only its rows of figures are new.
        stats.write_new(
            game_id=game.id, player_ids=[person.id for person in people], played_on=day, state=state
        )
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None
    return LoadedGame(game=game, ruleset=ruleset, setup=setup, state=state), key


def parse_played_on(raw: object) -> date:
    """The date a game was played: a date or ``YYYY-MM-DD``; blank means today; not in the future."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return today()
    if isinstance(raw, date):
        day = raw
    else:
        try:
            day = date.fromisoformat(str(raw).strip())
        except ValueError:
            message = "Give the date as year-month-day, e.g. 2026-03-14."
            raise RuleError("invalid_date", message, "played_on") from None
    # A day of slack: the phone on the table may be a time zone ahead of the server.
    if day > today() + timedelta(days=1):
        raise RuleError("invalid_date", "The date a game was played cannot be in the future.", "played_on")
    if day.year < 1900:
        raise RuleError("invalid_date", "That date is too long ago.", "played_on")
    return day


def parse_note(raw: object) -> str | None:
    """An optional note (place, occasion): trimmed, at most NOTE_LENGTH characters, blank is none."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise RuleError("invalid_note", "The note must be text.", "note")
    text = " ".join(raw.split())
    if len(text) > NOTE_LENGTH:
        raise RuleError("invalid_note", f"The note can be at most {NOTE_LENGTH} characters.", "note")
    if _has_control_characters(text):
        raise RuleError("invalid_note", "The note cannot contain control characters.", "note")
    return text or None


def refresh_results(game: Game) -> None:
    """Rewrite the game's figures for rankings from its replay, inside the writing transaction.

    Every write to a game calls this just before it commits, so the figures can
    never disagree with the deals (tests check they equal the replay).
    """
    db.session.flush()
    db.session.refresh(game, ["deals"])
    stats.write_results(game, replay(game).state)


def _players_named(names: Sequence[str]) -> list[Player]:
    """The people called ``names`` (ignoring case), in one query; any new name is created."""
    keys = [name_key(name) for name in names]
    known = {
        player.name_key: player
        for player in db.session.execute(select(Player).where(Player.name_key.in_(keys))).scalars()
    }
    return [known.get(key) or _player_named(name) for name, key in zip(names, keys, strict=True)]


def _player_named(name: str) -> Player:
    """The person called ``name`` (ignoring case), created on first use."""
    key = name_key(name)
    player = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one_or_none()
    if player is not None:
        return player
    # Two games started at once with a new name: the savepoint lets the loser re-read.
    try:
        with db.session.begin_nested():
            player = Player(name=name, name_key=key)
            db.session.add(player)
    except IntegrityError:
        player = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one()
    return player


@dataclass(frozen=True)
class Snapshot:
    """A game as a write sees it: read with plain queries (no ORM objects) and replayed.

    ``version`` is the game's write counter when it was read: a write computes its
    change from the snapshot and then claims the game only if nobody wrote since.
    """

    id: str
    version: int
    edit_key_hash: str
    ruleset: Ruleset
    setup: GameSetup
    player_ids: tuple[int, ...]
    played_on: date
    records: list[DealRecord]
    state: GameState


class Written(NamedTuple):
    """What a write to a game leaves: its setup, its state after the write and the deal written."""

    setup: GameSetup
    state: GameState
    deal: DealState | None


@dataclass(frozen=True)
class Change:
    """A write worked out from a snapshot, not yet made: one statement on the deals, and the result."""

    after: GameState
    number: int | None
    """The deal to show for it (None when the write leaves none, as an undo)."""
    statement: Any
    params: dict[str, Any]


_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__
_deals = Deal.__table__
_game_id: Any = bindparam("game_id")
# The write path's statements, built once (building one costs more than sending it).
# The game, its seats and its deals in one query: the deals ride along the first seat's rows.
_SNAPSHOT = (
    select(
        _games.c.version,
        _games.c.edit_key_hash,
        _games.c.ruleset,
        _games.c.options,
        _games.c.first_dealer,
        _games.c.played_on,
        _seats.c.position,
        _seats.c.player_id,
        _players.c.name,
        _deals.c.number,
        _deals.c.contract,
        _deals.c.bids,
        _deals.c.tricks,
    )
    .join(_seats, _seats.c.game_id == _games.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .outerjoin(_deals, and_(_deals.c.game_id == _games.c.id, _seats.c.position == 0))
    .where(_games.c.id == _game_id)
    .order_by(_seats.c.position, _deals.c.number)
)
_VERSION_AND_KEY = select(_games.c.version, _games.c.edit_key_hash).where(_games.c.id == _game_id)
_bump = {"version": _games.c.version + 1, "updated_at": bindparam("now")}
# Claim: bump the version only if it is still the one the change was worked out from.
_CLAIM = update(_games).where(_games.c.id == _game_id, _games.c.version == bindparam("seen")).values(_bump)
_LOCK = update(_games).where(_games.c.id == _game_id).values(_bump).returning(_games.c.version)
_LOCK_VERSION = _LOCK.where(_games.c.version == bindparam("expected"))
_the_deal = (_deals.c.game_id == bindparam("of_game"), _deals.c.number == bindparam("deal_number"))
_ADD_DEAL = insert(_deals)
_CHANGE_DEAL = update(_deals).where(*_the_deal)
_DROP_DEAL = delete(_deals).where(*_the_deal)


def snapshot(game_id: str) -> Snapshot:
    """The game as a write needs it, in one query (game, seats, deals), replayed; or ``not_found``."""
    if not _plausible_id(game_id):
        raise not_found()
    rows = db.session.connection().execute(_SNAPSHOT, {"game_id": game_id}).all()
    if not rows:
        raise not_found()
    # A row per seat, but seat 0 has one per deal: the deals ride along it.
    seats = [row for row in rows if row.position != 0 or row is rows[0]]
    records = records_of([row for row in rows if row.number is not None])
    game = rows[0]
    ruleset = get_ruleset(game.ruleset)
    setup = _setup(game.ruleset, tuple(seat.name for seat in seats), game.first_dealer, game.options)
    return Snapshot(
        id=game_id,
        version=game.version,
        edit_key_hash=game.edit_key_hash,
        ruleset=ruleset,
        setup=setup,
        player_ids=tuple(seat.player_id for seat in seats),
        played_on=game.played_on,
        records=records,
        state=ruleset.replay(setup, records),
    )


def stale() -> ServiceError:
    return ServiceError(
        "stale", "This game changed since you opened the form; nothing was saved. Look again and retry.", None
    )


def _claim(seen: Snapshot) -> bool:
    """Lock the game for this write if nobody has written since ``seen`` was read."""
    params = {"game_id": seen.id, "seen": seen.version, "now": utcnow()}
    result = db.session.connection().execute(_CLAIM, params)
    return bool(result.rowcount == 1)


def _lock(game_id: str, expected_version: int | None) -> Snapshot:
    """Lock the game (by bumping its version) whatever its version, then read it again.

    For a write whose claim failed: another writer got there in between.  Writers to
    one game queue up on this UPDATE (a row lock on PostgreSQL, the write lock on
    SQLite) and each then reads the state its predecessor committed.
    """
    params = {"game_id": game_id, "now": utcnow(), "expected": expected_version}
    statement = _LOCK if expected_version is None else _LOCK_VERSION
    if db.session.connection().execute(statement, params).one_or_none() is None:
        db.session.rollback()
        if expected_version is not None and game_version(game_id) is not None:
            raise stale()
        raise not_found()
    return snapshot(game_id)


def _commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None


@contextlib.contextmanager
def _transaction() -> Iterator[None]:
    """One write: commit on success; on a refusal or a database error roll back everything.

    Contention (another writer got there first) becomes ``conflict``; any other
    database fault is raised as it is.
    """
    try:
        yield
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None
    except BaseException:
        db.session.rollback()
        raise
    _commit()


def _write(game_id: str, expected_version: int | None, plan: Any, seen: Snapshot | None = None) -> Written:
    """Work out a change from a snapshot, then make it, with the figures, in one transaction.

    ``plan(snapshot)`` checks the rules and returns the ``Change`` (or refuses, and nothing is
    written).  The game is claimed only if its version is still the snapshot's, so the lock
    is held just for the writes; if another writer got there first, the game is locked, read
    again and the change worked out again.  ``seen`` is a snapshot the caller already read.
    """
    with _transaction():
        current = seen if seen is not None else snapshot(game_id)
        if expected_version is not None and current.version != expected_version:
            raise stale()
        change: Change = plan(current)
        if not _claim(current):
            current = _lock(game_id, expected_version)
            change = plan(current)
        db.session.connection().execute(change.statement, change.params)
        stats.write_changes(
            game_id=current.id,
            player_ids=current.player_ids,
            played_on=current.played_on,
            before=current.state,
            after=change.after,
        )
    deal = None if change.number is None else change.after.deals[change.number - 1]
    return Written(current.setup, change.after, deal)


def _deal_values(record: DealRecord, contract: str) -> dict[str, Any]:
    return {
        "contract": contract,
        "bids": None if record.bids is None else list(record.bids),
        "tricks": None if record.tricks is None else list(record.tricks),
    }


def record_deal(
    game_id: str,
    *,
    number: object = None,
    contract: object = None,
    bids: object = None,
    tricks: object = None,
    seen: Snapshot | None = None,
) -> Written:
    """Record the next deal: its declaration and, optionally, its tricks.

    ``number``, when given, must be the next deal's: a retried or stale
    submission then fails harmlessly with ``wrong_deal_number``.
    """

    def plan(locked: Snapshot) -> Change:
        state = locked.state
        if state.finished:
            raise ServiceError(
                "game_finished", f"The game is over: all {state.deal_count} deals are recorded.", "number"
            )
        pending = state.pending_deal
        next_number = pending.number + 1 if pending is not None else len(state.deals) + 1
        if number is not None:
            if isinstance(number, bool) or not isinstance(number, int):
                raise RuleError("wrong_deal_number", "The deal number must be a whole number.", "number")
            if number != next_number:
                if number < next_number:
                    message = f"Deal {number} is already recorded; the next deal is {next_number}."
                else:
                    message = f"The next deal is {next_number}, not {number}."
                if pending is not None and number == pending.number:
                    message = f"Deal {number} is already recorded; enter its tricks when played."
                raise ServiceError("wrong_deal_number", message, "number")
        if pending is not None:
            raise ServiceError(
                "deal_pending",
                f"Deal {pending.number} has no tricks yet; enter them before the next deal.",
                "tricks",
            )
        record = locked.ruleset.parse_deal(
            locked.setup, next_number, contract=contract, bids=bids, tricks=tricks
        )
        after = locked.ruleset.extend(locked.state, [record])  # checks and scores the new deal alone
        values = _deal_values(record, after.deals[-1].contract)
        return Change(after, next_number, _ADD_DEAL, {"game_id": locked.id, "number": next_number, **values})

    return _write(game_id, None, plan, seen)


def update_deal(
    game_id: str,
    number: int,
    *,
    contract: object = UNSET,
    bids: object = UNSET,
    tricks: object = UNSET,
    expected_version: int | None = None,
    require_pending: bool = False,
    seen: Snapshot | None = None,
) -> Written:
    """Complete or correct a recorded deal; the whole game is re-validated by replay.

    ``require_pending`` refuses the call unless the deal still waits for its
    tricks, so a repeated "enter tricks" post cannot silently rewrite them.
    """

    def plan(locked: Snapshot) -> Change:
        records = list(locked.records)
        if not 1 <= number <= len(records):  # deals are numbered 1, 2, ... in order
            raise not_found("deal")
        index = number - 1
        old = records[index]
        if require_pending and old.tricks is not None:
            raise ServiceError(
                "wrong_deal_number",
                f"Deal {number}'s tricks are already recorded; use Correct to change them.",
                "number",
            )
        ruleset, setup = locked.ruleset, locked.setup
        new_contract = old.contract if contract is UNSET else ruleset.parse_contract(setup, number, contract)
        new_bids = old.bids if bids is UNSET else ruleset.parse_bids(setup, number, bids)
        new_tricks = (
            old.tricks if tricks is UNSET else (None if tricks is None else ruleset.tricks_for(setup, tricks))
        )
        if new_tricks is None and index != len(records) - 1:
            raise RuleError("tricks_players", "Only the last deal can be without tricks.", "tricks")
        record = DealRecord(contract=new_contract, bids=new_bids, tricks=new_tricks)
        records[index] = record
        after = ruleset.replay(setup, records)
        values = _deal_values(record, after.deals[index].contract)
        params = {"of_game": locked.id, "deal_number": number, "updated_at": utcnow(), **values}
        return Change(after, number, _CHANGE_DEAL, params)

    return _write(game_id, expected_version, plan, seen)


def undo_deal(
    game_id: str, number: int, *, expected_version: int | None = None, seen: Snapshot | None = None
) -> Written:
    """Remove the last recorded deal (and only the last)."""

    def plan(locked: Snapshot) -> Change:
        records = locked.records
        if not 1 <= number <= len(records):
            raise not_found("deal")
        if number != len(records):
            raise ServiceError(
                "not_last_deal",
                f"Only the last deal (deal {len(records)}) can be undone; correct deal {number} instead.",
                "number",
            )
        after = locked.ruleset.replay(locked.setup, records[:-1])
        return Change(after, None, _DROP_DEAL, {"of_game": locked.id, "deal_number": number})

    return _write(game_id, expected_version, plan, seen)


# -- people and rematches --------------------------------------------------------------------------


def person_name(raw: object) -> str:
    """A player's name as stored, or a refusal saying what is wrong with it."""
    if not isinstance(raw, str):
        raise RuleError("invalid_name", "The name must be text.", "name")
    name = normalise_name(raw)
    if not name:
        raise RuleError("invalid_name", "A player needs a name.", "name")
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError("invalid_name", f"Names can be at most {MAX_NAME_LENGTH} characters.", "name")
    if _has_control_characters(name):
        message = "Names cannot contain control or invisible formatting characters."
        raise RuleError("invalid_name", message, "name")
    return name


def get_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        raise not_found("player")
    return player


def find_player(name: object) -> Player:
    """The player called ``name`` (ignoring case), or ``not_found``."""
    if not isinstance(name, str) or not name.strip():
        raise RuleError("unknown_player", "Give a player's name.", "name")
    player = db.session.execute(select(Player).where(Player.name_key == name_key(name))).scalar_one_or_none()
    if player is None:
        raise RuleError("unknown_player", f"There is no player called {normalise_name(name)}.", "name")
    return player


def _touch_games_of(player_id: int) -> None:
    # Names show on every page of the player's games: bump their versions so cached copies refresh.
    games = select(Seat.game_id).where(Seat.player_id == player_id)
    db.session.execute(
        update(Game)
        .where(Game.id.in_(games))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )


def rename_player(player_id: int, new_name: object) -> Player:
    """Give a player a new name; their games and figures follow (they point at the person)."""
    with _transaction():
        player = get_player(player_id)
        name = person_name(new_name)
        key = name_key(name)
        if key != player.name_key:
            other = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one_or_none()
            if other is not None:
                raise ServiceError(
                    "name_taken",
                    f"{other.name} is already a player. If {player.name} and {other.name} are the same "
                    "person, merge the two records instead.",
                    "name",
                )
        player.name = name
        player.name_key = key
        _touch_games_of(player.id)
    return player


def merge_players(duplicate_id: int, keep_id: int) -> Player:
    """Fold the record ``duplicate_id`` into ``keep_id``: one person, all their games.

    Refused when the two sat in the same game: they are then two people, and
    one game would have the same person in two seats.
    """
    with _transaction():
        duplicate = get_player(duplicate_id)
        keep = get_player(keep_id)
        if duplicate.id == keep.id:
            raise ServiceError("same_player", "Choose two different players to merge.", "keep")
        shared = db.session.execute(
            select(func.count()).where(
                Seat.player_id == keep.id,
                Seat.game_id.in_(select(Seat.game_id).where(Seat.player_id == duplicate.id)),
            )
        ).scalar_one()
        if shared:
            games = "a game" if shared == 1 else f"{shared} games"
            raise ServiceError(
                "players_share_game",
                f"{duplicate.name} and {keep.name} played together in {games}, so they are two people: "
                "merging them would seat one person twice at the same table. Nothing was changed.",
                "keep",
            )
        _touch_games_of(duplicate.id)
        for table in (Seat, GameResult, DealResult):
            db.session.execute(
                update(table)
                .where(table.player_id == duplicate.id)
                .values(player_id=keep.id)
                .execution_options(synchronize_session=False)
            )
        stats.refresh_totals([keep.id, duplicate.id])
        db.session.delete(duplicate)
        db.session.flush()
    return keep


def rematch(game_id: str, played_on: object = None) -> tuple[LoadedGame, str]:
    """A new game with the same people in the same seats and options; the first deal moves on one seat."""
    loaded = get_game(game_id)
    if not loaded.state.finished:
        raise ServiceError("game_not_finished", "A rematch starts once this game is over.", None)
    setup = loaded.setup
    names = setup.players
    first_dealer = names[(setup.first_dealer + 1) % len(names)]
    return create_game(
        loaded.ruleset.id,
        names,
        first_dealer,
        setup.options_dict,
        played_on=played_on,
        note=loaded.game.note,
    )


def rebuild_results() -> int:
    """Rewrite every game's figures from its replay (after an import or a manual repair)."""
    count = 0
    for game_id in db.session.execute(select(Game.id).order_by(Game.id)).scalars().all():
        game = db.session.get(Game, game_id)
        assert game is not None
        refresh_results(game)
        count += 1
        if count % 200 == 0:
            _commit()
            db.session.expunge_all()
    _commit()
    return count
