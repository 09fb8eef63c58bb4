"""The rules engine: pure game logic, no web or database imports.

``get_ruleset("mizerka")`` returns the ruleset; ``ruleset.replay(setup, deals)``
turns recorded facts into a validated ``GameState``.
"""

from __future__ import annotations

from .base import Ruleset
from .names import (
    MAX_NAME_LENGTH,
    NAME_KEY_LENGTH,
    emoji_sequences,
    graphemes,
    has_control_characters,
    is_invisible,
    name_key,
    normalise_name,
    storable_text,
    validate_name,
    validate_note,
)
from .refusal import Refusal, RuleError
from .registry import RULESETS, get_ruleset
from .state import (
    DEAL_FACTS,
    EXTRA_FACTS,
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    NextDeal,
    OptionSpec,
    ScheduledDeal,
    Standing,
    facts_from_stored,
    standings_for,
    stored_facts,
)
from .words import ENGLISH, N_, Plural, Speech, Term, english_list, n_

__all__ = [
    "DEAL_FACTS",
    "ENGLISH",
    "EXTRA_FACTS",
    "MAX_NAME_LENGTH",
    "NAME_KEY_LENGTH",
    "N_",
    "RULESETS",
    "TRICKS_PER_DEAL",
    "Contract",
    "DealRecord",
    "DealState",
    "GameSetup",
    "GameState",
    "NextDeal",
    "OptionSpec",
    "Plural",
    "Refusal",
    "RuleError",
    "Ruleset",
    "ScheduledDeal",
    "Speech",
    "Standing",
    "Term",
    "emoji_sequences",
    "english_list",
    "facts_from_stored",
    "get_ruleset",
    "graphemes",
    "has_control_characters",
    "is_invisible",
    "n_",
    "name_key",
    "normalise_name",
    "standings_for",
    "storable_text",
    "stored_facts",
    "validate_name",
    "validate_note",
]
