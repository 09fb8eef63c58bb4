"""Kierki through the JSON API (RULES.md section 3, API.md K1-K6): whole games of every preset and
both player counts against figures computed by hand, each refusal of K5/K6 changing nothing,
corrections, undo, dry runs, export and import.

Every expected figure below is a literal worked out by hand from RULES.md 3.6 (the arithmetic is
in the comments), not computed by the code under test.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_support import Api
from flask.testing import FlaskClient

FOUR = ["Ala", "Bartek", "Celina", "Darek"]
THREE = ["Ala", "Bartek", "Celina"]


def by(*values: int, players: list[str] = FOUR) -> dict[str, int]:
    return dict(zip(players, values, strict=True))


def by3(*values: int) -> dict[str, int]:
    return by(*values, players=THREE)


# -- RULES.md 3.10, the worked example (standard, 4 players, Ala deals first) ---------------------

ROBBER = {
    "tricks": by(3, 4, 2, 4),
    "hearts": by(2, 5, 0, 6),
    "queens": by(0, 1, 1, 2),
    "kings_jacks": by(2, 3, 1, 2),
    "king_of_hearts": "Bartek",
    "seventh_trick": "Ala",
    "last_trick": "Darek",
}
NEGATIVE_4: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"tricks": by(2, 5, 0, 6)}, (-40, -100, 0, -120)),
    ({"hearts": by(4, 0, 7, 2)}, (-80, 0, -140, -40)),
    ({"queens": by(1, 2, 0, 1)}, (-60, -120, 0, -60)),
    ({"kings_jacks": by(3, 1, 2, 2)}, (-90, -30, -60, -60)),
    ({"king_of_hearts": "Celina"}, (0, 0, -150, 0)),
    ({"seventh_trick": "Bartek", "last_trick": "Darek"}, (0, -75, 0, -75)),
]
EXAMPLE = [
    *NEGATIVE_4,
    (ROBBER, (-235, -480, -130, -455)),
    ({"trumps": "spades", "tricks": by(3, 2, 4, 4)}, (75, 50, 100, 100)),
    ({"trumps": "hearts", "tricks": by(6, 3, 1, 3)}, (150, 75, 25, 75)),
    ({"trumps": "clubs", "tricks": by(2, 7, 2, 2)}, (50, 175, 50, 50)),
    ({"trumps": "diamonds", "tricks": by(1, 3, 5, 4)}, (25, 75, 125, 100)),
    ({"places": ["Celina", "Ala"]}, (500, 0, 800, 0)),
]
SCHEDULE_STANDARD_4 = [
    "no-tricks",
    "no-hearts",
    "no-queens",
    "no-kings-jacks",
    "no-king-of-hearts",
    "no-seventh-last",
    "robber",
    "trumps",
    "trumps",
    "trumps",
    "trumps",
    "fan-tan",
]

# -- standard, 3 players (Bartek deals first): 15 a trick, 140 the king of hearts, 70 the 7th and
# the last trick, 17 tricks a deal, Fan Tan 790 / 485.  Dealers: Bartek, Celina, Ala, ...
NEGATIVE_3: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"tricks": by3(5, 6, 6)}, (-75, -90, -90)),  # 17 x 15 = 255
    ({"hearts": by3(3, 4, 6)}, (-60, -80, -120)),
    ({"queens": by3(1, 1, 2)}, (-60, -60, -120)),
    ({"kings_jacks": by3(2, 3, 3)}, (-60, -90, -90)),
    ({"king_of_hearts": "Ala"}, (-140, 0, 0)),
    ({"seventh_trick": "Celina", "last_trick": "Celina"}, (0, 0, -140)),
]
ROBBER_3 = {
    "tricks": by3(6, 5, 6),
    "hearts": by3(4, 4, 5),
    "queens": by3(1, 2, 1),
    "kings_jacks": by3(3, 2, 3),
    "king_of_hearts": "Bartek",
    "seventh_trick": "Ala",
    "last_trick": "Celina",
}
# Ala 6x15 + 4x20 + 60 + 3x30 + 70 = 390; Bartek 75 + 80 + 120 + 60 + 140 = 475;
# Celina 90 + 100 + 60 + 90 + 70 = 410; together 1275.
ROBBER_3_SCORES = (-390, -475, -410)
STANDARD_3 = [
    *NEGATIVE_3,
    (ROBBER_3, ROBBER_3_SCORES),  # after the negative part: -785 / -795 / -970 (sum -2550)
    ({"trumps": "hearts", "tricks": by3(6, 6, 5)}, (150, 150, 125)),
    ({"trumps": "spades", "tricks": by3(8, 4, 5)}, (200, 100, 125)),
    ({"trumps": "clubs", "tricks": by3(3, 10, 4)}, (75, 250, 100)),
    ({"places": ["Bartek", "Celina"]}, (0, 790, 485)),
]

# -- no-fan-tan, 4 players (Bartek deals first): the example's negative part, then two trump deals
# a player: each 4/3/3/3 once (100 + 75 x 3) and all 13 once (325): +650 each.
NO_FAN_TAN_4 = [
    *EXAMPLE[:7],
    ({"trumps": "spades", "tricks": by(4, 3, 3, 3)}, (100, 75, 75, 75)),
    ({"trumps": "hearts", "tricks": by(3, 4, 3, 3)}, (75, 100, 75, 75)),
    ({"trumps": "clubs", "tricks": by(3, 3, 4, 3)}, (75, 75, 100, 75)),
    ({"trumps": "diamonds", "tricks": by(3, 3, 3, 4)}, (75, 75, 75, 100)),
    ({"trumps": "spades", "tricks": by(13, 0, 0, 0)}, (325, 0, 0, 0)),
    ({"trumps": "spades", "tricks": by(0, 13, 0, 0)}, (0, 325, 0, 0)),
    ({"trumps": "spades", "tricks": by(0, 0, 13, 0)}, (0, 0, 325, 0)),
    ({"trumps": "spades", "tricks": by(0, 0, 0, 13)}, (0, 0, 0, 325)),
]
# -- no-fan-tan, 3 players: standard 3's negative part, then six trump deals: +850 each.
NO_FAN_TAN_3 = [
    *STANDARD_3[:7],
    ({"trumps": "clubs", "tricks": by3(17, 0, 0)}, (425, 0, 0)),
    ({"trumps": "clubs", "tricks": by3(0, 17, 0)}, (0, 425, 0)),
    ({"trumps": "clubs", "tricks": by3(0, 0, 17)}, (0, 0, 425)),
    ({"trumps": "hearts", "tricks": by3(6, 6, 5)}, (150, 150, 125)),
    ({"trumps": "hearts", "tricks": by3(5, 6, 6)}, (125, 150, 150)),
    ({"trumps": "hearts", "tricks": by3(6, 5, 6)}, (150, 125, 150)),
]
# -- no-robber, 4 players: the six negative deals (-270 / -325 / -350 / -355), four trump deals.
NO_ROBBER_4 = [
    *NEGATIVE_4,
    ({"trumps": "spades", "tricks": by(2, 5, 0, 6)}, (50, 125, 0, 150)),
    ({"trumps": "hearts", "tricks": by(4, 0, 7, 2)}, (100, 0, 175, 50)),
    ({"trumps": "clubs", "tricks": by(1, 2, 9, 1)}, (25, 50, 225, 25)),
    ({"trumps": "diamonds", "tricks": by(3, 1, 2, 7)}, (75, 25, 50, 175)),
]
# -- no-robber, 3 players: -395 / -320 / -560 after six deals, then three trump deals.
NO_ROBBER_3 = [
    *NEGATIVE_3,
    ({"trumps": "spades", "tricks": by3(5, 6, 6)}, (125, 150, 150)),
    ({"trumps": "hearts", "tricks": by3(10, 3, 4)}, (250, 75, 100)),
    ({"trumps": "clubs", "tricks": by3(2, 2, 13)}, (50, 50, 325)),
]
# -- short (4 players, Celina deals first): 2 a trick, 2 a heart, 5 a queen, 3 a king or jack, 16
# the king of hearts, 9 the 7th and the last trick, +10 a trump trick; a robber is 130.
EVERYTHING = {"tricks": 13, "hearts": 13, "queens": 4, "kings_jacks": 8}


def everything_to(player: str) -> dict[str, Any]:
    """A robber in which ``player`` takes every trick."""
    body: dict[str, Any] = {
        name: {p: (total if p == player else 0) for p in FOUR} for name, total in EVERYTHING.items()
    }
    return {**body, "king_of_hearts": player, "seventh_trick": player, "last_trick": player}


SHORT = [
    # Ala 6 + 4 + 6 + 9 = 25; Bartek 8 + 10 + 5 + 9 + 16 = 48; Celina 4 + 5 + 3 = 12;
    # Darek 8 + 12 + 10 + 6 + 9 = 45; together 130.
    (ROBBER, (-25, -48, -12, -45)),
    (everything_to("Ala"), (-130, 0, 0, 0)),
    (everything_to("Bartek"), (0, -130, 0, 0)),
    (
        {
            "tricks": by(4, 3, 3, 3),
            "hearts": by(4, 3, 3, 3),
            "queens": by(1, 1, 1, 1),
            "kings_jacks": by(2, 2, 2, 2),
            "king_of_hearts": "Celina",
            "seventh_trick": "Darek",
            "last_trick": "Darek",
        },
        (-27, -23, -39, -41),  # 8+8+5+6; 6+6+5+6; 6+6+5+6+16; 6+6+5+6+18
    ),
    ({"trumps": "hearts", "tricks": by(4, 3, 3, 3)}, (40, 30, 30, 30)),
    ({"trumps": "spades", "tricks": by(0, 0, 13, 0)}, (0, 0, 130, 0)),
    ({"trumps": "clubs", "tricks": by(6, 2, 2, 3)}, (60, 20, 20, 30)),
    ({"trumps": "diamonds", "tricks": by(1, 1, 1, 10)}, (10, 10, 10, 100)),
]

#: (preset, players, first dealer, deals, sums after the negative part, final totals, the dealers)
GAMES = {
    "standard-4": (
        "standard",
        FOUR,
        "Ala",
        EXAMPLE,
        (-505, -805, -480, -810),
        (295, -430, 620, -485),
        ["Ala", "Bartek", "Celina", "Darek"] * 3,
    ),
    "standard-3": (
        "standard",
        THREE,
        "Bartek",
        STANDARD_3,
        (-785, -795, -970),
        (-360, 495, -135),
        ["Bartek", "Celina", "Ala"] * 3 + ["Bartek", "Celina"],
    ),
    "no-fan-tan-4": (
        "no-fan-tan",
        FOUR,
        "Bartek",
        NO_FAN_TAN_4,
        (-505, -805, -480, -810),
        (145, -155, 170, -160),
        (["Bartek", "Celina", "Darek", "Ala"] * 4)[:15],
    ),
    "no-fan-tan-3": (
        "no-fan-tan",
        THREE,
        "Bartek",
        NO_FAN_TAN_3,
        (-785, -795, -970),
        (65, 55, -120),
        (["Bartek", "Celina", "Ala"] * 5)[:13],
    ),
    "no-robber-4": (
        "no-robber",
        FOUR,
        "Ala",
        NO_ROBBER_4,
        (-270, -325, -350, -355),
        (-20, -125, 100, 45),
        (["Ala", "Bartek", "Celina", "Darek"] * 3)[:10],
    ),
    "no-robber-3": (
        "no-robber",
        THREE,
        "Bartek",
        NO_ROBBER_3,
        (-395, -320, -560),
        (30, -45, 15),
        ["Bartek", "Celina", "Ala"] * 3,
    ),
    "short-4": (
        "short",
        FOUR,
        "Celina",
        SHORT,
        (-182, -201, -51, -86),
        (-72, -141, 139, 74),
        ["Celina", "Darek", "Ala", "Bartek"] * 2,
    ),
}
NEGATIVE_DEALS = {"standard": 7, "no-fan-tan": 7, "no-robber": 6, "short": 4}
PART_SUMS = {("standard", 4): -2600, ("no-fan-tan", 4): -2600, ("no-robber", 4): -1300, ("short", 4): -520}
PART_SUMS |= {("standard", 3): -2550, ("no-fan-tan", 3): -2550, ("no-robber", 3): -1275}


def contract_of(body: dict[str, Any]) -> str:
    """The contract a body's fields belong to (for the checks of the schedule)."""
    if "places" in body:
        return "fan-tan"
    if "trumps" in body:
        return "trumps"
    if "king_of_hearts" in body and "tricks" in body:
        return "robber"
    singles = {
        "tricks": "no-tricks",
        "hearts": "no-hearts",
        "queens": "no-queens",
        "kings_jacks": "no-kings-jacks",
        "king_of_hearts": "no-king-of-hearts",
        "seventh_trick": "no-seventh-last",
    }
    return singles[next(iter(body))]


