"""RULES.md 4.9 played through the JSON API (API.md B1-B6), in a process of its own: the ruleset is
registered here through the registry's public call, before the app is made (test_api_barbu.py runs
this and checks what it prints).  Arguments: a database URL (a SQLite file's, or PostgreSQL's) and,
for PostgreSQL, an empty schema of its own."""

import json
import sys
from pathlib import Path
from typing import Any

from scorekeeper.rules import register
from scorekeeper.rules.barbu import BARBU

register(BARBU)

from scorekeeper import create_app  # noqa: E402  (the app is made once the game is registered)
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.stored_figures import GameResult  # noqa: E402

config: dict[str, Any] = {
    "TESTING": True,
    "SECRET_KEY": "k",
    "AUTO_MIGRATE": False,
    "RATELIMIT_ENABLED": False,
    "SQLALCHEMY_DATABASE_URI": sys.argv[1],
}
if len(sys.argv) > 2:
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={sys.argv[2]}"}}
app = create_app(config)
with app.app_context():
    db.create_all()
client = app.test_client()
said: dict[str, Any] = {}

A, B, C, D = PLAYERS = ["Ala", "Bartek", "Celina", "Darek"]

# RULES 4.9's eight deals, as API.md B4 gives their bodies.
DEALS: list[dict[str, Any]] = [
    {
        "number": 1,
        "contract": "no-queens",
        "queens": {A: 1, B: 0, C: 1, D: 2},
        "doubles": [
            {"by": B, "against": A},
            {"by": B, "against": C},
            {"by": B, "against": D},
            {"by": C, "against": A, "redoubled": True},
        ],
    },
    {
        "number": 2,
        "contract": "trumps",
        "trumps": "spades",
        "tricks": {A: 5, B: 3, C: 1, D: 4},
        "doubles": [{"by": D, "against": A}],
    },
    {
        "number": 3,
        "contract": "no-hearts",
        "hearts": {A: 2, B: 6, C: 0, D: 5},
        "ace_of_hearts": B,
        "doubles": [{"by": C, "against": A}, {"by": C, "against": B, "redoubled": True}],
    },
    {"number": 4, "contract": "no-king-of-hearts", "king_of_hearts": D},
    {
        "number": 5,
        "contract": "domino",
        "places": [C, A, D, B],
        "doubles": [{"by": B, "against": A, "redoubled": True}],
    },
    {"number": 6, "contract": "no-tricks", "tricks": {A: 4, B: 2, C: 3, D: 4}},
    {
        "number": 7,
        "contract": "no-last-two",
        "penultimate_trick": B,
        "last_trick": B,
        "doubles": [{"by": D, "against": B}],
    },
    {
        "number": 8,
        "contract": "no-tricks",
        "tricks": {A: 3, B: 1, C: 5, D: 4},
        "doubles": [
            {"by": C, "against": B},
            {"by": D, "against": B, "redoubled": True},
            {"by": A, "against": C},
        ],
    },
]


def figures(deal: dict[str, Any]) -> list[Any]:
    return [deal[name] for name in ("contract_scores", "double_scores", "scores", "totals")]


said["rulesets"] = [
    {key: ruleset[key] for key in ("id", "player_count", "deal_count", "declares_contract")}
    | {"positive": [contract["id"] for contract in ruleset["contracts"] if contract.get("positive")]}
    for ruleset in client.get("/api/v1/rulesets").get_json()["rulesets"]
    if ruleset["id"] == "barbu"
]
refused_create = client.post("/api/v1/games", json={"ruleset": "barbu", "players": [A, B, C]})
said["three_players"] = [refused_create.status_code, refused_create.get_json()["error"]["code"]]
refused_preset = client.post(
    "/api/v1/games", json={"ruleset": "barbu", "players": PLAYERS, "options": {"preset": "short"}}
)
said["bad_preset"] = [refused_preset.status_code, refused_preset.get_json()["error"]["code"]]
created = client.post(
    "/api/v1/games",
    json={"ruleset": "barbu", "players": PLAYERS, "first_dealer": A, "options": {"preset": "standard"}},
)
game = created.get_json()
said["created"] = [created.status_code, game["options"], game["deal_count"], game["declarers"]]
said["first_next"] = game["next_deal"]
url = f"/api/v1/games/{game['id']}"
auth = {"Authorization": f"Bearer {game['edit_key']}"}

