"""A whole Mizerka game through the JSON API, and corrections, undo and ETags.

Every figure expected below (scores, running totals, standings, remaining
contracts) is a literal worked out by hand from RULES.md section 1; the tests
never ask the engine what the answer should be.

Seating clockwise Cid, Ann, Bob and Cid deals first, so deals 1-2 are the
worked example of RULES.md.  Forehand (chooser) is left of the dealer:
deals 1, 4, 7... Ann; 2, 5, 8... Bob; 3, 6, 9... Cid.
"""

from __future__ import annotations

import re
from typing import Any

from api_support import Api
from flask.testing import FlaskClient

PLAYERS = ["Cid", "Ann", "Bob"]
ALL_SIX = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"]
URL_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")

# Per-player figures are (Cid, Ann, Bob).
# number, dealer, chooser, contract, tricks, quotas, scores, running totals
Three = tuple[int, int, int]
GAME: list[tuple[int, str, str, str, Three, Three, Three, Three]] = [
    (1, "Cid", "Ann", "hearts", (4, 5, 4), (1, 7, 5), (3, -2, -1), (3, -2, -1)),
    (2, "Ann", "Bob", "mizerka", (6, 5, 2), (5, 7, 1), (-1, 2, -1), (2, 0, -2)),
    (3, "Bob", "Cid", "no-trumps", (8, 4, 1), (7, 5, 1), (1, -1, 0), (3, -1, -2)),
    (4, "Cid", "Ann", "clubs", (1, 7, 5), (1, 7, 5), (0, 0, 0), (3, -1, -2)),
    (5, "Ann", "Bob", "spades", (3, 1, 9), (5, 1, 7), (-2, 0, 2), (1, -1, 0)),
    (6, "Bob", "Cid", "diamonds", (6, 6, 1), (7, 5, 1), (-1, 1, 0), (0, 0, 0)),
    (7, "Cid", "Ann", "mizerka", (9, 0, 4), (7, 1, 5), (-2, 1, 1), (-2, 1, 1)),
    (8, "Ann", "Bob", "hearts", (5, 2, 6), (5, 1, 7), (0, 1, -1), (-2, 2, 0)),
    (9, "Bob", "Cid", "clubs", (13, 0, 0), (7, 5, 1), (6, -5, -1), (4, -3, -1)),
    (10, "Cid", "Ann", "no-trumps", (3, 4, 6), (1, 7, 5), (2, -3, 1), (6, -6, 0)),
    (11, "Ann", "Bob", "clubs", (4, 2, 7), (5, 1, 7), (-1, 1, 0), (5, -5, 0)),
    (12, "Bob", "Cid", "mizerka", (3, 5, 5), (1, 5, 7), (-2, 0, 2), (3, -5, 2)),
    (13, "Cid", "Ann", "diamonds", (2, 8, 3), (1, 7, 5), (1, 1, -2), (4, -4, 0)),
    (14, "Ann", "Bob", "no-trumps", (7, 1, 5), (5, 1, 7), (2, 0, -2), (6, -4, -2)),
    (15, "Bob", "Cid", "spades", (7, 5, 1), (7, 5, 1), (0, 0, 0), (6, -4, -2)),
    (16, "Cid", "Ann", "spades", (0, 9, 4), (1, 7, 5), (-1, 2, -1), (5, -2, -3)),
    (17, "Ann", "Bob", "diamonds", (5, 4, 4), (5, 1, 7), (0, 3, -3), (5, 1, -6)),
    (18, "Bob", "Cid", "hearts", (5, 7, 1), (7, 5, 1), (-2, 2, 0), (3, 3, -6)),
]

#: What each player may still choose after deal 9 (three contracts each used).
REMAINING_AFTER_9 = {
    "Cid": ["hearts", "spades", "mizerka"],
    "Ann": ["diamonds", "spades", "no-trumps"],
    "Bob": ["clubs", "diamonds", "no-trumps"],
}
FINAL_TOTALS = {"Cid": 3, "Ann": 3, "Bob": -6}
FINAL_STANDINGS = [
    {"player": "Cid", "total": 3, "rank": 1},
    {"player": "Ann", "total": 3, "rank": 1},
    {"player": "Bob", "total": -6, "rank": 3},
]

#: Deals recorded in two steps (declared, then tricks by PUT) rather than in one POST.
TWO_STEP = {3, 8, 12, 18}


def named(values: Three) -> dict[str, int]:
    """(Cid, Ann, Bob) as the API's ``{"Cid": .., "Ann": .., "Bob": ..}`` object."""
    return dict(zip(PLAYERS, values, strict=True))


