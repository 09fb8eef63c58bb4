"""The store: a game read as one snapshot, and every write to a game as one plain transaction:
lock the game, read it, ask the engine for the change, write it and its figures, commit."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from .. import caching, stats
from ..errors import Refusal, not_found, refusal
from ..extensions import db
from ..models import Deal, Game, Player, Seat, utcnow
from ..rules import N_, DealRecord, DealState, GameSetup, GameState, Ruleset, facts_from_stored, get_ruleset
from .idempotency import KEEP, Once


def conflict() -> Refusal:
    return refusal(
        "conflict",
        N_("Someone else changed this game at the same moment; nothing was saved. Look again and retry."),
    )


# PostgreSQL: serialization failure, deadlock detected, lock timeout.  SQLite: busy, locked.
CONTENTION_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
SQLITE_BUSY, SQLITE_LOCKED = 5, 6


def is_contention(error: DBAPIError) -> bool:
    """Whether a database error means another writer got there first (a 409), not a fault (a 500):
    a unique constraint refusing a concurrent double submit, or a lock not granted in time.  Any
    other error (a missing table, a lost connection) is a real fault."""
    if isinstance(error, IntegrityError):
        return True
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in CONTENTION_SQLSTATES
    sqlite_code = getattr(error.orig, "sqlite_errorcode", None)
    if sqlite_code is not None:
        return sqlite_code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)
    return False


class Stamp(NamedTuple):
    """A game's write counter and the hash of its edit key: what an ETag and a key check need."""

    version: int
    edit_key_hash: str


def stamp(game_id: str) -> Stamp | None:
    """The game's ``Stamp`` from one cheap query; None when there is no such game."""
    if not plausible_id(game_id):
        return None
    row = db.session.connection().execute(_STAMP, {"game_id": game_id}).one_or_none()
    return None if row is None else Stamp(row.version, row.edit_key_hash)


def game_version(game_id: str) -> int | None:
    """The game's write counter, from one cheap query (for ETags)."""
    found = stamp(game_id)
    return None if found is None else found.version


def ping() -> None:
    """One trivial query: the database answers."""
    db.session.execute(select(1)).scalar_one()


def plausible_id(game_id: str) -> bool:
    # Ids are URL-safe base64; anything else (a NUL byte breaks PostgreSQL) cannot be one.
    return _ID_RE.fullmatch(game_id) is not None


_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")


@dataclass(frozen=True)
class Snapshot:
    """A game read in one query (no ORM objects) and replayed: the one way to load a game.
    ``version`` is its write counter when read (a page's ETag; a write's ``If-Match``)."""

    id: str
    version: int
    updated_at: datetime
    edit_key_hash: str
    ruleset: Ruleset
    setup: GameSetup
    player_ids: tuple[int, ...]
    played_on: date
    created_at: datetime
    note: str | None
    records: tuple[DealRecord, ...]
    state: GameState


class Written(NamedTuple):
    """What a write to a game leaves: its setup, its state after the write and the deal written."""

    setup: GameSetup
    state: GameState
    deal: DealState | None


@dataclass(frozen=True)
class Change:
    """A change to a game's deals, checked by the engine and not yet made: the state after it,
    the deal to show for it (None for an undo or several deals), the first deal it touches, and
    the statement that makes it."""

    after: GameState
    number: int | None
    first: int
    """The first deal the change touches: the deals before it stand as they were."""
    statement: Any
    params: dict[str, Any] | list[dict[str, Any]]
    """One set of parameters, or a list of them (the statement sent once per set)."""


#: A write's plan: given the game as it is, the change (or a refusal, and nothing is written).
Plan = Callable[[Snapshot], Change]

_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__
_deals = Deal.__table__
# The game, its seats and its deals in one query: the deals ride along the first seat's rows.
_SNAPSHOT = (
    select(
        _games.c.id,
        _games.c.version,
        _games.c.updated_at,
        _games.c.edit_key_hash,
        _games.c.ruleset,
        _games.c.options,
        _games.c.first_dealer,
        _games.c.played_on,
        _games.c.created_at,
        _games.c.note,
        _seats.c.position,
        _seats.c.player_id,
        _players.c.name,
        _deals.c.number,
        _deals.c.contract,
        _deals.c.bids,
        _deals.c.tricks,
        _deals.c.facts,
    )
    .join(_seats, _seats.c.game_id == _games.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .outerjoin(_deals, and_(_deals.c.game_id == _games.c.id, _seats.c.position == 0))
    .where(_games.c.id == bindparam("game_id"))
    .order_by(_seats.c.position, _deals.c.number)
)
_STAMP = select(_games.c.version, _games.c.edit_key_hash).where(_games.c.id == bindparam("game_id"))
_LOCK = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(version=_games.c.version + 1, updated_at=bindparam("now"))
)
_SET_FINISHED = (
    update(_games).where(_games.c.id == bindparam("game_id")).values(finished=bindparam("finished"))
)
_the_deal = (_deals.c.game_id == bindparam("of_game"), _deals.c.number == bindparam("deal_number"))
ADD_DEAL = insert(_deals)
CHANGE_DEAL = update(_deals).where(*_the_deal)
DROP_DEAL = delete(_deals).where(*_the_deal)


