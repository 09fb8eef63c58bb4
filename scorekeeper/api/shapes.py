"""The JSON API's request bodies, declared once (../shared/API.md), and the pieces the response
bodies (``answers.py``) share with them.

The views parse requests into these models; the OpenAPI document (``openapi.py``) is generated
from them and from ``answers``.

Shape only.  A request model checks that the body is an object with known fields
(``extra="forbid"``: ``unknown_field``) and, where the API alone speaks of a shape
(the list of corrections, the options object), that shape.  Every value the rules
judge (a trick count, a bid, a contract, a name, a deal number) is taken as the raw
JSON value (``raw``) and handed to the engine as it came: ``"3"``, ``3.0`` or ``true``
for a trick count is refused by the engine with its own code (``tricks_range``), not
coerced on the way.  ``raw`` fields document their JSON Schema all the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from ..rules import (
    COUNT,
    MAX_NAME_LENGTH,
    N_,
    ONE_PLAYER,
    ORDER,
    PAIRS,
    RULESETS,
    SUIT,
    Fact,
    default_ruleset,
    every_fact,
)

RULESET_IDS = list(RULESETS)
CONTRACT_IDS = sorted({contract.id for ruleset in RULESETS.values() for contract in ruleset.contracts})
OPTION_VALUES: dict[str, list[str]] = {}
for _ruleset in RULESETS.values():
    for _option in _ruleset.options:
        _values = OPTION_VALUES.setdefault(_option.id, [])
        _values += [value for value, _ in _option.choices if value not in _values]
ROLES = ["dealer", "forehand", "middlehand", "leader", "player"]
MAX_DEALS = max(ruleset.most_deals for ruleset in RULESETS.values())
#: The most tricks a deal of any registered game has; every count is at most this.
MOST_TRICKS = max(ruleset.most_tricks for ruleset in RULESETS.values())


def raw(schema: dict[str, Any], description: str | None = None) -> Any:
    """A request field taken as its raw JSON value (annotated ``Any``), documented with ``schema``.

    Its default is None, as an absent field always was; whether it was given at all
    is in the model's ``model_fields_set``.
    """
    documented = schema if description is None else {**schema, "description": description}
    return Field(default=None, json_schema_extra=documented)


# -- pieces ----------------------------------------------------------------------------------------

Count = Annotated[int, Field(ge=0, le=MOST_TRICKS)]
Name = Annotated[str, Field(description="A player's name (trimmed, unique in the game ignoring case).")]
ContractId = Annotated[str, Field(json_schema_extra={"enum": CONTRACT_IDS})]
NULLABLE_CONTRACT = {"type": ["string", "null"], "enum": [*CONTRACT_IDS, None]}
PER_PLAYER_COUNTS_IN = {
    "type": ["object", "null"],
    "description": f"Whole numbers 0..{MOST_TRICKS} keyed by player name (every player exactly once; "
    "at most the deal's tricks, or the fact's total).",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MOST_TRICKS},
}
PLAYER_IN = {"type": ["string", "null"], "description": "A player's name (ignoring case)."}
PAIRS_IN = {
    "type": ["array", "null"],
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["by", "against"],
        "properties": {
            "by": {"type": "string"},
            "against": {"type": "string"},
            "redoubled": {"type": "boolean", "default": False},
        },
    },
}


def fact_in(fact: Fact) -> dict[str, Any]:
    """A fact's JSON Schema in a request, by its kind (``Fact.kind``)."""
    if fact.kind == COUNT:
        return PER_PLAYER_COUNTS_IN
    if fact.kind == ONE_PLAYER:
        return PLAYER_IN
    if fact.kind == ORDER:
        size = len(fact.places)
        return {"type": ["array", "null"], "items": {"type": "string"}, "minItems": size, "maxItems": size}
    if fact.kind == SUIT:
        return {"type": ["string", "null"], "enum": [*(choice for choice, _ in fact.choices), None]}
    if fact.kind == PAIRS:
        return PAIRS_IN
    return {}  # a kind of its own: any JSON value, the engine judges it


NAMES_IN = {
    "type": "array",
    "description": "Names in seating order, in the playing direction.",
    "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH},
}
OPTIONS_IN = {
    "type": ["object", "null"],
    "additionalProperties": False,
    "properties": {
        option_id: {"type": ["string", "null"], "enum": [*values, None]}
        for option_id, values in OPTION_VALUES.items()
    },
}


class Request(BaseModel):
    """A request body: a JSON object with these fields and no others."""

    model_config = ConfigDict(extra="forbid")

    #: A field whose value has the wrong shape: the refusal (code, message) the API answers.
    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {}


