"""Bugs the fuzzers found, each pinned by the request that showed it."""

from __future__ import annotations

import pytest
from api_support import Api
from flask.testing import FlaskClient

MIZERKA = {"ruleset": "mizerka", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Ann"}


@pytest.mark.parametrize("if_match", ['""', 'W/""', '"", "x"'])
def test_an_empty_if_match_tag_is_stale_not_a_server_error(client: FlaskClient, if_match: str) -> None:
    """Schemathesis: ``If-Match: ""`` made Werkzeug hand the view a None tag, and the ETag match raised."""
    api = Api(client)
    created = api.create(MIZERKA)
    game_id, key = created["id"], created["edit_key"]
    api.record(game_id, key, {"contract": "hearts"})
    before = api.state(game_id)
    for method, body in (("PUT", {"tricks": {"Ann": 7, "Bob": 5, "Cid": 1}}), ("DELETE", None)):
        api.refused(
            method,
            f"/games/{game_id}/deals/1",
            body,
            key=key,
            headers={"If-Match": if_match},
            status=409,
            code="stale",
        )
    assert api.state(game_id) == before
