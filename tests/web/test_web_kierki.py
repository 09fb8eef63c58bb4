"""Kierki at the table, by the pages' forms: RULES.md 3.10's worked example played deal by deal as the
page posts it (counts by seat, a player by seat, the suit; a trump deal's suit saved alone first), the
part and the sum of the totals on the page, the preview, a correction, and every refusal shown at
the field it names, in the page's language, nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, db_snapshot, kierki_games, page, parse_html, start_game, text_of

KIERKI = kierki_games()
FOUR = KIERKI.FOUR
COUNTED = ("tricks", "hearts", "queens", "kings_jacks")


def as_posted(body: dict[str, Any], names: list[str] = FOUR) -> dict[str, Any]:
    """An API deal body as the page posts it: each count by seat, each player by seat."""
    data: dict[str, Any] = {}
    for field, value in body.items():
        if field in COUNTED:
            data.update({f"{field}-{seat}": value[name] for seat, name in enumerate(names)})
        elif field == "places":
            data.update({f"places-{i}": names.index(name) for i, name in enumerate(value)})
        elif field == "trumps":
            data["trumps"] = value
        else:
            data[field] = names.index(value)
    return data


def post_deal(
    client: FlaskClient, game_id: str, number: int, body: dict[str, Any], tricks: bool = False
) -> Any:
    """The game page's Save: the next deal (or, ``tricks``, the results of the declared one)."""
    html = page(client, f"/games/{game_id}")
    data = {"csrf_token": csrf_from(html), "number": number, **as_posted(body)}
    path = f"/games/{game_id}/deals/{number}/tricks" if tricks else f"/games/{game_id}/deals"
    return client.post(path, data=data)


def new_game(client: FlaskClient, deals: int = 0) -> str:
    game_id = start_game(client, FOUR, "0", game="kierki")
    for number, (body, _scores) in enumerate(KIERKI.EXAMPLE[:deals], start=1):
        assert post_deal(client, game_id, number, body).status_code == 303
    return game_id


def totals(client: FlaskClient, game_id: str) -> list[str]:
    board = parse_html(page(client, f"/games/{game_id}")).find("section", cls="scoreboard")
    return [item.text for item in board.find_all("span", cls="points")]


def test_the_worked_example_by_the_pages_forms(client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="kierki")
    html = page(client, f"/games/{game_id}")
    heading = parse_html(html).find("h1", id="turn-heading").text
    assert heading == "Negative part, 1 of 7: No tricks"
    running = [0, 0, 0, 0]
    for number, (body, scores) in enumerate(KIERKI.EXAMPLE, start=1):
        if "trumps" in body:
            # The suit is the declaration: saved alone, the deal waits for its tricks.
            assert post_deal(client, game_id, number, {"trumps": body["trumps"]}).status_code == 303
            card = parse_html(page(client, f"/games/{game_id}")).find("section", id="turn")
            assert card.find("form", cls="tricks-form").attrs["action"].endswith(f"/deals/{number}/tricks")
            assert "Positive part" in card.find("h1").text
            response = post_deal(client, game_id, number, {"tricks": body["tricks"]}, tricks=True)
        else:
            response = post_deal(client, game_id, number, body)
        assert response.status_code == 303, text_of(response.get_data(as_text=True))
        running = [total + score for total, score in zip(running, scores, strict=True)]
        if number == 7:
            html = page(client, f"/games/{game_id}")
            assert "Sum −2,600" in text_of(html)
            heading = parse_html(html).find("h1", id="turn-heading").text
            assert heading == "Positive part, 1 of 5: Darek names trumps"
            assert "Darek names trumps" in text_of(html)
    assert totals(client, game_id) == ["+295", "−430", "+620", "−485"]
    html = page(client, f"/games/{game_id}")
    assert "Sum 0" in text_of(html)
    assert "Winner: Celina" in text_of(html)


