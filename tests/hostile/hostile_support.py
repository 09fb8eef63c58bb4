"""Helpers for the hostile-input suite: games to attack, and proof that a refusal changed nothing."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.helpers import MIZERKA_DEALS, csrf_from, db_snapshot, page

BASE = "/api/v1"
NAMES = ["Ann", "Bob", "Cid"]


def api_game(client: FlaskClient, deals: int = 0, names: list[str] | None = None) -> tuple[str, str]:
    """A Mizerka game created through the API with its first ``deals`` deals; returns (id, edit key)."""
    players = names or NAMES
    response = client.post(f"{BASE}/games", json={"players": players, "first_dealer": players[2]})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    game_id, key = created["id"], created["edit_key"]
    for deal in MIZERKA_DEALS[:deals]:
        body = {
            "number": deal.number,
            "contract": deal.contract,
            "tricks": dict(zip(players, deal.tricks, strict=True)),
        }
        answer = client.post(f"{BASE}/games/{game_id}/deals", json=body, headers=bearer(key))
        assert answer.status_code == 201, answer.get_json()
    return game_id, key


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def token(client: FlaskClient) -> str:
    """A CSRF token of ``client``'s own session (the forms' tokens are per session, not per form)."""
    return csrf_from(page(client, "/games/new"))


def assert_api_error(response: TestResponse, status: int, code: str | None = None) -> dict[str, Any]:
    """The contract's error body with ``status`` (and ``code``); returns the error object."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:500])
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert set(error) == {"code", "message", "field"}, error
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return error


class Unchanged:
    """``with Unchanged(app):`` fails when any row of any table differs after the block."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __enter__(self) -> Unchanged:
        self.before = db_snapshot(self.app)
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            assert db_snapshot(self.app) == self.before, "a refused request changed the database"