@pytest.mark.parametrize("game", list(GAMES))
def test_whole_game(client: FlaskClient, game: str) -> None:
    preset, players, first, deals, after_negative, final, dealers = GAMES[game]
    api = Api(client)
    created = api.create(
        {"ruleset": "kierki", "players": players, "first_dealer": first, "options": {"preset": preset}}
    )
    game_id, key = created["id"], created["edit_key"]
    assert created["options"] == {"preset": preset}
    assert created["deal_count"] == len(deals) == len(created["schedule"])
    assert created["schedule"] == [contract_of(body) for body, _ in deals]
    if game == "standard-4":
        assert created["schedule"] == SCHEDULE_STANDARD_4

    running = [0] * len(players)
    for number, (body, scores) in enumerate(deals, start=1):
        state = api.state(game_id)
        contract = state["schedule"][number - 1]
        next_deal = state["next_deal"]
        assert (next_deal["number"], next_deal["dealer"], next_deal["contract"]) == (
            number,
            dealers[number - 1],
            contract,
        )
        assert next_deal["available_contracts"] == [contract]
        assert next_deal["chooser"] == (dealers[number - 1] if contract == "trumps" else None)
        assert next_deal["fields"] == list(body)  # every body above lists its fields in K5's order
        assert state["remaining_contracts"] == {p: state["schedule"][number - 1 :] for p in players}

        deal = api.record(game_id, key, {"number": number, **body})
        assert deal["scores"] == by(*scores, players=players), (number, deal)
        assert sum(scores) == sum(deal["scores"].values())
        running = [total + score for total, score in zip(running, scores, strict=True)]
        assert deal["totals"] == by(*running, players=players)
        assert deal["contract"] == contract and deal["pending"] is False
        assert {name: deal[name] for name in body} == body  # names as given; null for the rest
        for name in ("trumps", "hearts", "queens", "kings_jacks", "king_of_hearts", "seventh_trick"):
            if name not in body:
                assert deal[name] is None
        if number == NEGATIVE_DEALS[preset]:
            assert tuple(running) == after_negative
            assert sum(running) == PART_SUMS[(preset, len(players))]

    state = api.state(game_id)
    assert state["status"] == "finished" and state["next_deal"] is None
    assert state["totals"] == by(*final, players=players)
    assert sum(final) == 0
    assert state["remaining_contracts"] == {p: [] for p in players}
    ranked = sorted(zip(players, final, strict=True), key=lambda pair: -pair[1])
    assert [(s["player"], s["total"], s["rank"]) for s in state["standings"]] == [
        (player, total, place) for place, (player, total) in enumerate(ranked, start=1)
    ]
    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"places": ["Ala", "Bartek"]},
        key=key,
        status=409,
        code="game_finished",
    )


