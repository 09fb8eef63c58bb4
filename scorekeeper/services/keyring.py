"""The keys a phone holds, stored on the server; one-time hand-over tokens; the administrator's sessions.

A phone is a ``Device`` (its cookie's token); each game it holds the pencil of is a ``Pencil``,
only ever added; a club night's pencil (its director's) and a season's are held the same way, each in
its own table (``Held``: ``NIGHT``, ``SEASON``), and handed over by the same one-time tokens.  Every
token is high-entropy random and stored as its SHA-256 hash only.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..models import (
    AdminSession,
    Device,
    Game,
    HandOver,
    NightHandOver,
    NightPencil,
    Pencil,
    SeasonHandOver,
    SeasonPencil,
    Seat,
    utcnow,
)
from .keys import hash_key, hash_matches
from .store import plausible_id

#: Old key cookies one request may bring to be taken over (a Cookie header holds fewer).
MOST_TAKEN_OVER = 400


@dataclass(frozen=True)
class Held:
    """Where one kind of pencil is stored: the keyring's rows of it and its hand-over tokens, each
    naming what it is the pencil of in its ``owner`` column (a game, a club night, a season)."""

    pencil: Any
    hand_over: Any
    owner: str

    def of(self, model: Any) -> Any:
        return getattr(model, self.owner)


GAME = Held(Pencil, HandOver, "game_id")
NIGHT = Held(NightPencil, NightHandOver, "night_id")
SEASON = Held(SeasonPencil, SeasonHandOver, "season_id")
#: The club's pencils (a night's director's, a season's), copied with a phone's keyring.
CLUB = (NIGHT, SEASON)


def now() -> datetime:
    """The server's clock for tokens and sessions (tests move it)."""
    return utcnow()


def new_token() -> str:
    """A 256-bit random token, URL-safe: only its hash is stored."""
    return secrets.token_urlsafe(32)


def _insert_ignoring_duplicates(model: Any) -> Any:
    """``INSERT ... ON CONFLICT DO NOTHING`` on both databases: a pencil held twice is held once."""
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model).on_conflict_do_nothing()


def device_for_pencil(device_hash: str | None) -> tuple[str, str]:
    """A new device value to give pencils to (its hash and token), holding a copy of the keyring of
    ``device_hash`` if the server made it.  So a value someone else also holds (planted in this
    browser, or copied from it) never gains what this browser gains, and nobody can choose the
    device a phone's keys are stored under.  The old value keeps its keys until the new one's
    own next pencil (which shows the phone has it): a pencil whose answer is lost costs nothing,
    and the value before it goes now.  In a transaction."""
    token = new_token()
    hashed = hash_key(token)
    old = None
    if device_hash is not None:
        row = db.session.execute(select(Device.replaces).where(Device.token_hash == device_hash)).first()
        if row is not None:
            old, before = device_hash, row[0]
            if before is not None:
                db.session.execute(delete(Pencil).where(Pencil.device_hash == before))
                for kind in CLUB:
                    db.session.execute(delete(kind.pencil).where(kind.pencil.device_hash == before))
                db.session.execute(delete(Device).where(Device.token_hash == before))
    db.session.execute(
        _insert_ignoring_duplicates(Device).values(token_hash=hashed, created_at=now(), replaces=old)
    )
    if old is not None:
        copied = select(literal(hashed), Pencil.game_id, Pencil.created_at).where(Pencil.device_hash == old)
        db.session.execute(
            insert(Pencil).from_select(["device_hash", "game_id", "created_at"], copied),
            execution_options={"synchronize_session": False},
        )
        # A club night's pencil (its director's) and a season's are held the same way, and copied too.
        for kind in CLUB:
            rows = select(literal(hashed), kind.of(kind.pencil), kind.pencil.created_at).where(
                kind.pencil.device_hash == old
            )
            db.session.execute(
                insert(kind.pencil).from_select(["device_hash", kind.owner, "created_at"], rows),
                execution_options={"synchronize_session": False},
            )
    return hashed, token


def add_device(device_hash: str) -> None:
    """Store a device the server made earlier (``access``: an old key cookie's take-over).  In a
    transaction; one already stored stays as it is."""
    db.session.execute(_insert_ignoring_duplicates(Device).values(token_hash=device_hash, created_at=now()))


def taken_over_since(device_hash: str, game_ids: Collection[str]) -> bool:
    """Whether a value made from this device at a new pencil holds all of ``game_ids`` (one query)."""
    wanted = list(game_ids)
    held = (
        select(func.count(Pencil.game_id))
        .join(Device, Device.token_hash == Pencil.device_hash)
        .where(Device.replaces == device_hash, Pencil.game_id.in_(wanted))
        .group_by(Device.token_hash)
        .order_by(func.count(Pencil.game_id).desc())
        .limit(1)
    )
    return (db.session.execute(held).scalar() or 0) == len(wanted)


def held_of(device_hash: str, game_ids: Collection[str]) -> set[str] | None:
    """Which of ``game_ids`` the device holds; None: no such device (one query)."""
    rows = db.session.execute(
        select(Device.token_hash, Pencil.game_id)
        .outerjoin(Pencil, and_(Pencil.device_hash == Device.token_hash, Pencil.game_id.in_(list(game_ids))))
        .where(Device.token_hash == device_hash)
    ).all()
    return None if not rows else {row[1] for row in rows if row[1] is not None}


def add_pencils(device_hash: str, game_ids: Collection[str]) -> None:
    """The device holds the pencil of ``game_ids`` (already held ones stay as they are)."""
    if game_ids:
        at = now()
        db.session.execute(
            _insert_ignoring_duplicates(Pencil),
            [{"device_hash": device_hash, "game_id": game_id, "created_at": at} for game_id in game_ids],
        )