def test_the_parts_headings_in_polish(client: FlaskClient) -> None:
    game_id = new_game(client, deals=4)
    client.set_cookie("lang", "pl")
    html = page(client, f"/games/{game_id}")
    assert parse_html(html).find("h1", id="turn-heading").text == "Rozgrywka, 5 z 7: Bez króla kier"
    game_id = new_game(client, deals=8)
    html = page(client, f"/games/{game_id}")
    assert parse_html(html).find("h1", id="turn-heading").text.startswith("Odgrywka, 2 z 5:")


def test_the_preview_scores_the_robber_as_the_save_will(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, deals=6)
    token = csrf_from(page(client, f"/games/{game_id}"))
    before = db_snapshot(app)
    data = {"csrf_token": token, "form": "declare", **as_posted(KIERKI.ROBBER)}
    answer = client.post(f"/games/{game_id}/deals/7/preview", data=data).get_json()
    assert answer["scores"] == [-235, -480, -130, -455]
    assert answer["totals"] == [-505, -805, -480, -810]
    # Not all in yet: nothing to say.
    data.pop("last_trick")
    answer = client.post(f"/games/{game_id}/deals/7/preview", data=data).get_json()
    assert answer["scores"] is None and answer["error"] is None
    # R2: said at the king of hearts.
    data = {"csrf_token": token, "form": "declare", **as_posted(KIERKI.KH_NO_HEART)}
    answer = client.post(f"/games/{game_id}/deals/7/preview", data=data).get_json()
    assert answer["error"]["field"] == "king_of_hearts"
    assert answer["error"]["message"].startswith("Celina took the king of hearts but no heart")
    assert db_snapshot(app) == before


ROBBER = KIERKI.ROBBER
by = KIERKI.by
# (deal number, what is posted, the field the refusal is shown at, what it says)
REFUSALS: list[tuple[int, dict[str, Any], str, str]] = [
    (1, {"tricks": by(2, 5, 0, 5)}, "tricks", "Tricks must add up to 13 (got 12)."),
    (2, {"hearts": by(4, 0, 7, 1)}, "hearts", "Hearts must add up to 13 (got 12)."),
    (3, {"queens": by(1, 2, 0, 2)}, "queens", "Queens must add up to 4 (got 5)."),
    (4, {"kings_jacks": by(3, 1, 2, 3)}, "kings_jacks", "Kings and jacks must add up to 8 (got 9)."),
    (5, {}, "king_of_hearts", "Tap the player who took it."),
    (6, {"seventh_trick": "Bartek"}, "last_trick", "Tap the player who took it."),
    (12, {"places": ["Celina", "Celina"]}, "places", "(Celina is given twice)"),
    # R1: a player with no trick holding a heart; the seventh trick; both tricks with one trick
    (7, {**ROBBER, "tricks": by(3, 4, 0, 6), "queens": by(0, 1, 1, 2)}, "queens", "Celina has no trick"),
    (
        7,
        {
            **ROBBER,
            "seventh_trick": "Celina",
            "tricks": by(3, 4, 0, 6),
            "hearts": by(2, 5, 0, 6),
            "queens": by(0, 2, 0, 2),
            "kings_jacks": by(2, 4, 0, 2),
        },
        "seventh_trick",
        "Celina has no trick, so cannot have taken the seventh trick.",
    ),
    (
        7,
        {
            **ROBBER,
            "tricks": by(3, 4, 5, 1),
            "hearts": by(2, 5, 6, 0),
            "queens": by(0, 1, 3, 0),
            "kings_jacks": by(2, 3, 3, 0),
            "seventh_trick": "Darek",
        },
        "last_trick",
        "Darek took both the seventh and the last trick",
    ),
    # R2, R3
    (7, KIERKI.KH_NO_HEART, "king_of_hearts", "Celina took the king of hearts but no heart"),
    (7, {**ROBBER, "tricks": by(1, 4, 4, 4), "hearts": by(6, 1, 0, 6)}, "tricks", "Ala has at least"),
]


