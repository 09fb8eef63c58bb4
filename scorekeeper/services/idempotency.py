"""Idempotent deal writes: a write's ``Idempotency-Key`` is applied once for the life of the game.

The key is stored with the answer in the change's own transaction, so only committed changes
are remembered: the same key again gets that answer (``Replayed``), with another request it is
refused, and a refused request is judged afresh.  The key is read with the game once the write holds
its lock, so two requests racing with one key apply it once.  The answer's body is stored
compressed: even the whole state of a finished game (a ``PATCH``'s answer) costs its key well
under a kilobyte.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import insert

from ..errors import refusal
from ..models import IDEMPOTENCY_KEY_LENGTH, IdempotencyKey, utcnow
from ..rules import N_

KEY_RE = re.compile(rf"[A-Za-z0-9_-]{{1,{IDEMPOTENCY_KEY_LENGTH}}}")

_keys = IdempotencyKey.__table__
KEEP = insert(_keys)


class StoredKey(NamedTuple):
    """A key as stored for the game (read with the game, ``store.snapshot``): the request it came
    with, and its answer."""

    fingerprint: str
    status: int
    answer: bytes


class Replayed(Exception):
    """The answer a key already got, to be given again (with ``Idempotent-Replayed: true``)."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(status)
        self.status = status
        self.body = body


def valid_key(key: str) -> str:
    """``key`` if it is 1-64 characters of A-Z a-z 0-9 - _; else 400 ``bad_idempotency_key``."""
    if KEY_RE.fullmatch(key) is None:
        raise refusal(
            "bad_idempotency_key",
            N_("An Idempotency-Key is 1 to 64 characters: letters A-Z and a-z, digits, - and _."),
            "Idempotency-Key",
        )
    return key


def fingerprint(method: str, path: str, body: bytes) -> str:
    """SHA-256 (hex) of a request's method, path within the game and body; a JSON body by its value
    (keys sorted), so the same change with its fields in another order is the same request."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode("ascii")
    except (ValueError, RecursionError):
        canonical = body
    digest = hashlib.sha256(f"{method.upper()} {path}\n".encode("ascii"))
    digest.update(canonical)
    return digest.hexdigest()


class Once:
    """A deal write that comes with an ``Idempotency-Key``: ``answer(written)`` gives its status and
    body, stored with the key (``row``) and held in ``given`` for the view to send."""

    def __init__(self, game_id: str, key: str, fingerprint: str, answer: Callable[[Any], tuple[int, str]]):
        self.game_id = game_id
        self.key = key
        self.fingerprint = fingerprint
        self.answer = answer
        self.given: tuple[int, str] | None = None

    def check(self, stored: StoredKey | None) -> None:
        """Raise ``Replayed`` when the key was already applied to the game with this request, and
        ``idempotency_key_reused`` when with another; return when the key is new (``stored``: the
        key's row as the write read it with the game)."""
        if stored is None:
            return
        if stored.fingerprint != self.fingerprint:
            raise refusal(
                "idempotency_key_reused",
                N_(
                    "This Idempotency-Key was already used for another request to this game; "
                    "send a new key with each change."
                ),
                "Idempotency-Key",
            )
        raise Replayed(stored.status, zlib.decompress(stored.answer).decode())

    def row(self, written: Any) -> dict[str, Any]:
        """The key's row for the write that leaves ``written`` (its answer is held in ``given``)."""
        self.given = status, body = self.answer(written)
        return {
            "game_id": self.game_id,
            "key": self.key,
            "fingerprint": self.fingerprint,
            "status": status,
            "answer": zlib.compress(body.encode()),
            "created_at": utcnow(),
        }
