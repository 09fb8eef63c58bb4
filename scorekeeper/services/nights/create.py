"""Creating a club night, and its director's pencil (the keyring's pencils and hand-overs, for a night)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta

from sqlalchemy import delete, insert, literal, select, update

from ...extensions import db, game_changed
from ...models import (
    NIGHT_NAME_LENGTH,
    Device,
    Night,
    NightHandOver,
    NightPencil,
    utcnow,
)
from ...rules import N_, RuleError, get_ruleset, validate_note
from ..games import parse_played_on
from ..keyring import HandOverOutcome, new_token
from ..keys import hash_key, new_edit_key, new_game_id
from ..store import plausible_id, transaction
from .view import FIRST_ROUNDS, MOST_ROUNDS, SEATINGS, night_seat_counts

# --- creating a night ---------------------------------------------------------------------------


def whole_number(raw: object, field_name: str, low: int, high: int, message: str) -> int:
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
        planned = whole_number(
            rounds, "rounds", 1, MOST_ROUNDS, N_("Rounds: a whole number from %(low)d to %(high)d.")
        )
    if seating not in SEATINGS:
        raise RuleError("invalid_night", N_("Choose Mix or Swiss seating."), "seating")
    if first_round not in FIRST_ROUNDS:
        raise RuleError("invalid_night", N_("Choose how round 1 is seated."), "first_round")
    drawn = (
        secrets.randbelow(1_000_000)
        if seed is None or not str(seed).strip()
        else whole_number(seed, "seed", 0, 999_999, N_("Seed: a whole number from %(low)d to %(high)d."))
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
        game_changed.send(None, nights=True)  # a season's page lists its nights
    return night_id, key


# --- the director's pencil (the keyring's, for a night) -----------------------------------------


def holds_night(device_hash: str | None, night_id: str) -> bool:
    """Whether the device holds the night's pencil (one query)."""
    if device_hash is None or not plausible_id(night_id):
        return False
    found = db.session.execute(
        select(literal(1)).where(NightPencil.device_hash == device_hash, NightPencil.night_id == night_id)
    ).first()
    return found is not None


def add_night_pencil(device_hash: str, night_id: str) -> None:
    """The device holds the night's pencil (in the caller's transaction, after ``device_for_pencil``)."""
    exists = db.session.get(NightPencil, (device_hash, night_id))
    if exists is None and db.session.get(Device, device_hash) is not None:
        db.session.execute(
            insert(NightPencil).values(device_hash=device_hash, night_id=night_id, created_at=utcnow())
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