def fields_at(shape: type[Request], location: tuple[int | str, ...]) -> list[str]:
    """The fields of ``shape``'s body, or of the object at ``location`` in it (a list's item)."""
    model: type[BaseModel] = shape
    for step in location:
        if isinstance(step, str):
            annotation = model.model_fields[step].annotation
            (item,) = get_args(annotation)  # list[Model]: the only nesting there is
            model = item
    return list(model.model_fields)


# -- requests --------------------------------------------------------------------------------------


if TYPE_CHECKING:

    class DealFacts(Request):
        """The facts beyond tricks of the registered games' deals (below)."""

else:
    DealFacts = create_model(
        "DealFacts",
        __base__=Request,
        __doc__="The facts of a deal beyond tricks that its game declares (API.md K4); each deal "
        "takes those of its contract, the other games none.  Absent or null: not given.",
        **{name: (Any, raw(fact_in(fact), fact.about)) for name, fact in every_fact().items()},
    )

#: The fields of ``DealFacts`` (``rules.every_fact``), in API.md K5's order.
FACT_FIELDS = tuple(every_fact())


class CreateGame(Request):
    model_config = ConfigDict(json_schema_extra={"required": ["players"]})
    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "options": ("invalid_options", N_('Options must be an object, e.g. {"scoring": "variant"}.')),
    }

    ruleset: Any = raw(
        {"type": ["string", "null"], "enum": [*RULESET_IDS, None], "default": default_ruleset().id}
    )
    players: Any = raw(NAMES_IN)
    first_dealer: Any = raw(
        {"type": ["string", "null"]}, "A player's name (ignoring case); absent or null for a random draw."
    )
    options: Annotated[dict[str, Any] | None, WithJsonSchema(OPTIONS_IN)] = None


class NextDealFields(Request):
    number: Any = raw(
        {"type": ["integer", "null"], "minimum": 1},
        "When given, must be the next deal's number (else 409 wrong_deal_number).",
    )
    contract: Any = raw(
        NULLABLE_CONTRACT,
        "Required where a player chooses the contract; else omit (the deal number fixes it).",
    )
    bids: Any = raw(PER_PLAYER_COUNTS_IN, "Required in a deal played to bids; otherwise refused.")
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; omit to record a pending deal.")


class RecordDeal(DealFacts, NextDealFields):
    """The next deal: its declaration and, optionally, its result (pending without it)."""


class ChangedFields(Request):
    contract: Any = raw(NULLABLE_CONTRACT)
    bids: Any = raw(PER_PLAYER_COUNTS_IN)
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; null makes the last deal pending again.")


class CorrectDeal(DealFacts, ChangedFields):
    """Only the fields present change (a per-player map is replaced whole; null clears a
    field); the game is then re-validated as a whole."""


class DealCorrection(CorrectDeal):
    """A recorded deal's number and the fields that change (as CorrectDeal)."""

    number: Annotated[
        int, Field(strict=True, json_schema_extra={"minimum": 1}, description="A recorded deal.")
    ]


class CorrectDeals(Request):
    """Corrections of several recorded deals, replayed together as one change."""

    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "deals": (
            "invalid_deals",
            N_("Give the deals to correct as a list of objects, each with its number."),
        ),
    }

    deals: Annotated[
        list[DealCorrection], Field(min_length=1, description="One item per deal; a number may appear once.")
    ]


class ExportedFields(Request):
    number: Any = raw({"type": "integer", "minimum": 1}, "1, 2, 3... in order.")
    contract: Any = raw(NULLABLE_CONTRACT)
    bids: Any = raw(PER_PLAYER_COUNTS_IN, "The bids of a deal played to bids; otherwise null.")
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; null while the deal is pending.")


class ExportedDeal(DealFacts, ExportedFields):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["number"]})


class GameExport(Request):
    """A game's facts and nothing derived: what GET /games/{game_id}/export answers and POST /games/import takes. Per-player values are keyed by player name."""  # noqa: E501

    # The import judges every value itself (transfer.validate_export, for the import page
    # too); this model refuses unknown fields and documents the format.

    model_config = ConfigDict(
        json_schema_extra={"required": ["format", "version", "ruleset", "players", "first_dealer", "deals"]}
    )

    format: Any = raw({"type": "string", "const": "scorekeeper-game"})
    version: Any = raw({"type": "integer", "const": 1})
    ruleset: Any = raw({"type": "string", "enum": RULESET_IDS})
    options: Any = raw(OPTIONS_IN)
    players: Any = raw({**NAMES_IN, "description": "Names in seating order."})
    first_dealer: Any = raw({"type": "string"}, "The first dealer's name.")
    created_at: Any = raw(
        {"type": ["string", "null"], "format": "date-time"},
        "When the game was started (ISO 8601); the import keeps it (null: now).",
    )
    played_on: Any = raw(
        {"type": ["string", "null"], "format": "date"},
        "The day the game was played (null: the day it was started, else today).",
    )
    note: Any = raw(
        {"type": ["string", "null"]},
        "The game's note (place, occasion), at most 200 characters once trimmed.",
    )
    deals: Any = raw(
        {"type": "array", "maxItems": MAX_DEALS, "items": {"$ref": "#/components/schemas/ExportedDeal"}}
    )


