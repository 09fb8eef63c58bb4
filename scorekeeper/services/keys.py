"""Game ids and edit keys: made at random, stored as a hash, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from ..errors import not_found, refusal
from ..rules import N_
from .store import Stamp, bad_key, stamp


def new_game_id() -> str:
    """11 URL-safe characters, 64 random bits; never starting with ``-`` (a command line would read
    ``flask export-game -k3...`` as an option) or ``_``."""
    while True:
        game_id = secrets.token_urlsafe(8)
        if game_id[0].isalnum():
            return game_id


def new_edit_key() -> str:
    """A 192-bit secret; only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    # The key is high-entropy random, so a fast hash is as strong as a slow one here.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def hash_matches(key_hash: str, key: str | None) -> bool:
    """Constant-time check of an edit key against a stored hash."""
    if not key:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


def authorised_game(game_id: str, key: str | None) -> Stamp:
    """The game's ``Stamp`` once ``key`` is shown to be its edit key; the write checks the key again
    once it holds the game's lock (``key_hash``)."""
    found = stamp(game_id)
    if found is None:
        raise not_found()
    if key is None:
        raise refusal(
            "auth_required", N_("Changing a game needs its edit key: Authorization: Bearer <key>."), None
        )
    if not hash_matches(found.edit_key_hash, key):
        raise bad_key()
    return found
