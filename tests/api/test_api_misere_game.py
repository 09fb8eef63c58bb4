"""A whole Italian Misère game through the JSON API, in both scorings.

The game is the hand-computed one of tests/unit/test_misere.py (data copied
here as literals, not computed): Ann, Bob, Cid, Dee in playing order, Cid
deals first, so the dealers are Cid, Dee, Ann, Bob, Cid, Dee, Ann, Bob.
Tuples are (Ann, Bob, Cid, Dee).
"""

from __future__ import annotations

from typing import Any

import pytest
from api_support import Api
from flask.testing import FlaskClient

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
FIXED = ["hearts", "diamonds", "clubs", "spades", "no-trumps", "blind", "ciapa-ciapa", "misere"]
DEALERS = ["Cid", "Dee", "Ann", "Bob", "Cid", "Dee", "Ann", "Bob"]
BIDDING_ORDERS = [
    ["Dee", "Ann", "Bob", "Cid"],
    ["Ann", "Bob", "Cid", "Dee"],
    ["Bob", "Cid", "Dee", "Ann"],
    ["Cid", "Dee", "Ann", "Bob"],
    ["Dee", "Ann", "Bob", "Cid"],
    ["Ann", "Bob", "Cid", "Dee"],
    [],
    [],
]

Four = tuple[int, int, int, int]
GAME: list[tuple[Four | None, Four]] = [
    # bids           tricks
    ((3, 2, 3, 4), (2, 2, 5, 4)),  # 1 hearts
    ((0, 5, 4, 6), (0, 5, 3, 5)),  # 2 diamonds
    ((2, 1, 0, 7), (4, 1, 2, 6)),  # 3 clubs
    ((4, 0, 6, 5), (4, 0, 6, 3)),  # 4 spades
    ((3, 3, 0, 3), (5, 3, 2, 3)),  # 5 no-trumps
    ((13, 0, 0, 1), (10, 0, 1, 2)),  # 6 blind
    (None, (4, 3, 6, 0)),  # 7 ciapa-ciapa
    (None, (1, 7, 0, 5)),  # 8 misère
]
STANDARD_SCORES: list[Four] = [
    (-10, 20, -20, 40),
    (50, 50, -10, -10),
    (-20, 10, -20, -10),
    (40, 50, 60, -20),
    (-20, 30, -20, 30),
    (-30, 50, -10, -10),
    (40, 30, 60, 0),
    (-10, -70, 0, -50),
]
STANDARD_TOTALS: list[Four] = [
    (-10, 20, -20, 40),
    (40, 70, -30, 30),
    (20, 80, -50, 20),
    (60, 130, 10, 0),
    (40, 160, -10, 30),
    (10, 210, -20, 20),
    (50, 240, 40, 20),
    (40, 170, 40, -30),
]
STANDARD_STANDINGS = [("Bob", 170, 1), ("Ann", 40, 2), ("Cid", 40, 2), ("Dee", -30, 4)]
VARIANT_SCORES: list[Four] = [
    (2, 12, 5, 14),
    (25, 15, 3, 5),
    (4, 11, 2, 6),
    (14, 25, 16, 3),
    (5, 13, 2, 13),
    (10, 25, 1, 2),
    (12, 9, 18, 0),
    (-3, -21, 0, -15),
]
VARIANT_TOTALS: list[Four] = [
    (2, 12, 5, 14),
    (27, 27, 8, 19),
    (31, 38, 10, 25),
    (45, 63, 26, 28),
    (50, 76, 28, 41),
    (60, 101, 29, 43),
    (72, 110, 47, 43),
    (69, 89, 47, 28),
]
VARIANT_STANDINGS = [("Bob", 89, 1), ("Ann", 69, 2), ("Cid", 47, 3), ("Dee", 28, 4)]


def named(values: Four | None) -> dict[str, int] | None:
    """(Ann, Bob, Cid, Dee) as the API's ``{"Ann": ..}`` object."""
    return None if values is None else dict(zip(PLAYERS, values, strict=True))


