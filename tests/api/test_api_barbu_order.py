"""API.md B5's order of checks for a correction (PUT and PATCH) of a Barbu deal: the contract already
declared (``contract_used``) answers ahead of the facts the body gives, as it does for a new deal, and
every refusal leaves the game as it was (same ETag, same state)."""

from __future__ import annotations

from typing import Any

import pytest
from api_support import Api
from flask.testing import FlaskClient

A, B, C, D = "Ala", "Bartek", "Celina", "Darek"

# RULES.md 4.9, deals 1-4 (Ala declares all of them).
DEALS: list[dict[str, Any]] = [
    {"number": 1, "contract": "no-queens", "queens": {A: 1, B: 0, C: 1, D: 2}},
    {
        "number": 2,
        "contract": "trumps",
        "trumps": "spades",
        "tricks": {A: 5, B: 3, C: 1, D: 4},
        "doubles": [{"by": D, "against": A}],
    },
    {"number": 3, "contract": "no-hearts", "hearts": {A: 2, B: 6, C: 0, D: 5}, "ace_of_hearts": B},
    {"number": 4, "contract": "no-king-of-hearts", "king_of_hearts": D},
]


@pytest.fixture
def game(client: FlaskClient) -> tuple[Api, str, str]:
    api = Api(client)
    created = api.create({"ruleset": "barbu", "players": [A, B, C, D], "first_dealer": A})
    for body in DEALS:
        api.record(created["id"], created["edit_key"], body)
    return api, created["id"], created["edit_key"]


def refused_unchanged(
    api: Api, game_id: str, method: str, path: str, body: Any, key: str, code: str, field: str
) -> str:
    before = api.call("GET", f"/games/{game_id}")
    error = api.refused(method, path, body, key=key, status=422, code=code, field=field)
    after = api.call("GET", f"/games/{game_id}")
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json() == before.get_json()
    return str(error["message"])


@pytest.mark.parametrize(
    ("facts", "hidden", "field"),
    [
        ({"queens": {A: 1, B: 0, C: 1, D: 3}}, "count_sum", "queens"),  # step 6
        ({"queens": {A: 1, B: 0, C: 1}}, "count_players", "queens"),  # step 6
        (
            {"queens": {A: 1, B: 0, C: 1, D: 2}, "tricks": {A: 4, B: 2, C: 3, D: 4}},
            "field_not_allowed",
            "tricks",
        ),
        ({"queens": None}, "field_required", "queens"),  # step 5: a complete deal never pending again
        ({"doubles": [{"by": A, "against": B}]}, "double_not_allowed", "doubles"),  # step 7
    ],
)
def test_a_put_to_a_contract_the_declarer_played_answers_contract_used_first(
    game: tuple[Api, str, str], facts: dict[str, Any], hidden: str, field: str
) -> None:
    api, game_id, key = game
    body = {"contract": "no-queens", **facts}
    # Deal 1 is Ala's No queens: the same body corrects it, and its facts answer with their own code.
    refused_unchanged(api, game_id, "PUT", f"/games/{game_id}/deals/1", body, key, hidden, field)
    # Deal 4 is another of Ala's: the contract she played in deal 1 answers first (B5 step 3).
    message = refused_unchanged(
        api, game_id, "PUT", f"/games/{game_id}/deals/4", body, key, "contract_used", "contract"
    )
    assert message == "Ala has already played No queens (deal 1), so cannot choose it again in deal 4."


def test_a_later_deal_of_the_declarer_counts_too(game: tuple[Api, str, str]) -> None:
    api, game_id, key = game
    api.record(game_id, key, {"number": 5, "contract": "domino", "places": [C, A, D, B]})
    body = {"contract": "domino", "places": [C, C, D, B]}  # places_invalid (step 6) stays behind
    message = refused_unchanged(
        api, game_id, "PUT", f"/games/{game_id}/deals/3", body, key, "contract_used", "contract"
    )
    assert message == "Ala has already played Domino (deal 5), so cannot choose it again in deal 3."


def test_the_codes_b5_puts_ahead_of_contract_used_answer_first(game: tuple[Api, str, str]) -> None:
    api, game_id, key = game
    path = f"/games/{game_id}/deals/4"
    used = {"contract": "no-queens", "queens": {A: 1, B: 0, C: 1, D: 3}}
    refused_unchanged(
        api, game_id, "PUT", path, {**used, "bids": [1, 2, 3, 4]}, key, "bids_not_allowed", "bids"
    )
    refused_unchanged(
        api,
        game_id,
        "PUT",
        path,
        {"contract": "no-spades", "queens": {A: 9}},
        key,
        "unknown_contract",
        "contract",
    )
    refused_unchanged(api, game_id, "PUT", path, {**used, "colour": "red"}, key, "unknown_field", "colour")


def test_a_patch_answers_contract_used_ahead_of_the_facts_but_swaps_two_contracts(
    game: tuple[Api, str, str],
) -> None:
    api, game_id, key = game
    path = f"/games/{game_id}/deals"
    bad_count = {"number": 4, "contract": "no-queens", "queens": {A: 1, B: 0, C: 1, D: 3}}
    message = refused_unchanged(
        api, game_id, "PATCH", path, {"deals": [bad_count]}, key, "contract_used", "contract"
    )
    assert message == "Ala has already played No queens (deal 1), so cannot choose it again in deal 4."
    # Deal 1 taking deal 4's contract in the same PATCH frees No queens: the count's own refusal answers.
    swap = [
        {"number": 1, "contract": "no-king-of-hearts", "king_of_hearts": D},
        bad_count,
    ]
    refused_unchanged(api, game_id, "PATCH", path, {"deals": swap}, key, "count_sum", "queens")
    swap[1] = {**bad_count, "queens": {A: 1, B: 0, C: 1, D: 2}}
    response = api.call("PATCH", path, {"deals": swap}, key=key)
    assert response.status_code == 200, response.get_json()
    deals = api.state(game_id)["deals"]
    assert [deal["contract"] for deal in deals] == ["no-king-of-hearts", "trumps", "no-hearts", "no-queens"]
    # Deal 1 now: Darek takes the K♥ (−20); deal 4: the queens of deal 1 (−6 each), undoubled.
    assert deals[0]["scores"] == {A: 0, B: 0, C: 0, D: -20}
    assert deals[3]["scores"] == {A: -6, B: 0, C: -6, D: -12}
