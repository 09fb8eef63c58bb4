"""Helpers for the JSON API tests: calls with the edit key, and checks against the OpenAPI document.

Every response these helpers see is validated against the schema the
document gives for that path, method and status, in a strict copy where
every documented object refuses undocumented properties: what the API
sends and what the document says cannot drift apart.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from werkzeug.test import TestResponse

from scorekeeper.api.openapi import openapi_document

BASE = "/api/v1"
ANY_FIELD: Any = object()
DOCUMENT = openapi_document()


def _strict(schema: Any) -> Any:
    """A copy of ``schema`` in which every object with listed properties refuses others."""
    if isinstance(schema, dict):
        strict = {key: _strict(value) for key, value in schema.items()}
        if "properties" in schema and "additionalProperties" not in schema:
            strict["additionalProperties"] = False
        return strict
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    return schema


STRICT_COMPONENTS = _strict(DOCUMENT["components"])


def schema_validator(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator for ``schema`` that resolves the document's ``#/components/...`` references."""
    return Draft202012Validator({**schema, "components": STRICT_COMPONENTS})


def _template_for(path: str) -> str:
    """The document's path template that a concrete API path matches."""
    relative = path.split("?", 1)[0].removeprefix(BASE)
    for template in DOCUMENT["paths"]:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, relative):
            return str(template)
    raise AssertionError(f"{path} is not in the OpenAPI document")


def documented_response(method: str, path: str, status: int) -> dict[str, Any]:
    """The document's response object for this call and status, following a ``$ref``."""
    operation = DOCUMENT["paths"][_template_for(path)][method.lower()]
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {path} answered {status}, which the document does not list"
    response = responses[str(status)]
    if "$ref" in response:
        response = DOCUMENT["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return dict(response)


def check_documented(method: str, path: str, response: TestResponse) -> None:
    """Assert that ``response`` is what the document says this call answers with this status."""
    documented = documented_response(method, path, response.status_code)
    content = documented.get("content")
    if content is None:
        assert response.get_data() == b"", f"{response.status_code} should have no body"
        return
    assert response.mimetype == "application/json"
    schema = copy.deepcopy(content["application/json"]["schema"])
    errors = sorted(schema_validator(schema).iter_errors(response.get_json()), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    for header, described in documented.get("headers", {}).items():
        if described.get("required"):
            assert header in response.headers, f"{header} header missing"
        elif header not in response.headers:
            continue
        if "enum" in described["schema"]:
            assert response.headers[header] in described["schema"]["enum"], (header, response.headers[header])


class Api:
    """The JSON API through the test client; every answer is checked against the document."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        key: str | None = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> TestResponse:
        all_headers = dict(headers or {})
        if key is not None:
            all_headers["Authorization"] = f"Bearer {key}"
        if body is not None:
            kwargs["json"] = body
        response = self.client.open(BASE + path, method=method, headers=all_headers, **kwargs)
        check_documented(method, BASE + path, response)
        return response

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game; returns the answer (state plus ``edit_key``)."""
        response = self.call("POST", "/games", body)
        assert response.status_code == 201, response.get_json()
        created: dict[str, Any] = response.get_json()
        assert response.headers["Location"] == f"{BASE}/games/{created['id']}"
        return created

    def state(self, game_id: str) -> dict[str, Any]:
        response = self.call("GET", f"/games/{game_id}")
        assert response.status_code == 200, response.get_json()
        state: dict[str, Any] = response.get_json()
        return state

    def record(self, game_id: str, key: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.call("POST", f"/games/{game_id}/deals", body, key=key)
        assert response.status_code == 201, response.get_json()
        deal: dict[str, Any] = response.get_json()
        return deal

    def correct(self, game_id: str, key: str, number: int, body: dict[str, Any]) -> dict[str, Any]:
        response = self.call("PUT", f"/games/{game_id}/deals/{number}", body, key=key)
        assert response.status_code == 200, response.get_json()
        deal: dict[str, Any] = response.get_json()
        return deal

    def refused(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        status: int,
        code: str,
        field: str | None = ANY_FIELD,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Make a call that must be refused with ``status`` and ``code``; returns the error object."""
        response = self.call(method, path, body, **kwargs)
        answer = response.get_json()
        assert response.status_code == status, (response.status_code, answer)
        assert set(answer) == {"error"}, answer
        error: dict[str, Any] = answer["error"]
        assert set(error) == {"code", "message", "field"}, error
        assert error["code"] == code, error
        assert isinstance(error["message"], str) and error["message"], error
        if field is not ANY_FIELD:
            assert error["field"] == field, error
        return error