@pytest.mark.parametrize(
    ("options", "scores", "totals", "standings"),
    [
        (None, STANDARD_SCORES, STANDARD_TOTALS, STANDARD_STANDINGS),
        ({"scoring": "standard"}, STANDARD_SCORES, STANDARD_TOTALS, STANDARD_STANDINGS),
        ({"scoring": "variant"}, VARIANT_SCORES, VARIANT_TOTALS, VARIANT_STANDINGS),
    ],
    ids=["default", "standard", "variant"],
)
def test_whole_game(
    client: FlaskClient,
    options: dict[str, str] | None,
    scores: list[Four],
    totals: list[Four],
    standings: list[tuple[str, int, int]],
) -> None:
    api = Api(client)
    body: dict[str, Any] = {"ruleset": "misere", "players": PLAYERS, "first_dealer": "Cid"}
    if options is not None:
        body["options"] = options
    created = api.create(body)
    game_id, key = created["id"], created["edit_key"]
    assert created["options"] == {"scoring": (options or {}).get("scoring", "standard")}
    assert created["first_dealer"] == "Cid"

    for number, (bids, tricks) in enumerate(GAME, start=1):
        state = api.state(game_id)
        next_deal = state["next_deal"]
        assert next_deal["number"] == number
        assert next_deal["dealer"] == DEALERS[number - 1]
        assert next_deal["chooser"] is None
        assert next_deal["contract"] == FIXED[number - 1]
        assert next_deal["available_contracts"] == [FIXED[number - 1]]
        assert next_deal["bidding_order"] == BIDDING_ORDERS[number - 1]
        assert state["remaining_contracts"] == {name: FIXED[number - 1 :] for name in PLAYERS}

        if bids is not None:
            # Bids first (the deal is pending while the cards are played), then the tricks.
            declared = api.record(game_id, key, {"number": number, "bids": named(bids)})
            assert declared["pending"] is True
            assert declared["bids"] == named(bids)
            assert declared["quotas"] == named(bids)
            assert declared["contract"] == FIXED[number - 1]
            assert api.state(game_id)["next_deal"] is None
            deal = api.correct(game_id, key, number, {"tricks": named(tricks)})
        else:
            deal = api.record(game_id, key, {"number": number, "tricks": named(tricks)})
        assert deal == {
            "number": number,
            "dealer": DEALERS[number - 1],
            "chooser": None,
            "contract": FIXED[number - 1],
            "bids": named(bids),
            "tricks": named(tricks),
            "quotas": named(bids),  # the bids on deals 1-6, null on ciapa-ciapa and misère
            "scores": named(scores[number - 1]),
            "totals": named(totals[number - 1]),
            "roles": deal["roles"],
            "pending": False,
        }
        assert deal["roles"][DEALERS[number - 1]] == "dealer"

    final = api.state(game_id)
    assert final["status"] == "finished"
    assert final["next_deal"] is None
    assert final["totals"] == named(totals[-1])
    assert [deal["scores"] for deal in final["deals"]] == [named(s) for s in scores]
    assert [deal["totals"] for deal in final["deals"]] == [named(t) for t in totals]
    assert final["standings"] == [{"player": p, "total": t, "rank": r} for p, t, r in standings]
    assert final["remaining_contracts"] == {name: [] for name in PLAYERS}
    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"tricks": named((4, 3, 6, 0))},
        key=key,
        status=409,
        code="game_finished",
    )


def test_rules_worked_example_and_hook_rule(client: FlaskClient) -> None:
    """RULES.md: P deals; bids Q 3, R 0, S 5, so P may not bid 5; P bids 4."""
    api = Api(client)
    created = api.create({"ruleset": "misere", "players": ["P", "Q", "R", "S"], "first_dealer": "P"})
    game_id, key = created["id"], created["edit_key"]
    assert created["next_deal"]["bidding_order"] == ["Q", "R", "S", "P"]
    error = api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"bids": {"Q": 3, "R": 0, "S": 5, "P": 5}},
        key=key,
        status=422,
        code="hook_rule",
        field="bids",
    )
    assert "may not bid 5" in error["message"]
    deal = api.record(
        game_id,
        key,
        {"bids": {"Q": 3, "R": 0, "S": 5, "P": 4}, "tricks": {"Q": 3, "R": 1, "S": 5, "P": 4}},
    )
    assert deal["scores"] == {"P": 40, "Q": 30, "R": -10, "S": 50}
    assert api.state(game_id)["standings"] == [
        {"player": "S", "total": 50, "rank": 1},
        {"player": "P", "total": 40, "rank": 2},
        {"player": "Q", "total": 30, "rank": 3},
        {"player": "R", "total": -10, "rank": 4},
    ]
    # Correcting the bids re-checks the hook rule.
    api.refused(
        "PUT",
        f"/games/{game_id}/deals/1",
        {"bids": {"Q": 3, "R": 0, "S": 5, "P": 5}},
        key=key,
        status=422,
        code="hook_rule",
    )
    # A bid correction the hook rule allows rescores the deal: Q bid 2 and took 3.
    deal = api.correct(game_id, key, 1, {"bids": {"Q": 2, "R": 0, "S": 5, "P": 4}})
    assert deal["scores"] == {"P": 40, "Q": -10, "R": -10, "S": 50}
