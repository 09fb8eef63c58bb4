"""Every ruleset by id.  Adding a game is one module: it declares its ruleset and ``register``s it
(the package imports our own games' modules, ``rules/__init__.py``)."""

from __future__ import annotations

from .base import Ruleset
from .refusal import RuleError
from .state import Fact
from .words import N_

#: The registered rulesets by id, in the order registered: the first is the default game.
RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` a game the app scores (its pages, the API, export and import); returns it.

    Registering a ruleset again under its id replaces it, so a module may be reloaded."""
    RULESETS[ruleset.id] = ruleset
    return ruleset


def default_ruleset() -> Ruleset:
    """The game a new game is of when nobody says which: the first registered."""
    return next(iter(RULESETS.values()))


def every_fact() -> dict[str, Fact]:
    """The facts beyond tricks a deal of some registered game may carry, by id, in the order the games
    declare them (the first game to declare a fact gives its declaration)."""
    facts: dict[str, Fact] = {}
    for ruleset in RULESETS.values():
        for name in ruleset.facts:
            facts.setdefault(name, ruleset.fact(name))
    return facts


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
