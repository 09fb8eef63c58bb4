"""The OpenAPI 3.1 document of JSON API v1, generated from the declarations it describes.

The request and response bodies are the models of ``shapes.py`` and ``answers.py`` (their JSON Schema is
pydantic's); the error codes and their statuses are the registry's (``scorekeeper.errors``);
what is left here is the table of operations (path, method, body, answers) and the prose.
Response schemas do not forbid extra properties (the contract welcomes them); the tests
check, in a strict copy, that every property the API actually sends is documented.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ..errors import CODES, api_codes
from . import answers, shapes

JSON = dict[str, Any]

#: Error codes by HTTP status: the registry's codes that the API can answer with.
ERROR_CODES: dict[int, list[str]] = {
    status: api_codes(status) for status in sorted({entry.status for entry in CODES.values() if entry.api})
}

ERROR_DESCRIPTIONS = {
    400: (
        "bad_json: the body is not a JSON object (wrong content type, malformed JSON, or not an object). "
        "bad_query: a query parameter with a value it does not take (dry_run is true or false). "
        "bad_idempotency_key: an Idempotency-Key that is not 1-64 characters of A-Z a-z 0-9 - _."
    ),
    401: "auth_required: a write without `Authorization: Bearer <edit_key>`. Nothing changed.",
    403: "bad_key: a write with a key that is not this game's edit key. Nothing changed.",
    404: "not_found: no such game (or no such deal in it).",
    409: (
        "The game is not where the request assumed: wrong_deal_number (`number` is not the next "
        "deal's), deal_pending (the last deal has no tricks yet), game_finished, not_last_deal "
        "(undo of an earlier deal), stale (If-Match does not hold the current ETag), conflict "
        "(a simultaneous write). Nothing changed."
    ),
    413: "too_large: the body is over 64 KiB.",
    422: (
        "A rule of the game or the request's shape refuses the input; `field` names the input. "
        "unknown_field is a body field this call does not take; invalid_deals is a list of "
        "corrections that is empty, names a deal twice or without its number; invalid_export is an "
        "import that is not a well-formed export (rule breaches keep the rule's own code); "
        "idempotency_key_reused is an Idempotency-Key this game already took with another method, "
        "path or body. Nothing changed."
    ),
}


# -- schemas from the models -----------------------------------------------------------------------


def _without_titles(schema: Any) -> Any:
    """``schema`` without the titles pydantic derives from class and field names (they add nothing)."""
    if isinstance(schema, list):
        return [_without_titles(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    cleaned = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "properties":  # its keys are property names, not keywords
            cleaned[key] = {name: _without_titles(sub) for name, sub in value.items()}
        else:
            cleaned[key] = _without_titles(value)
    return cleaned


def _model_schemas() -> JSON:
    """Every model's JSON Schema by name: requests as validated, responses as serialised."""
    modes: list[tuple[type[BaseModel], JsonSchemaMode]] = [(model, "validation") for model in shapes.REQUESTS]
    modes += [(model, "serialization") for model in answers.RESPONSES]
    _, top = models_json_schema(modes, ref_template="#/components/schemas/{model}")
    schemas: JSON = dict(_without_titles(top["$defs"]))
    for schema in schemas.values():
        # A raw request field defaults to null in Python; a field the document requires has no default.
        for name in schema.get("required", ()):
            schema.get("properties", {}).get(name, {}).pop("default", None)
    return schemas


_SCHEMAS = _model_schemas()


def error_schema(codes: list[str]) -> JSON:
    """The error body's schema (``answers.Error``, its detail inlined) with ``code`` one of ``codes``."""
    detail: JSON = copy.deepcopy(_SCHEMAS["ErrorDetail"])
    detail["properties"]["code"]["enum"] = codes
    body: JSON = copy.deepcopy(_SCHEMAS["Error"])
    body["properties"]["error"] = detail
    return body


SCHEMAS: JSON = {name: schema for name, schema in _SCHEMAS.items() if name != "ErrorDetail"}
SCHEMAS["Error"] = error_schema(sorted(api_codes()))


# -- operations ------------------------------------------------------------------------------------


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "description": "The game's id (random, URL-safe).",
    "schema": {"type": "string"},
}
DEAL_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The deal's number (1-based).",
    "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647},
}


def _whole_in_path(name: str, description: str) -> JSON:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647},
    }


#: A club night's path parameters, by name.
NIGHT_PARAMETERS: dict[str, JSON] = {
    "night_id": {
        "name": "night_id",
        "in": "path",
        "required": True,
        "description": "The night's id (random, URL-safe).",
        "schema": {"type": "string"},
    },
    "season_id": {
        "name": "season_id",
        "in": "path",
        "required": True,
        "description": "The season's id (random, URL-safe).",
        "schema": {"type": "string"},
    },
    "player_id": _whole_in_path("player_id", "A player's id (as the night lists its players)."),
    "round_number": _whole_in_path("round_number", "The round's number (1-based)."),
    "table": _whole_in_path("table", "The table's number in its round (1-based)."),
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
        "Create a season: the nights of one game and preset between two dates, each player's best count.",
        {201: Answer("The season was created.", "SeasonState", {"Location": LOCATION["Location"]})},
        (400, 422),
        body=("CreateSeason", "The season's name, game and preset, dates and best nights."),
    ),
    Operation(
        "get",
        "/seasons/{season_id}",
        "getSeason",
        "A season's table, read from its nights: players from their third night.",
        {200: Answer("The season.", "SeasonState")},
        (404,),
    ),
    Operation(
        "get",
        "/openapi.json",
        "openapi",
        "This document.",
        {200: Answer("The OpenAPI document.", "object")},
    ),
)


def _paths() -> JSON:
    paths: JSON = {}
    for operation in OPERATIONS:
        item = paths.setdefault(operation.path, {})
        path_parameters = [GAME_ID] if "{game_id}" in operation.path else []
        if "{number}" in operation.path:
            path_parameters.append(DEAL_NUMBER)
        path_parameters += [
            NIGHT_PARAMETERS[name] for name in NIGHT_PARAMETERS if "{" + name + "}" in operation.path
        ]
        if path_parameters:
            item["parameters"] = path_parameters
        item[operation.method] = operation.document()
    return paths


def _error_response(status: int) -> JSON:
    response: JSON = {
        "description": ERROR_DESCRIPTIONS[status],
        "content": {"application/json": {"schema": error_schema(ERROR_CODES[status])}},
    }
    if status == 401:
        response["headers"] = {
            "WWW-Authenticate": {"description": "`Bearer`.", "required": True, "schema": {"type": "string"}}
        }
    return response


DOCUMENT: JSON = {
    "openapi": "3.1.0",
    "info": {
        "title": "Scorekeeper JSON API",
        "version": "1",
        "description": (
            "Keeps score for card games played with a real deck, one ruleset each (`GET /rulesets` "
            "lists them with their contracts, player counts and options). Per-player values "
            "are objects keyed by player name. Every error answer is "
            '`{"error": {"code", "message", "field"}}` and changes nothing.'
        ),
    },
    "servers": [{"url": "/api/v1"}],
    "paths": _paths(),
    "components": {
        "schemas": SCHEMAS,
        "responses": {f"Error{status}": _error_response(status) for status in ERROR_CODES},
        "securitySchemes": {
            "editKey": {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "The game's edit_key, returned once when the game is created; for a club night, "
                    "the night's key, returned once when the night is created."
                ),
            }
        },
    },
}


def openapi_document() -> JSON:
    """A fresh copy of the document (callers may not change the original)."""
    return copy.deepcopy(DOCUMENT)
