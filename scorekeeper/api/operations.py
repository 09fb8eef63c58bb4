"""The API's operations as the OpenAPI document lists them: each path and method with its body,
parameters, answers and error statuses (``openapi.py`` builds the document from this table)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


WHOLE = {"type": "integer", "minimum": 0, "maximum": 2147483647}


def _in_path(name: str, description: str, schema: JSON = WHOLE) -> JSON:
    """A required path parameter (a whole number unless ``schema`` says otherwise)."""
    return {"name": name, "in": "path", "required": True, "description": description, "schema": dict(schema)}


GAME_ID = _in_path("game_id", "The game's id (random, URL-safe).", {"type": "string"})
DEAL_NUMBER = _in_path("number", "The deal's number (1-based).")


#: A club night's path parameters, by name.
NIGHT_PARAMETERS: dict[str, JSON] = {
    "night_id": _in_path("night_id", "The night's id (random, URL-safe).", {"type": "string"}),
    "season_id": _in_path("season_id", "The season's id (random, URL-safe).", {"type": "string"}),
    "player_id": _in_path("player_id", "A player's id (as the night lists its players)."),
    "round_number": _in_path("round_number", "The round's number (1-based)."),
    "table": _in_path("table", "The table's number in its round (1-based)."),
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": (
        "Optional: the game's ETag (from GET), or several separated by commas, or *. The write "
        "goes ahead when any listed tag is the current one (strong comparison: a weak W/ tag "
        "never is) or the header is * (the game exists); otherwise 409 stale."
    ),
    "schema": {"type": "string"},
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of a copy already held; 304 while it is current.",
    "schema": {"type": "string"},
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "Optional: 1-64 characters of A-Z a-z 0-9 - _, new for each change (a phone's queue sends "
        "one with each change it keeps). The game keeps the key with the answer the write got, for "
        "the life of the game, in the same transaction as the change. The same key again (after "
        "the edit key is checked, before If-Match and the rules) gets that answer again, same "
        "status and body plus `Idempotent-Replayed: true`, and changes nothing, even when the game "
        "changed since (the deal undone on another phone is not recorded again). The same key with "
        "another method, path or body: 422 idempotency_key_reused. Only changes that were made keep "
        "their key: a refusal (4xx, 5xx) keeps none, so a refused request may be sent again with its "
        "key and is judged afresh. A dry run reads the key as the real call would (a used key gets its "
        "first answer again, or 422) and keeps none. Two requests racing with one key apply it once; "
        "the other gets the first answer."
    ),
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
}
DRY_RUN = {
    "name": "dry_run",
    "in": "query",
    "required": False,
    "description": (
        "true: check and score the request exactly as the real call would (same key, same errors), "
        "answer 200 with what it would answer, and store nothing."
    ),
    "schema": {"type": "boolean", "default": False},
}
LOCATION = {
    "Location": {
        "description": "The game's address in this API.",
        "required": True,
        "schema": {"type": "string"},
    }
}
ETAG = {
    "ETag": {
        "description": (
            'The game\'s version ("v3"); a gzipped answer\'s ends in :gzip ("v3:gzip"), another copy '
            "of the same version: If-Match takes either, If-None-Match the tag of the copy held."
        ),
        "required": True,
        "schema": {"type": "string"},
    }
}
REPLAYED = {
    "Idempotent-Replayed": {
        "description": "true: the answer an earlier request with this Idempotency-Key got; nothing changed.",
        "required": False,
        "schema": {"type": "string", "enum": ["true"]},
    }
}


@dataclass(frozen=True)
class Answer:
    """One documented answer: its body (a model's name, or None for no body) and headers."""

    description: str
    body: str | None = None
    headers: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    summary: str
    answers: dict[int, Answer]
    errors: tuple[int, ...] = ()
    body: tuple[str, str] | None = None
    """The request body: a model's name and what it holds."""
    parameters: tuple[JSON, ...] = ()
    needs_key: bool = False

    def document(self) -> JSON:
        operation: JSON = {"operationId": self.operation_id, "summary": self.summary}
        if self.needs_key:
            operation["security"] = [{"editKey": []}]
        if self.parameters:
            operation["parameters"] = list(self.parameters)
        if self.body is not None:
            name, description = self.body
            operation["requestBody"] = {
                "required": True,
                "description": description,
                "content": {"application/json": {"schema": _ref(name)}},
            }
        responses: JSON = {}
        for status, answer in sorted(self.answers.items()):
            response: JSON = {"description": answer.description}
            if answer.body is not None:
                schema = {"type": "object"} if answer.body == "object" else _ref(answer.body)
                response["content"] = {"application/json": {"schema": schema}}
            if answer.headers:
                response["headers"] = answer.headers
            responses[str(status)] = response
        for status in self.errors:
            responses[str(status)] = {"$ref": f"#/components/responses/Error{status}"}
        operation["responses"] = responses
        return operation


WRITE_ERRORS = (400, 401, 403, 404, 409, 413, 422)

OPERATIONS = (
    Operation(
        "get",
        "/rulesets",
        "listRulesets",
        "The rulesets with their contracts, player and deal counts, and options.",
        {200: Answer("Every ruleset.", "Rulesets")},
    ),
    Operation(
        "post",
        "/games",
        "createGame",
        "Create a game.",
        {201: Answer("The game was created.", "GameCreated", LOCATION)},
        (400, 413, 422),
        body=("CreateGame", "Players in seating order, first dealer, options."),
    ),
    Operation(
        "post",
        "/games/import",
        "importGame",
        "Create a new game (new id, new edit key) from an export; every deal is replayed.",
        {201: Answer("The game was imported.", "GameCreated", LOCATION)},
        (400, 409, 413, 422),
        body=("GameExport", "A game export, as GET /games/{game_id}/export gives."),
    ),
    Operation(
        "get",
        "/games/{game_id}",
        "getGame",
        "The whole game state, replayed from its recorded deals.",
        {
            200: Answer("The game state.", "GameState", ETAG),
            304: Answer("The copy named by If-None-Match is current.", None, ETAG),
        },
        (404,),
        parameters=(IF_NONE_MATCH,),
    ),
    Operation(
        "get",
        "/games/{game_id}/export",
        "exportGame",
        "The game's facts (no id, no key, nothing derived), to keep or to import.",
        {200: Answer("The export.", "GameExport")},
        (404,),
    ),
    Operation(
        "post",
        "/games/{game_id}/deals",
        "recordDeal",
        "Record the next deal: its declaration and, optionally, its tricks.",
        {
            200: Answer("Dry run: the deal as it would be recorded; nothing stored.", "Deal"),
            201: Answer("The deal was recorded.", "Deal", REPLAYED),
        },
        WRITE_ERRORS,
        body=("RecordDeal", "The next deal."),
        parameters=(IF_MATCH, IDEMPOTENCY_KEY, DRY_RUN),
        needs_key=True,
    ),
    Operation(
        "patch",
        "/games/{game_id}/deals",
        "correctDeals",
        "Correct several recorded deals at once, replayed together (e.g. swap two contracts).",
        {
            200: Answer(
                "The whole game state after the corrections (dry run: as it would be).", "GameState", REPLAYED
            )
        },
        WRITE_ERRORS,
        body=("CorrectDeals", "The deals to correct, each with its number."),
        parameters=(IF_MATCH, IDEMPOTENCY_KEY, DRY_RUN),
        needs_key=True,
    ),
    Operation(
        "put",
        "/games/{game_id}/deals/{number}",
        "correctDeal",
        "Complete or correct a recorded deal (the game is re-validated as a whole).",
        {200: Answer("The deal as it now stands (dry run: as it would stand).", "Deal", REPLAYED)},
        WRITE_ERRORS,
        body=("CorrectDeal", "Any of contract, bids, tricks."),
        parameters=(IF_MATCH, IDEMPOTENCY_KEY, DRY_RUN),
        needs_key=True,
    ),
    Operation(
        "delete",
        "/games/{game_id}/deals/{number}",
        "undoDeal",
        "Undo the last recorded deal (only the last).",
        {204: Answer("The deal was removed.", None, REPLAYED)},
        (400, 401, 403, 404, 409, 422),
        parameters=(IF_MATCH, IDEMPOTENCY_KEY),
        needs_key=True,
    ),
    Operation(
        "post",
        "/nights",
        "createNight",
        "Create a club night; its key (for every other write) comes once, in this answer.",
        {201: Answer("The night was created.", "NightCreated", {"Location": LOCATION["Location"]})},
        (400, 422),
        body=("CreateNight", "The night's name, game and preset, rounds and seating."),
    ),
    Operation(
        "get",
        "/nights/{night_id}",
        "getNight",
        "A club night: players, rounds, tables, standings (null while hidden, unless the key is shown).",
        {200: Answer("The night.", "NightState")},
        (404,),
    ),
    Operation(
        "post",
        "/nights/{night_id}/players",
        "checkIn",
        "Check a player in from the next round (as the check-in page: no key needed).",
        {200: Answer("The night.", "NightState")},
        (400, 404, 409, 422),
        body=("CheckIn", "The player's name."),
    ),
    Operation(
        "delete",
        "/nights/{night_id}/players/{player_id}",
        "playerLeaves",
        "A player leaves before the next round (removed when they never played).",
        {200: Answer("The night.", "NightState")},
        (400, 401, 403, 404, 409),
        needs_key=True,
    ),
    Operation(
        "post",
        "/nights/{night_id}/rounds",
        "seatRound",
        "Seat the next round (Mix with a number of rounds: every round left, planned at once).",
        {200: Answer("The night.", "NightState")},
        (400, 401, 403, 404, 409, 422),
        needs_key=True,
    ),
    Operation(
        "post",
        "/nights/{night_id}/rounds/start",
        "startRound",
        "Start the seated round: each table's game is made, with its scoring link.",
        {200: Answer("The night.", "NightState")},
        (400, 401, 403, 404, 409),
        needs_key=True,
    ),
    Operation(
        "post",
        "/nights/{night_id}/swap",
        "swapPlayers",
        "Exchange two players' places in the next round.",
        {200: Answer("The night.", "NightState")},
        (400, 401, 403, 404, 409, 422),
        body=("SwapPlayers", "The two players' ids."),
        needs_key=True,
    ),
    Operation(
        "post",
        "/nights/{night_id}/tables/{round_number}/{table}/close",
        "closeTable",
        "Close a table that did not finish: it scores as it stands, marked unfinished.",
        {200: Answer("The night.", "NightState")},
        (400, 401, 403, 404, 409),
        needs_key=True,
    ),
    Operation(
        "post",
        "/seasons",
        "createSeason",
        "Create a season: the nights of one game and preset between two dates, each player's best count; "
        "its key (to change or delete it) comes once, in this answer.",
        {201: Answer("The season was created.", "SeasonCreated", {"Location": LOCATION["Location"]})},
        (400, 422),
        body=("CreateSeason", "The season's name, game and preset, dates and best nights."),
    ),
    Operation(
        "get",
        "/seasons/{season_id}",
        "getSeason",
        "A season's table, read from its nights: players from their third night.",
        {
            200: Answer(
                "The season, each row with its trend since the table before its latest night.", "SeasonState"
            )
        },
        (404,),
    ),
    Operation(
        "patch",
        "/seasons/{season_id}",
        "editSeason",
        "Change a season's name, dates, best nights or ranking (its key; a season created before seasons "
        "had a key: 403, nobody may).",
        {200: Answer("The season as it now stands.", "SeasonState")},
        (400, 401, 403, 404, 413, 422),
        body=("EditSeason", "The settings to change; absent or null: unchanged."),
        needs_key=True,
    ),
    Operation(
        "delete",
        "/seasons/{season_id}",
        "deleteSeason",
        "Delete a season (its key; a season created before seasons had a key: 403, nobody may); its "
        "nights and their games stay.",
        {204: Answer("The season was deleted.")},
        (400, 401, 403, 404),
        needs_key=True,
    ),
    Operation(
        "get",
        "/openapi.json",
        "openapi",
        "This document.",
        {200: Answer("The OpenAPI document.", "object")},
    ),
)
