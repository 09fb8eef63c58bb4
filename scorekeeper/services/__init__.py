"""Use cases, each in one transaction: read the game, check with the rules engine, write.

Views and the API call these and nothing lower.  A refused call raises the engine's
``RuleError``, or an ``AccessError``, ``NotFoundError`` or ``ConflictError`` (all in
``scorekeeper.errors``), and leaves the
database as it was.

- ``store``: a game's snapshot (one query), the claim by version, the lock, the transaction;
- ``keys``: game ids and edit keys;
- ``games``: create, read, list, rematch, rebuild the figures;
- ``deals``: record, complete or correct (one deal or several at once), undo; each may be a dry run;
- ``idempotency``: a deal write's ``Idempotency-Key``, applied once for the life of the game;
- ``people``: names, rename, merge.
"""

from __future__ import annotations

from .deals import UNSET, correct_deals, record_deal, undo_deal, update_deal
from .games import (
    _player_named,
    create_game,
    get_game,
    parse_note,
    parse_played_on,
    rebuild_results,
    refresh_results,
    rematch,
)
from .idempotency import Once, Replayed, fingerprint, valid_key
from .keys import authorised_snapshot, hash_key, hash_matches, key_matches, new_edit_key, new_game_id
from .people import (
    Authority,
    find_player,
    get_player,
    may_manage,
    merge_players,
    not_allowed,
    rename_player,
)
from .store import (
    Snapshot,
    Written,
    checked,
    conflict,
    conflict_or_fault,
    game_version,
    game_version_and_key,
    is_contention,
    ping,
    records_of,
    setup_of,
    snapshot,
    snapshot_for_write,
    snapshot_of_new,
    stale,
)

__all__ = [
    "UNSET",
    "Authority",
    "Once",
    "Replayed",
    "Snapshot",
    "Written",
    "_player_named",
    "authorised_snapshot",
    "checked",
    "conflict",
    "conflict_or_fault",
    "correct_deals",
    "create_game",
    "find_player",
    "fingerprint",
    "game_version",
    "game_version_and_key",
    "get_game",
    "get_player",
    "hash_key",
    "hash_matches",
    "is_contention",
    "key_matches",
    "may_manage",
    "merge_players",
    "new_edit_key",
    "new_game_id",
    "not_allowed",
    "parse_note",
    "parse_played_on",
    "ping",
    "rebuild_results",
    "record_deal",
    "records_of",
    "refresh_results",
    "rematch",
    "rename_player",
    "setup_of",
    "snapshot",
    "snapshot_for_write",
    "snapshot_of_new",
    "stale",
    "undo_deal",
    "update_deal",
    "valid_key",
]
