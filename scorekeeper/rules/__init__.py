"""The rules engine: pure game logic, no web or database imports.

``get_ruleset(id)`` returns a registered ruleset; ``ruleset.replay(setup, deals)``
turns recorded facts into a validated ``GameState``.
"""

from __future__ import annotations

from .base import SEAT_VALUE_MESSAGES, Ruleset
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
from .registry import RULESETS, default_ruleset, every_fact, get_ruleset, register
from .state import (
    COUNT,
    ONE_PLAYER,
    ORDER,
    PAIRS,
    SUIT,
    TRICKS,
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    Fact,
    Facts,
    GameSetup,
    GameState,
    NextDeal,
    Notice,
    OptionSpec,
    ScheduledDeal,
    Standing,
    facts_from_stored,
    standings_for,
    stored_facts,
)
from .words import ENGLISH, N_, Plural, Speech, Term, english_list, n_

# Our own games, each registering its ruleset; the first registered is the default game.
# isort: off
from . import mizerka  # noqa: F401
from . import misere  # noqa: F401
from . import kierki  # noqa: F401
from . import barbu  # noqa: F401

# isort: on

__all__ = [
    "COUNT",
    "ENGLISH",
    "MAX_NAME_LENGTH",
    "NAME_KEY_LENGTH",
    "N_",
    "ONE_PLAYER",
    "ORDER",
    "PAIRS",
    "RULESETS",
    "SEAT_VALUE_MESSAGES",
    "SUIT",
    "TRICKS",
    "TRICKS_PER_DEAL",
    "Contract",
    "DealRecord",
    "DealState",
    "Fact",
    "Facts",
    "GameSetup",
    "GameState",
    "NextDeal",
    "Notice",
    "OptionSpec",
    "Plural",
    "Refusal",
    "RuleError",
    "Ruleset",
    "ScheduledDeal",
    "Speech",
    "Standing",
    "Term",
    "default_ruleset",
    "emoji_sequences",
    "english_list",
    "every_fact",
    "facts_from_stored",
    "get_ruleset",
    "graphemes",
    "has_control_characters",
    "is_invisible",
    "n_",
    "name_key",
    "normalise_name",
    "register",
    "standings_for",
    "storable_text",
    "stored_facts",
    "validate_name",
    "validate_note",
]
