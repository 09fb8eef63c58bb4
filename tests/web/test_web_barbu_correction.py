"""The correction page changes a Barbu deal's contract as the API's PUT and PATCH do (API.md B4,
corrections): the contract is chosen first (``?contract=``), the page then asks that contract's facts;
a contract the declarer played in another deal swaps the two deals' contracts and results in one
correction; a refusal is said at its field and changes nothing."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from helpers import csrf_from, page, parse_html, start_game, text_of
from test_web_barbu import EXAMPLE, FOUR, as_posted, post, totals
from werkzeug.datastructures import MultiDict


def played(client: FlaskClient, deals: int) -> str:
    game_id = start_game(client, FOUR, "0", game="barbu")
    for number, (body, _scores) in enumerate(EXAMPLE[:deals], start=1):
        assert post(client, game_id, number, body).status_code == 303
    return game_id


def edit_page(client: FlaskClient, game_id: str, number: int, contract: str | None = None) -> Any:
    url = f"/games/{game_id}/deals/{number}/edit" + (f"?contract={contract}" if contract else "")
    return page(client, url)


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/v1/games/{game_id}").get_json()
    return answer


def correct(client: FlaskClient, game_id: str, number: int, html: str, body: dict[str, Any]) -> Any:
    version = next(
        box.attrs["value"] for box in parse_html(html).find_all("input") if box.attrs.get("name") == "version"
    )
    data = [("csrf_token", csrf_from(html)), ("version", version), *as_posted(body)]
    return client.post(f"/games/{game_id}/deals/{number}/edit", data=MultiDict(data))


def test_the_contract_step_offers_the_declarers_contracts_and_the_swaps(client: FlaskClient) -> None:
    game_id = played(client, 6)
    step = parse_html(edit_page(client, game_id, 4)).find("form", cls="contract-step")
    buttons = step.find_all("button", cls="contract")
    # Deal 4 is Ala's No king of hearts; she played five others in deals 1-3, 5, 6 and has No last two left.
    assert [b.attrs["value"] for b in buttons] == [
        "no-tricks",
        "no-hearts",
        "no-queens",
        "no-king-of-hearts",
        "no-last-two",
        "trumps",
        "domino",
    ]
    notes = {b.attrs["value"]: [note.text for note in b.find_all("small", cls="swap-note")] for b in buttons}
    assert notes == {
        "no-tricks": ["Swaps with deal 6"],
        "no-hearts": ["Swaps with deal 3"],
        "no-queens": ["Swaps with deal 1"],
        "no-king-of-hearts": [],
        "no-last-two": [],
        "trumps": ["Swaps with deal 2"],
        "domino": ["Swaps with deal 5"],
    }
    assert [b.attrs["value"] for b in buttons if b.attrs["aria-pressed"] == "true"] == ["no-king-of-hearts"]


def test_a_swap_by_the_page_is_the_apis_patch(client: FlaskClient) -> None:
    # RULES 4.9: deals 4 and 6 entered the other way round, then swapped on deal 4's correction page.
    game_id = start_game(client, FOUR, "0", game="barbu")
    wrong = [EXAMPLE[0][0], EXAMPLE[1][0], EXAMPLE[2][0], EXAMPLE[5][0], EXAMPLE[4][0], EXAMPLE[3][0]]
    for number, body in enumerate(wrong, start=1):
        assert post(client, game_id, number, body).status_code == 303
    html = edit_page(client, game_id, 4, "no-king-of-hearts")
    card = parse_html(html)
    assert card.find("input", id="contract").attrs["value"] == "no-king-of-hearts"
    assert card.find("p", id="swap-hint").text == (
        "Saving gives deal 6 No tricks with the results recorded for this deal, in one correction."
    )
    # The K♥'s taker as deal 6 recorded it, ready to save.
    boxes = card.find_all("input")
    taker = [box.attrs["value"] for box in boxes if box.attrs.get("name") == "king_of_hearts"]
    checked = [
        box.attrs["value"]
        for box in card.find_all("input")
        if box.attrs.get("name") == "king_of_hearts" and "checked" in box.attrs
    ]
    assert taker == ["0", "1", "2", "3"] and checked == ["3"]
    response = correct(client, game_id, 4, html, EXAMPLE[3][0])
    assert response.status_code == 303, text_of(response.get_data(as_text=True))
    deals = state(client, game_id)["deals"]
    assert [deal["contract"] for deal in deals] == [
        "no-queens",
        "trumps",
        "no-hearts",
        "no-king-of-hearts",
        "domino",
        "no-tricks",
    ]
    assert deals[3]["king_of_hearts"] == "Darek" and deals[3]["tricks"] is None
    assert deals[5]["tricks"] == {"Ala": 4, "Bartek": 2, "Celina": 3, "Darek": 4}
    assert deals[5]["king_of_hearts"] is None
    # RULES 4.9's running totals after deal 6: +72 / −68 / +68 / −42.
    assert deals[5]["totals"] == {"Ala": 72, "Bartek": -68, "Celina": 68, "Darek": -42}
    assert totals(client, game_id) == ["+72", "−68", "+68", "−42"]


def test_a_contract_not_played_yet_takes_its_facts_in_the_same_post(client: FlaskClient) -> None:
    game_id = played(client, 6)
    html = edit_page(client, game_id, 4, "no-last-two")
    fields = {box.attrs.get("name") for box in parse_html(html).find_all("input")}
    assert {"penultimate_trick", "last_trick"} <= fields and "king_of_hearts" not in fields
    body = {"contract": "no-last-two", "penultimate_trick": "Bartek", "last_trick": "Darek"}
    response = correct(client, game_id, 4, html, body)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))
    deal = state(client, game_id)["deals"][3]
    assert deal["contract"] == "no-last-two"
    assert (deal["penultimate_trick"], deal["last_trick"]) == ("Bartek", "Darek")
    assert deal["king_of_hearts"] is None
    assert deal["scores"] == {
        "Ala": 0,
        "Bartek": -10,
        "Celina": 0,
        "Darek": -20,
    }  # the 12th −10, the 13th −20


def test_a_refused_contract_change_is_said_at_its_field_and_changes_nothing(client: FlaskClient) -> None:
    game_id = played(client, 6)
    before = client.get(f"/api/v1/games/{game_id}")
    # Missing the new contract's result: at the taps of the 12th trick.
    html = edit_page(client, game_id, 4, "no-last-two")
    response = correct(client, game_id, 4, html, {"contract": "no-last-two", "last_trick": "Darek"})
    assert response.status_code == 422
    said = parse_html(response.get_data(as_text=True))
    assert said.find("p", id="error-penultimate_trick").text == "Tap the player who took it."
    # Deal 2 swapping with deal 1 gives deal 1 Trumps (positive) with its doubles, Bartek's on Celina
    # among them: refused at the doubles, told of deal 1.
    html = edit_page(client, game_id, 2, "no-queens")
    response = correct(client, game_id, 2, html, {**EXAMPLE[0][0], "doubles": [("Darek", "Ala")]})
    assert response.status_code == 422
    said = parse_html(response.get_data(as_text=True))
    assert said.find("p", id="error-doubles").text == (
        "Deal 1: In trumps only the declarer (Ala) may be doubled: Bartek cannot double Celina."
    )
    after = client.get(f"/api/v1/games/{game_id}")
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json() == before.get_json()


def test_the_preview_of_a_swap_is_the_correction_it_saves(client: FlaskClient) -> None:
    # Deal 4 (No king of hearts, Darek −20) given No tricks with deal 6's counts: deal 4's scores are
    # deal 6's (−8 / −4 / −6 / −8); nothing stored.
    game_id = played(client, 6)
    before = client.get(f"/api/v1/games/{game_id}")
    html = edit_page(client, game_id, 4, "no-tricks")
    data = [("csrf_token", csrf_from(html)), ("form", "correct"), *as_posted(EXAMPLE[5][0])]
    answer = client.post(f"/games/{game_id}/deals/4/preview", data=MultiDict(data)).get_json()
    assert answer["error"] is None
    assert answer["scores"] == [-8, -4, -6, -8]
    # The running totals after deal 4 with the two deals the other way round: 10 − 8, −9 − 4, 29 − 6, −19 − 8.
    assert answer["totals"] == [2, -13, 23, -27]
    # A swap the rules refuse (deal 1 given Trumps with its doubles between non-declarers): said.
    html = edit_page(client, game_id, 2, "no-queens")
    data = [
        ("csrf_token", csrf_from(html)),
        ("form", "correct"),
        *as_posted({**EXAMPLE[0][0], "doubles": []}),
    ]
    answer = client.post(f"/games/{game_id}/deals/2/preview", data=MultiDict(data)).get_json()
    assert answer["error"]["code"] == "double_not_allowed" and answer["error"]["field"] == "doubles"
    after = client.get(f"/api/v1/games/{game_id}")
    assert after.headers["ETag"] == before.headers["ETag"]