def test_the_worked_example_figure_by_figure(client: FlaskClient) -> None:
    """RULES.md 3.10: the robber's deal object exactly as API.md K3 shows it."""
    api = Api(client)
    created = api.create({"ruleset": "kierki", "players": FOUR, "first_dealer": "Ala"})
    game_id, key = created["id"], created["edit_key"]
    assert created["options"] == {"preset": "standard"}
    for number, (body, _) in enumerate(EXAMPLE[:7], start=1):
        api.record(game_id, key, {"number": number, **body})
    state = api.state(game_id)
    robber = state["deals"][6]
    assert robber == {
        "number": 7,
        "dealer": "Celina",
        "chooser": None,
        "contract": "robber",
        "bids": None,
        "tricks": by(3, 4, 2, 4),
        "quotas": None,
        "scores": by(-235, -480, -130, -455),
        "totals": by(-505, -805, -480, -810),
        "roles": {"Ala": "player", "Bartek": "player", "Celina": "dealer", "Darek": "leader"},
        "pending": False,
        "trumps": None,
        "hearts": by(2, 5, 0, 6),
        "queens": by(0, 1, 1, 2),
        "kings_jacks": by(2, 3, 1, 2),
        "king_of_hearts": "Bartek",
        "seventh_trick": "Ala",
        "last_trick": "Darek",
        "places": None,
    }
    # A deal that counts no tricks has tricks null when complete.
    assert state["deals"][1]["tricks"] is None and state["deals"][1]["pending"] is False
    assert state["next_deal"] == {
        "number": 8,
        "dealer": "Darek",
        "chooser": "Darek",
        "available_contracts": ["trumps"],
        "contract": "trumps",
        "bidding_order": [],
        "roles": {"Ala": "leader", "Bartek": "player", "Celina": "player", "Darek": "dealer"},
        "fields": ["trumps", "tricks"],
    }