def expected_deal(row: tuple[Any, ...]) -> dict[str, Any]:
    """The contract's fields of a completed deal, from a row of ``GAME``."""
    number, dealer, chooser, contract, tricks, quotas, scores, totals = row
    return {
        "number": number,
        "dealer": dealer,
        "chooser": chooser,
        "contract": contract,
        "bids": None,
        "tricks": named(tricks),
        "quotas": named(quotas),
        "scores": named(scores),
        "totals": named(totals),
    }


def contract_fields(deal: dict[str, Any]) -> dict[str, Any]:
    keys = ("number", "dealer", "chooser", "contract", "bids", "tricks", "quotas", "scores", "totals")
    return {key: deal[key] for key in keys}


def new_game(api: Api) -> tuple[str, str]:
    created = api.create({"ruleset": "mizerka", "players": PLAYERS, "first_dealer": "cid"})
    return created["id"], created["edit_key"]


def play(api: Api, game_id: str, key: str, rows: list[tuple[Any, ...]]) -> None:
    """Record ``rows`` in one POST each (with their numbers)."""
    for number, _, _, contract, tricks, *_ in rows:
        api.record(game_id, key, {"number": number, "contract": contract, "tricks": named(tricks)})


def test_whole_game(client: FlaskClient) -> None:
    api = Api(client)
    created = api.create({"ruleset": "mizerka", "players": [" Cid ", "Ann", "Bob"], "first_dealer": "cid"})
    game_id, key = created["id"], created["edit_key"]
    assert len(game_id) >= 8 and URL_SAFE.match(game_id)
    assert len(key) >= 22 and URL_SAFE.match(key)
    assert created["ruleset"] == "mizerka"
    assert created["options"] == {}
    assert created["players"] == PLAYERS
    assert created["first_dealer"] == "Cid"
    assert created["status"] == "in_progress"
    assert created["deals"] == []
    assert created["totals"] == {"Cid": 0, "Ann": 0, "Bob": 0}
    assert created["remaining_contracts"] == {"Cid": ALL_SIX, "Ann": ALL_SIX, "Bob": ALL_SIX}
    assert created["standings"] == [
        {"player": "Cid", "total": 0, "rank": 1},
        {"player": "Ann", "total": 0, "rank": 1},
        {"player": "Bob", "total": 0, "rank": 1},
    ]
    assert created["next_deal"]["roles"] == {"Cid": "dealer", "Ann": "forehand", "Bob": "middlehand"}

    for row in GAME:
        number, dealer, chooser, contract, tricks = row[:5]
        before = api.state(game_id)
        assert "edit_key" not in before
        next_deal = before["next_deal"]
        assert (next_deal["number"], next_deal["dealer"], next_deal["chooser"]) == (number, dealer, chooser)
        assert next_deal["available_contracts"] == before["remaining_contracts"][chooser]
        assert contract in next_deal["available_contracts"]
        assert next_deal["contract"] is None
        assert next_deal["bidding_order"] == []

        if number in TWO_STEP:
            declared = api.record(game_id, key, {"contract": contract})
            assert contract_fields(declared) == {
                **expected_deal(row),
                "tricks": None,
                "scores": None,
                "totals": None,
            }
            assert declared["pending"] is True
            waiting = api.state(game_id)
            assert waiting["next_deal"] is None
            assert waiting["status"] == "in_progress"
            assert waiting["deals"][-1] == declared
            assert waiting["totals"] == before["totals"]
            deal = api.correct(game_id, key, number, {"tricks": named(tricks)})
        else:
            body = {"number": number, "contract": contract, "tricks": named(tricks)}
            deal = api.record(game_id, key, body)
        assert contract_fields(deal) == expected_deal(row)
        assert deal["pending"] is False

        after = api.state(game_id)
        assert after["deals"][-1] == deal
        assert after["totals"] == named(row[7])
        if number == 2:  # RULES.md's worked example
            assert after["totals"] == {"Cid": 2, "Ann": 0, "Bob": -2}
        if number == 6:
            assert after["standings"] == [
                {"player": "Cid", "total": 0, "rank": 1},
                {"player": "Ann", "total": 0, "rank": 1},
                {"player": "Bob", "total": 0, "rank": 1},
            ]
        if number == 9:
            assert after["remaining_contracts"] == REMAINING_AFTER_9
            assert after["standings"] == [
                {"player": "Cid", "total": 4, "rank": 1},
                {"player": "Bob", "total": -1, "rank": 2},
                {"player": "Ann", "total": -3, "rank": 3},
            ]
        if number == 15:
            # Ann is forehand for the 6th time: one contract left.
            assert after["next_deal"]["chooser"] == "Ann"
            assert after["next_deal"]["available_contracts"] == ["spades"]

    final = api.state(game_id)
    assert final["status"] == "finished"
    assert final["next_deal"] is None
    assert [contract_fields(deal) for deal in final["deals"]] == [expected_deal(row) for row in GAME]
    assert final["totals"] == FINAL_TOTALS
    assert final["standings"] == FINAL_STANDINGS
    assert final["remaining_contracts"] == {"Cid": [], "Ann": [], "Bob": []}
    assert final["deals"][0]["roles"] == {"Cid": "dealer", "Ann": "forehand", "Bob": "middlehand"}
    assert final["deals"][1]["roles"] == {"Cid": "middlehand", "Ann": "dealer", "Bob": "forehand"}

    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"contract": "hearts", "tricks": {"Cid": 5, "Ann": 4, "Bob": 4}},
        key=key,
        status=409,
        code="game_finished",
    )
    assert api.state(game_id) == final


