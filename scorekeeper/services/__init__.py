"""Use cases, each in one transaction: read the game, check with the rules engine, write.

Views and the API call these and nothing lower.  A refused call raises one of the refusals of
``scorekeeper.errors`` and leaves the database as it was.
"""

from __future__ import annotations

from . import keyring
from .deals import correct_deals, record_deal, undo_deal, update_deal
from .games import add_game, create_game, parse_note, parse_played_on, rebuild_results, rematch
from .idempotency import Once, Replayed, fingerprint, valid_key
from .keys import authorised_game, hash_key, new_edit_key, new_game_id
from .people import Authority, find_player, may_manage, merge_players, not_allowed, rename_player
from .store import (
    Snapshot,
    Stamp,
    Written,
    bad_key,
    game_version,
    is_contention,
    ping,
    plausible_id,
    snapshot,  # the one loader: the game from one query, or ``not_found``
    stamp,
    transaction,
)

__all__ = [
    "Authority",
    "Once",
    "Replayed",
    "Snapshot",
    "Stamp",
    "Written",
    "add_game",
    "authorised_game",
    "bad_key",
    "correct_deals",
    "create_game",
    "find_player",
    "fingerprint",
    "game_version",
    "hash_key",
    "is_contention",
    "keyring",
    "may_manage",
    "merge_players",
    "new_edit_key",
    "new_game_id",
    "not_allowed",
    "parse_note",
    "parse_played_on",
    "ping",
    "plausible_id",
    "rebuild_results",
    "record_deal",
    "rematch",
    "rename_player",
    "snapshot",
    "stamp",
    "transaction",
    "undo_deal",
    "update_deal",
    "valid_key",
]