def test_rulesets_list_kierki_with_its_presets(client: FlaskClient) -> None:
    api = Api(client)
    rulesets = {r["id"]: r for r in api.call("GET", "/rulesets").get_json()["rulesets"]}
    kierki = rulesets["kierki"]
    assert (kierki["name"], kierki["player_count"], kierki["player_counts"], kierki["deal_count"]) == (
        "Kierki",
        4,
        [3, 4],
        12,
    )
    assert (kierki["seating_direction"], kierki["declares_contract"]) == ("clockwise", False)
    assert [c["id"] for c in kierki["contracts"]] == [
        "no-tricks",
        "no-hearts",
        "no-queens",
        "no-kings-jacks",
        "no-king-of-hearts",
        "no-seventh-last",
        "robber",
        "trumps",
        "fan-tan",
    ]
    (option,) = kierki["options"]
    assert (option["id"], option["default"]) == ("preset", "standard")
    assert [c["value"] for c in option["choices"]] == ["standard", "no-fan-tan", "no-robber", "short"]
    polish = api.call("GET", "/rulesets", headers={"Accept-Language": "pl"}).get_json()["rulesets"]
    labels = {c["id"]: c["label"] for c in next(r for r in polish if r["id"] == "kierki")["contracts"]}
    assert (labels["no-tricks"], labels["robber"], labels["fan-tan"]) == ("Bez lew", "Rozbójnik", "Loteryjka")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["A", "B"]}, "invalid_players"),
        ({"players": ["A", "B", "C", "D", "E"]}, "invalid_players"),
        ({"players": ["A", "B", "C"], "options": {"preset": "short"}}, "invalid_options"),
        ({"players": ["A", "B", "C", "D"], "options": {"preset": "long"}}, "invalid_options"),
        ({"players": ["A", "B", "C", "D"], "options": {"scoring": "variant"}}, "invalid_options"),
    ],
)
def test_creation_refusals(client: FlaskClient, body: dict[str, Any], code: str) -> None:
    Api(client).refused("POST", "/games", {"ruleset": "kierki", **body}, status=422, code=code)


