"""Every error of the API contract, its status and shape, and that a refused call changes nothing.

Each refusal is checked against the OpenAPI document too (by ``Api``), and
every refused write is followed by a GET that must equal the one before it,
ETag included.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from api_support import Api
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MIZERKA = {"ruleset": "mizerka", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Ann"}
MISERE = {"ruleset": "misere", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": "Cid"}
TRICKS = {"Ann": 4, "Bob": 4, "Cid": 5}


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@contextmanager
def unchanged(api: Api, game_id: str) -> Iterator[None]:
    """The game state and its ETag are the same after the block as before it."""
    before = api.call("GET", f"/games/{game_id}")
    yield
    after = api.call("GET", f"/games/{game_id}")
    assert after.get_json() == before.get_json()
    assert after.headers["ETag"] == before.headers["ETag"]


def started(api: Api, body: dict[str, Any] = MIZERKA) -> tuple[str, str]:
    created = api.create(body)
    return created["id"], created["edit_key"]


def refused_write(
    api: Api, game_id: str, method: str, path: str, body: Any = None, **kwargs: Any
) -> dict[str, Any]:
    """A write that must be refused (``status``, ``code`` in kwargs) and leave the game as it was."""
    with unchanged(api, game_id):
        return api.refused(method, path, body, **kwargs)


# -- 400 bad_json ----------------------------------------------------------------------------------


BAD_BODIES = [
    pytest.param("text/plain", b'{"players": ["Ann", "Bob", "Cid"]}', id="text-plain"),
    pytest.param("application/x-www-form-urlencoded", b"players=Ann", id="form"),
    pytest.param(None, b'{"players": ["Ann", "Bob", "Cid"]}', id="no-content-type"),
    pytest.param("application/json", b"", id="empty"),
    pytest.param("application/json", b'{"players": ["Ann", ', id="truncated"),
    pytest.param("application/json", b"{'players': []}", id="single-quotes"),
    pytest.param("application/json", b"[1, 2, 3]", id="array"),
    pytest.param("application/json", b"null", id="null"),
    pytest.param("application/json", b'"players"', id="string"),
    pytest.param("application/json", b"42", id="number"),
    pytest.param("application/json", b'{"players": ["\xff\xfe"]}', id="bad-utf8"),
    pytest.param("application/json", b"[" * 60000, id="deeply-nested"),
    pytest.param("application/json", b'{"number": ' + b"9" * 5000 + b"}", id="huge-int-literal"),
]


@pytest.mark.parametrize(("content_type", "data"), BAD_BODIES)
def test_bad_json_on_create(api: Api, content_type: str | None, data: bytes) -> None:
    api.refused(
        "POST", "/games", data=data, content_type=content_type, status=400, code="bad_json", field=None
    )


@pytest.mark.parametrize(("content_type", "data"), BAD_BODIES)
def test_bad_json_on_deals(api: Api, content_type: str | None, data: bytes) -> None:
    game_id, key = started(api)
    for method, path in (("POST", f"/games/{game_id}/deals"), ("PUT", f"/games/{game_id}/deals/1")):
        if method == "PUT":
            api.record(game_id, key, {"contract": "hearts"})
        refused_write(
            api,
            game_id,
            method,
            path,
            data=data,
            content_type=content_type,
            key=key,
            status=400,
            code="bad_json",
        )


# -- 413 -------------------------------------------------------------------------------------------------


def test_too_large(api: Api) -> None:
    huge = {"players": ["Ann", "Bob", "x" * (70 * 1024)]}
    error = api.refused("POST", "/games", huge, status=413, code="too_large", field=None)
    assert "too large" in error["message"]
    game_id, key = started(api)
    refused_write(
        api,
        game_id,
        "POST",
        f"/games/{game_id}/deals",
        {"contract": "hearts", "tricks": TRICKS, "padding": "x" * (70 * 1024)},
        key=key,
        status=413,
        code="too_large",
    )


# -- 401, 403, 404 -------------------------------------------------------------------------------------


def test_auth_required_and_bad_key(api: Api, client: FlaskClient) -> None:
    game_id, key = started(api)
    api.record(game_id, key, {"contract": "hearts", "tricks": TRICKS})
    writes: list[tuple[str, str, Any]] = [
        ("POST", f"/games/{game_id}/deals", {"contract": "clubs", "tricks": TRICKS}),
        ("PUT", f"/games/{game_id}/deals/1", {"tricks": {"Ann": 5, "Bob": 4, "Cid": 4}}),
        ("DELETE", f"/games/{game_id}/deals/1", None),
    ]
    for method, path, body in writes:
        error = refused_write(api, game_id, method, path, body, status=401, code="auth_required")
        assert error["field"] is None
        for header in ("Basic " + key, "Bearer", "Bearer   ", key):
            refused_write(
                api,
                game_id,
                method,
                path,
                body,
                headers={"Authorization": header},
                status=401,
                code="auth_required",
            )
        for wrong in (key[:-1], key + "x", key.upper(), "x" * 32, "é"):
            refused_write(api, game_id, method, path, body, key=wrong, status=403, code="bad_key")
    response = client.post(f"/api/v1/games/{game_id}/deals", json={"contract": "clubs"})
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    # The scheme is case-insensitive, as HTTP says.
    deal = api.call("PUT", f"/games/{game_id}/deals/1", {}, headers={"Authorization": f"bearer {key}"})
    assert deal.status_code == 200


def test_not_found(api: Api, client: FlaskClient) -> None:
    game_id, key = started(api)
    for missing in (
        "nosuchgame",
        "x" * 200,
        "%00",
        "..",
        game_id.upper() if game_id.upper() != game_id else "Q",
    ):
        api.refused("GET", f"/games/{missing}", status=404, code="not_found")
        # Existence is checked before the key: no key, a wrong key and the right key all say 404.
        for auth in (None, "wrong", key):
            api.refused(
                "POST",
                f"/games/{missing}/deals",
                {"contract": "hearts"},
                key=auth,
                status=404,
                code="not_found",
            )
            api.refused("PUT", f"/games/{missing}/deals/1", {}, key=auth, status=404, code="not_found")
            api.refused("DELETE", f"/games/{missing}/deals/1", key=auth, status=404, code="not_found")
    api.record(game_id, key, {"contract": "hearts"})
    for number in ("2", "99999999999999999999999", "0"):
        refused_write(
            api, game_id, "PUT", f"/games/{game_id}/deals/{number}", {}, key=key, status=404, code="not_found"
        )
    for number in ("abc", "-1", "1.0"):
        refused_write(
            api, game_id, "PUT", f"/games/{game_id}/deals/{number}", {}, key=key, status=404, code="not_found"
        )
    # Unknown addresses under /api/ answer in the same shape.
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


# -- 409 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    [2, 0, -1, 10**30, True, False, "1", 1.0, 1.5, [1], {"n": 1}],
    ids=repr,
)
def test_wrong_deal_number(api: Api, number: Any) -> None:
    game_id, key = started(api)
    error = refused_write(
        api,
        game_id,
        "POST",
        f"/games/{game_id}/deals",
        {"number": number, "contract": "hearts", "tricks": TRICKS},
        key=key,
        status=409,
        code="wrong_deal_number",
        field="number",
    )
    assert error["message"]


def test_a_repeated_post_is_harmless(api: Api) -> None:
    game_id, key = started(api)
    body = {"number": 1, "contract": "hearts", "tricks": TRICKS}
    api.record(game_id, key, body)
    error = refused_write(
        api, game_id, "POST", f"/games/{game_id}/deals", body, key=key, status=409, code="wrong_deal_number"
    )
    assert "already recorded" in error["message"]


def test_deal_pending_and_not_last_deal(api: Api) -> None:
    game_id, key = started(api)
    api.record(game_id, key, {"contract": "hearts", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "clubs"})
    refused_write(
        api,
        game_id,
        "POST",
        f"/games/{game_id}/deals",
        {"contract": "hearts"},
        key=key,
        status=409,
        code="deal_pending",
        field="tricks",
    )
    refused_write(
        api, game_id, "DELETE", f"/games/{game_id}/deals/1", key=key, status=409, code="not_last_deal"
    )


def test_game_finished(api: Api) -> None:
    game_id, key = started(api, MISERE)
    bids = {"Ann": 0, "Bob": 0, "Cid": 0, "Dee": 0}
    tricks = {"Ann": 13, "Bob": 0, "Cid": 0, "Dee": 0}
    for number in range(1, 9):
        body: dict[str, Any] = {"number": number, "tricks": tricks}
        if number <= 6:
            body["bids"] = bids
        api.record(game_id, key, body)
    for body in ({"tricks": tricks}, {"number": 9, "tricks": tricks}, {"number": 8}, {}):
        refused_write(
            api, game_id, "POST", f"/games/{game_id}/deals", body, key=key, status=409, code="game_finished"
        )


# -- 422: creating a game ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"players": ["Ann", "Bob"]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "Cid", "Dee"]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "ann"]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "  "]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "x" * 41]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "Ci\u202ed"]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", 3]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", None]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", ["Cid"]]}, "invalid_players", "players"),
        ({"players": "Ann,Bob,Cid"}, "invalid_players", "players"),
        ({"players": {"Ann": 1, "Bob": 2, "Cid": 3}}, "invalid_players", "players"),
        ({"players": None}, "invalid_players", "players"),
        ({"players": 3}, "invalid_players", "players"),
        ({}, "invalid_players", "players"),
        ({"ruleset": "misere", "players": ["Ann", "Bob", "Cid"]}, "invalid_players", "players"),
        ({"ruleset": "poker", "players": ["Ann", "Bob", "Cid"]}, "unknown_ruleset", "ruleset"),
        ({"ruleset": "Mizerka", "players": ["Ann", "Bob", "Cid"]}, "unknown_ruleset", "ruleset"),
        ({"ruleset": 1, "players": ["Ann", "Bob", "Cid"]}, "unknown_ruleset", "ruleset"),
        ({"ruleset": ["mizerka"], "players": ["Ann", "Bob", "Cid"]}, "unknown_ruleset", "ruleset"),
        ({"ruleset": {"id": "mizerka"}, "players": ["Ann", "Bob", "Cid"]}, "unknown_ruleset", "ruleset"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": "Dan"}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": ""}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": 0}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": True}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": ["Ann"]}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Cid"], "first_dealer": "\ud800"}, "unknown_player", "first_dealer"),
        ({"players": ["Ann", "Bob", "Ci\ud800"]}, "invalid_players", "players"),
        ({"players": ["Ann", "Bob", "Cid"], "options": {"scoring": "variant"}}, "invalid_options", "options"),
        ({**MISERE, "options": {"scoring": "fast"}}, "invalid_options", "options"),
        ({**MISERE, "options": {"scoring": ["variant"]}}, "invalid_options", "options"),
        ({**MISERE, "options": {"scoring": {"x": 1}}}, "invalid_options", "options"),
        ({**MISERE, "options": "variant"}, "invalid_options", "options"),
        ({**MISERE, "options": ["scoring"]}, "invalid_options", "options"),
        ({**MISERE, "options": [{"scoring": "variant"}]}, "invalid_options", "options"),
        ({**MIZERKA, "colour": "red"}, "unknown_field", "colour"),
        ({**MIZERKA, "edit_key": "mine"}, "unknown_field", "edit_key"),
        ({**MIZERKA, "Players": ["Ann", "Bob", "Cid"]}, "unknown_field", "Players"),
        ({**MIZERKA, "\ud800": 1}, "unknown_field", "\ud800"),
    ],
)
def test_create_refusals(api: Api, client: FlaskClient, body: dict[str, Any], code: str, field: str) -> None:
    error = api.refused("POST", "/games", body, status=422, code=code, field=field)
    assert error["message"]


def test_create_accepts_null_for_optional_fields(api: Api) -> None:
    created = api.create(
        {"ruleset": None, "players": ["Ann", "Bob", "Cid"], "first_dealer": None, "options": None}
    )
    assert created["ruleset"] == "mizerka"
    assert created["first_dealer"] in {"Ann", "Bob", "Cid"}
    created = api.create({**MISERE, "options": {"scoring": None}})
    assert created["options"] == {"scoring": "standard"}


# -- 422: recording and correcting deals -------------------------------------------------------------------


MIZERKA_DEAL_REFUSALS = [
    ({"contract": "trumps"}, "unknown_contract", "contract"),
    ({"contract": "Hearts"}, "unknown_contract", "contract"),
    ({"contract": "blind"}, "unknown_contract", "contract"),
    ({}, "unknown_contract", "contract"),
    ({"contract": None, "tricks": TRICKS}, "unknown_contract", "contract"),
    ({"contract": 3}, "unknown_contract", "contract"),
    ({"contract": ["hearts"]}, "unknown_contract", "contract"),
    ({"contract": "clubs"}, "contract_used", "contract"),
    ({"contract": "hearts", "tricks": {"Ann": 4, "Bob": 4, "Cid": 4}}, "tricks_sum", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 13, "Bob": 13, "Cid": 0}}, "tricks_sum", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 14, "Bob": -1, "Cid": 0}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": -1, "Bob": 7, "Cid": 7}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 4.0, "Bob": 4, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 4.5, "Bob": 4, "Cid": 4.5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": "4", "Bob": 4, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": True, "Bob": 7, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": None, "Bob": 8, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": [4], "Bob": 4, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 10**40, "Bob": 4, "Cid": 5}}, "tricks_range", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 4, "Bob": 9}}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 4, "Bob": 4, "Cid": 5, "Dan": 0}}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": {"Ann": 4, "ann": 4, "Cid": 5}}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": {}}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": [4, 4, 5]}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": "4,4,5"}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": 13}, "tricks_players", "tricks"),
    ({"contract": "hearts", "tricks": True}, "tricks_players", "tricks"),
    ({"contract": "hearts", "bids": {"Ann": 4, "Bob": 4, "Cid": 5}}, "bids_not_allowed", "bids"),
    ({"contract": "hearts", "bids": [1, 2, 3]}, "bids_not_allowed", "bids"),
    ({"contract": "hearts", "bids": {}}, "bids_not_allowed", "bids"),
    ({"contract": "hearts", "dealer": "Ann"}, "unknown_field", "dealer"),
    ({"contract": "hearts", "Tricks": TRICKS}, "unknown_field", "Tricks"),
]


@pytest.mark.parametrize(("body", "code", "field"), MIZERKA_DEAL_REFUSALS)
def test_mizerka_deal_refusals(api: Api, body: dict[str, Any], code: str, field: str) -> None:
    game_id, key = started(api)
    # Ann deals first, so Bob chooses deals 1 and 4: clubs in deal 1 makes clubs his contract_used.
    api.record(game_id, key, {"contract": "clubs", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "hearts", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "spades", "tricks": TRICKS})
    refused_write(
        api, game_id, "POST", f"/games/{game_id}/deals", body, key=key, status=422, code=code, field=field
    )


@pytest.mark.parametrize(("body", "code", "field"), MIZERKA_DEAL_REFUSALS)
def test_mizerka_correction_refusals(api: Api, body: dict[str, Any], code: str, field: str) -> None:
    game_id, key = started(api)
    api.record(game_id, key, {"contract": "clubs", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "hearts", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "spades", "tricks": TRICKS})
    api.record(game_id, key, {"contract": "diamonds", "tricks": TRICKS})
    # The same refusals as a correction of deal 4 (Bob's diamonds); an empty PUT is valid, so "" instead.
    if not body and code == "unknown_contract":
        body = {"contract": ""}
    if code == "unknown_field" and "dealer" in body:
        body = {"number": 4}
        field = "number"
    refused_write(
        api, game_id, "PUT", f"/games/{game_id}/deals/4", body, key=key, status=422, code=code, field=field
    )


BIDS = {"Ann": 3, "Bob": 2, "Cid": 3, "Dee": 4}
MISERE_TRICKS = {"Ann": 2, "Bob": 2, "Cid": 5, "Dee": 4}


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "bids_required", "bids"),
        ({"tricks": MISERE_TRICKS}, "bids_required", "bids"),
        ({"bids": None}, "bids_required", "bids"),
        ({"bids": {"Ann": 3, "Bob": 2, "Cid": 3}}, "bids_required", "bids"),
        ({"bids": {**BIDS, "Eve": 1}}, "bids_required", "bids"),
        ({"bids": [3, 2, 3, 4]}, "bids_required", "bids"),
        ({"bids": "3,2,3,4"}, "bids_required", "bids"),
        ({"bids": {**BIDS, "Ann": 14}}, "bid_range", "bids"),
        ({"bids": {**BIDS, "Ann": -1}}, "bid_range", "bids"),
        ({"bids": {**BIDS, "Ann": "3"}}, "bid_range", "bids"),
        ({"bids": {**BIDS, "Ann": 3.0}}, "bid_range", "bids"),
        ({"bids": {**BIDS, "Ann": False}}, "bid_range", "bids"),
        # Cid deals deal 1 and bids last: Ann 3 + Bob 2 + Dee 4 = 9, so Cid may not bid 4.
        ({"bids": {**BIDS, "Cid": 4}}, "hook_rule", "bids"),
        ({"bids": BIDS, "contract": "spades"}, "unknown_contract", "contract"),
        ({"bids": BIDS, "tricks": {**MISERE_TRICKS, "Dee": 5}}, "tricks_sum", "tricks"),
        ({"bids": BIDS, "tricks": {"Ann": 2, "Bob": 2, "Cid": 9}}, "tricks_players", "tricks"),
        ({"bids": BIDS, "scores": {"Ann": 1}}, "unknown_field", "scores"),
    ],
)
def test_misere_deal_refusals(api: Api, body: dict[str, Any], code: str, field: str) -> None:
    game_id, key = started(api, MISERE)
    refused_write(
        api, game_id, "POST", f"/games/{game_id}/deals", body, key=key, status=422, code=code, field=field
    )


def test_misere_bids_not_allowed_on_deals_7_and_8(api: Api) -> None:
    game_id, key = started(api, MISERE)
    bids = {"Ann": 0, "Bob": 0, "Cid": 0, "Dee": 0}
    tricks = {"Ann": 13, "Bob": 0, "Cid": 0, "Dee": 0}
    for _ in range(6):
        api.record(game_id, key, {"bids": bids, "tricks": tricks})
    for bad_bids in (bids, [0, 0, 0, 0], {}, 0):
        refused_write(
            api,
            game_id,
            "POST",
            f"/games/{game_id}/deals",
            {"bids": bad_bids, "tricks": tricks},
            key=key,
            status=422,
            code="bids_not_allowed",
            field="bids",
        )
    api.record(game_id, key, {"tricks": tricks})
    refused_write(
        api,
        game_id,
        "PUT",
        f"/games/{game_id}/deals/7",
        {"bids": bids},
        key=key,
        status=422,
        code="bids_not_allowed",
    )
    # And bids are required when a bidding deal is corrected.
    refused_write(
        api,
        game_id,
        "PUT",
        f"/games/{game_id}/deals/1",
        {"bids": None},
        key=key,
        status=422,
        code="bids_required",
    )


# -- no 500 for any junk ------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["Ann", "Bob", "Cid", "hearts", "mizerka", "misere"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["Ann", "Bob", "Cid", "Dee", "x"]) | st.text(max_size=5), children, max_size=4
        )
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["number", "contract", "bids", "tricks", "ruleset", "players", "first_dealer", "options"]
)
BODIES = st.dictionaries(FIELDS, JSON_VALUES, max_size=4) | JSON_VALUES
FUZZ = settings(
    max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def test_junk_never_causes_a_server_error(api: Api) -> None:
    game_id, key = started(api)
    api.record(game_id, key, {"contract": "hearts", "tricks": TRICKS})

    @FUZZ
    @given(body=BODIES)
    def create(body: Any) -> None:
        response = api.call("POST", "/games", data=_dump(body), content_type="application/json")
        assert response.status_code in {201, 400, 422}, response.get_json()

    @FUZZ
    @given(body=BODIES, method=st.sampled_from(["POST", "PUT"]))
    def write(body: Any, method: str) -> None:
        path = f"/games/{game_id}/deals" if method == "POST" else f"/games/{game_id}/deals/1"
        before = api.call("GET", f"/games/{game_id}")
        response = api.call(method, path, data=_dump(body), content_type="application/json", key=key)
        assert response.status_code in {200, 201, 400, 409, 422}, response.get_json()
        if response.status_code >= 400:
            assert api.call("GET", f"/games/{game_id}").get_json() == before.get_json()

    create()
    write()


def _dump(body: Any) -> str:
    import json

    return json.dumps(body)