# Refused before any deal: each with nothing changed (same ETag, same body).
REFUSALS = {
    "double_not_allowed": {
        "number": 1,
        "contract": "trumps",
        "trumps": "spades",
        "tricks": {A: 5, B: 3, C: 1, D: 4},
        "doubles": [{"by": C, "against": B}],
    },
    "doubles_invalid": {"number": 1, "contract": "no-queens", "doubles": {"by": B, "against": A}},
    "double_twice": {
        "number": 1,
        "contract": "no-queens",
        "doubles": [{"by": B, "against": C}, {"by": C, "against": B, "redoubled": True}],
    },
    "hearts_inconsistent": {
        "number": 1,
        "contract": "no-hearts",
        "hearts": {A: 2, B: 6, C: 0, D: 5},
        "ace_of_hearts": C,
    },
    "field_not_allowed": {"number": 1, "contract": "no-queens", "tricks": {A: 5, B: 3, C: 1, D: 4}},
    "field_required": {"number": 1, "contract": "no-hearts", "hearts": {A: 2, B: 6, C: 0, D: 5}},
    "unknown_contract": {"number": 1, "queens": {A: 1, B: 0, C: 1, D: 2}},
    "places_invalid": {"number": 1, "contract": "domino", "places": [C, A, D, C]},
    "unknown_field": {"number": 1, "contract": "no-queens", "seventh_trick": A},
    "bids_not_allowed": {"number": 1, "contract": "no-queens", "bids": {A: 1, B: 0, C: 1, D: 2}},
    "unknown_suit": {"number": 1, "contract": "trumps", "trumps": "stars"},
    "tricks_sum": {"number": 1, "contract": "no-tricks", "tricks": {A: 5, B: 3, C: 1, D: 3}},
    "count_sum": {"number": 1, "contract": "no-queens", "queens": {A: 1, B: 0, C: 1, D: 1}},
    "unknown_player": {"number": 1, "contract": "no-queens", "doubles": [{"by": "Zenek", "against": A}]},
}
before = client.get(url)
said["refusals"] = {}
for name, body in REFUSALS.items():
    answer = client.post(f"{url}/deals", json=body, headers=auth)
    after = client.get(url)
    error = answer.get_json()["error"]
    said["refusals"][name] = [
        answer.status_code,
        error["code"],
        error["field"],
        error["message"],
        after.headers["ETag"] == before.headers["ETag"] and after.get_json() == before.get_json(),
    ]

said["deals"] = []
for body in DEALS[:2]:
    answer = client.post(f"{url}/deals", json=body, headers=auth)
    said["deals"].append([answer.status_code, *figures(answer.get_json())])
# Deal 3 as a dry run first: the same answer, nothing stored.
dry = client.post(f"{url}/deals?dry_run=true", json=DEALS[2], headers=auth)
said["dry_run"] = [dry.status_code, dry.get_json()["doubles"], len(client.get(url).get_json()["deals"])]
for body in DEALS[2:6]:
    answer = client.post(f"{url}/deals", json=body, headers=auth)
    said["deals"].append([answer.status_code, *figures(answer.get_json())])
before = client.get(url)
used = client.post(f"{url}/deals", json={**DEALS[6], "contract": "trumps", "trumps": "clubs"}, headers=auth)
after = client.get(url)
said["contract_used"] = [
    used.status_code,
    used.get_json()["error"]["code"],
    after.headers["ETag"] == before.headers["ETag"] and after.get_json() == before.get_json(),
]
state = client.get(url).get_json()
said["before_7"] = [state["next_deal"]["must_double"], state["next_deal"]["available_contracts"]]
# Deal 7 pending first: its doubles are declared with the contract, so its warning shows already.
pending = client.post(
    f"{url}/deals", json={key: DEALS[6][key] for key in ("number", "contract", "doubles")}, headers=auth
)
said["pending_7"] = [pending.status_code, pending.get_json()["pending"], pending.get_json()["warnings"]]
completed = client.put(
    f"{url}/deals/7", json={"penultimate_trick": B, "last_trick": B}, headers=auth
).get_json()
said["deals"].append([200, *figures(completed)])
answer = client.post(f"{url}/deals", json=DEALS[7], headers=auth)
said["deals"].append([answer.status_code, *figures(answer.get_json())])
state = client.get(url).get_json()
said["deal_3"] = state["deals"][2]
said["warnings"] = [deal["warnings"] for deal in state["deals"]]
said["double_counts"] = state["double_counts"]
said["standings"] = [
    [standing["player"], standing["total"], standing["rank"]] for standing in state["standings"]
]
said["next"] = {
    key: state["next_deal"][key] for key in ("number", "dealer", "chooser", "contract", "must_double")
}
said["remaining"] = state["remaining_contracts"]

# Deals 4 and 6 entered the other way round, then swapped by one PATCH (API.md B4).
swap = [
    {"number": 4, "contract": "no-tricks", "tricks": {A: 4, B: 2, C: 3, D: 4}},
    {"number": 6, "contract": "no-king-of-hearts", "king_of_hearts": D},
]
one = client.put(f"{url}/deals/4", json={key: swap[0][key] for key in ("contract", "tricks")}, headers=auth)
said["put_swap_refused"] = [one.status_code, one.get_json()["error"]["code"]]
patched = client.patch(f"{url}/deals", json={"deals": swap}, headers=auth)
swapped = patched.get_json()
said["swapped"] = [patched.status_code, [deal["contract"] for deal in swapped["deals"]], swapped["totals"]]
back = client.patch(
    f"{url}/deals",
    json={
        "deals": [
            {"number": 4, "contract": "no-king-of-hearts", "king_of_hearts": D},
            {"number": 6, "contract": "no-tricks", "tricks": {A: 4, B: 2, C: 3, D: 4}},
        ]
    },
    headers=auth,
)
said["swapped_back"] = [back.status_code, back.get_json()["totals"]]
# B5: Ala played No queens in deal 1, which answers before the missing count (step 3 before step 5);
# Bartek's deal 8 may change to it, but not without its count.
bare = client.put(f"{url}/deals/4", json={"contract": "no-queens"}, headers=auth)
said["contract_used_before_required"] = [bare.status_code, bare.get_json()["error"]["code"]]
bare = client.put(f"{url}/deals/8", json={"contract": "no-queens"}, headers=auth)
said["contract_change_without_facts"] = [bare.status_code, bare.get_json()["error"]["code"]]