def new_game(api: Api, players: list[str] = FOUR, deals: int = 0, **options: str) -> tuple[str, str]:
    """A game of ``players`` (Ala deals first) with the first ``deals`` deals of the example played."""
    created = api.create({"ruleset": "kierki", "players": players, "first_dealer": "Ala", "options": options})
    game_id, key = created["id"], created["edit_key"]
    source = EXAMPLE if len(players) == 4 else STANDARD_3
    for number, (body, _) in enumerate(source[:deals], start=1):
        api.record(game_id, key, {"number": number, **body})
    return game_id, key


def refused_and_unchanged(
    api: Api,
    game_id: str,
    method: str,
    path: str,
    body: Any,
    key: str,
    code: str,
    field: str | None,
    status: int = 422,
) -> dict[str, Any]:
    before = api.call("GET", f"/games/{game_id}")
    error = api.refused(method, path, body, key=key, status=status, code=code, field=field)
    after = api.call("GET", f"/games/{game_id}")
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json() == before.get_json()
    return error


KH_NO_HEART = {**ROBBER, "king_of_hearts": "Celina"}  # Celina took no heart
REFUSALS: list[tuple[int, dict[str, Any], str, str | None]] = [
    # K5 step 2
    (1, {"foo": 1}, "unknown_field", "foo"),
    (1, {"bids": by(1, 1, 1, 10)}, "bids_not_allowed", "bids"),
    (1, {"contract": "no-hearts", "tricks": by(2, 5, 0, 6)}, "unknown_contract", "contract"),
    # step 3: the first field the contract does not take, in K5's order
    (1, {"tricks": by(2, 5, 0, 6), "hearts": by(4, 0, 7, 2)}, "field_not_allowed", "hearts"),
    (1, {"trumps": "spades", "tricks": by(2, 5, 0, 6)}, "field_not_allowed", "trumps"),
    (2, {"tricks": by(2, 5, 0, 6), "hearts": by(4, 0, 7, 2)}, "field_not_allowed", "tricks"),
    (5, {"king_of_hearts": "Ala", "places": ["Ala", "Bartek"]}, "field_not_allowed", "places"),
    (
        8,
        {"trumps": "spades", "tricks": by(3, 2, 4, 4), "king_of_hearts": "Ala"},
        "field_not_allowed",
        "king_of_hearts",
    ),
    (12, {"places": ["Ala", "Bartek"], "tricks": by(3, 2, 4, 4)}, "field_not_allowed", "tricks"),
    # step 4
    (8, {"tricks": by(3, 2, 4, 4)}, "field_required", "trumps"),
    (8, {}, "field_required", "trumps"),
    (6, {"seventh_trick": "Ala"}, "field_required", "last_trick"),
    (7, {k: v for k, v in ROBBER.items() if k != "queens"}, "field_required", "queens"),
    (7, {"tricks": by(3, 4, 2, 4)}, "field_required", "hearts"),
    # step 5, each field in its order
    (8, {"trumps": "stars", "tricks": by(3, 2, 4, 4)}, "unknown_suit", "trumps"),
    (8, {"trumps": "spades", "tricks": {"Ala": 3, "Bartek": 2, "Celina": 8}}, "tricks_players", "tricks"),
    (1, {"tricks": {**by(2, 5, 0, 5), "Zosia": 1}}, "tricks_players", "tricks"),
    (1, {"tricks": [2, 5, 0, 6]}, "tricks_players", "tricks"),
    (1, {"tricks": by(2, 5, 0, -1)}, "tricks_range", "tricks"),
    (1, {"tricks": by(2, 5, 0, 14)}, "tricks_range", "tricks"),
    (1, {"tricks": by(2, 5, 0, "6")}, "tricks_range", "tricks"),  # type: ignore[arg-type]
    (1, {"tricks": by(2, 5, 0, 5)}, "tricks_sum", "tricks"),
    (2, {"hearts": {"Ala": 4, "Bartek": 2, "Celina": 7}}, "count_players", "hearts"),
    (2, {"hearts": [4, 0, 7, 2]}, "count_players", "hearts"),
    (2, {"hearts": by(4, 0, 7, 14)}, "count_range", "hearts"),
    (2, {"hearts": by(4, 0, 7, 1)}, "count_sum", "hearts"),
    (3, {"queens": by(1, 2, 0, 5)}, "count_range", "queens"),
    (3, {"queens": by(1, 2, 0, 2)}, "count_sum", "queens"),
    (3, {"queens": by(1, 2, 0, 1.0)}, "count_range", "queens"),  # type: ignore[arg-type]
    (4, {"kings_jacks": by(3, 1, 2, 9)}, "count_range", "kings_jacks"),
    (4, {"kings_jacks": by(3, 1, 2, 3)}, "count_sum", "kings_jacks"),
    (4, {"kings_jacks": {**by(3, 1, 2, 2), "darek": 0}}, "count_players", "kings_jacks"),
    (5, {"king_of_hearts": "Zosia"}, "unknown_player", "king_of_hearts"),
    (5, {"king_of_hearts": 2}, "unknown_player", "king_of_hearts"),
    (6, {"seventh_trick": "Ala", "last_trick": "Zosia"}, "unknown_player", "last_trick"),
    (12, {"places": "Celina"}, "places_invalid", "places"),
    (12, {"places": ["Celina"]}, "places_invalid", "places"),
    (12, {"places": ["Celina", "Ala", "Bartek"]}, "places_invalid", "places"),
    (12, {"places": ["Celina", "Zosia"]}, "places_invalid", "places"),
    (12, {"places": ["Celina", "celina"]}, "places_invalid", "places"),
    # step 6: the robber's R1-R3
    (
        7,
        {
            **ROBBER,
            "seventh_trick": "Celina",
            "tricks": by(3, 4, 0, 6),
            "hearts": by(2, 5, 0, 6),
            "queens": by(0, 2, 0, 2),
            "kings_jacks": by(2, 4, 0, 2),
        },
        "robber_inconsistent",
        "seventh_trick",
    ),
    (
        7,
        {
            **ROBBER,
            "tricks": by(3, 4, 6, 0),
            "hearts": by(2, 5, 6, 0),
            "queens": by(0, 1, 3, 0),
            "kings_jacks": by(2, 3, 3, 0),
        },
        "robber_inconsistent",
        "last_trick",
    ),
    (
        7,
        {
            **ROBBER,
            "tricks": by(3, 4, 5, 1),
            "hearts": by(2, 5, 6, 0),
            "queens": by(0, 1, 3, 0),
            "kings_jacks": by(2, 3, 3, 0),
            "seventh_trick": "Darek",
        },
        "robber_inconsistent",
        "last_trick",
    ),
    (7, KH_NO_HEART, "robber_inconsistent", "king_of_hearts"),
    (7, {**ROBBER, "kings_jacks": by(2, 0, 4, 2)}, "robber_inconsistent", "king_of_hearts"),
    (7, {**ROBBER, "tricks": by(3, 4, 0, 6), "queens": by(0, 1, 1, 2)}, "robber_inconsistent", "queens"),
    (7, {**ROBBER, "tricks": by(1, 4, 4, 4), "hearts": by(6, 1, 0, 6)}, "robber_inconsistent", "tricks"),
]


