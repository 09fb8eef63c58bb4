"""The JSON API's response bodies, declared once (../shared/API.md), built from the engine's replayed
state (``serialize.py``); the OpenAPI document (``openapi.py``) is generated from them with the
request bodies of ``shapes``.  They do not forbid extra properties (the contract welcomes them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..rules import COUNT, ONE_PLAYER, ORDER, PAIRS, RULESETS, SUIT, every_fact
from .shapes import CONTRACT_IDS, ROLES, RULESET_IDS, ContractId, Count, Name


class Response(BaseModel):
    """A response body, built from the engine's state."""


class Contract(Response):
    id: str
    label: str
    trumps: Annotated[str | None, Field(description="The trump suit, or null.")]
    description: str
    positive: Annotated[
        bool, Field(description="Whether the contract's points are won (true) or lost (extra field).")
    ]


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


class DealFields(Response):
    """A recorded deal and everything the rules derive from it."""

    number: Annotated[int, Field(ge=1)]
    dealer: Name
    chooser: Annotated[
        str | None, Field(description="Who chose the contract, where a player chooses it; else null.")
    ]
    contract: Annotated[
        str,
        Field(
            json_schema_extra={"enum": CONTRACT_IDS},
            description="The contract: the one chosen, or the one the deal number fixes.",
        ),
    ]
    bids: Annotated[
        dict[str, Count] | None,
        Field(description="In a deal played to bids: the bids, keyed by player name. Otherwise null."),
    ]
    tricks: Annotated[
        dict[str, Count] | None, Field(description="Tricks taken, keyed by player name; null while pending.")
    ]
    quotas: Annotated[
        dict[str, Count] | None,
        Field(
            description="Tricks each player is measured against, keyed by player name: the quota of the "
            "player's role where the contract sets one, or their bid in a deal played to bids; null in a "
            "deal with no target."
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
            description="True while the result is not in (a deal may count no tricks: tell a pending "
            "deal by this)."
        ),
    ]


class SideBet(Response):
    """One side bet between two players (a double): who made it, against whom, whether redoubled."""

    by: Name
    against: Name
    redoubled: bool


class DealWarning(Response):
    """Something the table should know about a deal that refuses nothing: its code, then the players
    it speaks of by role and its figures (e.g. ``declarer``, ``player``, ``doubles``)."""

    model_config = ConfigDict(extra="allow")

    code: str


#: A fact's type in a deal answered, by its kind (``Fact.kind``; a kind of its own: any JSON value):
#: null where the deal has none.
FACT_TYPES: dict[str, Any] = {
    COUNT: dict[str, Count] | None,
    ONE_PLAYER: str | None,
    SUIT: str | None,
    ORDER: list[Name] | None,
    PAIRS: list[SideBet] | None,
}

#: What the registered rulesets declare beyond facts (``Ruleset.deal_figures`` and the rest), by id.
DEAL_FIGURES = list(dict.fromkeys(name for ruleset in RULESETS.values() for name in ruleset.deal_figures))
NEXT_DEAL_LISTS = list(
    dict.fromkeys(name for ruleset in RULESETS.values() for name in ruleset.next_deal_lists)
)
GAME_LISTS = list(dict.fromkeys(name for ruleset in RULESETS.values() for name in ruleset.game_lists))
GAME_TALLIES = list(dict.fromkeys(name for ruleset in RULESETS.values() for name in ruleset.game_tallies))
WARNS = any(ruleset.warns for ruleset in RULESETS.values())

if TYPE_CHECKING:
    Deal = DealFields
else:
    Deal = create_model(
        "Deal",
        __base__=DealFields,
        __doc__=DealFields.__doc__,
        **{
            name: (Annotated[FACT_TYPES.get(fact.kind, Any), Field(description=fact.answered)], None)
            for name, fact in every_fact().items()
        },
        **{
            name: (
                Annotated[
                    dict[str, int] | None,
                    Field(
                        description="A part of the deal's scores by player, as its game declares; "
                        "null while pending."
                    ),
                ],
                None,
            )
            for name in DEAL_FIGURES
        },
        **(
            {
                "warnings": (
                    Annotated[
                        list[DealWarning] | None,
                        Field(description="What the table should know about this deal; never a refusal."),
                    ],
                    None,
                )
            }
            if WARNS
            else {}
        ),
    )


class NextDealFields(Response):
    """What the table does next."""

    number: Annotated[int, Field(ge=1)]
    dealer: Name
    chooser: Annotated[
        str | None, Field(description="Who chooses the contract; null where the deal number fixes it.")
    ]
    available_contracts: Annotated[
        list[ContractId],
        Field(description="Contracts the chooser may still choose (else the one the deal number fixes)."),
    ]
    contract: Annotated[
        str | None,
        Field(description="The contract the deal number fixes; null where a player chooses."),
    ]
    bidding_order: Annotated[
        list[Name], Field(description="Players in bidding order, dealer last; empty when nobody bids.")
    ]
    roles: Annotated[dict[str, str], Field(description="Each player's role in the next deal.")]
    fields: Annotated[
        list[str] | dict[str, list[str]],
        Field(
            description="Where the game declares facts beyond tricks: the body fields this deal takes, in "
            "the order they are checked (e.g. trumps, tricks); empty for a game whose deals take a "
            "contract, bids and tricks. Where the chosen contract decides them: each available "
            "contract with the fields it takes."
        ),
    ]


def _seat_lists(names: list[str], description: str) -> dict[str, Any]:
    return {name: (Annotated[list[Name] | None, Field(description=description)], None) for name in names}


if TYPE_CHECKING:
    NextDeal = NextDealFields
else:
    NextDeal = create_model(
        "NextDeal",
        __base__=NextDealFields,
        __doc__=NextDealFields.__doc__,
        **_seat_lists(
            NEXT_DEAL_LISTS, "Players the next deal names, as its game declares (e.g. who must act)."
        ),
    )


class Standing(Response):
    player: Name
    total: int
    rank: Annotated[int, Field(ge=1)]


class GameStateFields(Response):
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
            description="Contracts each player may still choose (else the deals still to come), by player."
        ),
    ]
    standings: Annotated[
        list[Standing], Field(description="Highest total first; equal totals share a rank (1, 1, 3).")
    ]


if TYPE_CHECKING:
    GameState = GameStateFields
else:
    GameState = create_model(
        "GameState",
        __base__=GameStateFields,
        __doc__=GameStateFields.__doc__,
        **_seat_lists(GAME_LISTS, "Players the game names, as its game declares (e.g. one per deal)."),
        **{
            name: (
                Annotated[
                    dict[str, dict[str, int]] | None,
                    Field(description="For each player, a count per other player, as its game declares."),
                ],
                None,
            )
            for name in GAME_TALLIES
        },
    )


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


#: Every response body of the games the document names, as built (the club's: ``club_answers``).
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
