"""The store: a game read as one snapshot, and every write to a game as one plain transaction:
lock the game, read it, ask the engine for the change, write it and its figures, commit."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from .. import stats
from ..errors import Refusal, not_found, refusal
from ..extensions import db, game_changed
from ..models import Deal, Game, IdempotencyKey, Player, Seat, utcnow
from ..rules import (
    N_,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    Ruleset,
    facts_from_stored,
    get_ruleset,
    stored_facts,
)
from ..stored_figures import GameResult
from .idempotency import KEEP, Once, StoredKey


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
    a unique constraint refusing a concurrent double submit, or a lock not obtained in time.  Any
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
    """A game read in one query (no ORM objects): the one way to read a game, replayed when its
    ``state`` is first asked.  ``version`` is its write counter when read (a page's ETag; a write's
    ``If-Match``); ``finished`` as stored.  A write's read also holds the game's ``figures`` as
    stored (its ``game_results`` rows by seat) and the request's stored ``Idempotency-Key``."""

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
    finished: bool = False
    replayed: GameState | None = field(default=None, repr=False, compare=False)
    figures: tuple[dict[str, Any], ...] | None = field(default=None, repr=False, compare=False)
    stored_key: StoredKey | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def state(self) -> GameState:
        """The game replayed by the engine (once, when first asked)."""
        if self.replayed is not None:
            return self.replayed
        return self.ruleset.replay(self.setup, self.records)


class Written(NamedTuple):
    """What a write to a game leaves: its setup, its state after the write and the deal written."""

    setup: GameSetup
    state: GameState
    deal: DealState | None


@dataclass(frozen=True)
class Change:
    """A change to a game's deals, checked by the engine and not yet made: the state after it,
    the deal to show for it (None for an undo or several deals), the first deal it touches, and
    the deals it writes by number (a record to store, None for a deal removed).  The store
    chooses the statements."""

    after: GameState
    number: int | None
    first: int
    """The first deal the change touches: the deals before it stand as they were."""
    deals: dict[int, DealRecord | None]


#: A write's plan: given the game as it is, the change (or a refusal, and nothing is written).
Plan = Callable[[Snapshot], Change]

_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__
_deals = Deal.__table__
_figures = GameResult.__table__
_keys = IdempotencyKey.__table__
#: The columns of the game's ``game_results`` rows a write's read holds (``Snapshot.figures``).
FIGURES = ("player_id", "ranking", "played_on", "finished", "total", "rank", "deals_played", "deals_won")


@functools.cache
def _read(*, figures: bool, key: bool) -> Any:
    """The game, its seats and its deals in one query: the deals ride along the first seat's rows.
    A write's read (``figures``) adds each seat's stored figures, and with a ``key`` that key's row
    (along the second seat's row: every game has one)."""
    columns = [
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
        _games.c.finished,
        _seats.c.position,
        _seats.c.player_id,
        _players.c.name,
        _deals.c.number,
        _deals.c.contract,
        _deals.c.bids,
        _deals.c.tricks,
        _deals.c.facts,
    ]
    joined = (
        _games.join(_seats, _seats.c.game_id == _games.c.id)
        .join(_players, _players.c.id == _seats.c.player_id)
        .outerjoin(_deals, and_(_deals.c.game_id == _games.c.id, _seats.c.position == 0))
    )
    if figures:
        columns += [_figures.c[name].label(f"stored_{name}") for name in FIGURES]
        joined = joined.outerjoin(
            _figures, and_(_figures.c.game_id == _games.c.id, _figures.c.seat == _seats.c.position)
        )
    if key:
        columns += [_keys.c.fingerprint, _keys.c.status, _keys.c.answer]
        its_key = (_keys.c.game_id == _games.c.id, _keys.c.key == bindparam("key"), _seats.c.position == 1)
        joined = joined.outerjoin(_keys, and_(*its_key))
    return (
        select(*columns)
        .select_from(joined)
        .where(_games.c.id == bindparam("game_id"))
        .order_by(_seats.c.position, _deals.c.number)
    )


_STAMP = select(_games.c.version, _games.c.edit_key_hash).where(_games.c.id == bindparam("game_id"))
_LOCK = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(version=_games.c.version + 1, updated_at=bindparam("now"))
)
_SET_FINISHED = update(_games).where(_games.c.id == bindparam("game_id"))
_SET_FINISHED = _SET_FINISHED.values(finished=bindparam("finished"), finished_at=bindparam("at"))
_the_deal = (_deals.c.game_id == bindparam("of_game"), _deals.c.number == bindparam("deal_number"))
_ADD_DEAL = insert(_deals)
_CHANGE_DEAL = update(_deals).where(*_the_deal)
_DROP_DEAL = delete(_deals).where(*_the_deal)