@pytest.mark.parametrize(("number", "body", "code", "field"), REFUSALS)
def test_each_refusal_changes_nothing(
    client: FlaskClient, number: int, body: dict[str, Any], code: str, field: str | None
) -> None:
    api = Api(client)
    game_id, key = new_game(api, deals=number - 1)
    error = refused_and_unchanged(
        api, game_id, "POST", f"/games/{game_id}/deals", {"number": number, **body}, key, code, field
    )
    if code == "robber_inconsistent":
        assert any(name in error["message"] for name in FOUR), error  # says whose counts contradict


def test_three_players_count_seventeen_tricks(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api, THREE)
    path = f"/games/{game_id}/deals"
    error = refused_and_unchanged(
        api, game_id, "POST", path, {"tricks": by3(5, 4, 4)}, key, "tricks_sum", "tricks"
    )
    assert "17" in error["message"]
    refused_and_unchanged(
        api, game_id, "POST", path, {"tricks": by3(0, 0, 18)}, key, "tricks_range", "tricks"
    )
    assert api.record(game_id, key, {"tricks": by3(0, 0, 17)})["scores"] == by3(0, 0, -255)


def test_the_409s_come_first(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api, deals=7)
    path = f"/games/{game_id}/deals"
    refused_and_unchanged(
        api, game_id, "POST", path, {"number": 9, "trumps": "x"}, key, "wrong_deal_number", "number", 409
    )
    declared = api.record(game_id, key, {"number": 8, "trumps": "spades"})  # the declaration alone: pending
    assert declared["pending"] is True and declared["trumps"] == "spades" and declared["scores"] is None
    assert declared["chooser"] == "Darek"
    assert api.state(game_id)["next_deal"] is None
    refused_and_unchanged(api, game_id, "POST", path, {"places": 3}, key, "deal_pending", "tricks", 409)


