"""Barbu at the table, by the pages' forms: RULES.md 4.9's deals 1-8 as the page posts them (the contract
tapped, then its facts and the doubles saved in one post; the seventh contract chosen already), the doubles
the card offers (those RULES.md 4.6 allows, as the engine says), the obligation said before the deal, the
preview with each double's settlement, a correction of the doubles, and a refusal at its field."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import csrf_from, page, parse_html, signed, start_game, text_of
from werkzeug.datastructures import MultiDict

FOUR = ["Ala", "Bartek", "Celina", "Darek"]
COUNTED = ("tricks", "hearts", "queens")

# RULES.md 4.9, deals 1-8: the API's body (names) and each player's deal score, worked there by hand.
EXAMPLE: list[tuple[dict[str, Any], tuple[int, int, int, int]]] = [
    (
        {
            "contract": "no-queens",
            "queens": {"Ala": 1, "Bartek": 0, "Celina": 1, "Darek": 2},
            "doubles": [("Bartek", "Ala"), ("Bartek", "Celina"), ("Bartek", "Darek"), ("Celina", "Ala", "R")],
        },
        (-12, 24, -12, -24),
    ),
    (
        {
            "contract": "trumps",
            "trumps": "spades",
            "tricks": {"Ala": 5, "Bartek": 3, "Celina": 1, "Darek": 4},
            "doubles": [("Darek", "Ala")],
        },
        (30, 15, 5, 15),
    ),
    (
        {
            "contract": "no-hearts",
            "hearts": {"Ala": 2, "Bartek": 6, "Celina": 0, "Darek": 5},
            "ace_of_hearts": "Bartek",
            "doubles": [("Celina", "Ala"), ("Celina", "Bartek", "R")],
        },
        (-8, -48, 36, -10),
    ),
    ({"contract": "no-king-of-hearts", "king_of_hearts": "Darek"}, (0, 0, 0, -20)),
    (
        {
            "contract": "domino",
            "places": ["Celina", "Ala", "Darek", "Bartek"],
            "doubles": [("Bartek", "Ala", "R")],
        },
        (70, -55, 45, 5),
    ),
    ({"contract": "no-tricks", "tricks": {"Ala": 4, "Bartek": 2, "Celina": 3, "Darek": 4}}, (-8, -4, -6, -8)),
    (
        {
            "contract": "no-last-two",
            "penultimate_trick": "Bartek",
            "last_trick": "Bartek",
            "doubles": [("Darek", "Bartek")],
        },
        (0, -60, 0, 30),
    ),
    (
        {
            "contract": "no-tricks",
            "tricks": {"Ala": 3, "Bartek": 1, "Celina": 5, "Darek": 4},
            "doubles": [("Celina", "Bartek"), ("Darek", "Bartek", "R"), ("Ala", "Celina")],
        },
        (-2, 18, -22, -20),
    ),
]


def as_posted(body: dict[str, Any]) -> list[tuple[str, Any]]:
    """A deal as the page posts it: counts and players by seat, each double "by-against" (seats), its
    redouble "by-againstR"."""
    data: list[tuple[str, Any]] = []
    for field, value in body.items():
        if field in COUNTED:
            data += [(f"{field}-{seat}", value[name]) for seat, name in enumerate(FOUR)]
        elif field == "places":
            data += [(f"places-{i}", FOUR.index(name)) for i, name in enumerate(value)]
        elif field in ("trumps", "contract"):
            data.append((field, value))
        elif field == "doubles":
            for by, against, *again in value:
                pair = f"{FOUR.index(by)}-{FOUR.index(against)}"
                data.append(("doubles", pair))
                if again:
                    data.append(("doubles", pair + "R"))
        else:
            data.append((field, FOUR.index(value)))
    return data


def card(client: FlaskClient, game_id: str, contract: str | None = None) -> Any:
    url = f"/games/{game_id}" + (f"?contract={contract}" if contract else "")
    return parse_html(page(client, url)).find("section", id="turn")


def offered(section: Any) -> list[str]:
    boxes = section.find_all("input")
    return [
        box.attrs["value"]
        for box in boxes
        if box.attrs.get("name") == "doubles" and "R" not in box.attrs["value"]
    ]


def post(client: FlaskClient, game_id: str, number: int, body: dict[str, Any], path: str = "deals") -> Any:
    html = page(client, f"/games/{game_id}?contract={body['contract']}")
    data = [("csrf_token", csrf_from(html)), ("number", number), *as_posted(body)]
    return client.post(f"/games/{game_id}/{path}", data=MultiDict(data))


def totals(client: FlaskClient, game_id: str) -> list[str]:
    board = parse_html(page(client, f"/games/{game_id}")).find("section", cls="scoreboard")
    return [item.text for item in board.find_all("span", cls="points")]


@pytest.mark.every_database
def test_the_worked_example_by_the_pages_forms(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    running = [0, 0, 0, 0]
    for number, (body, scores) in enumerate(EXAMPLE, start=1):
        if number == 7:
            # The seventh contract is chosen already: the card asks its facts at once.
            seventh = card(client, game_id)
            assert not seventh.find_all("button", cls="contract")
            assert seventh.find("input", id="contract").attrs["value"] == "no-last-two"
            # Darek doubled Ala once, in deal 2: before deal 7 he still owes her one (never blocking).
            assert "Darek still owes Ala one double." in seventh.text
        else:
            links = card(client, game_id).find_all("button", cls="contract")
            assert body["contract"] in [link.attrs["value"] for link in links]
        response = post(client, game_id, number, body)
        assert response.status_code == 303, text_of(response.get_data(as_text=True))
        running = [total + score for total, score in zip(running, scores, strict=True)]
        assert totals(client, game_id) == [signed(total) for total in running], number
    assert running == [70, -110, 46, -32]


def test_the_card_offers_only_the_doubles_the_contract_allows(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    # Negative: each non-declarer (from Ala's left) against each other player, Ala included.
    negative = offered(card(client, game_id, "no-queens"))
    assert negative == ["1-0", "1-2", "1-3", "2-0", "2-1", "2-3", "3-0", "3-1", "3-2"]
    # Positive: only the declarer may be doubled; the declarer never doubles.
    positive = card(client, game_id, "trumps")
    assert offered(positive) == ["1-0", "2-0", "3-0"]
    assert "Doubling Ala" in positive.find("fieldset", cls="pairs").text


def test_the_preview_gives_each_doubles_settlement(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    for number, (body, _scores) in enumerate(EXAMPLE[:2], start=1):
        assert post(client, game_id, number, body).status_code == 303
    body = EXAMPLE[2][0]
    html = page(client, f"/games/{game_id}?contract=no-hearts")
    data = [("csrf_token", csrf_from(html)), ("form", "declare"), *as_posted(body)]
    answer = client.post(f"/games/{game_id}/deals/3/preview", data=MultiDict(data)).get_json()
    assert answer["error"] is None
    assert answer["scores"] == [-8, -48, 36, -10]
    assert answer["pairs"] == ["Celina × Ala: +4", "Celina × Bartek R: +32"]


def test_a_double_the_rules_refuse_is_said_at_the_doubles_nothing_stored(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    body = {**EXAMPLE[1][0], "doubles": [("Celina", "Bartek")]}
    response = post(client, game_id, 1, body)
    assert response.status_code == 422
    said = parse_html(response.get_data(as_text=True)).find("p", id="error-doubles")
    assert said.text == "In trumps only the declarer (Ala) may be doubled: Celina cannot double Bartek."
    assert totals(client, game_id) == ["0", "0", "0", "0"]


def test_a_correction_changes_the_doubles(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    assert post(client, game_id, 1, EXAMPLE[2][0]).status_code == 303
    html = page(client, f"/games/{game_id}/deals/1/edit")
    checked = [
        box.attrs["value"]
        for box in parse_html(html).find_all("input")
        if box.attrs.get("name") == "doubles" and "checked" in box.attrs
    ]
    assert checked == ["2-0", "2-1", "2-1R"]
    # Celina's redouble by Bartek was a slip: the double stands, not redoubled (32 → 16).
    without = {**EXAMPLE[2][0], "doubles": [("Celina", "Ala"), ("Celina", "Bartek")]}
    version = next(
        box.attrs["value"] for box in parse_html(html).find_all("input") if box.attrs.get("name") == "version"
    )
    data = [("csrf_token", csrf_from(html)), ("version", version), *as_posted(without)]
    response = client.post(f"/games/{game_id}/deals/1/edit", data=MultiDict(data))
    assert response.status_code == 303, text_of(response.get_data(as_text=True))
    assert totals(client, game_id) == ["−8", "−32", "+20", "−10"]


def test_each_contract_button_carries_the_mark_its_game_declares(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    buttons = card(client, game_id).find_all("button", cls="contract")
    marks = {button.attrs["value"]: button.find("span", cls="suit").text.strip() for button in buttons}
    # The marks the contract grid heads its columns with, not the first letters of an id ("No-").
    assert marks == {
        "no-tricks": "Tr",
        "no-hearts": "♥",
        "no-queens": "Q",
        "no-king-of-hearts": "K♥",
        "no-last-two": "12/13",
        "trumps": "Tru",
        "domino": "Dom",
    }


def test_the_offline_plan_says_each_reminder_with_the_count_it_follows_from(client: FlaskClient) -> None:
    """The offline card's reminders are the server's: before each deal to come, for each count of doubles
    a player may have made against the declarer by then, what the online card would say."""
    import json

    game_id = start_game(client, FOUR, "0", game="barbu")
    for number, (body, _scores) in enumerate(EXAMPLE[:5], start=1):
        assert post(client, game_id, number, body).status_code == 303
    html = page(client, f"/games/{game_id}")
    plan = json.loads(parse_html(html).find(id="offline-plan").attrs["data-plan"] or "")
    said = [(r["number"], r["seat"], r["made"], r["text"]) for r in plan["reminders"] if r["number"] <= 7]
    # Deal 6 leaves Ala two deals: whoever has not doubled her yet owes two now; deal 7 leaves one.
    assert said == [
        (6, 1, 0, "Bartek still owes Ala two doubles."),
        (6, 2, 0, "Celina still owes Ala two doubles."),
        (6, 3, 0, "Darek still owes Ala two doubles."),
        (7, 1, 0, "Bartek still owes Ala two doubles."),
        (7, 1, 1, "Bartek still owes Ala one double."),
        (7, 2, 0, "Celina still owes Ala two doubles."),
        (7, 2, 1, "Celina still owes Ala one double."),
        (7, 3, 0, "Darek still owes Ala two doubles."),
        (7, 3, 1, "Darek still owes Ala one double."),
    ]
    # Bartek's deals: the first of his seven owes nothing yet.
    assert [r for r in plan["reminders"] if r["number"] == 8] == []
    # The card's line to clone, in the page's drawing.
    template = parse_html(html).find("template", id="offline-reminder")
    assert "data-reminder" in template.find("p", cls="reminder").attrs