def snapshot(game_id: str) -> Snapshot:
    """The game in one query (game, seats, deals), replayed; or ``not_found``."""
    if not plausible_id(game_id):
        raise not_found()
    rows = db.session.connection().execute(_SNAPSHOT, {"game_id": game_id}).all()
    if not rows:
        raise not_found()
    # A row per seat, but seat 0 has one per deal: the deals ride along it.
    seats = [row for row in rows if row.position != 0 or row is rows[0]]
    game = rows[0]
    ruleset = get_ruleset(game.ruleset)
    setup = GameSetup(
        ruleset=game.ruleset,
        players=tuple(seat.name for seat in seats),
        first_dealer=game.first_dealer,
        options=tuple(sorted((str(k), str(v)) for k, v in (game.options or {}).items())),
    )
    records = tuple(
        DealRecord(
            contract=row.contract,
            bids=None if row.bids is None else tuple(row.bids),
            tricks=None if row.tricks is None else tuple(row.tricks),
            facts=facts_from_stored(row.facts, ruleset.facts),
        )
        for row in rows
        if row.number is not None
    )
    return Snapshot(
        id=game_id,
        version=game.version,
        updated_at=game.updated_at,
        edit_key_hash=game.edit_key_hash,
        ruleset=ruleset,
        setup=setup,
        player_ids=tuple(seat.player_id for seat in seats),
        played_on=game.played_on,
        created_at=game.created_at,
        note=game.note,
        records=records,
        state=ruleset.replay(setup, records),
    )


def lock(game_id: str) -> Snapshot:
    """The game, locked for this transaction's write by bumping its version (a row lock on PostgreSQL,
    the database's write lock on SQLite), then read: another write to the game waits here until this
    one commits, then reads what it committed.  The snapshot holds the version this write makes."""
    if not plausible_id(game_id):
        raise not_found()
    bumped = db.session.connection().execute(_LOCK, {"game_id": game_id, "now": utcnow()})
    if bumped.rowcount != 1:
        raise not_found()
    return snapshot(game_id)


def bad_key() -> Refusal:
    return refusal("bad_key", N_("That is not this game's edit key."), None)


def stale() -> Refusal:
    return refusal(
        "stale", N_("This game changed since you opened the form; nothing was saved. Look again and retry.")
    )


@contextlib.contextmanager
def transaction() -> Iterator[None]:
    """One write: commit on success; on any error roll back everything (contention: ``conflict``)."""
    try:
        yield
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise (conflict() if is_contention(error) else error) from None
    except BaseException:
        db.session.rollback()
        raise


def write(
    game_id: str,
    plan: Plan,
    *,
    key_hash: str | None = None,
    expected_version: int | None = None,
    dry_run: bool = False,
    once: Once | None = None,
) -> Written:
    """Lock and read the game, ask the engine (``plan``), write the change and its figures, commit.

    ``key_hash``: the edit key the caller checked; if the game's key changed since, ``bad_key``.
    ``once``: the request's ``Idempotency-Key``, judged before ``If-Match`` (``expected_version``)
    and the rules.  ``dry_run``: the same checks (the key's too) and result from a plain read,
    nothing written.
    """
    if dry_run:
        try:
            game = snapshot(game_id)
            _judge(game, game.version, key_hash, expected_version, once)
            return _written(game, plan(game))
        finally:
            db.session.rollback()  # ends the read
    with transaction():
        game = lock(game_id)
        _judge(game, game.version - 1, key_hash, expected_version, once)
        change = plan(game)
        connection = db.session.connection()
        connection.execute(change.statement, change.params)
        if change.after.finished != game.state.finished:
            connection.execute(_SET_FINISHED, {"game_id": game.id, "finished": change.after.finished})
        stats.store_figures(
            change.after,
            game_id=game.id,
            player_ids=game.player_ids,
            played_on=game.played_on,
            from_deal=change.first,
        )
        written = _written(game, change)
        if once is not None:
            connection.execute(KEEP, once.row(written))
        caching.changed(players=game.player_ids, standings=game.state.finished or change.after.finished)
    return written


def _judge(
    game: Snapshot, version: int, key_hash: str | None, expected_version: int | None, once: Once | None
) -> None:
    """The checks before the rules: the edit key, the ``Idempotency-Key``, ``If-Match``."""
    if key_hash is not None and game.edit_key_hash != key_hash:
        raise bad_key()
    if once is not None:
        once.check()
    if expected_version is not None and expected_version != version:
        raise stale()


def _written(game: Snapshot, change: Change) -> Written:
    deal = None if change.number is None else change.after.deals[change.number - 1]
    return Written(game.setup, change.after, deal)