def test_corrections_undo_and_dry_runs(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api, deals=7)
    deals = f"/games/{game_id}/deals"

    # A dry run answers what the real call would and stores nothing.
    before = api.state(game_id)
    preview = api.call(
        "POST", f"{deals}?dry_run=true", {"trumps": "spades", "tricks": by(3, 2, 4, 4)}, key=key
    )
    assert preview.status_code == 200 and preview.get_json()["scores"] == by(75, 50, 100, 100)
    assert api.state(game_id) == before
    refused = api.call(
        "POST", f"{deals}?dry_run=true", {"trumps": "spades", "tricks": by(3, 2, 4, 3)}, key=key
    )
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "tricks_sum")

    # A pending trump deal, completed by PUT; its suit changed later.
    api.record(game_id, key, {"trumps": "spades"})
    done = api.correct(game_id, key, 8, {"tricks": by(3, 2, 4, 4)})
    assert (done["trumps"], done["scores"], done["pending"]) == ("spades", by(75, 50, 100, 100), False)
    assert api.correct(game_id, key, 8, {"trumps": "hearts"})["trumps"] == "hearts"
    # Back to pending (the suit stays: it is the declaration), then done again.
    again = api.correct(game_id, key, 8, {"tricks": None})
    assert (again["pending"], again["trumps"], again["scores"]) == (True, "hearts", None)
    api.correct(game_id, key, 8, {"tricks": by(3, 2, 4, 4)})

    # PUT replaces the given fields and replays: deal 2's hearts move, every total after it follows.
    fixed = api.correct(game_id, key, 2, {"hearts": by(3, 1, 7, 2)})
    assert fixed["scores"] == by(-60, -20, -140, -40)
    state = api.state(game_id)
    assert state["totals"] == by(-505 + 20 + 75, -805 - 20 + 50, -480 + 100, -810 + 100)
    # A robber correction that breaks R2 is refused whole.
    path = f"{deals}/7"
    refused_and_unchanged(
        api, game_id, "PUT", path, {"king_of_hearts": "Celina"}, key, "robber_inconsistent", "king_of_hearts"
    )
    refused_and_unchanged(
        api, game_id, "PUT", path, {"places": ["Ala", "Darek"]}, key, "field_not_allowed", "places"
    )
    refused_and_unchanged(api, game_id, "PUT", path, {"queens": None}, key, "field_required", "queens")
    refused_and_unchanged(
        api, game_id, "PUT", f"{deals}/2", {"hearts": None}, key, "tricks_players", "tricks"
    )
    # A robber correction that keeps R1-R3: the king of hearts and a heart move to Darek.
    moved = api.correct(game_id, key, 7, {"king_of_hearts": "Darek", "hearts": by(2, 4, 0, 7)})
    assert moved["scores"] == by(-235, -480 + 150 + 20, -130, -455 - 150 - 20)

    # PATCH: two deals at once, replayed together.
    response = api.call(
        "PATCH",
        deals,
        {"deals": [{"number": 5, "king_of_hearts": "Ala"}, {"number": 6, "seventh_trick": "Ala"}]},
        key=key,
    )
    assert response.status_code == 200, response.get_json()
    patched = response.get_json()
    assert patched["deals"][4]["scores"] == by(-150, 0, 0, 0)
    assert patched["deals"][5]["scores"] == by(-75, 0, 0, -75)
    refused_and_unchanged(
        api,
        game_id,
        "PATCH",
        deals,
        {"deals": [{"number": 5, "king_of_hearts": "Zosia"}]},
        key,
        "unknown_player",
        "king_of_hearts",
    )

    # Undo: the last deal only.
    refused_and_unchanged(api, game_id, "DELETE", f"{deals}/7", None, key, "not_last_deal", "number", 409)
    assert api.call("DELETE", f"{deals}/8", key=key).status_code == 204
    assert api.state(game_id)["next_deal"]["number"] == 8


