"""Use cases, each in one transaction: read the game, check with the rules engine, write.

Views and the API call these and nothing lower.  A refused call raises the engine's
``RuleError``, or an ``AccessError``, ``NotFoundError`` or ``ConflictError`` (all in
``scorekeeper.errors``), and leaves the database as it was.

- games: ``get_game`` (the one loader), ``create_game``, ``add_game`` (a new game with its
  deals: an import), ``rematch``, ``rebuild_results``;
- deals: ``record_deal``, ``update_deal``, ``correct_deals``, ``undo_deal`` (each may be a dry run);
- access: ``authorised_game`` (the API's edit key), ``keyring`` (the keys a phone holds,
  hand-over tokens, admin sessions), ``Once`` (a deal write's ``Idempotency-Key``);
- people: ``find_player``, ``get_player``, ``rename_player``, ``merge_players``;
- ``transaction``: the one way a write ends (commit, or roll back everything and say why).
"""

from __future__ import annotations

from . import keyring
from .deals import UNSET, correct_deals, record_deal, undo_deal, update_deal
from .games import add_game, create_game, get_game, parse_note, parse_played_on, rebuild_results, rematch
from .idempotency import Once, Replayed, fingerprint, valid_key
from .keys import authorised_game, hash_key, hash_matches, key_matches, new_edit_key, new_game_id
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
    Stamp,
    Written,
    bad_key,
    game_version,
    is_contention,
    ping,
    plausible_id,
    stamp,
    transaction,
)

__all__ = [
    "UNSET",
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
    "get_game",
    "get_player",
    "hash_key",
    "hash_matches",
    "is_contention",
    "key_matches",
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
    "stamp",
    "transaction",
    "undo_deal",
    "update_deal",
    "valid_key",
]