def snapshot(game_id: str, *, key: str | None = None, figures: bool = False) -> Snapshot:
    """The game in one query (game, seats, deals), or ``not_found``; with ``figures`` and a ``key``
    as a write reads it (``_read``)."""
    if not plausible_id(game_id):
        raise not_found()
    params = {"game_id": game_id} if key is None else {"game_id": game_id, "key": key}
    rows = db.session.connection().execute(_read(figures=figures, key=key is not None), params).all()
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
    stored = None
    if figures and all(seat.stored_total is not None for seat in seats):
        stored = tuple(
            {
                "game_id": game_id,
                "seat": seat.position,
                **{name: seat._mapping[f"stored_{name}"] for name in FIGURES},
            }
            for seat in seats
        )
    stored_key = None
    if key is not None and seats[1].fingerprint is not None:
        stored_key = StoredKey(seats[1].fingerprint, seats[1].status, seats[1].answer)
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
        finished=bool(game.finished),
        figures=stored,
        stored_key=stored_key,
    )


def lock(game_id: str, *, key: str | None = None) -> Snapshot:
    """The game, locked for this transaction's write by bumping its version (a row lock on PostgreSQL,
    the database's write lock on SQLite), then read with its stored figures (and ``key``'s row):
    another write to the game waits here until this one commits, then reads what it committed.
    The snapshot holds the version this write makes."""
    if not plausible_id(game_id):
        raise not_found()
    bumped = db.session.connection().execute(_LOCK, {"game_id": game_id, "now": utcnow()})
    if bumped.rowcount != 1:
        raise not_found()
    return snapshot(game_id, key=key, figures=True)


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
    key = None if once is None else once.key
    if dry_run:
        try:
            game = snapshot(game_id, key=key)
            _judge(game, game.version, key_hash, expected_version, once)
            return _written(game, plan(game))
        finally:
            db.session.rollback()  # ends the read
    with transaction():
        game = lock(game_id, key=key)
        _judge(game, game.version - 1, key_hash, expected_version, once)
        change = plan(game)
        connection = db.session.connection()
        _store_deals(game, change)
        finished_at = utcnow() if change.after.finished else None
        if change.after.finished != game.finished:
            finished = {"game_id": game.id, "finished": change.after.finished, "at": finished_at}
            connection.execute(_SET_FINISHED, finished)
        stats.store_figures(
            change.after,
            game_id=game.id,
            player_ids=game.player_ids,
            played_on=game.played_on,
            from_deal=change.first,
            stored=game.figures,
            scored_from=any(
                not game.ruleset.is_pending(record) for record in game.records[change.first - 1 :]
            ),
        )
        if game.finished or change.after.finished:  # a finished game is rated: its rating may move
            stats.ratings.rerate(game, change.after, finished_at)
        written = _written(game, change)
        if once is not None:
            connection.execute(KEEP, once.row(written))
        game_changed.send(game.id, players=game.player_ids, standings=game.finished or change.after.finished)
    return written


def deal_values(record: DealRecord, contract: str) -> dict[str, Any]:
    """A deal's row as the engine left it (``contract``: as the replay read it)."""
    return {
        "contract": contract,
        "bids": None if record.bids is None else list(record.bids),
        "tricks": None if record.tricks is None else list(record.tricks),
        "facts": stored_facts(record),
    }


def _store_deals(game: Snapshot, change: Change) -> None:
    """The deals ``change`` writes: a deal beyond the game's added, None removed, the others updated."""
    added, changed, dropped = [], [], []
    now = utcnow()
    for number, record in sorted(change.deals.items()):
        if record is None:
            dropped.append({"of_game": game.id, "deal_number": number})
            continue
        values = deal_values(record, change.after.deals[number - 1].contract)
        if number > len(game.records):
            added.append({"game_id": game.id, "number": number, **values})
        else:
            changed.append({"of_game": game.id, "deal_number": number, "updated_at": now, **values})
    connection = db.session.connection()
    for statement, params in ((_DROP_DEAL, dropped), (_CHANGE_DEAL, changed), (_ADD_DEAL, added)):
        if params:
            connection.execute(statement, params)


def _judge(
    game: Snapshot, version: int, key_hash: str | None, expected_version: int | None, once: Once | None
) -> None:
    """The checks before the rules: the edit key (none when ``key_hash`` is empty: a phone's keyring
    stood for it), the ``Idempotency-Key``, ``If-Match``."""
    if key_hash and game.edit_key_hash != key_hash:
        raise bad_key()
    if once is not None:
        once.check(game.stored_key)
    if expected_version is not None and expected_version != version:
        raise stale()


def _written(game: Snapshot, change: Change) -> Written:
    deal = None if change.number is None else change.after.deals[change.number - 1]
    return Written(game.setup, change.after, deal)