def test_export_and_import_give_the_same_game(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api, deals=11)
    api.record(game_id, key, {"places": ["Celina", "Ala"]})
    exported = api.call("GET", f"/games/{game_id}/export").get_json()
    assert exported["options"] == {"preset": "standard"}
    assert exported["deals"][6] == {
        "number": 7,
        "contract": "robber",
        "bids": None,
        **ROBBER,
        "trumps": None,
        "places": None,
    }
    assert exported["deals"][11]["places"] == ["Celina", "Ala"]
    response = api.call("POST", "/games/import", exported)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()
    original = api.state(game_id)
    for field in ("ruleset", "options", "players", "first_dealer", "status", "deals", "totals", "standings"):
        assert imported[field] == original[field], field
    again = api.call("GET", f"/games/{imported['id']}/export").get_json()
    assert again == exported

    # A file whose robber breaks R1-R3 is refused with the engine's code, and nothing is stored.
    exported["deals"][6]["king_of_hearts"] = "Celina"
    bad = api.call("POST", "/games/import", exported)
    assert (bad.status_code, bad.get_json()["error"]["code"]) == (422, "robber_inconsistent")

    # The CSV deal log carries the counts and the takers.
    csv = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True).splitlines()
    assert csv[0].startswith(
        "\ufeffdeal,dealer,chooser,contract,trumps,king of hearts,seventh trick,last trick,"
    )
    assert csv[7].startswith(
        "7,Celina,,Robber,,Bartek,Ala,Darek,,,3,4,2,4,2,5,0,6,0,1,1,2,2,3,1,2,-235,-480,-130,-455,"
    )
    assert csv[8].startswith("8,Darek,Darek,Trumps,Spades,,,,,,3,2,4,4,,,,")
    assert csv[12].startswith("12,Darek,,Fan Tan,,,,,Celina,Ala,")


def test_pages_show_a_kierki_game_to_watch(client: FlaskClient) -> None:
    """A phone without the pencil watches a Kierki game: the home page counts its deals by preset and
    players, the deal log shows complete deals without tricks, and no entry form shows."""
    api = Api(client)
    game_id, _key = new_game(api, THREE, deals=2)
    home = client.get("/").get_data(as_text=True)
    assert "Deal 3/11" in home  # standard with 3 players: 11 deals
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "playing…" not in page  # deal 2 (no hearts) is complete though it counts no tricks
    assert "−60" in page and "−120" in page  # Ala's and Celina's hearts in deal 2
    assert 'name="tricks-0"' not in page
    sheet = client.get(f"/games/{game_id}/scoresheet").get_data(as_text=True)
    assert "−135" in sheet and "−210" in sheet  # Ala's and Celina's totals after deal 2 (Bartek: −170)
    assert client.get("/games/new?game=kierki").status_code == 200
