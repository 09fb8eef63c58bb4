"""The store: a game's facts read as one snapshot, and written under a claim on its version.

Every write works out its change from a ``Snapshot`` (one query: game, seats, deals,
replayed), then claims the game by bumping its version only if nobody wrote since; a
write that loses the race locks the game, reads it again and works the change out again.
A worker keeps the snapshot each of its writes leaves, so the game's next write starts
from it after one cheap query instead of a read and a replay (``snapshot_for_write``).
Refusals raise one of the ``Refusal`` classes of ``scorekeeper.errors`` (the engine's
``RuleError``, or a conflict, an access failure, a missing game); each leaves the database
as it was.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, NamedTuple

from flask import Flask, current_app
from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from .. import caching, stats
from ..database import on_its_own
from ..errors import ConflictError, Refusal, not_found, refusal
from ..extensions import db
from ..lru import Lru
from ..models import Deal, Game, Player, Seat, utcnow
from ..rules import N_, DealRecord, DealState, GameSetup, GameState, Ruleset, get_ruleset
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


def records_of(deals: Sequence[Any]) -> tuple[DealRecord, ...]:
    """The records of ``deals``: ``Deal`` objects, rows or ``DealState``s, anything with contract,
    bids and tricks."""
    return tuple(
        DealRecord(
            contract=deal.contract,
            bids=None if deal.bids is None else tuple(deal.bids),
            tricks=None if deal.tricks is None else tuple(deal.tricks),
        )
        for deal in deals
    )


def game_version(game_id: str) -> int | None:
    """The game's write counter, from one cheap query (for ETags)."""
    known = game_version_and_key(game_id)
    return None if known is None else known[0]


def game_version_and_key(game_id: str) -> tuple[int, str] | None:
    """The game's write counter and key hash, from one cheap query (for ETags)."""
    if not plausible_id(game_id):
        return None
    row = db.session.connection().execute(_STAMP, {"game_id": game_id}).one_or_none()
    return None if row is None else (row.version, row.edit_key_hash)


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

    Pages, the API, exports and writes all read a game this way.  ``version`` is the
    game's write counter when it was read: a write computes its change from the
    snapshot and then claims the game only if nobody wrote since.  ``updated_at``, the
    time of its last write, changes with the version.
    """

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
    figures: stats.Figures | None = field(default=None, compare=False, repr=False)
    """The stored figures of ``state``, when the write that left it worked them out."""
    checked: bool = field(default=True, compare=False, repr=False)
    """False for a kept copy handed out without reading the game's row (``snapshot_for_write``
    with ``trusted``): a write from it claims the game only if the row is still the copy's."""


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
    params: dict[str, Any] | list[dict[str, Any]]
    """One set of parameters, or a list of them (the statement sent once per set, as executemany)."""


_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__
_deals = Deal.__table__
_game_id: Any = bindparam("game_id")
# The write path's statements, built once (building one costs more than sending it).
# The game, its seats and its deals in one query: the deals ride along the first seat's rows.
_GAME_ROWS = (
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
    )
    .join(_seats, _seats.c.game_id == _games.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .outerjoin(_deals, and_(_deals.c.game_id == _games.c.id, _seats.c.position == 0))
)
_SNAPSHOT = _GAME_ROWS.where(_games.c.id == _game_id).order_by(_seats.c.position, _deals.c.number)
# The game's version, time of its last write and key hash: ETags and 304s, and whether a kept
# snapshot is still the game (``snapshot_for_write``).
_STAMP = select(_games.c.version, _games.c.updated_at, _games.c.edit_key_hash).where(_games.c.id == _game_id)
_bump = {"version": _games.c.version + 1, "updated_at": bindparam("now")}
# Claim: bump the version only if it is still the one the change was worked out from; the
# game's status (finished or not) after the change rides along, so it costs no statement.
_CLAIM = (
    update(_games)
    .where(
        _games.c.id == _game_id,
        _games.c.version == bindparam("seen"),
        _games.c.updated_at == bindparam("seen_at"),
        _games.c.edit_key_hash == bindparam("key_hash"),
    )
    .values({**_bump, "finished": bindparam("finished")})
)
_SET_FINISHED = update(_games).where(_games.c.id == _game_id).values(finished=bindparam("finished"))
_LOCK = update(_games).where(_games.c.id == _game_id).values(_bump).returning(_games.c.version)
_LOCK_VERSION = _LOCK.where(_games.c.version == bindparam("expected"))
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
    return _snapshot_of(game_id, rows)


