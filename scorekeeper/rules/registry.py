"""Every ruleset by id.  Adding a game means adding a module and one line here."""

from __future__ import annotations

from .base import Ruleset
from .misere import MISERE
from .mizerka import MIZERKA
from .refusal import RuleError
from .words import N_

# Kierki (``kierki.KIERKI``) is not listed yet: the API, the storage and the pages read this list and
# do not take its deal facts (hearts, queens, ... API.md K4) yet, so listing it would offer it half-done.
RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (MIZERKA, MISERE)}


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
