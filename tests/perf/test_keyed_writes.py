"""What an Idempotency-Key costs a deal write, and what its repeat costs.

A keyed write looks its key up in one query that reads the game's row too (so a kept copy needs
no other check), and keeps the key's row with the change: on SQLite two statements more than the
same write without a key; on PostgreSQL the key's row rides in the write's one statement, so two
round trips in all, still without BEGIN and COMMIT.  A repeat is answered from that one query
and writes nothing.  A write without the header costs what it did (test_write_path).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from perf_support import DEALS, PLAYERS, StatementCounter, new_game
from test_write_path import WRITE_BUDGET, driver_commands

from scorekeeper.extensions import db
from tests.stats.checks import assert_figures_match

LOOK_UP = "SELECT games.version, games.updated_at, games.edit_key_hash, idempotency_keys.fingerprint"


def post_deal(app: Flask, game_id: str, key: str, number: int, idempotency_key: str | None) -> Any:
    contract, tricks = DEALS[number - 1]
    body = {"number": number, "contract": contract, "tricks": dict(zip(PLAYERS, tricks, strict=True))}
    headers = {"Authorization": f"Bearer {key}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return app.test_client().post(
        f"/api/v1/games/{game_id}/deals",
        data=json.dumps(body),
        content_type="application/json",
        headers=headers,
    )


def test_a_keyed_deal_costs_its_look_up_and_its_row(app: Flask, backend: str) -> None:
    counter = StatementCounter(app, whole=True)
    new_game(app, 1)  # the players' totals exist, as at any table after its first evening
    game_id, key = new_game(app, 4)
    assert post_deal(app, game_id, key, 5, None).status_code == 201  # this worker keeps the game
    commands: list[bytes] = []
    with counter.counting() as statements, driver_commands(commands):
        response = post_deal(app, game_id, key, 6, "deal-6")
    assert response.status_code == 201, response.get_data(as_text=True)
    assert statements[0].startswith(LOOK_UP), statements
    if backend == "postgresql":
        assert len(statements) == 2, statements
        assert statements[1].startswith("WITH step_0 AS (UPDATE games SET version"), statements
        assert "INSERT INTO idempotency_keys " in statements[1], statements[1]
        assert commands == [], commands  # each statement its own transaction
    else:
        assert len(statements) == (WRITE_BUDGET - 1) + 2, statements
        assert statements[-1].startswith("INSERT INTO idempotency_keys "), statements
    with counter.counting() as statements:
        again = post_deal(app, game_id, key, 6, "deal-6")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert len(statements) == 1 and statements[0].startswith(LOOK_UP), statements
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()