def test_correcting_an_earlier_deal_replays_the_later_totals(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    play(api, game_id, key, GAME)

    # Deal 2 (mizerka, Bob forehand): Bob 1, Cid 5, Ann 7 is every quota met exactly.
    deal = api.correct(game_id, key, 2, {"tricks": {"Ann": 7, "Bob": 1, "Cid": 5}})
    assert deal["scores"] == {"Cid": 0, "Ann": 0, "Bob": 0}
    assert deal["totals"] == {"Cid": 3, "Ann": -2, "Bob": -1}

    state = api.state(game_id)
    assert state["deals"][1]["totals"] == {"Cid": 3, "Ann": -2, "Bob": -1}
    assert state["deals"][9]["scores"] == {"Cid": 2, "Ann": -3, "Bob": 1}
    assert state["deals"][9]["totals"] == {"Cid": 7, "Ann": -8, "Bob": 1}
    assert state["deals"][17]["totals"] == {"Cid": 4, "Ann": 1, "Bob": -5}
    assert state["totals"] == {"Cid": 4, "Ann": 1, "Bob": -5}
    assert state["standings"] == [
        {"player": "Cid", "total": 4, "rank": 1},
        {"player": "Ann", "total": 1, "rank": 2},
        {"player": "Bob", "total": -5, "rank": 3},
    ]
    assert state["status"] == "finished"

    # Bob's deal 2 to spades would be his second spades (deal 5): refused, nothing changed.
    etag = client.get(f"/api/v1/games/{game_id}").headers["ETag"]
    error = api.refused(
        "PUT", f"/games/{game_id}/deals/2", {"contract": "spades"}, key=key, status=422, code="contract_used"
    )
    assert error["field"] == "contract"
    assert "Bob" in error["message"]
    api.refused(
        "PUT", f"/games/{game_id}/deals/5", {"contract": "mizerka"}, key=key, status=422, code="contract_used"
    )
    assert api.state(game_id) == state
    assert client.get(f"/api/v1/games/{game_id}").headers["ETag"] == etag


def test_contract_correction_rescores_the_deal(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    play(api, game_id, key, GAME[:3])

    # Deal 1 becomes Ann's mizerka: quotas Ann 1, Bob 5, Cid 7; tricks Ann 5, Bob 4, Cid 4.
    deal = api.correct(game_id, key, 1, {"contract": "mizerka"})
    assert deal["contract"] == "mizerka"
    assert deal["quotas"] == {"Cid": 7, "Ann": 1, "Bob": 5}
    assert deal["scores"] == {"Cid": 3, "Ann": -4, "Bob": 1}
    assert deal["totals"] == {"Cid": 3, "Ann": -4, "Bob": 1}
    state = api.state(game_id)
    assert [d["totals"] for d in state["deals"]] == [
        {"Cid": 3, "Ann": -4, "Bob": 1},
        {"Cid": 2, "Ann": -2, "Bob": 0},
        {"Cid": 3, "Ann": -3, "Bob": 0},
    ]
    assert state["remaining_contracts"]["Ann"] == ["clubs", "diamonds", "hearts", "spades", "no-trumps"]
    assert state["next_deal"]["available_contracts"] == ["clubs", "diamonds", "hearts", "spades", "no-trumps"]

    # Contract and tricks together.
    deal = api.correct(game_id, key, 1, {"contract": "diamonds", "tricks": {"Ann": 7, "Bob": 6, "Cid": 0}})
    assert deal["scores"] == {"Cid": -1, "Ann": 0, "Bob": 1}
    assert api.state(game_id)["totals"] == {"Cid": -1, "Ann": 1, "Bob": 0}


def test_pending_deal_and_reopening(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    play(api, game_id, key, GAME[:2])
    api.record(game_id, key, {"number": 3, "contract": "no-trumps"})

    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"contract": "hearts", "tricks": {"Cid": 5, "Ann": 4, "Bob": 4}},
        key=key,
        status=409,
        code="deal_pending",
    )
    # Its number again is a repeated declaration: harmless.
    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"number": 3, "contract": "no-trumps"},
        key=key,
        status=409,
        code="wrong_deal_number",
    )
    # A contract change while pending, then the tricks.
    api.correct(game_id, key, 3, {"contract": "mizerka"})
    deal = api.correct(game_id, key, 3, {"tricks": {"Cid": 1, "Ann": 5, "Bob": 7}})
    assert deal["contract"] == "mizerka"
    assert deal["quotas"] == {"Cid": 1, "Ann": 5, "Bob": 7}
    assert deal["scores"] == {"Cid": 0, "Ann": 0, "Bob": 0}
    assert deal["totals"] == {"Cid": 2, "Ann": 0, "Bob": -2}

    # "tricks": null makes the last deal pending again; only the last.
    reopened = api.correct(game_id, key, 3, {"tricks": None})
    assert reopened["pending"] is True
    assert (reopened["tricks"], reopened["scores"], reopened["totals"]) == (None, None, None)
    state = api.state(game_id)
    assert state["next_deal"] is None
    assert state["totals"] == {"Cid": 2, "Ann": 0, "Bob": -2}
    api.refused(
        "PUT", f"/games/{game_id}/deals/2", {"tricks": None}, key=key, status=422, code="tricks_players"
    )
    assert api.state(game_id) == state


