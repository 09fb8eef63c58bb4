"""Creating a night counts once against the game-creation limit; its tables' games count nothing."""

from __future__ import annotations

from typing import Any

from scorekeeper.extensions import db
from tests.conftest import make_test_app

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_a_night_counts_once_and_its_tables_not_at_all(backend: str, tmp_path: Any, request: Any) -> None:
    app = make_test_app(
        backend, tmp_path, request, RATELIMIT_ENABLED=True, GAME_CREATE_RATE_LIMIT="2 per minute"
    )
    client = app.test_client()
    try:
        night = client.post(
            "/api/v1/nights", json={"name": "Thu", "ruleset": "misere", "rounds": 1}
        ).get_json()
        night_id, auth = night["id"], {"Authorization": f"Bearer {night['key']}"}
        for name in NAMES:
            client.post(f"/api/v1/nights/{night_id}/players", json={"name": name})
        client.post(f"/api/v1/nights/{night_id}/rounds", headers=auth)
        started = client.post(f"/api/v1/nights/{night_id}/rounds/start", headers=auth)
        assert started.status_code == 200
        assert [t["game_id"] is not None for t in started.get_json()["rounds_seated"][0]["tables"]] == [
            True,
            True,
        ]
        # Two tables' games made, yet one creation of the budget of two is left: a game, then no more.
        assert client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cid"]}).status_code == 201
        refused = client.post("/api/v1/nights", json={"name": "Fri", "ruleset": "misere"})
        assert refused.status_code == 429
        assert refused.get_json()["error"]["code"] == "rate_limited"
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