# Export and import (JSON version 1): the doubles go along; a Kierki game still goes through too.
exported = client.get(f"{url}/export").get_json()
imported = client.post("/api/v1/games/import", json=exported).get_json()
said["imported"] = [imported["totals"], imported["deals"][2]["doubles"], exported["deals"][2]["doubles"]]
kierki = client.post(
    "/api/v1/games", json={"ruleset": "kierki", "players": PLAYERS, "first_dealer": A}
).get_json()
client.post(
    f"/api/v1/games/{kierki['id']}/deals",
    json={"tricks": {A: 4, B: 3, C: 3, D: 3}},
    headers={"Authorization": f"Bearer {kierki['edit_key']}"},
)
again = client.post(
    "/api/v1/games/import", json=client.get(f"/api/v1/games/{kierki['id']}/export").get_json()
)
said["kierki_imported"] = [again.status_code, again.get_json()["totals"]]


def rotated(value: Any, by: int) -> Any:
    """A body's names moved ``by`` seats to the left (Ala → Bartek for 1)."""
    if isinstance(value, str) and value in PLAYERS:
        return PLAYERS[(PLAYERS.index(value) + by) % 4]
    if isinstance(value, dict):
        return {rotated(key, by): rotated(item, by) for key, item in value.items()}
    if isinstance(value, list):
        return [rotated(item, by) for item in value]
    return value


def whole_game(preset: str) -> dict[str, Any]:
    """28 deals: each declarer's seven are RULES 4.9's deals 1-7 turned to that declarer (the same
    contracts, facts and doubles, every name moved as far round the table as the declarer is from
    Ala)."""
    made = client.post(
        "/api/v1/games",
        json={"ruleset": "barbu", "players": PLAYERS, "first_dealer": A, "options": {"preset": preset}},
    ).get_json()
    where, keys = f"/api/v1/games/{made['id']}", {"Authorization": f"Bearer {made['edit_key']}"}
    quick = preset == "quick-rotation"
    totals: dict[int, Any] = {}
    must: dict[int, Any] = {}
    for number in range(1, 29):
        declarer, nth = (
            ((number - 1) % 4, (number - 1) // 4) if quick else ((number - 1) // 7, (number - 1) % 7)
        )
        if nth == 6:
            must[number] = client.get(where).get_json()["next_deal"]["must_double"]
        body = {key: value for key, value in DEALS[nth].items() if key != "number"}
        answer = client.post(f"{where}/deals", json=rotated(body, declarer), headers=keys)
        assert answer.status_code == 201, answer.get_json()
        totals[number] = answer.get_json()["totals"]
    state = client.get(where).get_json()
    with app.app_context():
        rankings = {row.ranking for row in db.session.query(GameResult).filter_by(game_id=made["id"])}
    return {
        "rankings": sorted(rankings),
        "status": state["status"],
        "declarers": state["declarers"],
        "totals": {number: totals[number] for number in (4, 7, 14, 21, 28)},
        "must_double": must,
        "warnings": {deal["number"]: deal["warnings"] for deal in state["deals"] if deal["warnings"]},
        "double_counts": state["double_counts"],
        "standings": [
            [standing["player"], standing["total"], standing["rank"]] for standing in state["standings"]
        ],
    }


said["whole_games"] = {preset: whole_game(preset) for preset in ("standard", "quick-rotation", "domino-10")}

# The OpenAPI document with Barbu registered: valid, and true of Barbu's answers (a strict copy).
sys.path.insert(0, str(Path(__file__).parent))
from api_support import DOCUMENT, check_documented  # noqa: E402
from openapi_spec_validator import validate  # noqa: E402

validate(DOCUMENT)
nine = {
    "number": 9,
    "contract": "no-queens",
    "queens": {A: 1, B: 0, C: 1, D: 2},
    "doubles": [{"by": C, "against": B}],
}
calls = [
    ("get", "/api/v1/rulesets", client.get("/api/v1/rulesets")),
    ("post", f"{url}/deals?dry_run=true", client.post(f"{url}/deals?dry_run=true", json=nine, headers=auth)),
    ("post", f"{url}/deals", client.post(f"{url}/deals", json=nine, headers=auth)),
    ("post", f"{url}/deals", client.post(f"{url}/deals", json=DEALS[1] | {"number": 10}, headers=auth)),
    ("get", url, client.get(url)),
]
for method, path, answer in calls:
    check_documented(method, path, answer)
said["documented"] = [answer.status_code for _, _, answer in calls]
print(json.dumps(said))
