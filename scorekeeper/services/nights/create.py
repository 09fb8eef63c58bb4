"""Creating a club night (its director's pencil is the keyring's: ``keyring.NIGHT``)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from ...extensions import db, game_changed
from ...models import NIGHT_NAME_LENGTH, Night, utcnow
from ...rules import N_, RuleError, get_ruleset, validate_note
from ..games import parse_played_on
from ..keys import hash_key, new_edit_key, new_game_id
from ..store import transaction
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