def _snapshot_of(game_id: str, rows: Sequence[Any]) -> Snapshot:
    """A snapshot from one game's rows of ``_SNAPSHOT`` (seat by seat, deals in order)."""
    # A row per seat, but seat 0 has one per deal: the deals ride along it.
    seats = [row for row in rows if row.position != 0 or row is rows[0]]
    records = records_of([row for row in rows if row.number is not None])
    game = rows[0]
    ruleset = get_ruleset(game.ruleset)
    setup = _setup(game.ruleset, tuple(seat.name for seat in seats), game.first_dealer, game.options)
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


def snapshot_of_new(
    game: Game, ruleset: Ruleset, setup: GameSetup, records: Sequence[DealRecord], state: GameState
) -> Snapshot:
    """The snapshot of a game just added through the ORM (imported), before its commit.

    Read before the commit expires the row, so handing the new game back costs no query.
    """
    return Snapshot(
        id=game.id,
        version=game.version,
        updated_at=game.updated_at,
        edit_key_hash=game.edit_key_hash,
        ruleset=ruleset,
        setup=setup,
        player_ids=tuple(seat.player_id for seat in game.seats),
        played_on=game.played_on,
        created_at=game.created_at,
        note=game.note,
        records=tuple(records),
        state=state,
    )


# -- the snapshots a worker's writes leave -----------------------------------------------------------

#: Games per worker whose last snapshot is kept (``SNAPSHOT_CACHE_SIZE``; 0 keeps none): games
#: being played, each some 50 kB with its figures.
SNAPSHOT_CACHE_SIZE = 64


def init_app(app: Flask) -> None:
    app.config.setdefault("SNAPSHOT_CACHE_SIZE", SNAPSHOT_CACHE_SIZE)
    app.extensions["scorekeeper_snapshots"] = Lru[Snapshot](int(app.config["SNAPSHOT_CACHE_SIZE"]))


def _kept() -> Lru[Snapshot]:
    kept: Lru[Snapshot] = current_app.extensions["scorekeeper_snapshots"]
    return kept


def snapshot_for_write(game_id: str, *, trusted: bool = False) -> Snapshot:
    """The game as a write starts from it: as this worker's last write to it left it, if still so.

    A write keeps the snapshot it leaves (``keep``).  Every change to what a snapshot holds
    (a deal, a player's name, a merge) bumps the game's version and stamps ``updated_at``, so
    one cheap query tells whether the kept snapshot is still the game (``checked``): then the
    game is not read and replayed again.  The edit key's hash then comes from that query, not
    from the kept copy.  Otherwise the game is read as ``snapshot`` reads it.

    ``trusted``: the kept copy as it is, without that query (``Snapshot.checked`` False), for
    a write that needs nothing else from it (recording a deal, entering its tricks).  The write
    claims the game only if its row still has the copy's version, last write and key hash, and
    reads the game on any other outcome (``write``).
    """
    if not plausible_id(game_id):
        raise not_found()
    kept = _kept().get(game_id)
    if kept is None:
        return _read_for_write(game_id)
    return kept if trusted else checked(kept)


def _read_for_write(game_id: str) -> Snapshot:
    """The game read for a write: ``snapshot``, on PostgreSQL on its own when it is the first
    statement (``database.on_its_own``: no BEGIN and COMMIT round trips).

    The write claims the game only if its row is still the one read, and then goes as one
    statement, its own transaction too: where a kept copy is one write behind (another
    worker's), a deal costs the pool's ping, the read and the write, not five round trips.
    """
    with on_its_own(db.session.connection()):
        return snapshot(game_id)


def checked(game: Snapshot) -> Snapshot:
    """``game``, once its row is read to still be it; or the game read afresh (and kept)."""
    if game.checked:
        return game
    stamp = db.session.connection().execute(_STAMP, {"game_id": game.id}).one_or_none()
    if stamp is None:
        raise not_found()
    if stamp.version == game.version and stamp.updated_at == game.updated_at:
        return replace(game, edit_key_hash=stamp.edit_key_hash, checked=True)
    return _read_again(game.id)


