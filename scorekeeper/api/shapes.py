"""The JSON API's request and response bodies, declared once (../shared/API.md).

The views parse requests into these models and build responses from them; the
OpenAPI document (``openapi.py``) is generated from them.

Shape only.  A request model checks that the body is an object with known fields
(``extra="forbid"``: ``unknown_field``) and, where the API alone speaks of a shape
(the list of corrections, the options object), that shape.  Every value the rules
judge (a trick count, a bid, a contract, a name, a deal number) is taken as the raw
JSON value (``raw``) and handed to the engine as it came: ``"3"``, ``3.0`` or ``true``
for a trick count is refused by the engine with its own code (``tricks_range``), not
coerced on the way.  ``raw`` fields document their JSON Schema all the same.

Response models are built from the engine's replayed state (``serialize.py``); they do
not forbid extra properties (the contract welcomes them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ..rules import MAX_NAME_LENGTH, N_, RULESETS
from ..rules.kierki import SUITS, TRICKS_BY_PLAYERS

RULESET_IDS = list(RULESETS)
CONTRACT_IDS = sorted({contract.id for ruleset in RULESETS.values() for contract in ruleset.contracts})
OPTION_VALUES: dict[str, list[str]] = {}
for _ruleset in RULESETS.values():
    for _option in _ruleset.options:
        _values = OPTION_VALUES.setdefault(_option.id, [])
        _values += [value for value, _ in _option.choices if value not in _values]
ROLES = ["dealer", "forehand", "middlehand", "leader", "player"]
MAX_DEALS = max(ruleset.most_deals for ruleset in RULESETS.values())
#: The most tricks a deal has (Kierki with 3 players: 17); every count is at most this.
MOST_TRICKS = max(TRICKS_BY_PLAYERS.values())


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
    "description": "Whole numbers 0..13 keyed by player name (every player exactly once; Kierki with "
    "3 players: tricks 0..17).",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MOST_TRICKS},
}
PLAYER_IN = {"type": ["string", "null"], "description": "A player's name (ignoring case)."}
SUIT_IN = {"type": ["string", "null"], "enum": [*SUITS, None]}
PLACES_IN = {
    "type": ["array", "null"],
    "description": "Kierki, Fan Tan: [first out, second out], two different players' names.",
    "items": {"type": "string"},
    "minItems": 2,
    "maxItems": 2,
}


NAMES_IN = {
    "type": "array",
    "description": "Names in seating order (Misère: in playing direction).",
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


class Response(BaseModel):
    """A response body, built from the engine's state."""


# -- requests --------------------------------------------------------------------------------------


class KierkiFields(Request):
    """The facts of a Kierki deal beyond tricks (API.md K4); each deal takes those of its contract,
    the other games none.  Absent or null: not given."""

    trumps: Any = raw(SUIT_IN, "Kierki, trump deal: the suit the dealer named (also when pending).")
    hearts: Any = raw(PER_PLAYER_COUNTS_IN, "Kierki: hearts taken (13 in all).")
    queens: Any = raw(PER_PLAYER_COUNTS_IN, "Kierki: queens taken (4 in all).")
    kings_jacks: Any = raw(PER_PLAYER_COUNTS_IN, "Kierki: kings and jacks taken (8 in all).")
    king_of_hearts: Any = raw(PLAYER_IN, "Kierki: who took the king of hearts.")
    seventh_trick: Any = raw(PLAYER_IN, "Kierki: who took the 7th trick.")
    last_trick: Any = raw(PLAYER_IN, "Kierki: who took the last trick (13th; 17th with 3 players).")
    places: Any = raw(PLACES_IN)


#: The fields of ``KierkiFields`` (``rules.EXTRA_FACTS``), in API.md K5's order.
KIERKI_FIELDS = tuple(KierkiFields.model_fields)


