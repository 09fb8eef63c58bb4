"""Every ruleset by id.  Adding a game means adding a module and one line here."""

from __future__ import annotations

from .base import Ruleset
from .kierki import KIERKI
from .misere import MISERE
from .mizerka import MIZERKA
from .refusal import RuleError
from .words import N_

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (MIZERKA, MISERE, KIERKI)}


def get_ruleset(ruleset_id: object) -> Ruleset:
    """The ruleset called ``ruleset_id``, or ``unknown_ruleset``."""
    if isinstance(ruleset_id, str) and ruleset_id in RULESETS:
        return RULESETS[ruleset_id]
    raise RuleError(
        "unknown_ruleset",
        N_("There is no game called %(given)s; choose one of %(choices)s."),
        "ruleset",
        {"given": str(ruleset_id), "choices": ", ".join(RULESETS)},
    )