def _read_again(game_id: str) -> Snapshot:
    """The game read afresh, where a kept copy turned out not to be it; kept in its place."""
    fresh = _read_for_write(game_id)
    keep(fresh)
    return fresh


def keep(written: Snapshot) -> None:
    """Keep the snapshot a write has just committed (``snapshot_for_write`` starts from it).

    A finished game is not kept: it is rarely written again (a correction), and the memory
    is better spent on the games being played.
    """
    if written.state.finished:
        _kept().discard(written.id)
    else:
        _kept().put(written.id, replace(written, checked=False) if written.checked else written)


def keyed_start(seen: Snapshot, once: Once) -> Snapshot:
    """The snapshot a keyed write starts from, once its key is new (else ``Replayed`` or
    ``idempotency_key_reused``): ``seen`` (the edit key shown was checked against it), from one
    query of the game's row and the key's.

    That query also tells whether ``seen`` is still the game (a kept copy then counts as read,
    ``checked``) and whether the edit key it was checked against is still the game's (else
    ``bad_key``, before any kept answer is given).
    """
    row = once.stamp_and_key()
    if row is None:
        raise not_found()
    if row.edit_key_hash != seen.edit_key_hash:
        raise bad_key()
    once.judge(row)
    if seen.checked or row.version != seen.version or row.updated_at != seen.updated_at:
        return seen
    return replace(seen, checked=True)


def bad_key() -> Refusal:
    return refusal("bad_key", N_("That is not this game's edit key."), None)


def stale() -> Refusal:
    return refusal(
        "stale", N_("This game changed since you opened the form; nothing was saved. Look again and retry.")
    )


def _claim_params(seen: Snapshot, finished: bool, now: datetime) -> dict[str, Any]:
    """The claim (``_CLAIM``): lock the game for this write if its row is still the one ``seen``
    was read from (nobody has written since, its key is the same).  ``finished``: the game's
    status after the write, stored with the claim.
    """
    return {
        "game_id": seen.id,
        "seen": seen.version,
        "seen_at": seen.updated_at,
        "key_hash": seen.edit_key_hash,
        "now": now,
        "finished": finished,
    }


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


def commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None


@contextlib.contextmanager
def transaction() -> Iterator[None]:
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
    commit()


def write(
    game_id: str,
    expected_version: int | None,
    plan: Any,
    seen: Snapshot | None = None,
    *,
    dry_run: bool = False,
    once: Once | None = None,
) -> Written:
    """Work out a change from a snapshot, then make it, with the figures, in one transaction.

    ``plan(snapshot)`` checks the rules and returns the ``Change`` (or refuses, and nothing is
    written).  The game is claimed only if its version is still the snapshot's, so the lock
    is held just for the writes; if another writer got there first, the game is locked, read
    again and the change worked out again.  ``seen`` is a snapshot the caller already read.

    ``dry_run`` works the change out just the same (the same checks, refusals and result)
    and then ends the transaction without a single statement that writes: a preview costs
    the snapshot read and nothing more.

    A ``seen`` not ``checked`` (a kept copy, its row not read) is checked first for a preview or
    an ``If-Match``, and the game read again when the copy refuses, so that each answers for the
    game as it is; when the claim finds
    its row changed, the game is read and the claim tried once more, in the same transaction
    (on PostgreSQL a failed claim writes nothing; SQLite's write lock is let go first).  The
    key checked against ``seen`` must still be the game's whenever the game is read again.

    ``once``: the write's ``Idempotency-Key`` (looked for already by the caller), kept with the
    write's answer in the same transaction.  Wherever the write finds another write came first,
    the key is looked for again, and a request already applied is answered as it was
    (``Replayed``).  A dry run ignores it.
    """
    if dry_run:
        try:
            current = _current(game_id, expected_version, seen, confirm=True)
            change: Change = plan(current)
        finally:
            db.session.rollback()  # ends the read; nothing was written
        return _written(current, change)
    if once is None:
        return _write(game_id, expected_version, plan, seen, None)
    try:
        return _write(game_id, expected_version, plan, seen, once)
    except ConflictError:
        # A conflict may be the same key stored by a request that won the race (the database
        # refused the key's second row): then that request's answer is this one's.
        once.check()
        raise


