"""The OpenAPI 3.1 document of JSON API v1, generated from the declarations it describes.

The request and response bodies are the models of ``shapes.py`` and ``answers.py`` (their JSON Schema is
pydantic's); the error codes and their statuses are the registry's (``scorekeeper.errors``);
the table of operations (path, method, body, answers) is ``operations.py``; what is left here is
the prose of the errors and the document around them.
Response schemas do not forbid extra properties (the contract welcomes them); the tests
check, in a strict copy, that every property the API actually sends is documented.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ..errors import CODES, api_codes
from . import answers, club_answers, shapes
from .operations import DEAL_NUMBER, GAME_ID, JSON, NIGHT_PARAMETERS, OPERATIONS

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
    modes += [(model, "serialization") for model in answers.RESPONSES + club_answers.RESPONSES]
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
            "Keeps score for card games played with a real deck: each ruleset's deal, its facts and "
            "their refusals are in the shapes below. Per-player values "
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
