"""Helpers that drive the real pages through the test client, CSRF included."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def csrf_from(html: str) -> str:
    match = CSRF_RE.search(html)
    assert match, "page has no CSRF token"
    return match.group(1)


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def start_game(
    client: FlaskClient, names: list[str], first_dealer: str = "0", game: str = "mizerka", **extra: str
) -> str:
    """Fill in the new-game form; returns the new game's id."""
    html = page(client, f"/games/new?game={game}")
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "first_dealer": first_dealer, **extra}
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    response = client.post(f"/games/new?game={game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    match = re.search(r"/games/([A-Za-z0-9_-]+)$", location)
    assert match, location
    return match.group(1)


def declare(client: FlaskClient, game_id: str, number: int, contract: str) -> Any:
    html = page(client, f"/games/{game_id}")
    return client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(html), "number": number, "contract": contract},
    )


def enter_tricks(client: FlaskClient, game_id: str, number: int, tricks: list[int | str]) -> Any:
    html = page(client, f"/games/{game_id}")
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "number": number}
    for seat, count in enumerate(tricks):
        data[f"tricks-{seat}"] = count
    return client.post(f"/games/{game_id}/deals/{number}/tricks", data=data)
