"""The OpenAPI document: valid OpenAPI 3.1, complete, and true of the real answers."""

from __future__ import annotations

from typing import Any

import pytest
from api_support import BASE, DOCUMENT, Api, check_documented, schema_validator
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from scorekeeper import errors
from scorekeeper.api import shapes

MIZERKA = {"ruleset": "mizerka", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Ann"}


def test_served_document_is_valid_openapi(client: FlaskClient) -> None:
    response = client.get(f"{BASE}/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document == DOCUMENT
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_api_route_is_documented(app: Flask) -> None:
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(BASE + "/"):
            template = rule.rule.removeprefix(BASE)
            for converter in (
                "<game_id>",
                "<int:number>",
                "<night_id>",
                "<season_id>",
                "<int:player_id>",
                "<int:round_number>",
                "<int:table>",
            ):
                name = converter.strip("<>").split(":")[-1]
                template = template.replace(converter, "{" + name + "}")
            methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
            routes.setdefault(template, set()).update(methods)
    documented = {
        path: {m for m in item if m in {"get", "post", "put", "delete", "patch"}}
        for path, item in DOCUMENT["paths"].items()
    }
    assert routes == documented


def test_request_bodies_refuse_unknown_fields() -> None:
    bodies = {
        "CreateGame": (MIZERKA, {**MIZERKA, "colour": "red"}),
        "RecordDeal": (
            {"number": 1, "contract": "hearts", "tricks": {"Ann": 4, "Bob": 4, "Cid": 5}},
            {"contract": "hearts", "dealer": "Ann"},
        ),
        "CorrectDeal": ({"tricks": None}, {"number": 1}),
        "CorrectDeals": ({"deals": [{"number": 1, "contract": "clubs"}]}, {"deals": [], "dry_run": True}),
        "DealCorrection": ({"number": 2, "tricks": None}, {"number": 2, "dealer": "Ann"}),
    }
    for name, (good, bad) in bodies.items():
        schema = DOCUMENT["components"]["schemas"][name]
        assert schema["additionalProperties"] is False
        validator = schema_validator({"$ref": f"#/components/schemas/{name}"})
        assert not list(validator.iter_errors(good)), name
        assert list(validator.iter_errors(bad)), name


def test_every_write_needs_the_bearer_key() -> None:
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            # Creating a game (new, or imported from an export), a night or a season needs no key, nor
            # checking in at a night (its check-in page needs none either); changing one does.
            creating = ("/games", "/games/import", "/nights", "/nights/{night_id}/players", "/seasons")
            if method in {"post", "put", "patch", "delete"} and path not in creating:
                assert operation["security"] == [{"editKey": []}], (method, path)
                assert {"401", "403", "404"} <= set(operation["responses"]), (method, path)


def _validate(name: str, instance: Any) -> None:
    errors = list(schema_validator({"$ref": f"#/components/schemas/{name}"}).iter_errors(instance))
    assert not errors, [e.message for e in errors[:3]]


def test_real_answers_match_the_schemas(client: FlaskClient) -> None:
    """Create, state (fresh, pending, finished), deals and errors, against the named schemas."""
    api = Api(client)  # also checks each answer against its path, method and status
    created = api.create(
        {"ruleset": "misere", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": "Ann"}
    )
    _validate("GameCreated", created)
    game_id, key = created["id"], created["edit_key"]
    _validate("GameState", api.state(game_id))

    bids = {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}
    tricks = {"Ann": 10, "Bob": 1, "Cid": 1, "Dee": 1}
    pending = api.record(game_id, key, {"bids": bids})
    _validate("Deal", pending)
    _validate("GameState", api.state(game_id))
    for number in range(1, 9):
        body: dict[str, Any] = {"tricks": tricks}
        if number == 1:
            deal = api.correct(game_id, key, 1, body)
        else:
            if number <= 6:
                body["bids"] = bids
            deal = api.record(game_id, key, body)
        _validate("Deal", deal)
    finished = api.state(game_id)
    assert finished["status"] == "finished"
    _validate("GameState", finished)

    errors = [
        client.post(f"{BASE}/games", data="{", content_type="application/json"),
        client.post(f"{BASE}/games/{game_id}/deals", json={}),
        client.post(f"{BASE}/games/{game_id}/deals", json={}, headers={"Authorization": "Bearer nope"}),
        client.get(f"{BASE}/games/nosuchgame"),
        client.post(f"{BASE}/games/{game_id}/deals", json={}, headers={"Authorization": f"Bearer {key}"}),
        client.post(f"{BASE}/games", json={"players": []}),
        client.post(f"{BASE}/games", json={"players": ["x" * 70000]}),
    ]
    assert [r.status_code for r in errors] == [400, 401, 403, 404, 409, 422, 413]
    for response in errors:
        _validate("Error", response.get_json())


@pytest.mark.parametrize("status", ["400", "401", "403", "404", "409", "413", "422"])
def test_error_responses_use_the_error_shape(status: str) -> None:
    response = DOCUMENT["components"]["responses"][f"Error{status}"]
    schema = response["content"]["application/json"]["schema"]
    assert schema["required"] == ["error"]
    assert schema["properties"]["error"]["required"] == ["code", "message", "field"]
    assert set(schema["properties"]["error"]["properties"]["code"]["enum"]) <= set(
        DOCUMENT["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    )


def test_check_documented_catches_undocumented_fields(client: FlaskClient) -> None:
    """The strict check used by every test really refuses a property the document does not list."""
    api = Api(client)
    game_id = api.create(MIZERKA)["id"]
    response = client.get(f"{BASE}/games/{game_id}")
    response.set_data(response.get_data(as_text=True).replace('"status"', '"statos"', 1))
    with pytest.raises(AssertionError):
        check_documented("GET", f"{BASE}/games/{game_id}", response)


def test_every_shape_refusal_is_a_registered_api_code() -> None:
    """A request shape's own refusals (a wrong list of corrections, options not an object) are in the enum."""
    codes = {code for shape in shapes.REQUESTS for code, _ in shape.shape_refusals.values()}
    assert codes == {"invalid_deals", "invalid_options"}
    assert codes <= set(errors.api_codes(422))


def test_request_schemas_are_the_request_models() -> None:
    """Each request body in the document lists exactly its model's fields and refuses others."""
    for shape in shapes.REQUESTS:
        schema = DOCUMENT["components"]["schemas"][shape.__name__]
        assert set(schema["properties"]) == set(shape.model_fields), shape.__name__
        assert schema["additionalProperties"] is False, shape.__name__
