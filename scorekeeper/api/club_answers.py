"""The JSON API's answers about a club's nights and seasons (``api/nights.py``), declared as the
games' are in ``answers.py``, which lists them among the bodies the OpenAPI document names."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .answers import Response


class NightPlayer(Response):
    id: int
    name: str
    from_round: Annotated[int, Field(description="The first round they play.")]
    left_after: Annotated[
        int | None, Field(description="The last round they played before leaving, or null.")
    ]


class NightTable(Response):
    number: int
    players: Annotated[list[str], Field(description="Names in seat order.")]
    first_dealer: str
    game_id: Annotated[
        str | None, Field(description="The table's game (GET /games/{id}) once the round started.")
    ]
    state: Annotated[str, Field(json_schema_extra={"enum": ["seated", "playing", "finished", "unfinished"]})]
    scoring_link: Annotated[
        str | None,
        Field(
            description="The one-time link handing the table's pencil to its phone (with the night's key)."
        ),
    ] = None


class NightRound(Response):
    number: int
    started: bool
    repeats: Annotated[int, Field(description="Pairs at its tables who met earlier in the night.")]
    sitting_out: list[str]
    tables: list[NightTable]


class NightStanding(Response):
    rank: int
    player: str
    points: Annotated[int, Field(description="Placement points summed.")]
    margin: Annotated[float, Field(description="Margins summed (the first tie-break), rounded to 4 places.")]
    tables: int
    unfinished: Annotated[bool, Field(description="A table of theirs was closed unfinished.")]


class NightState(Response):
    id: str
    name: str
    ruleset: str
    options: dict[str, str]
    seat_counts: list[int]
    rounds: Annotated[int | None, Field(description="How many rounds; null: not set.")]
    seating: Annotated[str, Field(json_schema_extra={"enum": ["mix", "swiss"]})]
    first_round: Annotated[str, Field(json_schema_extra={"enum": ["random", "order", "rating"]})]
    seed: int
    hide_standings: bool
    version: int
    players: list[NightPlayer]
    rounds_seated: Annotated[list[NightRound], Field(description="The rounds seated, started or not.")]
    standings: Annotated[
        list[NightStanding] | None,
        Field(description="The night's standings; null while hidden (without the night's key)."),
    ]


class NightCreated(NightState):
    """The night plus its key."""

    key: Annotated[
        str, Field(min_length=22, description="The night's key (Authorization: Bearer). Shown only here.")
    ]


class SeasonNight(Response):
    id: str
    name: str
    played_on: Annotated[str, Field(json_schema_extra={"format": "date"})]


class SeasonStanding(Response):
    rank: int
    player: str
    points: Annotated[int, Field(description="The best nights' placement points summed.")]
    margin: Annotated[float, Field(description="Those nights' margins summed (the tie-break), 4 places.")]
    nights: Annotated[int, Field(description="Nights played (every one, not only the best).")]
    tables: Annotated[int, Field(description="Tables played.")]
    average: Annotated[float, Field(description="Placement points per table over every night, 4 places.")]
    previous_rank: Annotated[
        int | None,
        Field(description="The rank before the season's latest night; null: not listed then (new)."),
    ]
    trend: Annotated[
        str,
        Field(
            description="Since the table before the latest night: up, down, same, or new (newly listed).",
            json_schema_extra={"enum": ["up", "down", "same", "new"]},
        ),
    ]
    moved: Annotated[
        int, Field(description="Places gained since that table (negative: lost; 0: same or new).")
    ]


class SeasonState(Response):
    id: str
    name: str
    ruleset: str
    options: dict[str, str]
    seat_counts: list[int]
    starts_on: Annotated[str, Field(json_schema_extra={"format": "date"})]
    ends_on: Annotated[str, Field(json_schema_extra={"format": "date"}, description="Included.")]
    best: Annotated[int, Field(description="How many of a player's nights count.")]
    nights: Annotated[list[SeasonNight], Field(description="The nights of its game and preset in its dates.")]
    standings: Annotated[list[SeasonStanding], Field(description="Players from their third night.")]


#: The club's response bodies the document names, as built.
class SeasonCreated(SeasonState):
    """The season plus its key."""

    key: Annotated[
        str, Field(min_length=22, description="The season's key (Authorization: Bearer). Shown only here.")
    ]


RESPONSES: tuple[type[Response], ...] = (NightState, NightCreated, SeasonState, SeasonCreated)