@pytest.mark.parametrize(("number", "body", "field", "said"), REFUSALS)
def test_each_refusal_is_shown_at_its_field(
    app: Flask, client: FlaskClient, number: int, body: dict[str, Any], field: str, said: str
) -> None:
    game_id = new_game(client, deals=number - 1)
    before = db_snapshot(app)
    response = post_deal(client, game_id, number, body)
    assert response.status_code == 422
    form = parse_html(response.get_data(as_text=True)).find("section", id="turn")
    error = form.find("p", id=f"error-{field}")
    assert said in error.text, error.text
    # Shown inside the field it names.
    assert form.find("fieldset", **{"data-kind": field} if field in COUNTED else {"data-field": field}).first(
        "p", id=f"error-{field}"
    )
    assert db_snapshot(app) == before


def test_a_blank_count_is_refused_at_its_box_in_polish(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, deals=1)
    client.set_cookie("lang", "pl")
    html = page(client, f"/games/{game_id}")
    response = client.post(
        f"/games/{game_id}/deals",
        data={
            "csrf_token": csrf_from(html),
            "number": 2,
            "hearts-0": "4",
            "hearts-1": "",
            "hearts-2": "7",
            "hearts-3": "2",
        },
    )
    assert response.status_code == 422
    tree = parse_html(response.get_data(as_text=True))
    assert tree.find("input", id="hearts-1").attrs["aria-invalid"] == "true"
    assert "Bartek" in tree.find("p", id="error-hearts").text


def test_a_trump_deal_needs_its_suit(client: FlaskClient) -> None:
    game_id = new_game(client, deals=7)
    response = post_deal(client, game_id, 8, {"tricks": by(3, 2, 4, 4)})
    assert response.status_code == 422
    error = parse_html(response.get_data(as_text=True)).find("p", id="error-trumps")
    assert error.text == "Darek deals deal 8 and names trumps: give the trump suit."
    # Refused, the page keeps what was tapped.
    tree = parse_html(response.get_data(as_text=True))
    assert tree.find("input", id="tricks-2").attrs["value"] == "4"


def test_a_correction_takes_the_same_fields(client: FlaskClient) -> None:
    game_id = new_game(client, deals=8)
    html = page(client, f"/games/{game_id}/deals/7/edit")
    tree = parse_html(html)
    assert tree.find("input", id="hearts-1").attrs["value"] == "5"
    assert "checked" in tree.find("input", id="king_of_hearts-1").attrs
    data = {"csrf_token": csrf_from(html), "version": tree.find("input", id="version").attrs["value"]}
    data.update(as_posted({**ROBBER, "king_of_hearts": "Darek", "hearts": by(2, 4, 0, 7)}))
    response = client.post(f"/games/{game_id}/deals/7/edit", data=data)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))
    # The king of hearts and a heart moved from Bartek to Darek: 170 points.
    assert totals(client, game_id) == ["−430", "−585", "−380", "−880"]
    # A correction that breaks R2 is refused at the king of hearts.
    html = page(client, f"/games/{game_id}/deals/7/edit")
    tree = parse_html(html)
    data = {"csrf_token": csrf_from(html), "version": tree.find("input", id="version").attrs["value"]}
    data.update(as_posted({**ROBBER, "king_of_hearts": "Celina"}))
    response = client.post(f"/games/{game_id}/deals/7/edit", data=data)
    assert response.status_code == 422
    assert (
        "Celina took the king of hearts"
        in parse_html(response.get_data(as_text=True)).find("p", id="error-king_of_hearts").text
    )
    # A trump deal's suit is corrected like any field.
    html = page(client, f"/games/{game_id}/deals/8/edit")
    tree = parse_html(html)
    data = {"csrf_token": csrf_from(html), "version": tree.find("input", id="version").attrs["value"]}
    data.update(as_posted({"trumps": "clubs", "tricks": by(3, 2, 4, 4)}))
    assert client.post(f"/games/{game_id}/deals/8/edit", data=data).status_code == 303
    assert "Trumps ♣" in text_of(page(client, f"/games/{game_id}"))