def _write(
    game_id: str, expected_version: int | None, plan: Any, seen: Snapshot | None, once: Once | None
) -> Written:
    """``write``, not a dry run."""
    with transaction():
        current = _current(game_id, expected_version, seen, confirm=expected_version is not None)
        try:
            change = plan(current)
        except Refusal:
            if current.checked:
                raise
            # A kept copy that refuses is most often one write behind: another worker took the
            # game's last deal (a phone's requests land on any worker).  Read the game at once
            # rather than first asking its row whether the copy is still it.
            current = _same_key(seen, _read_again(game_id))
            if once is not None:
                once.check()  # the other write may have been this one, sent twice
            change = plan(current)
        now = utcnow()
        made = _make(current, change, claim=now, once=once)
        if made is None and not current.checked:
            # The kept copy was not the game any more: read it, and claim it from that.
            if db.session.connection().dialect.name != "postgresql":
                db.session.rollback()
            current = _same_key(seen, _read_again(game_id))
            if once is not None:
                once.check()
            change = plan(current)
            made = _make(current, change, claim=now, once=once)
        if made is not None:
            version = current.version + 1
        else:
            # Another write landed since the read: what went with the claim is undone; lock the
            # game, read it again and work the change out again.
            db.session.rollback()
            if once is None:
                current = _same_key(seen, _lock(game_id, expected_version))
            else:
                # The other write may have been this one, sent twice: its key is looked for
                # before If-Match is judged (the lock bumped the version it read).
                current = _same_key(seen, _lock(game_id, None))
                once.check()
                if expected_version is not None and current.version != expected_version + 1:
                    raise stale()
            change = plan(current)
            made = _make(current, change, claim=None, once=once)
            assert made is not None
            # The lock stamped the game before it was read again.
            version, now = current.version, current.updated_at
        caching.changed(standings=current.state.finished or change.after.finished)
    records = records_of(change.after.deals)
    keep(replace(current, version=version, updated_at=now, records=records, state=change.after, figures=made))
    return _written(current, change)


def _make(
    current: Snapshot, change: Change, *, claim: datetime | None, once: Once | None = None
) -> stats.Figures | None:
    """Send the change and the figures that follow from it (on PostgreSQL one round trip); the
    figures of the state after it.  ``once``: the write's key and answer go with them.

    ``claim``: the time of the write, with which the game's version is claimed first
    (``_CLAIM``); None comes back when that fails, and nothing else was written.  ``claim`` None:
    the game is already locked (``_lock``), and only its status follows.
    """
    figures = stats.figure_changes(
        game_id=current.id,
        player_ids=current.player_ids,
        played_on=current.played_on,
        before=current.state,
        after=change.after,
        old=current.figures,
    )
    first: list[stats.Step] = []
    if claim is not None:
        first.append((_CLAIM, _claim_params(current, change.after.finished, claim)))
    elif change.after.finished != current.state.finished:
        first.append((_SET_FINISHED, {"game_id": current.id, "finished": change.after.finished}))
    steps = [*first, (change.statement, change.params), *figures.steps]
    if once is not None:
        steps.append((KEEP, once.row(_written(current, change))))
    # With nothing to settle after them, these steps are the whole write (on PostgreSQL one statement,
    # committed on its own when nothing was read in the transaction before it).
    counts = stats.send(steps, claim=claim is not None, whole=not figures.unsettled)
    if counts is None:
        return None
    figures.settle()
    return figures.after


def _current(game_id: str, expected_version: int | None, seen: Snapshot | None, *, confirm: bool) -> Snapshot:
    """The snapshot a write starts from, once it holds the version ``If-Match`` insists on.

    ``confirm``: a kept copy not ``checked`` is checked first.
    """
    if seen is None:
        current = snapshot_for_write(game_id)
    else:
        current = _same_key(seen, checked(seen)) if confirm else seen
    if expected_version is not None and current.version != expected_version:
        raise stale()
    return current


def _same_key(seen: Snapshot | None, current: Snapshot) -> Snapshot:
    """``current`` (the game read again), once its key is still the one checked against ``seen``."""
    if seen is not None and current.edit_key_hash != seen.edit_key_hash:
        raise bad_key()
    return current


def _written(current: Snapshot, change: Change) -> Written:
    deal = None if change.number is None else change.after.deals[change.number - 1]
    return Written(current.setup, change.after, deal)