class CreateGame(Request):
    model_config = ConfigDict(json_schema_extra={"required": ["players"]})
    shape_refusals: ClassVar[Mapping[str, tuple[str, str]]] = {
        "options": ("invalid_options", N_('Options must be an object, e.g. {"scoring": "variant"}.')),
    }

    ruleset: Any = raw({"type": ["string", "null"], "enum": [*RULESET_IDS, None], "default": "mizerka"})
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
        NULLABLE_CONTRACT, "Mizerka: required. Misère, Kierki: omit (the deal number fixes it)."
    )
    bids: Any = raw(PER_PLAYER_COUNTS_IN, "Misère deals 1-6: required; otherwise refused.")
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; omit to record a pending deal.")


class RecordDeal(KierkiFields, NextDealFields):
    """The next deal: its declaration and, optionally, its result (pending without it)."""


class ChangedFields(Request):
    contract: Any = raw(NULLABLE_CONTRACT)
    bids: Any = raw(PER_PLAYER_COUNTS_IN)
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; null makes the last deal pending again.")


class CorrectDeal(KierkiFields, ChangedFields):
    """Only the fields present change (Kierki: a per-player map is replaced whole; null clears a
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
    bids: Any = raw(PER_PLAYER_COUNTS_IN, "Misère deals 1-6: the bids; otherwise null.")
    tricks: Any = raw(PER_PLAYER_COUNTS_IN, "Tricks taken; null while the deal is pending.")


class ExportedDeal(KierkiFields, ExportedFields):
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


# -- responses -------------------------------------------------------------------------------------


class Contract(Response):
    id: str
    label: str
    trumps: Annotated[str | None, Field(description="The trump suit, or null.")]
    description: str


class OptionChoice(Response):
    value: str
    label: str


class Option(Response):
    id: str
    label: str
    choices: list[OptionChoice]
    default: str


class Ruleset(Response):
    id: str
    name: str
    summary: str
    player_count: Annotated[int, Field(description="Players in the default game.")]
    player_counts: Annotated[list[int], Field(description="Every number of players the game takes.")]
    deal_count: Annotated[int, Field(description="Deals in the default game (first preset, player_count).")]
    seating_direction: Annotated[str, Field(json_schema_extra={"enum": ["clockwise", "counter-clockwise"]})]
    declares_contract: Annotated[
        bool, Field(description="Whether a player chooses each contract (else the deal number fixes it).")
    ]
    contracts: list[Contract]
    options: list[Option]


class Rulesets(Response):
    rulesets: list[Ruleset]


class Deal(Response):
    """A recorded deal and everything the rules derive from it."""

    number: Annotated[int, Field(ge=1)]
    dealer: Name
    chooser: Annotated[
        str | None, Field(description="Mizerka: the forehand, who chose the contract. Misère: null.")
    ]
    contract: Annotated[
        str,
        Field(
            json_schema_extra={"enum": CONTRACT_IDS},
            description="Mizerka: the chosen contract. Misère: the contract the deal number fixes.",
        ),
    ]
    bids: Annotated[
        dict[str, Count] | None,
        Field(description="Misère deals 1-6: the bids, keyed by player name. Otherwise null."),
    ]
    tricks: Annotated[
        dict[str, Count] | None, Field(description="Tricks taken, keyed by player name; null while pending.")
    ]
    quotas: Annotated[
        dict[str, Count] | None,
        Field(
            description="Tricks each player is measured against, keyed by player name. Mizerka: the quota "
            "of the player's role (forehand 7/1, middlehand 5/5, dealer 1/7 for trumps or no-trumps / "
            "mizerka). Misère: the bids on deals 1-6, null on ciapa-ciapa and misère (no target)."
        ),
    ]
    scores: Annotated[
        dict[str, int] | None, Field(description="Points in this deal by player; null while pending.")
    ]
    totals: Annotated[
        dict[str, int] | None,
        Field(description="Running totals after this deal by player; null while pending."),
    ]
    roles: Annotated[
        dict[str, Annotated[str, Field(json_schema_extra={"enum": ROLES})]],
        Field(description="Each player's role in this deal (extra field)."),
    ]
    pending: Annotated[
        bool,
        Field(
            description="True while the result is not in (Kierki: tell a pending deal by this, not tricks)."
        ),
    ]
    trumps: Annotated[str | None, Field(description="Kierki, trump deal: the suit named; else null.")] = None
    hearts: Annotated[dict[str, Count] | None, Field(description="Kierki: hearts taken; else null.")] = None
    queens: Annotated[dict[str, Count] | None, Field(description="Kierki: queens taken; else null.")] = None
    kings_jacks: Annotated[
        dict[str, Count] | None, Field(description="Kierki: kings and jacks taken; else null.")
    ] = None
    king_of_hearts: Annotated[str | None, Field(description="Kierki: who took the king of hearts.")] = None
    seventh_trick: Annotated[str | None, Field(description="Kierki: who took the 7th trick.")] = None
    last_trick: Annotated[str | None, Field(description="Kierki: who took the last trick.")] = None
    places: Annotated[
        list[Name] | None, Field(description="Kierki, Fan Tan: [first out, second out]; else null.")
    ] = None


class NextDeal(Response):
    """What the table does next."""

    number: Annotated[int, Field(ge=1)]
    dealer: Name
    chooser: Annotated[str | None, Field(description="Mizerka: the forehand. Misère: null.")]
    available_contracts: Annotated[
        list[ContractId],
        Field(description="Contracts the chooser may still choose (Misère: the one fixed contract)."),
    ]
    contract: Annotated[
        str | None,
        Field(description="The contract the deal number fixes (Misère); null where a player chooses."),
    ]
    bidding_order: Annotated[
        list[Name], Field(description="Players in bidding order, dealer last; empty when nobody bids.")
    ]
    roles: Annotated[dict[str, str], Field(description="Each player's role in the next deal.")]
    fields: Annotated[
        list[str],
        Field(
            description="Kierki: the body fields this deal takes, in the order they are checked "
            "(e.g. trumps, tricks); empty for the other games (contract, bids, tricks)."
        ),
    ]


class Standing(Response):
    player: Name
    total: int
    rank: Annotated[int, Field(ge=1)]


class GameState(Response):
    """The whole game state, replayed from its recorded deals."""

    id: Annotated[str, Field(min_length=8, pattern="^[A-Za-z0-9_-]+$")]
    ruleset: Annotated[str, Field(json_schema_extra={"enum": RULESET_IDS})]
    options: dict[str, str]
    players: Annotated[list[Name], Field(description="Names in seating order.")]
    first_dealer: Name
    status: Literal["in_progress", "finished"]
    deal_count: Annotated[int, Field(description="Deals in a whole game (extra field).")]
    schedule: Annotated[
        list[Annotated[str | None, Field(json_schema_extra={"enum": [*CONTRACT_IDS, None]})]],
        Field(description="The contract of every deal, deal 1 first; null where a player chooses it."),
    ]
    deals: list[Deal]
    totals: Annotated[dict[str, int], Field(description="Totals after the last completed deal, by player.")]
    next_deal: NextDeal | None
    remaining_contracts: Annotated[
        dict[str, list[ContractId]],
        Field(
            description="Contracts each player may still choose (Misère: the deals still to come), by player."
        ),
    ]
    standings: Annotated[
        list[Standing], Field(description="Highest total first; equal totals share a rank (1, 1, 3).")
    ]


class GameCreated(GameState):
    """The game state plus its edit key."""

    edit_key: Annotated[
        str,
        Field(
            min_length=22, description="The secret for every write (Authorization: Bearer). Shown only here."
        ),
    ]


class ErrorDetail(Response):
    code: str
    message: Annotated[str, Field(description="A sentence a player understands.")]
    field: Annotated[
        str | None, Field(description="The input the error concerns (`tricks`, `players`...), or null.")
    ]


class Error(Response):
    """Every error answer: it changes nothing."""

    error: ErrorDetail


#: Every model the document names, request bodies validated as sent, responses as built.
REQUESTS: tuple[type[Request], ...] = (
    CreateGame,
    RecordDeal,
    CorrectDeal,
    CorrectDeals,
    DealCorrection,
    GameExport,
    ExportedDeal,
)
RESPONSES: tuple[type[Response], ...] = (
    Rulesets,
    Ruleset,
    GameState,
    GameCreated,
    Deal,
    NextDeal,
    Standing,
    Error,
)