#: Every request body the document names, validated as sent (responses: ``answers.RESPONSES``).
class CreateNight(Request):
    """A new club night: its name and the game and preset its tables play (CLUB.md)."""

    model_config = ConfigDict(json_schema_extra={"required": ["name", "ruleset"]})
    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "options": ("invalid_options", N_('Options must be an object, e.g. {"scoring": "variant"}.')),
    }

    name: Any = raw({"type": ["string", "null"]}, "The night's name.")
    ruleset: Any = raw({"type": ["string", "null"], "enum": [*RULESET_IDS, None]})
    options: Annotated[dict[str, Any] | None, WithJsonSchema(OPTIONS_IN)] = None
    rounds: Any = raw(
        {"type": ["integer", "null"], "minimum": 1},
        "How many rounds (Mix plans them at once); null: not set.",
    )
    seating: Any = raw({"type": ["string", "null"], "enum": ["mix", "swiss", None], "default": "mix"})
    first_round: Any = raw(
        {"type": ["string", "null"], "enum": ["random", "order", "rating", None], "default": "random"}
    )
    hide_standings: Any = raw({"type": ["boolean", "null"], "default": False})
    played_on: Any = raw({"type": ["string", "null"], "format": "date"})
    seed: Any = raw(
        {"type": ["integer", "null"], "minimum": 0}, "Round 1's draw; absent: drawn by the server."
    )


class CreateSeason(Request):
    """A new season: the nights of one game and preset between two dates (CLUB.md "Seasons")."""

    model_config = ConfigDict(json_schema_extra={"required": ["name", "ruleset", "starts_on", "ends_on"]})
    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "options": ("invalid_options", N_('Options must be an object, e.g. {"scoring": "variant"}.')),
    }

    name: Any = raw({"type": ["string", "null"]}, "The season's name.")
    ruleset: Any = raw({"type": ["string", "null"], "enum": [*RULESET_IDS, None]})
    options: Annotated[dict[str, Any] | None, WithJsonSchema(OPTIONS_IN)] = None
    starts_on: Any = raw({"type": ["string", "null"], "format": "date"}, "Its first day.")
    ends_on: Any = raw({"type": ["string", "null"], "format": "date"}, "Its last day (included).")
    best: Any = raw(
        {"type": ["integer", "null"], "minimum": 1, "default": 10}, "How many of a player's nights count."
    )


class EditSeason(Request):
    """A season's settings changed: each one absent or null stays as it is (its table is read again)."""

    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "options": ("invalid_options", N_('Options must be an object, e.g. {"scoring": "variant"}.')),
    }

    name: Any = raw({"type": ["string", "null"]}, "The season's name.")
    ruleset: Any = raw(
        {"type": ["string", "null"], "enum": [*RULESET_IDS, None]},
        "Its game (another: its first preset unless options name one).",
    )
    options: Annotated[dict[str, Any] | None, WithJsonSchema(OPTIONS_IN)] = None
    starts_on: Any = raw({"type": ["string", "null"], "format": "date"}, "Its first day.")
    ends_on: Any = raw({"type": ["string", "null"], "format": "date"}, "Its last day (included).")
    best: Any = raw({"type": ["integer", "null"], "minimum": 1}, "How many of a player's nights count.")


class CheckIn(Request):
    """A player present from the next round (an existing person by name, ignoring case)."""

    model_config = ConfigDict(json_schema_extra={"required": ["name"]})

    name: Any = raw({"type": ["string", "null"]}, "The player's name.")


class SwapPlayers(Request):
    """Two players of the next round (their ids) whose places are exchanged."""

    model_config = ConfigDict(json_schema_extra={"required": ["first", "second"]})

    first: Any = raw({"type": ["integer", "null"]})
    second: Any = raw({"type": ["integer", "null"]})


REQUESTS: tuple[type[Request], ...] = (
    CreateGame,
    RecordDeal,
    CorrectDeal,
    CorrectDeals,
    DealCorrection,
    GameExport,
    ExportedDeal,
    CreateNight,
    CreateSeason,
    EditSeason,
    CheckIn,
    SwapPlayers,
)
