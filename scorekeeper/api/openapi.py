"""The OpenAPI 3.1 document of JSON API v1, written by hand beside the views it describes.

Enumerations that the rules engine owns (ruleset ids, contract ids, option
values) are read from the registry so the document cannot drift from it;
everything else is spelled out here.  Response schemas do not forbid extra
properties (the contract welcomes them); the tests check, in a strict copy,
that every property the API actually sends is documented.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import CODES, api_codes
from ..rules import RULESETS, TRICKS_PER_DEAL

JSON = dict[str, Any]

RULESET_IDS = list(RULESETS)
CONTRACT_IDS = sorted({contract.id for ruleset in RULESETS.values() for contract in ruleset.contracts})
OPTION_VALUES: dict[str, list[str]] = {}
for _ruleset in RULESETS.values():
    for _option in _ruleset.options:
        OPTION_VALUES.setdefault(_option.id, [])
        OPTION_VALUES[_option.id] += [v for v, _ in _option.choices if v not in OPTION_VALUES[_option.id]]

#: Error codes by HTTP status: the registry's codes that the API can answer with.
ERROR_CODES: dict[int, list[str]] = {
    status: api_codes(status) for status in sorted({entry.status for entry in CODES.values() if entry.api})
}

ERROR_DESCRIPTIONS = {
    400: (
        "bad_json: the body is not a JSON object (wrong content type, malformed JSON, or not an object). "
        "bad_query: a query parameter with a value it does not take (dry_run is true or false)."
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
        "import that is not a well-formed export (rule breaches keep the rule's own code). Nothing changed."
    ),
}


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: JSON) -> JSON:
    return {"oneOf": [schema, {"type": "null"}]}


def _per_player(value: JSON, description: str) -> JSON:
    return {
        "type": "object",
        "description": description + " Keyed by player name.",
        "additionalProperties": value,
    }


def _error_schema(codes: list[str]) -> JSON:
    return {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "field"],
                "properties": {
                    "code": {"type": "string", "enum": codes},
                    "message": {"type": "string", "description": "A sentence a player understands."},
                    "field": {
                        "type": ["string", "null"],
                        "description": "The input the error concerns (`tricks`, `players`...), or null.",
                    },
                },
            }
        },
    }


def _error_response(status: int) -> JSON:
    response: JSON = {
        "description": ERROR_DESCRIPTIONS[status],
        "content": {"application/json": {"schema": _error_schema(ERROR_CODES[status])}},
    }
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {"description": "`Bearer`.", "schema": {"type": "string"}}}
    return response


def _errors(*statuses: int) -> JSON:
    return {str(status): {"$ref": f"#/components/responses/Error{status}"} for status in statuses}


def _json_body(schema_name: str, description: str) -> JSON:
    return {
        "required": True,
        "description": description,
        "content": {"application/json": {"schema": _ref(schema_name)}},
    }


def _json_response(schema: JSON, description: str, headers: JSON | None = None) -> JSON:
    response: JSON = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        response["headers"] = headers
    return response


COUNT = {"type": "integer", "minimum": 0, "maximum": TRICKS_PER_DEAL}
SCORE = {"type": "integer"}
NAME = {"type": "string", "description": "A player's name (trimmed, unique in the game ignoring case)."}

DEAL = {
    "type": "object",
    "description": "A recorded deal and everything the rules derive from it.",
    "required": ["number", "dealer", "chooser", "contract", "bids", "tricks", "quotas", "scores", "totals"],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "dealer": NAME,
        "chooser": {
            "type": ["string", "null"],
            "description": "Mizerka: the forehand, who chose the contract. Misère: null.",
        },
        "contract": {
            "type": "string",
            "enum": CONTRACT_IDS,
            "description": "Mizerka: the chosen contract. Misère: the contract the deal number fixes.",
        },
        "bids": _nullable(_per_player(COUNT, "Misère deals 1-6: the bids. Otherwise null.")),
        "tricks": _nullable(_per_player(COUNT, "Tricks taken; null while the deal is pending.")),
        "quotas": _nullable(
            _per_player(
                COUNT,
                "Tricks each player is measured against. Mizerka: the quota of the player's role "
                "(forehand 7/1, middlehand 5/5, dealer 1/7 for trumps or no-trumps / mizerka). "
                "Misère: the bids on deals 1-6, null on ciapa-ciapa and misère (no target).",
            )
        ),
        "scores": _nullable(_per_player(SCORE, "Points in this deal; null while pending.")),
        "totals": _nullable(_per_player(SCORE, "Running totals after this deal; null while pending.")),
        "roles": _per_player(
            {"type": "string", "enum": ["dealer", "forehand", "middlehand", "leader", "player"]},
            "Each player's role in this deal (extra field).",
        ),
        "pending": {"type": "boolean", "description": "True while the tricks are not in (extra field)."},
    },
}

NEXT_DEAL = {
    "type": "object",
    "description": "What the table does next.",
    "required": ["number", "dealer", "chooser", "available_contracts"],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "dealer": NAME,
        "chooser": {"type": ["string", "null"], "description": "Mizerka: the forehand. Misère: null."},
        "available_contracts": {
            "type": "array",
            "items": {"type": "string", "enum": CONTRACT_IDS},
            "description": "Contracts the chooser may still choose (Misère: the one fixed contract).",
        },
        "contract": {
            "type": ["string", "null"],
            "description": "The contract the deal number fixes (Misère); null where a player chooses.",
        },
        "bidding_order": {
            "type": "array",
            "items": NAME,
            "description": "Players in bidding order, dealer last; empty when nobody bids.",
        },
        "roles": _per_player({"type": "string"}, "Each player's role in the next deal."),
    },
}

GAME_STATE_PROPERTIES: JSON = {
    "id": {"type": "string", "minLength": 8, "pattern": "^[A-Za-z0-9_-]+$"},
    "ruleset": {"type": "string", "enum": RULESET_IDS},
    "options": {"type": "object", "additionalProperties": {"type": "string"}},
    "players": {"type": "array", "items": NAME, "description": "Names in seating order."},
    "first_dealer": NAME,
    "status": {"type": "string", "enum": ["in_progress", "finished"]},
    "deal_count": {"type": "integer", "description": "Deals in a whole game (extra field)."},
    "deals": {"type": "array", "items": _ref("Deal")},
    "totals": _per_player(SCORE, "Totals after the last completed deal."),
    "next_deal": _nullable(_ref("NextDeal")),
    "remaining_contracts": _per_player(
        {"type": "array", "items": {"type": "string", "enum": CONTRACT_IDS}},
        "Contracts each player may still choose (Misère: the deals still to come).",
    ),
    "standings": {
        "type": "array",
        "description": "Highest total first; equal totals share a rank (1, 1, 3).",
        "items": _ref("Standing"),
    },
}
GAME_STATE_REQUIRED = [
    "id",
    "ruleset",
    "options",
    "players",
    "first_dealer",
    "status",
    "deals",
    "totals",
    "next_deal",
    "remaining_contracts",
    "standings",
]

PER_PLAYER_COUNTS_IN = {
    "type": ["object", "null"],
    "description": "Whole numbers 0..13 keyed by player name (every player exactly once).",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": TRICKS_PER_DEAL},
}

SCHEMAS: JSON = {
    "Contract": {
        "type": "object",
        "required": ["id", "label", "trumps"],
        "properties": {
            "id": {"type": "string"},
            "label": {"type": "string"},
            "trumps": {"type": ["string", "null"], "description": "The trump suit, or null."},
            "description": {"type": "string"},
        },
    },
    "Option": {
        "type": "object",
        "required": ["id", "label", "choices", "default"],
        "properties": {
            "id": {"type": "string"},
            "label": {"type": "string"},
            "choices": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["value", "label"],
                    "properties": {"value": {"type": "string"}, "label": {"type": "string"}},
                },
            },
            "default": {"type": "string"},
        },
    },
    "Ruleset": {
        "type": "object",
        "required": ["id", "name", "player_count", "deal_count", "seating_direction", "contracts", "options"],
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "summary": {"type": "string"},
            "player_count": {"type": "integer"},
            "deal_count": {"type": "integer"},
            "seating_direction": {"type": "string", "enum": ["clockwise", "counter-clockwise"]},
            "declares_contract": {
                "type": "boolean",
                "description": "Whether a player chooses each contract (else the deal number fixes it).",
            },
            "contracts": {"type": "array", "items": _ref("Contract")},
            "options": {"type": "array", "items": _ref("Option")},
        },
    },
    "Deal": DEAL,
    "NextDeal": NEXT_DEAL,
    "Standing": {
        "type": "object",
        "required": ["player", "total", "rank"],
        "properties": {"player": NAME, "total": SCORE, "rank": {"type": "integer", "minimum": 1}},
    },
    "GameState": {"type": "object", "required": GAME_STATE_REQUIRED, "properties": GAME_STATE_PROPERTIES},
    "GameCreated": {
        "type": "object",
        "description": "The game state plus its edit key.",
        "required": [*GAME_STATE_REQUIRED, "edit_key"],
        "properties": {
            **GAME_STATE_PROPERTIES,
            "edit_key": {
                "type": "string",
                "minLength": 22,
                "description": "The secret for every write (Authorization: Bearer). Shown only here.",
            },
        },
    },
    "CreateGame": {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "ruleset": {"type": ["string", "null"], "enum": [*RULESET_IDS, None], "default": "mizerka"},
            "players": {
                "type": "array",
                "description": "Names in seating order (Misère: in playing direction).",
                "items": {"type": "string", "minLength": 1, "maxLength": 40},
            },
            "first_dealer": {
                "type": ["string", "null"],
                "description": "A player's name (ignoring case); absent or null for a random draw.",
            },
            "options": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {
                    option_id: {"type": ["string", "null"], "enum": [*values, None]}
                    for option_id, values in OPTION_VALUES.items()
                },
            },
        },
    },
    "RecordDeal": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "number": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": "When given, must be the next deal's number (else 409 wrong_deal_number).",
            },
            "contract": {
                "type": ["string", "null"],
                "enum": [*CONTRACT_IDS, None],
                "description": "Mizerka: required. Misère: omit (the deal number fixes it).",
            },
            "bids": {**PER_PLAYER_COUNTS_IN, "description": "Misère deals 1-6: required; otherwise refused."},
            "tricks": {**PER_PLAYER_COUNTS_IN, "description": "Tricks taken; omit to record a pending deal."},
        },
    },
    "CorrectDeal": {
        "type": "object",
        "additionalProperties": False,
        "description": "Only the fields present change; the game is then re-validated as a whole.",
        "properties": {
            "contract": {"type": ["string", "null"], "enum": [*CONTRACT_IDS, None]},
            "bids": PER_PLAYER_COUNTS_IN,
            "tricks": {
                **PER_PLAYER_COUNTS_IN,
                "description": "Tricks taken; null makes the last deal pending again.",
            },
        },
    },
    "CorrectDeals": {
        "type": "object",
        "additionalProperties": False,
        "required": ["deals"],
        "description": "Corrections of several recorded deals, replayed together as one change.",
        "properties": {
            "deals": {
                "type": "array",
                "minItems": 1,
                "description": "One item per deal; a number may appear once.",
                "items": _ref("DealCorrection"),
            }
        },
    },
    "DealCorrection": {
        "type": "object",
        "additionalProperties": False,
        "required": ["number"],
        "description": "A recorded deal's number and the fields that change (as CorrectDeal).",
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "A recorded deal's number."},
            "contract": {"type": ["string", "null"], "enum": [*CONTRACT_IDS, None]},
            "bids": PER_PLAYER_COUNTS_IN,
            "tricks": {
                **PER_PLAYER_COUNTS_IN,
                "description": "Tricks taken; null makes the last deal pending again.",
            },
        },
    },
    "GameExport": {
        "type": "object",
        "additionalProperties": False,
        "description": (
            "A game's facts and nothing derived: what GET /games/{game_id}/export answers and "
            "POST /games/import takes. Per-player values are keyed by player name."
        ),
        "required": ["format", "version", "ruleset", "players", "first_dealer", "deals"],
        "properties": {
            "format": {"type": "string", "const": "scorekeeper-game"},
            "version": {"type": "integer", "const": 1},
            "ruleset": {"type": "string", "enum": RULESET_IDS},
            "options": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {
                    option_id: {"type": ["string", "null"], "enum": [*values, None]}
                    for option_id, values in OPTION_VALUES.items()
                },
            },
            "players": {
                "type": "array",
                "description": "Names in seating order.",
                "items": {"type": "string", "minLength": 1, "maxLength": 40},
            },
            "first_dealer": {"type": "string", "description": "The first dealer's name."},
            "created_at": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "When the game was started (ISO 8601); the import keeps it (null: now).",
            },
            "played_on": {
                "type": ["string", "null"],
                "format": "date",
                "description": "The day the game was played (null: the day it was started, else today).",
            },
            "note": {
                "type": ["string", "null"],
                "description": "The game's note (place, occasion), at most 200 characters once trimmed.",
            },
            "deals": {
                "type": "array",
                "maxItems": max(ruleset.deal_count for ruleset in RULESETS.values()),
                "items": _ref("ExportedDeal"),
            },
        },
    },
    "ExportedDeal": {
        "type": "object",
        "additionalProperties": False,
        "required": ["number"],
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "1, 2, 3... in order."},
            "contract": {"type": ["string", "null"], "enum": [*CONTRACT_IDS, None]},
            "bids": {**PER_PLAYER_COUNTS_IN, "description": "Misère deals 1-6: the bids; otherwise null."},
            "tricks": {
                **PER_PLAYER_COUNTS_IN,
                "description": "Tricks taken; null while the deal is pending.",
            },
        },
    },
    "Error": _error_schema(sorted({code for codes in ERROR_CODES.values() for code in codes})),
}

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
    "schema": {"type": "integer", "minimum": 0},
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "Optional: the game's ETag (from GET); if the game changed since, 409 stale.",
    "schema": {"type": "string"},
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
BEARER: list[JSON] = [{"editKey": []}]

PATHS: JSON = {
    "/rulesets": {
        "get": {
            "operationId": "listRulesets",
            "summary": "The rulesets with their contracts, player and deal counts, and options.",
            "responses": {
                "200": _json_response(
                    {
                        "type": "object",
                        "required": ["rulesets"],
                        "properties": {"rulesets": {"type": "array", "items": _ref("Ruleset")}},
                    },
                    "Every ruleset.",
                )
            },
        }
    },
    "/games": {
        "post": {
            "operationId": "createGame",
            "summary": "Create a game.",
            "requestBody": _json_body("CreateGame", "Players in seating order, first dealer, options."),
            "responses": {
                "201": _json_response(
                    _ref("GameCreated"),
                    "The game was created.",
                    {
                        "Location": {
                            "description": "The game's address in this API.",
                            "schema": {"type": "string"},
                        }
                    },
                ),
                **_errors(400, 413, 422),
            },
        }
    },
    "/games/import": {
        "post": {
            "operationId": "importGame",
            "summary": "Create a new game (new id, new edit key) from an export; every deal is replayed.",
            "requestBody": _json_body("GameExport", "A game export, as GET /games/{game_id}/export gives."),
            "responses": {
                "201": _json_response(
                    _ref("GameCreated"),
                    "The game was imported.",
                    {
                        "Location": {
                            "description": "The new game's address in this API.",
                            "schema": {"type": "string"},
                        }
                    },
                ),
                **_errors(400, 409, 413, 422),
            },
        }
    },
    "/games/{game_id}": {
        "parameters": [GAME_ID],
        "get": {
            "operationId": "getGame",
            "summary": "The whole game state, replayed from its recorded deals.",
            "parameters": [
                {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": False,
                    "description": "The ETag of a copy already held; 304 while it is current.",
                    "schema": {"type": "string"},
                }
            ],
            "responses": {
                "200": _json_response(
                    _ref("GameState"),
                    "The game state.",
                    {"ETag": {"description": "The game's version.", "schema": {"type": "string"}}},
                ),
                "304": {
                    "description": "The copy named by If-None-Match is current.",
                    "headers": {"ETag": {"description": "The game's version.", "schema": {"type": "string"}}},
                },
                **_errors(404),
            },
        },
    },
    "/games/{game_id}/export": {
        "parameters": [GAME_ID],
        "get": {
            "operationId": "exportGame",
            "summary": "The game's facts (no id, no key, nothing derived), to keep or to import.",
            "responses": {
                "200": _json_response(_ref("GameExport"), "The export."),
                **_errors(404),
            },
        },
    },
    "/games/{game_id}/deals": {
        "parameters": [GAME_ID],
        "post": {
            "operationId": "recordDeal",
            "summary": "Record the next deal: its declaration and, optionally, its tricks.",
            "security": BEARER,
            "parameters": [DRY_RUN],
            "requestBody": _json_body("RecordDeal", "The next deal."),
            "responses": {
                "200": _json_response(
                    _ref("Deal"), "Dry run: the deal as it would be recorded; nothing stored."
                ),
                "201": _json_response(_ref("Deal"), "The deal was recorded."),
                **_errors(400, 401, 403, 404, 409, 413, 422),
            },
        },
        "patch": {
            "operationId": "correctDeals",
            "summary": "Correct several recorded deals at once, replayed together (e.g. swap two contracts).",
            "security": BEARER,
            "parameters": [IF_MATCH, DRY_RUN],
            "requestBody": _json_body("CorrectDeals", "The deals to correct, each with its number."),
            "responses": {
                "200": _json_response(
                    _ref("GameState"), "The whole game state after the corrections (dry run: as it would be)."
                ),
                **_errors(400, 401, 403, 404, 409, 413, 422),
            },
        },
    },
    "/games/{game_id}/deals/{number}": {
        "parameters": [GAME_ID, DEAL_NUMBER],
        "put": {
            "operationId": "correctDeal",
            "summary": "Complete or correct a recorded deal (the game is re-validated as a whole).",
            "security": BEARER,
            "parameters": [IF_MATCH, DRY_RUN],
            "requestBody": _json_body("CorrectDeal", "Any of contract, bids, tricks."),
            "responses": {
                "200": _json_response(
                    _ref("Deal"), "The deal as it now stands (dry run: as it would stand)."
                ),
                **_errors(400, 401, 403, 404, 409, 413, 422),
            },
        },
        "delete": {
            "operationId": "undoDeal",
            "summary": "Undo the last recorded deal (only the last).",
            "security": BEARER,
            "parameters": [IF_MATCH],
            "responses": {"204": {"description": "The deal was removed."}, **_errors(401, 403, 404, 409)},
        },
    },
    "/openapi.json": {
        "get": {
            "operationId": "openapi",
            "summary": "This document.",
            "responses": {"200": _json_response({"type": "object"}, "The OpenAPI document.")},
        }
    },
}

DOCUMENT: JSON = {
    "openapi": "3.1.0",
    "info": {
        "title": "Scorekeeper JSON API",
        "version": "1",
        "description": (
            "Keeps score for Mizerka (3 players) and Italian Misère (4 players). Per-player values "
            "are objects keyed by player name. Every error answer is "
            '`{"error": {"code", "message", "field"}}` and changes nothing.'
        ),
    },
    "servers": [{"url": "/api/v1"}],
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "responses": {f"Error{status}": _error_response(status) for status in ERROR_CODES},
        "securitySchemes": {
            "editKey": {
                "type": "http",
                "scheme": "bearer",
                "description": "The game's edit_key, returned once when the game is created.",
            }
        },
    },
}


def openapi_document() -> JSON:
    """A fresh copy of the document (callers may not change the original)."""
    return copy.deepcopy(DOCUMENT)