def test_the_offline_entry_is_given_every_fact_of_a_kierki_deal(client: FlaskClient) -> None:
    """A deal entered without the network is the deal the table played: the page gives its offline
    entry each deal's fields, what each count adds up to, the deals recorded with all their facts
    (counts by seat, players by name, as the script sends them), each deal's heading, and a drawing
    of every field, the same as the page's own."""
    game_id = new_game(client, deals=7)
    assert post_deal(client, game_id, 8, {"trumps": "spades"}).status_code == 303
    tree = parse_html(page(client, f"/games/{game_id}"))
    plan = json.loads(tree.find("div", id="offline-plan").attrs["data-plan"] or "")
    assert plan["sync"] == f"/games/{game_id}/sync/deals"
    assert plan["totals"] == {"tricks": 13, "hearts": 13, "queens": 4, "kings_jacks": 8}
    assert [slot["fields"] for slot in plan["schedule"][4:]] == [
        ["king_of_hearts"],
        ["seventh_trick", "last_trick"],
        ["tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "seventh_trick", "last_trick"],
        *[["trumps", "tricks"]] * 4,
        ["places"],
    ]
    nothing = dict.fromkeys(("bids", "tricks", "hearts", "queens", "kings_jacks", "places"))
    assert plan["deals"][4] == {
        **nothing,
        "number": 5,
        "contract": "no-king-of-hearts",
        "trumps": None,
        "king_of_hearts": "Celina",
        "seventh_trick": None,
        "last_trick": None,
    }
    assert plan["deals"][6] == {
        "number": 7, "contract": "robber", "bids": None, "trumps": None, "places": None,
        "tricks": [3, 4, 2, 4], "hearts": [2, 5, 0, 6], "queens": [0, 1, 1, 2], "kings_jacks": [2, 3, 1, 2],
        "king_of_hearts": "Bartek", "seventh_trick": "Ala", "last_trick": "Darek",
    }  # fmt: skip
    assert plan["deals"][7]["trumps"] == "spades" and plan["deals"][7]["tricks"] is None
    # Every field drawn once, as the page draws it: a count row per player, a player or a suit by one tap.
    fields = tree.find("template", id="offline-numbers")
    assert [fs.attrs["data-kind"] for fs in fields.find_all("fieldset", cls="numbers")] == list(COUNTED)
    assert [fs.attrs["data-field"] for fs in fields.find_all("fieldset", cls="takers")] == [
        "trumps", "king_of_hearts", "seventh_trick", "last_trick", "places", "places",
    ]  # fmt: skip
    assert len(fields.find_all("input", type="radio")) == 4 + 4 * 5
    # Each deal's heading, as the page says it: a trump deal's with each suit it may name.
    deal = tree.find("template", id="offline-deals").find("div", data_deal="8")
    headings = {
        span.attrs.get("data-trumps"): span.text for span in deal.find_all("span", data_text="pending")
    }
    assert headings["spades"] == "Positive part, 1 of 5: trumps ♠"
    assert headings[None] == "Positive part, 1 of 5: Darek names trumps"
    deal = tree.find("template", id="offline-deals").find("div", data_deal="5")
    assert deal.find("span", data_text="declare").text == "Negative part, 5 of 7: No king of hearts"


def test_the_part_grid_says_its_column_marks_in_words(client: FlaskClient) -> None:
    """The part grid's columns are headed by short marks (Tr, Q, KJ...): a key under it says each in
    the page's language, on the game page and so on the printed sheet."""
    game_id = new_game(client, deals=2)
    key = parse_html(page(client, f"/games/{game_id}")).find("p", cls="grid-key").text
    assert key == (
        "Tr No tricks · ♥ No hearts · Q No queens · KJ No kings or jacks · K♥ No king of hearts · "
        "7/L No seventh or last trick · Rob Robber · FT Fan Tan"
    )
    client.set_cookie("lang", "pl")
    key = parse_html(page(client, f"/games/{game_id}/scoresheet")).find("p", cls="grid-key").text
    assert key.startswith("L Bez lew · ♥ Bez kierów · D Bez dam · KW Bez panów")
    assert key.endswith("Lot Loteryjka")
