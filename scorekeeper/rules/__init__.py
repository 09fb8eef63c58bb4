"""The rules engine: pure game logic, no web or database imports.

``get_ruleset("mizerka")`` returns the ruleset; ``ruleset.replay(setup, deals)``
turns recorded facts into a validated ``GameState``.
"""

from __future__ import annotations

from .base import (
    MAX_NAME_LENGTH,
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    NextDeal,
    OptionSpec,
    Refusal,
    RuleError,
    Ruleset,
    Standing,
    has_control_characters,
    normalise_name,
    standings_for,
)
from .names import (
    NAME_KEY_LENGTH,
    is_invisible,
    name_key,
    storable_text,
    validate_name,
    validate_note,
)
from .registry import RULESETS, get_ruleset

__all__ = [
    "MAX_NAME_LENGTH",
    "NAME_KEY_LENGTH",
    "RULESETS",
    "TRICKS_PER_DEAL",
    "Contract",
    "DealRecord",
    "DealState",
    "GameSetup",
    "GameState",
    "NextDeal",
    "OptionSpec",
    "Refusal",
    "RuleError",
    "Ruleset",
    "Standing",
    "get_ruleset",
    "has_control_characters",
    "is_invisible",
    "name_key",
    "normalise_name",
    "standings_for",
    "storable_text",
    "validate_name",
    "validate_note",
]
