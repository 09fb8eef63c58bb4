"""A write through the page costs no more SQL statements than the same write through the API.

Both read the game once (the one loader: ``services.snapshot_for_write``), check the edit
key against what that read found, and hand the snapshot to the service, which claims the
game by its version and writes the deal and its figures.  A refused page write
re-renders the form from that same snapshot, once it is known to be the game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from perf_support import DEALS, PLAYERS, StatementCounter, is_full_read, new_game, with_pencil

from tests.helpers import csrf_from

#: The snapshot (game, seats and deals in one query), the claim, the deal, and its figures (3 tables,
#: the players' kept totals in two statements: all time and the year, then the window of 30 days).
WRITE_BUDGET = 7
#: The query of a game's row that tells whether a kept copy is still the game.
STAMP = "SELECT games.version, games.updated_at, games.edit_key_hash"


def page_csrf(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return csrf_from(response.get_data(as_text=True))


def api(
    client: FlaskClient, method: str, url: str, key: str, body: Any = None, version: int | None = None
) -> Any:
    headers = {"Authorization": f"Bearer {key}"}
    if version is not None:
        headers["If-Match"] = f'"v{version}"'
    return client.open(
        url,
        method=method,
        data=None if body is None else json.dumps(body),
        content_type="application/json",
        headers=headers,
    )


def by_name(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(PLAYERS, values, strict=True))


def by_seat(field: str, values: tuple[int, ...]) -> dict[str, int]:
    return {f"{field}-{seat}": value for seat, value in enumerate(values)}


def page_write(app: Flask, operation: str) -> tuple[int, list[str]]:
    """The page's status and statements for ``operation`` on a game 9 deals in."""
    game_id, key = new_game(app, 8)
    client = with_pencil(app.test_client(), game_id, key)
    base = f"/games/{game_id}"
    if operation in ("tricks", "tricks refused"):
        csrf = page_csrf(client, base)
        client.post(f"{base}/deals", data={"csrf_token": csrf, "number": 9, "contract": DEALS[8][0]})
    csrf = page_csrf(client, f"{base}/deals/8/edit" if operation == "correction" else base)
    contract, tricks = DEALS[8]
    url, form = {
        "declaration": (f"{base}/deals", {"number": 9, "contract": contract}),
        "tricks": (f"{base}/deals/9/tricks", {"number": 9, **by_seat("tricks", tricks)}),
        "tricks refused": (f"{base}/deals/9/tricks", {"number": 9, **by_seat("tricks", (13, 13, 13))}),
        "correction": (
            f"{base}/deals/8/edit",
            {"version": 8, "contract": DEALS[7][0], **by_seat("tricks", (13, 0, 0))},
        ),
        "undo": (f"{base}/undo", {"number": 8, "version": 8}),
    }[operation]
    with StatementCounter(app).counting() as statements:
        response = client.post(url, data={"csrf_token": csrf, **form})
    return response.status_code, list(statements)


def api_write(app: Flask, operation: str) -> tuple[int, list[str]]:
    """The API's status and statements for ``operation`` on a game 9 deals in.

    A correction and an undo name the version they were worked out on (``If-Match``), as the
    page's forms do.
    """
    game_id, key = new_game(app, 8)
    client = app.test_client()
    base = f"/api/v1/games/{game_id}"
    contract, tricks = DEALS[8]
    if operation in ("tricks", "tricks refused"):
        api(client, "POST", f"{base}/deals", key, {"number": 9, "contract": contract})
    method, url, body = {
        "declaration": ("POST", f"{base}/deals", {"number": 9, "contract": contract}),
        "tricks": ("PUT", f"{base}/deals/9", {"tricks": by_name(tricks)}),
        "tricks refused": ("PUT", f"{base}/deals/9", {"tricks": by_name((13, 13, 13))}),
        "correction": ("PUT", f"{base}/deals/8", {"tricks": by_name((13, 0, 0))}),
        "undo": ("DELETE", f"{base}/deals/8", None),
    }[operation]
    version = 8 if operation in ("correction", "undo") else None
    with StatementCounter(app).counting() as statements:
        response = api(client, method, url, key, body, version)
    return response.status_code, list(statements)


@pytest.mark.parametrize("operation", ["declaration", "tricks", "correction", "undo"])
def test_a_page_write_costs_no_more_statements_than_the_api(app: Flask, operation: str) -> None:
    page_status, page_statements = page_write(app, operation)
    api_status, api_statements = api_write(app, operation)
    assert page_status == 303, page_statements
    assert api_status in (200, 201, 204), api_statements
    assert len(page_statements) <= len(api_statements), (page_statements, api_statements)
    assert len(page_statements) <= WRITE_BUDGET, page_statements


def test_a_refused_page_write_reads_the_game_once(app: Flask) -> None:
    """The form comes back with the error, rendered from the snapshot the write was refused on.

    Tricks are worked out from this worker's kept copy unread.  A copy that refuses is most
    often one write behind (another worker took the game's last write), so the refusal is
    worked out again on the game read afresh, at once; the page is then drawn from that copy,
    known to be the game by one cheap query of its row.  The whole game is read once.
    """
    page_status, page_statements = page_write(app, "tricks refused")
    api_status, api_statements = api_write(app, "tricks refused")
    assert (page_status, api_status) == (422, 422)
    assert len(api_statements) == 1 and is_full_read(api_statements[0]), api_statements
    assert len(page_statements) == 2 and is_full_read(page_statements[0]), page_statements
    assert page_statements[1].startswith(STAMP), page_statements
