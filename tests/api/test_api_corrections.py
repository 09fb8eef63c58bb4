"""Correcting several deals at once (PATCH .../deals), and dry runs of every deal write.

Seating clockwise Cid, Ann, Bob and Cid deals first (the game of
test_api_mizerka_game): Bob chooses deals 2, 5, 8...  He chose Mizerka in deal 2
and Spades in deal 5, so swapping those two contracts is refused deal by deal
(each half alone breaks the each-contract-once rule) and accepted as one PATCH.
Figures expected below are worked out by hand from RULES.md section 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from api_support import Api
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from tests.helpers import db_snapshot
from tests.stats.checks import assert_figures_match

PLAYERS = ["Cid", "Ann", "Bob"]
MIZERKA = {"ruleset": "mizerka", "players": PLAYERS, "first_dealer": "Cid"}
# Deals 1-6: contract and tricks (Cid, Ann, Bob).
DEALS = [
    ("hearts", (4, 5, 4)),
    ("mizerka", (6, 5, 2)),
    ("no-trumps", (8, 4, 1)),
    ("clubs", (1, 7, 5)),
    ("spades", (3, 1, 9)),
    ("diamonds", (6, 6, 1)),
]
SWAP = {"deals": [{"number": 2, "contract": "spades"}, {"number": 5, "contract": "mizerka"}]}


def named(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(PLAYERS, values, strict=True))


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


def six_deals(api: Api) -> tuple[str, str]:
    """A Mizerka game with deals 1-6 recorded; its id and edit key."""
    created = api.create(MIZERKA)
    game_id, key = created["id"], created["edit_key"]
    for number, (contract, tricks) in enumerate(DEALS, start=1):
        api.record(game_id, key, {"number": number, "contract": contract, "tricks": named(tricks)})
    return game_id, key


@contextmanager
def nothing_stored(app: Flask, api: Api, game_id: str) -> Iterator[None]:
    """Every row of every table, and the game's state and ETag, are the same after the block."""
    rows = db_snapshot(app)
    before = api.call("GET", f"/games/{game_id}")
    yield
    after = api.call("GET", f"/games/{game_id}")
    assert after.get_json() == before.get_json()
    assert after.headers["ETag"] == before.headers["ETag"]
    assert db_snapshot(app) == rows


