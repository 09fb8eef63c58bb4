"""A club night through the JSON API: the night's key as Bearer, every answer as the OpenAPI document
says (``check_documented``), refusals with the registry's codes and nothing changed."""

from __future__ import annotations

from typing import Any

from tests.api.api_support import BASE, check_documented

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def call(client, method: str, path: str, body: Any = None, key: str | None = None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = client.open(BASE + path, method=method, json=body, headers=headers)
    check_documented(method, BASE + path, response)
    return response


def test_a_night_through_the_api(client):
    created = call(
        client, "POST", "/nights", {"name": "Thursday", "ruleset": "misere", "rounds": 2, "seed": 7}
    )
    assert created.status_code == 201
    night = created.get_json()
    night_id, key = night["id"], night["key"]
    assert created.headers["Location"] == f"{BASE}/nights/{night_id}"
    assert (night["seat_counts"], night["rounds"], night["seating"], night["seed"]) == ([4], 2, "mix", 7)
    for name in NAMES:
        assert call(client, "POST", f"/nights/{night_id}/players", {"name": name}).status_code == 200

    # Writes need the night's key: none 401, another 403; nothing seated.
    assert call(client, "POST", f"/nights/{night_id}/rounds").status_code == 401
    wrong = call(client, "POST", f"/nights/{night_id}/rounds", key="x" * 32)
    assert (wrong.status_code, wrong.get_json()["error"]["code"]) == (403, "bad_key")
    assert call(client, "GET", f"/nights/{night_id}").get_json()["rounds_seated"] == []

    seated = call(client, "POST", f"/nights/{night_id}/rounds", key=key).get_json()
    rounds = seated["rounds_seated"]
    assert [r["number"] for r in rounds] == [1, 2]
    assert [len(t["players"]) for t in rounds[0]["tables"]] == [4, 4] and len(rounds[0]["sitting_out"]) == 1
    assert rounds[0]["repeats"] == 0

    ids = {p["name"]: p["id"] for p in seated["players"]}
    first, second = rounds[0]["tables"][0]["players"][0], rounds[0]["tables"][1]["players"][0]
    swapped = call(
        client, "POST", f"/nights/{night_id}/swap", {"first": ids[first], "second": ids[second]}, key
    )
    assert swapped.get_json()["rounds_seated"][0]["tables"][0]["players"][0] == second
    refused = call(client, "POST", f"/nights/{night_id}/swap", {"first": ids[first], "second": "x"}, key)
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "invalid_swap")

    started = call(client, "POST", f"/nights/{night_id}/rounds/start", key=key).get_json()
    tables = started["rounds_seated"][0]["tables"]
    assert all(t["state"] == "playing" and t["game_id"] for t in tables)
    assert all("/take#" in t["scoring_link"] for t in tables)
    # Without the key the scoring links are not given.
    public = call(client, "GET", f"/nights/{night_id}").get_json()
    assert all(t["scoring_link"] is None for t in public["rounds_seated"][0]["tables"])
    # The table's game is an ordinary game of the API.
    game = client.get(f"{BASE}/games/{tables[0]['game_id']}").get_json()
    assert game["players"] == tables[0]["players"]

    busy = call(client, "POST", f"/nights/{night_id}/rounds/start", key=key)
    assert (busy.status_code, busy.get_json()["error"]["code"]) == (409, "round_in_progress")
    for table in (1, 2):
        closed = call(client, "POST", f"/nights/{night_id}/tables/1/{table}/close", key=key).get_json()
    assert [t["state"] for t in closed["rounds_seated"][0]["tables"]] == ["unfinished", "unfinished"]
    standings = closed["standings"]
    assert len(standings) == 9 and all(row["points"] == 0 and row["rank"] == 1 for row in standings)
    assert sum(row["unfinished"] for row in standings) == 8

    leaver = ids[NAMES[0]]
    after = call(client, "DELETE", f"/nights/{night_id}/players/{leaver}", key=key).get_json()
    assert next(p for p in after["players"] if p["id"] == leaver)["left_after"] == 1
    assert all(NAMES[0] not in t["players"] for t in after["rounds_seated"][1]["tables"])


def test_creating_a_night_refuses_bad_input_with_the_field(client):
    refused = call(client, "POST", "/nights", {"name": "", "ruleset": "misere"})
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "invalid_night"
    assert refused.get_json()["error"]["field"] == "name"
    unknown = call(client, "POST", "/nights", {"name": "Thu", "ruleset": "misere", "colour": "red"})
    assert (unknown.status_code, unknown.get_json()["error"]["code"]) == (422, "unknown_field")
    assert call(client, "GET", "/nights/nosuchnight").status_code == 404