def holds(device_hash: str, game_id: str) -> bool:
    """Whether the device holds the game's pencil (one query)."""
    if not plausible_id(game_id):
        return False
    found = db.session.execute(
        select(literal(1)).where(Pencil.device_hash == device_hash, Pencil.game_id == game_id)
    ).first()
    return found is not None


def version_and_pencil(game_id: str, device_hash: str | None) -> tuple[int, bool] | None:
    """The game's write counter and whether the device holds its pencil, in one query; None: no game."""
    if not plausible_id(game_id):
        return None
    held: Any = literal(False)
    if device_hash is not None:
        held = exists().where(Pencil.game_id == Game.id, Pencil.device_hash == device_hash)
    row = db.session.execute(select(Game.version, held).where(Game.id == game_id)).first()
    return None if row is None else (int(row[0]), bool(row[1]))


def games_with_keys(keys: Mapping[str, str]) -> list[str]:
    """Of ``keys`` (game id -> edit key, as old key cookies held them), the ids whose key is right."""
    wanted = [game_id for game_id in keys if plausible_id(game_id)][:MOST_TAKEN_OVER]
    if not wanted:
        return []
    rows = db.session.execute(select(Game.id, Game.edit_key_hash).where(Game.id.in_(wanted)))
    return [game_id for game_id, key_hash in rows if hash_matches(key_hash, keys.get(game_id))]


def holds_every_game_of(device_hash: str, player_ids: Collection[int]) -> bool:
    """Whether the device holds the pencil of every game these players sat in (and there is one)."""
    games = (
        select(Seat.game_id.label("game_id"))
        .where(Seat.player_id.in_(list(player_ids)))
        .distinct()
        .subquery()
    )
    held = and_(Pencil.game_id == games.c.game_id, Pencil.device_hash == device_hash)
    total, pencils = db.session.execute(
        select(func.count(games.c.game_id), func.count(Pencil.game_id)).select_from(
            games.outerjoin(Pencil, held)
        )
    ).one()
    return bool(total) and total == pencils


class HandOverOutcome(Enum):
    TAKEN = "taken"
    USED = "used"
    EXPIRED = "expired"
    UNKNOWN = "unknown"


def new_hand_over(owner_id: str, lifetime: timedelta, kind: Held = GAME) -> str:
    """A one-time hand-over token for the game (or the ``kind``'s night, season), good for
    ``lifetime``; its spent and expired tokens go.  In a transaction."""
    at = now()
    model = kind.hand_over
    db.session.execute(
        delete(model).where(kind.of(model) == owner_id, (model.expires_at <= at) | model.used_at.is_not(None))
    )
    token = new_token()
    db.session.add(model(token_hash=hash_key(token), expires_at=at + lifetime, **{kind.owner: owner_id}))
    return token


def use_hand_over(owner_id: str, token: str, kind: Held = GAME) -> HandOverOutcome:
    """Spend the token if it is the game's (or the ``kind``'s night's, season's), unused and
    unexpired (one conditional UPDATE: of two phones opening the link at once, one gets it).  In a
    transaction."""
    if not token:
        return HandOverOutcome.UNKNOWN
    at, hashed, model = now(), hash_key(token), kind.hand_over
    this = and_(model.token_hash == hashed, kind.of(model) == owner_id)
    spent = db.session.execute(
        update(model)
        .where(this, model.used_at.is_(None), model.expires_at > at)
        .values(used_at=at)
        .execution_options(synchronize_session=False)
    )
    if getattr(spent, "rowcount", 0) == 1:
        return HandOverOutcome.TAKEN
    row = db.session.execute(select(model.used_at).where(this)).first()
    if row is None:
        return HandOverOutcome.UNKNOWN
    return HandOverOutcome.USED if row[0] is not None else HandOverOutcome.EXPIRED


def holds_club(kind: Held, device_hash: str | None, owner_id: str) -> bool:
    """Whether the device holds the pencil of the ``kind``'s night or season (one query)."""
    if device_hash is None or not plausible_id(owner_id):
        return False
    found = db.session.execute(
        select(literal(1)).where(kind.pencil.device_hash == device_hash, kind.of(kind.pencil) == owner_id)
    ).first()
    return found is not None


def add_club_pencil(kind: Held, device_hash: str, owner_id: str) -> None:
    """The device holds the pencil of the ``kind``'s night or season (in the caller's transaction,
    after ``device_for_pencil``)."""
    if db.session.get(Device, device_hash) is not None:
        db.session.execute(
            _insert_ignoring_duplicates(kind.pencil).values(
                device_hash=device_hash, created_at=now(), **{kind.owner: owner_id}
            )
        )


def open_admin_session(key_mark: str, lifetime: timedelta) -> str:
    """A new signed-in session (its token, for the browser's session); expired ones go. In a transaction."""
    at = now()
    db.session.execute(delete(AdminSession).where(AdminSession.expires_at <= at))
    token = new_token()
    db.session.add(
        AdminSession(token_hash=hash_key(token), key_mark=key_mark, created_at=at, expires_at=at + lifetime)
    )
    return token


def admin_session_valid(token: str, key_mark: str) -> bool:
    """Whether the session is open, unexpired and was signed in with the current admin key."""
    row = db.session.execute(
        select(AdminSession.key_mark).where(
            AdminSession.token_hash == hash_key(token), AdminSession.expires_at > now()
        )
    ).first()
    return row is not None and secrets.compare_digest(str(row[0]), key_mark)


def close_admin_session(token: str) -> None:
    """End the session on the server: its cookie, copied or not, no longer signs anyone in."""
    db.session.execute(delete(AdminSession).where(AdminSession.token_hash == hash_key(token)))