def test_two_deals_of_one_chooser_swap_contracts_in_one_patch(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    etag = api.call("GET", f"/games/{game_id}").headers["ETag"]
    with nothing_stored(app, api, game_id):
        # Deal by deal, either half of the swap breaks the rule; the message names the deal corrected.
        error = api.refused(
            "PUT",
            f"/games/{game_id}/deals/2",
            {"contract": "spades"},
            key=key,
            status=422,
            code="contract_used",
        )
        assert error == {
            "code": "contract_used",
            "message": "Deal 2: Bob has already played Spades (deal 5).",
            "field": "contract",
        }
        error = api.refused(
            "PUT",
            f"/games/{game_id}/deals/5",
            {"contract": "mizerka"},
            key=key,
            status=422,
            code="contract_used",
        )
        assert (
            error["message"]
            == "Bob has already played Mizerka (deal 2), so cannot choose it again in deal 5."
        )

    response = api.call("PATCH", f"/games/{game_id}/deals", SWAP, key=key)
    assert response.status_code == 200, response.get_json()
    state = response.get_json()
    assert state == api.state(game_id)
    assert api.call("GET", f"/games/{game_id}").headers["ETag"] != etag
    deals = {deal["number"]: deal for deal in state["deals"]}
    # Deal 2 (Ann deals, Bob forehand, Cid middlehand) as Spades: quotas 5, 1, 7; tricks 6, 5, 2.
    assert (deals[2]["contract"], deals[2]["chooser"]) == ("spades", "Bob")
    assert deals[2]["quotas"] == named((5, 1, 7))
    assert deals[2]["scores"] == named((1, 4, -5))
    # Deal 5 (same roles) as Mizerka: quotas 5, 7, 1; tricks 3, 1, 9; fewer tricks than quota scores.
    assert deals[5]["contract"] == "mizerka"
    assert deals[5]["quotas"] == named((5, 7, 1))
    assert deals[5]["scores"] == named((2, 6, -8))
    # Deals 1, 3, 4, 6 score as before: (3, -2, -1), (1, -1, 0), (0, 0, 0), (-1, 1, 0).
    assert [deal["totals"] for deal in state["deals"]] == [
        named((3, -2, -1)),
        named((4, 2, -6)),
        named((5, 1, -6)),
        named((5, 1, -6)),
        named((7, 7, -14)),
        named((6, 8, -14)),
    ]
    assert state["totals"] == named((6, 8, -14))
    assert state["standings"] == [
        {"player": "Ann", "total": 8, "rank": 1},
        {"player": "Cid", "total": 6, "rank": 2},
        {"player": "Bob", "total": -14, "rank": 3},
    ]
    # Bob has used Spades and Mizerka as before, so what he may still choose is unchanged.
    assert state["remaining_contracts"]["Bob"] == ["clubs", "diamonds", "hearts", "no-trumps"]


def test_a_patch_can_change_tricks_and_contracts_of_several_deals(api: Api) -> None:
    game_id, key = six_deals(api)
    body = {
        "deals": [
            {"number": 6, "tricks": {"Bob": 1, "Cid": 7, "Ann": 5}},
            {"number": 1, "contract": "diamonds", "tricks": named((5, 4, 4))},
        ]
    }
    state = api.call("PATCH", f"/games/{game_id}/deals", body, key=key).get_json()
    # Deal 1 (Cid deals, Ann forehand, Bob middlehand) as Diamonds: quotas 1, 7, 5; tricks 5, 4, 4.
    assert state["deals"][0]["contract"] == "diamonds"
    assert state["deals"][0]["scores"] == named((4, -3, -1))
    # Deal 6 (Bob deals, Cid forehand, Ann middlehand), Diamonds: quotas 7, 5, 1; tricks 7, 5, 1.
    assert state["deals"][5]["scores"] == named((0, 0, 0))
    # Deals 2-5 as before: (-1, 2, -1), (1, -1, 0), (0, 0, 0), (-2, 0, 2).
    assert state["totals"] == named((2, -2, 0))
    assert state["remaining_contracts"]["Ann"] == ["hearts", "spades", "no-trumps", "mizerka"]


REFUSED_PATCHES: list[Any] = [
    pytest.param(
        {"deals": [{"number": 2, "contract": "spades"}, {"number": 2, "contract": "clubs"}]},
        422,
        "invalid_deals",
        "deals",
        id="number-twice",
    ),
    pytest.param(
        {"deals": [*SWAP["deals"], {"number": 5, "tricks": None}]}, 422, "invalid_deals", "deals", id="dup"
    ),
    pytest.param({"deals": []}, 422, "invalid_deals", "deals", id="empty"),
    pytest.param({"deals": {"number": 2}}, 422, "invalid_deals", "deals", id="not-a-list"),
    pytest.param({}, 422, "invalid_deals", "deals", id="no-deals"),
    pytest.param({"deals": [{"contract": "spades"}]}, 422, "invalid_deals", "deals", id="no-number"),
    pytest.param(
        {"deals": [{"number": "2", "contract": "spades"}]}, 422, "invalid_deals", "deals", id="str-number"
    ),
    pytest.param(
        {"deals": [{"number": True, "contract": "spades"}]}, 422, "invalid_deals", "deals", id="bool"
    ),
    pytest.param({"deals": [2, 5]}, 422, "invalid_deals", "deals", id="not-objects"),
    pytest.param(
        {"deals": [{"number": 2, "dealer": "Ann"}]}, 422, "unknown_field", "dealer", id="item-field"
    ),
    pytest.param({**SWAP, "dry": True}, 422, "unknown_field", "dry", id="top-field"),
    pytest.param({"deals": [{"number": 7, "contract": "spades"}]}, 404, "not_found", None, id="no-such-deal"),
    pytest.param({"deals": [{"number": 0, "contract": "spades"}]}, 404, "not_found", None, id="deal-0"),
    pytest.param(
        {"deals": [*SWAP["deals"], {"number": 4, "tricks": named((1, 7, 6))}]},
        422,
        "tricks_sum",
        "tricks",
        id="one-bad-of-three",
    ),
    pytest.param(
        {"deals": [{"number": 2, "contract": "spades"}, {"number": 4, "tricks": named((5, 4, 4))}]},
        422,
        "contract_used",
        "contract",
        id="half-a-swap",
    ),
    pytest.param(
        {"deals": [*SWAP["deals"], {"number": 3, "tricks": None}]},
        422,
        "tricks_players",
        "tricks",
        id="pending-not-last",
    ),
    pytest.param(
        {"deals": [{"number": 2, "contract": "poker"}, {"number": 3, "tricks": named((8, 4, 1))}]},
        422,
        "unknown_contract",
        "contract",
        id="unknown-contract",
    ),
]


@pytest.mark.parametrize(("body", "status", "code", "field"), REFUSED_PATCHES)
def test_any_refusal_changes_nothing(
    app: Flask, api: Api, body: Any, status: int, code: str, field: str | None
) -> None:
    game_id, key = six_deals(api)
    with nothing_stored(app, api, game_id):
        api.refused("PATCH", f"/games/{game_id}/deals", body, key=key, status=status, code=code, field=field)
        # A dry run of the same refuses it the same way.
        dry = api.refused(
            "PATCH",
            f"/games/{game_id}/deals?dry_run=true",
            body,
            key=key,
            status=status,
            code=code,
            field=field,
        )
        real = api.refused("PATCH", f"/games/{game_id}/deals", body, key=key, status=status, code=code)
        assert dry == real


def test_refusals_of_several_corrections_name_the_deal(api: Api) -> None:
    game_id, key = six_deals(api)
    path = f"/games/{game_id}/deals"
    half = {"deals": [{"number": 2, "contract": "spades"}, {"number": 4, "tricks": named((5, 4, 4))}]}
    error = api.refused("PATCH", path, half, key=key, status=422, code="contract_used")
    assert error["message"] == "Deal 2: Bob has already played Spades (deal 5)."
    bad_sum = {"deals": [*SWAP["deals"], {"number": 4, "tricks": named((1, 7, 6))}]}
    error = api.refused("PATCH", path, bad_sum, key=key, status=422, code="tricks_sum")
    assert error["message"] == "Deal 4: Tricks must add up to 13 (got 14)."
    # Deal 5 alone breaks the rule (Bob chose Mizerka in deal 2, which stays): it is named.
    reuse = {"deals": [{"number": 5, "contract": "mizerka"}, {"number": 6, "tricks": named((6, 6, 1))}]}
    error = api.refused("PATCH", path, reuse, key=key, status=422, code="contract_used")
    assert error["message"] == (
        "Deal 5: Bob has already played Mizerka (deal 2), so cannot choose it again in deal 5."
    )


def test_patch_with_if_match(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    path = f"/games/{game_id}/deals"
    old = api.call("GET", f"/games/{game_id}").headers["ETag"]
    api.record(game_id, key, {"number": 7, "contract": "mizerka"})  # the game moves on
    for tag in (old, '"not-ours"', 'W/"v1"'):
        with nothing_stored(app, api, game_id):
            api.refused("PATCH", path, SWAP, key=key, headers={"If-Match": tag}, status=409, code="stale")
            api.refused(
                "PATCH",
                path + "?dry_run=true",
                SWAP,
                key=key,
                headers={"If-Match": tag},
                status=409,
                code="stale",
            )
    current = api.call("GET", f"/games/{game_id}").headers["ETag"]
    response = api.call("PATCH", path, SWAP, key=key, headers={"If-Match": current})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["deals"][1]["contract"] == "spades"


def test_patch_needs_the_edit_key(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    for query in ("", "?dry_run=true"):
        path = f"/games/{game_id}/deals{query}"
        with nothing_stored(app, api, game_id):
            api.refused("PATCH", path, SWAP, status=401, code="auth_required")
            api.refused("PATCH", path, SWAP, key=key + "x", status=403, code="bad_key")
        api.refused("PATCH", f"/games/nosuchgame/deals{query}", SWAP, key=key, status=404, code="not_found")


# -- dry runs --------------------------------------------------------------------------------------


def test_dry_run_of_recording_a_deal(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    path = f"/games/{game_id}/deals"
    body = {"number": 7, "contract": "mizerka", "tricks": named((9, 0, 4))}
    with nothing_stored(app, api, game_id):
        preview = api.call("POST", path + "?dry_run=true", body, key=key)
        assert preview.status_code == 200
        pending = api.call("POST", path + "?dry_run=true", {"contract": "mizerka"}, key=key)
        assert pending.status_code == 200
        assert pending.get_json()["pending"] is True
    real = api.call("POST", path, body, key=key)
    assert real.status_code == 201
    assert preview.get_json() == real.get_json()
    # Deal 7 (Cid deals, Ann forehand, Bob middlehand), Mizerka: quotas 7, 1, 5; tricks 9, 0, 4.
    assert real.get_json()["scores"] == named((-2, 1, 1))
    # Once it is recorded, its dry run is refused as the real call is: the number is taken.
    with nothing_stored(app, api, game_id):
        for query in ("?dry_run=true", ""):
            api.refused("POST", path + query, body, key=key, status=409, code="wrong_deal_number")


def test_dry_run_of_a_correction(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    path = f"/games/{game_id}/deals/6"
    body = {"tricks": named((7, 5, 1))}
    with nothing_stored(app, api, game_id):
        preview = api.call("PUT", path + "?dry_run=true", body, key=key)
        assert preview.status_code == 200
    real = api.call("PUT", path, body, key=key)
    assert real.status_code == 200
    assert preview.get_json() == real.get_json()
    assert real.get_json()["totals"] == named((1, -1, 0))


def test_dry_run_of_a_patch(app: Flask, api: Api) -> None:
    game_id, key = six_deals(api)
    path = f"/games/{game_id}/deals"
    with nothing_stored(app, api, game_id):
        preview = api.call("PATCH", path + "?dry_run=true", SWAP, key=key)
        assert preview.status_code == 200
    real = api.call("PATCH", path, SWAP, key=key)
    assert real.status_code == 200
    assert preview.get_json() == real.get_json()


DRY_RUN_REFUSALS: list[Any] = [
    pytest.param("POST", "/deals", {"number": 7, "contract": "hearts"}, 422, "contract_used", id="post-rule"),
    pytest.param(
        "POST", "/deals", {"number": 9, "contract": "hearts"}, 409, "wrong_deal_number", id="post-num"
    ),
    pytest.param("POST", "/deals", {"contract": "clubs", "seat": 1}, 422, "unknown_field", id="post-field"),
    pytest.param(
        "POST", "/deals", {"contract": "spades", "tricks": [1, 2, 10]}, 422, "tricks_players", id="list"
    ),
    pytest.param("PUT", "/deals/2", {"contract": "spades"}, 422, "contract_used", id="put-rule"),
    pytest.param("PUT", "/deals/3", {"tricks": None}, 422, "tricks_players", id="put-pending"),
    pytest.param("PUT", "/deals/9", {"tricks": None}, 404, "not_found", id="put-no-deal"),
    pytest.param("PUT", "/deals/4", {"tricks": named((1, 7, 4))}, 422, "tricks_sum", id="put-sum"),
    pytest.param("PATCH", "/deals", {"deals": [{"number": 1}] * 2}, 422, "invalid_deals", id="patch-twice"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), DRY_RUN_REFUSALS)
def test_a_dry_run_refuses_as_the_real_call_does(
    app: Flask, api: Api, method: str, path: str, body: Any, status: int, code: str
) -> None:
    game_id, key = six_deals(api)
    url = f"/games/{game_id}{path}"
    with nothing_stored(app, api, game_id):
        dry = api.refused(method, url + "?dry_run=true", body, key=key, status=status, code=code)
        real = api.refused(method, url, body, key=key, status=status, code=code)
        assert dry == real
        # Without the key, or with a wrong one, a dry run is refused as a write is.
        api.refused(method, url + "?dry_run=true", body, status=401, code="auth_required")
        api.refused(method, url + "?dry_run=true", body, key=key[::-1], status=403, code="bad_key")


@pytest.mark.parametrize(
    "query", ["dry-run=true", "dryrun=true", "dry_run=true&x=1", "=null", "dry_run=true&dry_run=false"]
)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_a_write_takes_no_other_query_parameter(app: Flask, api: Api, method: str, query: str) -> None:
    # A typo of dry_run must never become a real write: any other parameter is refused.
    game_id, key = six_deals(api)
    url, body = {
        "POST": (f"/games/{game_id}/deals", {"number": 7, "contract": "mizerka"}),
        "PUT": (f"/games/{game_id}/deals/6", {"tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}),
        "PATCH": (
            f"/games/{game_id}/deals",
            {"deals": [{"number": 6, "tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}]},
        ),
    }[method]
    with nothing_stored(app, api, game_id):
        api.refused(method, f"{url}?{query}", body, key=key, status=400, code="bad_query")


@pytest.mark.parametrize("value", ["yes", "1", "True", ""])
def test_dry_run_takes_only_true_or_false(app: Flask, api: Api, value: str) -> None:
    game_id, key = six_deals(api)
    body = {"number": 7, "contract": "mizerka"}
    with nothing_stored(app, api, game_id):
        api.refused(
            "POST", f"/games/{game_id}/deals?dry_run={value}", body, key=key, status=400, code="bad_query"
        )
    assert api.call("POST", f"/games/{game_id}/deals?dry_run=false", body, key=key).status_code == 201


def test_misere_bids_of_two_deals_corrected_together(app: Flask, api: Api) -> None:
    created = api.create(
        {"ruleset": "misere", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": "Ann"}
    )
    game_id, key = created["id"], created["edit_key"]
    bids = {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}
    tricks = {"Ann": 10, "Bob": 1, "Cid": 1, "Dee": 1}
    for _ in range(2):
        api.record(game_id, key, {"bids": bids, "tricks": tricks})
    path = f"/games/{game_id}/deals"
    # Deal 2's dealer (Bob) may not bid so that the bids add up to 13: the hook rule, said of deal 2.
    hooked = {
        "deals": [
            {"number": 1, "tricks": {**tricks, "Ann": 9, "Bob": 2}},
            {"number": 2, "bids": {**bids, "Bob": 10}},
        ]
    }
    with nothing_stored(app, api, game_id):
        error = api.refused("PATCH", path, hooked, key=key, status=422, code="hook_rule")
        assert error["message"].startswith("Deal 2: ")
    body = {"deals": [{"number": 2, "bids": {**bids, "Cid": 2}}, {"number": 1, "bids": {**bids, "Ann": 5}}]}
    state = api.call("PATCH", path, body, key=key).get_json()
    assert [deal["bids"] for deal in state["deals"]] == [{**bids, "Ann": 5}, {**bids, "Cid": 2}]
    assert state == api.state(game_id)


def test_the_service_takes_values_in_seat_order_and_keeps_the_figures_true(app: Flask, api: Api) -> None:
    """What the pages call: ``services.correct_deals`` with per-player values in seat order."""
    game_id, _ = six_deals(api)
    swap = [{"number": 5, "contract": "mizerka"}, {"number": 2, "contract": "spades", "tricks": [6, 5, 2]}]
    with app.app_context():
        rows = db_snapshot(app)
        preview = services.correct_deals(game_id, swap, dry_run=True)
        assert db_snapshot(app) == rows
        written = services.correct_deals(game_id, swap)
        assert written.deal is None  # several deals: the state tells them all
        assert written.state == preview.state
        assert written.state.totals == (6, 8, -14)
        assert_figures_match(game_id)
        rows = db_snapshot(app)
        one = services.update_deal(game_id, 6, tricks=[7, 5, 1], dry_run=True)
        assert one.deal is not None and one.deal.scores == (0, 0, 0)
        assert db_snapshot(app) == rows
        db.session.remove()


@pytest.mark.parametrize(
    ("item", "code", "field"),
    [
        ({"number": 4, "tricks": {"Cid": "1", "Ann": 7, "Bob": 5}}, "tricks_range", "tricks"),
        ({"number": 4, "tricks": {"Cid": 1.0, "Ann": 7, "Bob": 5}}, "tricks_range", "tricks"),
        ({"number": 4, "tricks": {"Cid": True, "Ann": 7, "Bob": 5}}, "tricks_range", "tricks"),
        ({"number": 4, "tricks": [1, 7, 5]}, "tricks_players", "tricks"),
        ({"number": 4, "contract": 5}, "unknown_contract", "contract"),
        ({"number": 4, "bids": {"Cid": 1, "Ann": 7, "Bob": 5}}, "bids_not_allowed", "bids"),
        ({"number": 4.0, "contract": "clubs"}, "invalid_deals", "deals"),
        ({"number": 4, "\ud800": 1}, "unknown_field", "\ud800"),
    ],
)
def test_values_in_a_patch_reach_the_engine_as_sent(
    app: Flask, api: Api, item: dict[str, Any], code: str, field: str
) -> None:
    """No value is coerced on the way ("1", 1.0 or true is not a trick count of 1)."""
    game_id, key = six_deals(api)
    with nothing_stored(app, api, game_id):
        api.refused(
            "PATCH", f"/games/{game_id}/deals", {"deals": [item]}, key=key, status=422, code=code, field=field
        )