def test_undo(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    play(api, game_id, key, GAME[:3])

    api.refused("DELETE", f"/games/{game_id}/deals/1", key=key, status=409, code="not_last_deal")
    api.refused("DELETE", f"/games/{game_id}/deals/2", key=key, status=409, code="not_last_deal")
    api.refused("DELETE", f"/games/{game_id}/deals/4", key=key, status=404, code="not_found")
    api.refused("DELETE", f"/games/{game_id}/deals/0", key=key, status=404, code="not_found")

    response = api.call("DELETE", f"/games/{game_id}/deals/3", key=key)
    assert response.status_code == 204
    assert response.get_data() == b""
    after_two = api.state(game_id)
    assert len(after_two["deals"]) == 2
    assert after_two["totals"] == {"Cid": 2, "Ann": 0, "Bob": -2}
    assert after_two["next_deal"]["number"] == 3
    assert after_two["next_deal"]["chooser"] == "Cid"
    assert after_two["remaining_contracts"]["Cid"] == ALL_SIX

    # A pending deal can be undone too; then the game goes back to its start.
    api.record(game_id, key, {"number": 3, "contract": "clubs"})
    assert api.call("DELETE", f"/games/{game_id}/deals/3", key=key).status_code == 204
    assert api.state(game_id)["deals"] == after_two["deals"]
    for number in (2, 1):
        assert api.call("DELETE", f"/games/{game_id}/deals/{number}", key=key).status_code == 204
    empty = api.state(game_id)
    assert empty["deals"] == []
    assert empty["totals"] == {"Cid": 0, "Ann": 0, "Bob": 0}
    assert empty["next_deal"]["number"] == 1
    api.refused("DELETE", f"/games/{game_id}/deals/1", key=key, status=404, code="not_found")


def test_etag_and_if_none_match(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    first = api.call("GET", f"/games/{game_id}")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"

    unchanged = api.call("GET", f"/games/{game_id}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.get_data() == b""
    assert unchanged.headers["ETag"] == etag
    assert api.call("GET", f"/games/{game_id}", headers={"If-None-Match": '"other"'}).status_code == 200

    play(api, game_id, key, GAME[:1])
    changed = api.call("GET", f"/games/{game_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert changed.get_json()["deals"][0]["number"] == 1
    assert api.call("GET", f"/games/{game_id}", headers={"If-None-Match": "*"}).status_code == 304

    # A refused write leaves the ETag as it was.
    current = changed.headers["ETag"]
    api.refused(
        "POST",
        f"/games/{game_id}/deals",
        {"contract": "bridge"},
        key=key,
        status=422,
        code="unknown_contract",
    )
    assert api.call("GET", f"/games/{game_id}", headers={"If-None-Match": current}).status_code == 304


def test_if_match_guards_corrections_and_undo(client: FlaskClient) -> None:
    api = Api(client)
    game_id, key = new_game(api)
    play(api, game_id, key, GAME[:2])
    etag = api.call("GET", f"/games/{game_id}").headers["ETag"]
    tricks = {"Cid": 6, "Ann": 5, "Bob": 2}

    deal = api.call(
        "PUT", f"/games/{game_id}/deals/2", {"tricks": tricks}, key=key, headers={"If-Match": etag}
    )
    assert deal.status_code == 200
    state = api.state(game_id)
    # The game moved on: the old ETag is stale now, for a correction and for an undo.
    for method, body in (("PUT", {"tricks": tricks}), ("DELETE", None)):
        api.refused(
            method,
            f"/games/{game_id}/deals/2",
            body,
            key=key,
            headers={"If-Match": etag},
            status=409,
            code="stale",
        )
    api.refused(
        "PUT",
        f"/games/{game_id}/deals/2",
        {"tricks": tricks},
        key=key,
        headers={"If-Match": '"not-ours"'},
        status=409,
        code="stale",
    )
    assert api.state(game_id) == state
    current = api.call("GET", f"/games/{game_id}").headers["ETag"]
    assert (
        api.call("PUT", f"/games/{game_id}/deals/2", {}, key=key, headers={"If-Match": "*"}).status_code
        == 200
    )
    current = api.call("GET", f"/games/{game_id}").headers["ETag"]
    response = api.call("DELETE", f"/games/{game_id}/deals/2", key=key, headers={"If-Match": current})
    assert response.status_code == 204


def test_rulesets(client: FlaskClient) -> None:
    api = Api(client)
    response = api.call("GET", "/rulesets")
    assert response.status_code == 200
    rulesets = {ruleset["id"]: ruleset for ruleset in response.get_json()["rulesets"]}
    assert set(rulesets) == {"mizerka", "misere", "kierki", "barbu"}  # Kierki, Barbu: their own API tests

    mizerka = rulesets["mizerka"]
    assert (mizerka["name"], mizerka["player_count"], mizerka["deal_count"]) == ("Mizerka", 3, 18)
    assert mizerka["player_counts"] == [3]
    assert mizerka["seating_direction"] == "clockwise"
    assert [(c["id"], c["label"], c["trumps"]) for c in mizerka["contracts"]] == [
        ("clubs", "Clubs", "clubs"),
        ("diamonds", "Diamonds", "diamonds"),
        ("hearts", "Hearts", "hearts"),
        ("spades", "Spades", "spades"),
        ("no-trumps", "No trumps", None),
        ("mizerka", "Mizerka", None),
    ]
    assert mizerka["options"] == []

    misere = rulesets["misere"]
    assert (misere["name"], misere["player_count"], misere["deal_count"]) == ("Misère", 4, 8)
    assert misere["seating_direction"] == "counter-clockwise"
    assert [c["id"] for c in misere["contracts"]] == [
        "hearts",
        "diamonds",
        "clubs",
        "spades",
        "no-trumps",
        "blind",
        "ciapa-ciapa",
        "misere",
    ]
    assert misere["options"] == [
        {
            "id": "scoring",
            "label": "Scoring",
            "choices": [{"value": "standard", "label": "Standard"}, {"value": "variant", "label": "Variant"}],
            "default": "standard",
        }
    ]


def test_ids_and_keys_are_random_and_distinct(client: FlaskClient) -> None:
    api = Api(client)
    games = [api.create({"players": ["Ann", "Bob", "Cid"]}) for _ in range(12)]
    ids = {game["id"] for game in games}
    keys = {game["edit_key"] for game in games}
    assert len(ids) == len(keys) == 12
    assert all(len(game_id) >= 8 and URL_SAFE.match(game_id) for game_id in ids)
    assert all(len(key) >= 22 and URL_SAFE.match(key) for key in keys)
    # Random first dealer when none is given, always one of the players.
    assert {game["first_dealer"] for game in games} <= {"Ann", "Bob", "Cid"}
    # One game's key does not open another.
    api.refused(
        "POST",
        f"/games/{games[0]['id']}/deals",
        {"contract": "hearts"},
        key=games[1]["edit_key"],
        status=403,
        code="bad_key",
    )
