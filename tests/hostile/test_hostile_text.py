"""Text that a database refuses or a reader cannot see: refused alike on SQLite and PostgreSQL.

NUL and lone surrogates (PostgreSQL refuses them, SQLite would store them), and
invisible or blank-rendering characters in names, on every route that takes
text: the new-game form, rename and both merge forms, import (form and API),
create and deals through the API, the hand-over and administrator sign-in.
Every refusal is a 4xx, never a 500, and nothing changes.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import emoji_sequences, is_invisible, name_key
from scorekeeper.rules.names import is_pictographic
from tests.helpers import db_snapshot, edit_key, page, parse_html, start_mizerka
from tests.hostile.hostile_support import BASE, NAMES, Unchanged, api_game, assert_api_error, bearer, token

#: NUL breaks PostgreSQL; the rest are invisible, or render blank, or disguise a name.
HOSTILE = [
    "A\x00n",
    "\x00",
    "Bo\u034fb",  # combining grapheme joiner
    "Bob\ufe0f",  # variation selector
    "Bo\u200bb",  # zero-width space
    "\u3164",  # Hangul filler
    "\u2800",  # Braille blank
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # halfwidth Hangul filler
    "Bo\u202eb",  # right-to-left override
    "\U000e0041nn",  # tag character
    "A\u00adnn",  # soft hyphen
    "\u0301",  # a lone combining accent: nothing visible of its own
]
#: A lone surrogate can only arrive as a JSON escape (it is not UTF-8).
SURROGATE_JSON = '"A\\ud800n"'


def new_game_form(client: FlaskClient, names: list[str], note: str = "") -> int:
    data = {"csrf_token": token(client), "first_dealer": "0", "note": note}
    data.update({f"players-{seat}": name for seat, name in enumerate(names)})
    return client.post("/games/new?game=mizerka", data=data).status_code


@pytest.mark.parametrize("hostile", HOSTILE)
def test_names_in_the_new_game_form_and_the_api(app: Flask, client: FlaskClient, hostile: str) -> None:
    with Unchanged(app):
        assert new_game_form(client, ["Ann", hostile, "Cid"]) == 422
        assert (
            new_game_form(client, ["Ann", "Bob", "Cid"], note=hostile if "\x00" in hostile else "x\x00")
            == 422
        )
        response = client.post(f"{BASE}/games", json={"players": ["Ann", hostile, "Cid"]})
        assert_api_error(response, 422, "invalid_players")
        # A look-alike of a seated name finds that seat (as "bob" finds Bob); anything else is unknown.
        body = {"players": ["Ann", "Bob", "Cid"], "first_dealer": hostile + "zz"}
        assert_api_error(client.post(f"{BASE}/games", json=body), 422, "unknown_player")


def test_lone_surrogates_through_the_api(app: Flask, client: FlaskClient) -> None:
    game_id, key = api_game(client, deals=1)
    with Unchanged(app):
        for body, code in [
            (('{"players": ["Ann", @, "Cid"]}').replace("@", SURROGATE_JSON), "invalid_players"),
            (
                ('{"players": ["Ann", "Bob", "Cid"], "first_dealer": @}').replace("@", SURROGATE_JSON),
                "unknown_player",
            ),
            (
                ('{"players": ["Ann", "Bob", "Cid"], "ruleset": @}').replace("@", SURROGATE_JSON),
                "unknown_ruleset",
            ),
        ]:
            response = client.post(f"{BASE}/games", data=body, content_type="application/json")
            assert_api_error(response, 422, code)
        body = ('{"number": 2, "contract": @}').replace("@", SURROGATE_JSON)
        response = client.post(
            f"{BASE}/games/{game_id}/deals", data=body, content_type="application/json", headers=bearer(key)
        )
        assert_api_error(response, 422, "unknown_contract")
        body = ('{"tricks": {@: 1, "Ann": 8, "Bob": 4}}').replace("@", SURROGATE_JSON)
        response = client.put(
            f"{BASE}/games/{game_id}/deals/1", data=body, content_type="application/json", headers=bearer(key)
        )
        assert_api_error(response, 422, "tricks_players")


@pytest.mark.parametrize("hostile", ["\x00", "Ann\x00", "\u3164", "Bo\u034fb"])
def test_text_in_deal_fields(app: Flask, client: FlaskClient, hostile: str) -> None:
    game_id, key = api_game(client, deals=1)
    web_id = start_mizerka(client, deals=1)
    with Unchanged(app):
        response = client.post(
            f"{BASE}/games/{game_id}/deals", json={"number": 2, "contract": hostile}, headers=bearer(key)
        )
        assert_api_error(response, 422, "unknown_contract")
        response = client.put(
            f"{BASE}/games/{game_id}/deals/1",
            json={"tricks": {hostile + "zz": 8, "Bob": 4, "Cid": 1}},
            headers=bearer(key),
        )
        assert_api_error(response, 422, "tricks_players")
        csrf = token(client)
        assert (
            client.post(
                f"/games/{web_id}/deals", data={"csrf_token": csrf, "number": "2", "contract": hostile}
            ).status_code
            == 422
        )
        tricks = {"tricks-0": hostile, "tricks-1": "4", "tricks-2": "1"}
        assert (
            client.post(
                f"/games/{web_id}/deals/1/edit",
                data={"csrf_token": csrf, "version": "2", "contract": "hearts", **tricks},
            ).status_code
            == 422
        )


@pytest.mark.parametrize("hostile", HOSTILE)
def test_names_in_rename_and_both_merge_forms(app: Flask, client: FlaskClient, hostile: str) -> None:
    start_mizerka(client)  # this browser holds the key of every game: it may manage these people
    from scorekeeper.services import find_player

    with app.app_context():
        bob = find_player("Bob").id
    with Unchanged(app):
        csrf = token(client)
        response = client.post(f"/players/{bob}/rename", data={"csrf_token": csrf, "name": hostile})
        assert response.status_code == 422
        assert parse_html(response.get_data(as_text=True)).find(id="error-name")
        assert (
            client.post(f"/players/{bob}/merge", data={"csrf_token": csrf, "keep": hostile}).status_code
            == 422
        )
        for fill in ({"duplicate": hostile, "keep": "Ann"}, {"duplicate": "Bob", "keep": hostile}):
            response = client.post("/players/merge", data={"csrf_token": csrf, **fill})
            assert response.status_code == 422, fill


@pytest.mark.parametrize("hostile", ["A\x00n", "\u3164", "Bo\u034fb", "\u2800"])
def test_text_in_imported_files(app: Flask, client: FlaskClient, hostile: str) -> None:
    game_id = start_mizerka(client, deals=2)
    export = json.loads(page(client, f"/games/{game_id}/export.json"))
    cases = [
        ({**export, "players": ["Ann", hostile, "Cid"]}, "invalid_players"),
        ({**export, "note": "x" + hostile + "\x00"}, "invalid_note"),
        ({**export, "first_dealer": hostile + "zz"}, "unknown_player"),
        ({**export, "ruleset": hostile}, "unknown_ruleset"),
    ]
    with Unchanged(app):
        for body, code in cases:
            assert_api_error(client.post(f"{BASE}/games/import", json=body), 422, code)
            response = client.post(
                "/games/import", data={"csrf_token": token(client), "text": json.dumps(body)}
            )
            assert response.status_code == 422, code
        body = json.dumps(export).replace('"Bob"', SURROGATE_JSON, 1)
        response = client.post(f"{BASE}/games/import", data=body, content_type="application/json")
        assert_api_error(response, 422)


def test_keys_with_hostile_text_are_just_wrong_keys(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    stranger = app.test_client()
    real = edit_key(client, game_id)
    with Unchanged(app):
        for key in ("\x00", real + "\x00", "\u3164"):
            response = stranger.post(
                f"/games/{game_id}/take", data={"csrf_token": token(stranger), "key": key}
            )
            assert response.status_code == 403
            response = stranger.post("/admin", data={"csrf_token": token(stranger), "key": key})
            assert response.status_code == 403
            response = stranger.delete(f"{BASE}/games/{game_id}/deals/1", headers=bearer(key))
            assert_api_error(response, 403, "bad_key")


def test_a_nul_in_a_game_id_is_a_404(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    with Unchanged(app):
        for url in (f"/games/{game_id}%00", f"/games/%00{game_id}/scoresheet", f"{BASE}/games/{game_id}%00"):
            assert client.get(url).status_code == 404, url


# -- look-alikes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("twin", ["BOB", "bob", "Ｂｏｂ", "ｂｏｂ", " Bob ", "Bob\u034f", "B\u200bob"])
def test_look_alike_names_cannot_share_a_table(app: Flask, client: FlaskClient, twin: str) -> None:
    with Unchanged(app):
        response = client.post(f"{BASE}/games", json={"players": ["Bob", twin, "Cid"]})
        assert_api_error(response, 422, "invalid_players")
        assert new_game_form(client, ["Bob", twin, "Cid"]) == 422


def test_a_look_alike_of_an_existing_person_is_that_person(app: Flask, client: FlaskClient) -> None:
    api_game(client, names=["Kim", "Lee", "Max"])
    before = db_snapshot(app)["players"]
    answer = client.post(f"{BASE}/games", json={"players": ["ＫＩＭ", "lee", "Ned"], "first_dealer": "kim"})
    assert answer.status_code == 201
    assert answer.get_json()["players"] == ["Kim", "Lee", "Ned"]
    assert len(db_snapshot(app)["players"]) == len(before) + 1  # only Ned is new


# -- the answer to a write shows what a later read shows ---------------------------------------------


def test_create_and_import_answer_with_the_stored_spelling(app: Flask, client: FlaskClient) -> None:
    api_game(client, names=["Kim", "Lee", "Max"])
    created = client.post(f"{BASE}/games", json={"players": ["KIM", "LEE", "Zoe"], "first_dealer": "KIM"})
    assert created.status_code == 201
    answer = created.get_json()
    read = client.get(f"{BASE}/games/{answer['id']}").get_json()
    assert answer["players"] == read["players"] == ["Kim", "Lee", "Zoe"]
    assert answer["first_dealer"] == read["first_dealer"] == "Kim"
    export = client.get(f"{BASE}/games/{answer['id']}/export").get_json()
    assert export["players"] == ["Kim", "Lee", "Zoe"]

    shouted = {**export, "players": ["KIM", "lee", "ZOE"], "first_dealer": "KIM"}
    imported = client.post(f"{BASE}/games/import", json=shouted)
    assert imported.status_code == 201
    answer = imported.get_json()
    read = client.get(f"{BASE}/games/{answer['id']}").get_json()
    assert answer["players"] == read["players"] == ["Kim", "Lee", "Zoe"]
    assert {k: v for k, v in answer.items() if k not in ("edit_key",)} == read

    # Through the new-game form: the game page shows the stored spelling too.
    game_id = None
    response = client.post(
        "/games/new?game=mizerka",
        data={
            "csrf_token": token(client),
            "first_dealer": "0",
            "players-0": "kim",
            "players-1": "max",
            "players-2": "Ola",
        },
    )
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"{BASE}/games/{game_id}").get_json()["players"] == ["Kim", "Max", "Ola"]


# -- properties ---------------------------------------------------------------------------------------

PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(names=st.lists(st.text(max_size=12), min_size=3, max_size=3))
def test_any_names_are_stored_visibly_distinct_or_refused(client: FlaskClient, names: list[str]) -> None:
    response = client.post(f"{BASE}/games", json={"players": names, "first_dealer": None})
    assert response.status_code in (201, 422), response.get_data(as_text=True)
    if response.status_code == 422:
        assert response.get_json()["error"]["code"] == "invalid_players"
        return
    stored = response.get_json()["players"]
    assert len({name_key(name) for name in stored}) == 3
    for name in stored:
        # Nothing hidden, but for the joiners and selectors of an emoji sequence ("👩‍💻").
        in_sequences = {at for start, end in emoji_sequences(name) for at in range(start, end)}
        assert name == name.strip()
        assert not any(is_invisible(char) and at not in in_sequences for at, char in enumerate(name))
        assert any(unicodedata.category(char)[0] in "LNPS" or is_pictographic(char) for char in name)


@PROPERTY
@given(text=st.text(max_size=60))
def test_any_text_in_the_forms_is_a_4xx_or_stored(client: FlaskClient, text: str) -> None:
    status = new_game_form(client, ["Ann", "Bob", text or "Cid"], note=text)
    assert status in (303, 422)
    response = client.post(
        "/players/merge", data={"csrf_token": token(client), "duplicate": text, "keep": "Ann"}
    )
    assert response.status_code in (403, 404, 409, 422)


#: A seated name with something the name rules refuse to store: it names no one (issue 31, point 10).
NOT_A_NAME = [
    "Ann\x00",
    "\x00Ann",
    "A\x00nn",
    "Ann\u200b",  # zero-width space
    "A\u200dnn",  # zero-width joiner between letters
    "Ann\ufe0f",  # a variation selector after a letter
    "An\u034fn",  # combining grapheme joiner
    "\u202eAnn",  # right-to-left override
    "A\u00adnn",  # soft hyphen
    "Ann\U000e0041",  # tag character
    "Ann\x07",
    "A\ud800nn",  # a lone surrogate (only as a JSON escape)
]


def _misere_game(client: FlaskClient) -> tuple[str, str]:
    players = ["Ann", "Bob", "Cid", "Dan"]
    body = {"ruleset": "misere", "players": players, "first_dealer": "Ann"}
    created = client.post(f"{BASE}/games", json=body)
    assert created.status_code == 201, created.get_json()
    return created.get_json()["id"], created.get_json()["edit_key"]


@pytest.mark.parametrize("hostile", NOT_A_NAME)
def test_a_name_the_rules_would_refuse_names_no_player(app: Flask, client: FlaskClient, hostile: str) -> None:
    game_id, key = api_game(client, deals=1)
    export = client.get(f"{BASE}/games/{game_id}/export").get_json()
    misere_id, misere_key = _misere_game(client)
    tricks = {hostile: 4, "Bob": 4, "Cid": 5}
    deals = f"{BASE}/games/{game_id}/deals"
    with Unchanged(app):
        created = client.post(f"{BASE}/games", json={"players": NAMES, "first_dealer": hostile})
        assert assert_api_error(created, 422, "unknown_player")["field"] == "first_dealer"
        for query in ("", "?dry_run=true"):
            body = {"number": 2, "contract": "mizerka", "tricks": tricks}
            recorded = client.post(deals + query, json=body, headers=bearer(key))
            assert assert_api_error(recorded, 422, "tricks_players")["field"] == "tricks"
        corrected = client.put(f"{deals}/1", json={"tricks": tricks}, headers=bearer(key))
        assert_api_error(corrected, 422, "tricks_players")
        patched = client.patch(deals, json={"deals": [{"number": 1, "tricks": tricks}]}, headers=bearer(key))
        assert_api_error(patched, 422, "tricks_players")
        bids = {hostile: 3, "Bob": 3, "Cid": 3, "Dan": 3}
        bid = client.post(f"{BASE}/games/{misere_id}/deals", json={"bids": bids}, headers=bearer(misere_key))
        assert assert_api_error(bid, 422, "bids_required")["field"] == "bids"
        # An export names players too: its first dealer and the keys of its deals' tricks.
        by_hostile = {**export, "first_dealer": hostile}
        imported = client.post(f"{BASE}/games/import", json=by_hostile)
        assert_api_error(imported, 422, "unknown_player")
        deal = dict(export["deals"][0])
        deal["tricks"] = {(hostile if name == "Ann" else name): n for name, n in deal["tricks"].items()}
        imported = client.post(f"{BASE}/games/import", json={**export, "deals": [deal]})
        assert_api_error(imported, 422, "tricks_players")
    # The same name as the rules store it still names its player: case, spaces, full-width forms.
    for same in ("ann", " Ann ", "\uff21\uff4e\uff4e"):
        body = {"players": NAMES, "first_dealer": same}
        created = client.post(f"{BASE}/games", json=body)
        assert created.status_code == 201 and created.get_json()["first_dealer"] == "Ann", created.get_json()
