"""Schemathesis against the served /api/v1/openapi.json, through the WSGI app.

Every operation of the document gets requests generated from its schemas,
both conforming ("positive") and deliberately not ("negative"), half of them
aimed at a real game with its edit key as the Bearer token (or at a real
season) and half at whatever ids the generator makes up.  Each answer must not be a server
error, must have a documented status, content type, headers and body
schema, and negative data must be refused.  Authentication is probed too:
a write that succeeds with the key is sent again without it and with a
wrong one, and must then be refused.

Not checked: that schema-valid data is accepted (``positive_data_acceptance``):
the schema cannot say that tricks add up to 13 or that a contract is chosen
once, so the rules rightly refuse much of what the schema allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from flask import Flask
from fuzz_support import count
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.api.openapi import openapi_document

pytestmark = pytest.mark.slow

EXAMPLES_PER_OPERATION = 25
CHECKS: list[Callable[..., Any]] = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    ignored_auth,
]
#: Operations whose requests cannot break their schema (no body, only string parameters).
NOTHING_TO_NEGATE = {
    "GET /rulesets",
    "GET /games/{game_id}",
    "GET /games/{game_id}/export",
    "GET /nights/{night_id}",
    "GET /seasons/{season_id}",
    "DELETE /seasons/{season_id}",
}
GAME = {"ruleset": "mizerka", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Ann"}


def started_game(app: Flask) -> tuple[str, str]:
    """A Mizerka game with two deals played and a third declared: its id and edit key."""
    client = app.test_client()
    created = client.post("/api/v1/games", json=GAME).get_json()
    game_id, key = created["id"], created["edit_key"]
    auth = {"Authorization": f"Bearer {key}"}
    for body in (
        {"contract": "hearts", "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}},
        {"contract": "mizerka", "tricks": {"Ann": 5, "Bob": 2, "Cid": 6}},
        {"contract": "spades"},
    ):
        assert client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=auth).status_code == 201
    return game_id, key


@pytest.mark.parametrize("mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE])
def test_api_answers_as_its_openapi_document_says(app: Flask, mode: schemathesis.GenerationMode) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    game_id, key = started_game(app)
    season = {"name": "Autumn", "ruleset": "mizerka", "starts_on": "2026-09-01", "ends_on": "2026-12-31"}
    made = app.test_client().post("/api/v1/seasons", json=season).get_json()
    season_id, season_key = made["id"], made["key"]
    operations = [result.ok() for result in schema.get_all_operations()]
    valid_bodies = {
        "POST /games": GAME,
        "POST /games/import": app.test_client().get(f"/api/v1/games/{game_id}/export").get_json(),
    }
    documented = {
        f"{method.upper()} {path}"
        for path, item in openapi_document()["paths"].items()
        for method in item
        if method != "parameters"
    }
    documented.discard("GET /openapi.json")  # schemathesis leaves out the document it was loaded from
    assert {op.label for op in operations} == documented
    for operation in operations:
        if mode is schemathesis.GenerationMode.NEGATIVE and operation.label in NOTHING_TO_NEGATE:
            continue
        path_names = {parameter.name for parameter in operation.path_parameters}
        known: dict[str, Any] = {}
        if "game_id" in path_names:
            known["path_parameters"] = {"game_id": game_id}
        # Some requests at whatever the generator makes up, some at the real game with its key.
        strategies = [operation.as_strategy(generation_mode=mode)]
        if "number" in path_names:
            for number in (1, 3):
                at_deal = {**known, "path_parameters": {**known["path_parameters"], "number": number}}
                strategies.append(operation.as_strategy(generation_mode=mode, **at_deal))
        elif "game_id" in path_names:
            strategies.append(operation.as_strategy(generation_mode=mode, **known))
        if "season_id" in path_names:
            # A real season too, changed with its key.
            at_season = {"path_parameters": {"season_id": season_id}}
            strategies.append(operation.as_strategy(generation_mode=mode, **at_season))
        if mode is schemathesis.GenerationMode.POSITIVE and operation.label in valid_bodies:
            # Random bodies rarely make a whole valid game: one known good body, so 201 is checked too.
            strategies.append(operation.as_strategy(body=valid_bodies[operation.label]))

        @given(case=st.one_of(strategies))
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        def answers_as_documented(case: schemathesis.Case) -> None:
            # identity: the app gzips JSON for clients that accept it, which the WSGI transport does not undo.
            headers = {"Accept-Encoding": "identity"}
            if (case.path_parameters or {}).get("game_id") == game_id:
                # The real key, given explicitly: schemathesis then also sends the request without it
                # and with a wrong one (ignored_auth), and those must be refused.
                headers["Authorization"] = f"Bearer {key}"
            if (case.path_parameters or {}).get("season_id") == season_id and case.method == "PATCH":
                # The real season's key too (not to DELETE: the request sent again without it would
                # find the season gone, 404, where ignored_auth wants 401 or 403).
                headers["Authorization"] = f"Bearer {season_key}"
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            count(app, f"schemathesis {mode.value} cases")
            count(app, f"schemathesis answers {response.status_code}")

        answers_as_documented()
