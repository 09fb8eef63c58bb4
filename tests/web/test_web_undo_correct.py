"""Undo the last deal, and correct any deal with every later total following."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    Node,
    csrf_from,
    db_snapshot,
    follow,
    page,
    parse_html,
    signed,
    start_mizerka,
    submit,
    text_of,
)

from scorekeeper.extensions import db
from scorekeeper.models import Deal


def undo_form(doc: Node, game_id: str) -> Node:
    return doc.find("form", action=f"/games/{game_id}/undo")


def deal_numbers(app: Flask) -> list[tuple[int, str | None, list[int] | None]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(Deal.number, Deal.contract, Deal.tricks).order_by(Deal.number)
        ).all()
        db.session.remove()
    return [(number, contract, tricks) for number, contract, tricks in rows]


def running_totals(doc: Node, number: int) -> list[str]:
    row = doc.find("tr", id=f"deal-{number}")
    return [cell.text.split(" = ")[1].split()[0] for cell in row.find_all("td")[1:]]


# -- undo -------------------------------------------------------------------------------------


def test_undo_removes_the_last_deal(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    doc = parse_html(page(client, f"/games/{game_id}"))
    details = doc.find("details", cls="undo")
    assert details.find("summary").text == "Undo deal 2"
    form = undo_form(doc, game_id)
    assert "Remove deal 2 (Clubs, chosen by Bob) from the game?" in form.text
    assert form.find("input", name="number").attrs["value"] == "2"

    response = submit(client, form)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    doc = parse_html(follow(client, response))
    assert doc.find(cls="flashes").text == "Deal 2 undone."
    assert deal_numbers(app) == [(1, "hearts", [8, 4, 1])]
    # Deal 2 is Bob's to choose again, with all six contracts; the totals are back to deal 1's.
    assert "Deal 2 of 18" in doc.find("section", aria_label="Running totals").text
    assert doc.find("section", aria_labelledby="turn-heading").find("h1").text == "Bob chooses"
    assert len([b for b in doc.find_all("button") if b.attrs.get("name") == "contract"]) == 6
    assert not doc.first("tr", id="deal-2")
    assert [li.text.split()[2] for li in doc.find("section", aria_label="Running totals").find_all("li")] == [
        "+1",
        "−1",
        "0",
    ]
    assert undo_form(doc, game_id).find("input", name="number").attrs["value"] == "1"


def test_undo_of_a_pending_declaration(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    declare_form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, declare_form, declare_form.find("button", value="mizerka")))
    assert deal_numbers(app)[-1] == (3, "mizerka", None)

    doc = parse_html(page(client, f"/games/{game_id}"))
    assert "Remove deal 3 (Mizerka, chosen by Cid) from the game?" in undo_form(doc, game_id).text
    response = submit(client, undo_form(doc, game_id))
    assert response.status_code == 303
    doc = parse_html(follow(client, response))
    assert doc.find(cls="flashes").text == "Deal 3 undone."
    assert [number for number, _, _ in deal_numbers(app)] == [1, 2]
    assert doc.find("section", aria_labelledby="turn-heading").find("h1").text == "Cid chooses"
    assert not doc.find_all("form", cls="tricks-form")
    assert "mizerka" in [b.attrs.get("value") for b in doc.find_all("button")]


def test_a_stale_undo_is_refused_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    stale = undo_form(parse_html(page(client, f"/games/{game_id}")), game_id)  # offers to undo deal 2
    declare_form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, declare_form, declare_form.find("button", value="mizerka")))
    before = db_snapshot(app)

    response = submit(client, stale)
    assert response.status_code == 409
    doc = parse_html(response.get_data(as_text=True))
    message = "This game changed since you opened the form; nothing was saved. Look again and retry."
    assert doc.find(id="error-undo").text == message
    assert "open" in doc.find("details", cls="undo").attrs
    assert db_snapshot(app) == before
    # The fresh page offers to undo the deal that is really last.
    assert undo_form(doc, game_id).find("input", name="number").attrs["value"] == "3"


def test_undo_after_the_last_deal_reopens_the_game(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=18)
    doc = parse_html(page(client, f"/games/{game_id}"))
    assert doc.find("section", cls="final")
    response = submit(client, undo_form(doc, game_id))
    assert response.status_code == 303
    doc = parse_html(follow(client, response))
    assert doc.find(cls="flashes").text == "Deal 18 undone."
    assert not doc.first("section", cls="final")
    assert "Deal 18 of 18" in doc.find("section", aria_label="Running totals").text
    # Cid's sixth turn again: his last contract, chosen already, its counts asked for.
    assert doc.find("h1", id="turn-heading").text == "Deal 18: Clubs, chosen by Cid"
    assert doc.find("form", cls="declare-form").find("input", name="contract").attrs["value"] == "clubs"
    assert [li.text.split()[2] for li in doc.find("section", aria_label="Running totals").find_all("li")] == [
        "+3",
        "+1",
        "−4",
    ]


def test_undo_of_a_deal_that_is_not_the_last_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)
    before = db_snapshot(app)
    token = csrf_from(page(client, f"/games/{game_id}"))
    response = client.post(f"/games/{game_id}/undo", data={"csrf_token": token, "number": 2})
    assert response.status_code == 409
    assert "Only the last deal (deal 3) can be undone; correct deal 2 instead." in text_of(
        response.get_data(as_text=True)
    )
    assert db_snapshot(app) == before


def test_undo_without_a_deal_number_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    before = db_snapshot(app)
    token = csrf_from(page(client, f"/games/{game_id}"))
    response = client.post(f"/games/{game_id}/undo", data={"csrf_token": token})
    assert response.status_code == 422
    assert "The form was incomplete; try again." in text_of(response.get_data(as_text=True))
    assert db_snapshot(app) == before


# -- correction -------------------------------------------------------------------------------


def test_the_correction_page_warns_that_later_totals_will_change(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=5)
    doc = parse_html(page(client, f"/games/{game_id}/deals/2/edit"))
    assert doc.find("h1").text == "Correct deal 2"
    assert [span.text for span in doc.find("p", cls="roles").find_all("span")] == ["Ann dealt", "Bob chose"]
    warning = doc.find(cls="warning").text
    assert "deals 3 to 5 come after this one" in warning
    assert "Their totals will change" in warning
    # The form starts from what was recorded.
    form = doc.find("form", method="post")
    assert form.attrs["action"] == f"/games/{game_id}/deals/2/edit"
    checked = [
        radio.attrs["value"] for radio in form.find_all("input", type="radio") if "checked" in radio.attrs
    ]
    assert checked == ["clubs"]
    assert [form.find("input", name=f"tricks-{seat}").attrs["value"] for seat in range(3)] == ["2", "6", "5"]
    # The game page links to it from the deal's row.
    game = parse_html(page(client, f"/games/{game_id}"))
    assert game.find("a", href=f"/games/{game_id}/deals/2/edit").attrs["aria-label"] == "Correct deal 2"


def test_the_last_deal_has_no_warning(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=5)
    doc = parse_html(page(client, f"/games/{game_id}/deals/5/edit"))
    assert doc.find("h1").text == "Correct deal 5"
    assert not doc.first(cls="warning")


def test_correcting_deal_2_moves_every_later_total(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=5)
    doc = parse_html(page(client, f"/games/{game_id}"))
    # Before, by hand: totals after deals 2..5.
    assert [running_totals(doc, n) for n in (2, 3, 4, 5)] == [
        ["+2", "−2", "0"],
        ["+3", "−4", "+1"],
        ["+1", "−2", "+1"],
        ["0", "0", "0"],
    ]
    form = parse_html(page(client, f"/games/{game_id}/deals/2/edit")).find("form", method="post")
    # Deal 2 (Clubs, Bob forehand 7, Cid middlehand 5, Ann dealer 1): Ann 3, Bob 6, Cid 4 tricks
    # scores Ann +2, Bob -1, Cid -1 instead of +1, -1, 0: Ann one up and Cid one down from then on.
    response = submit(client, form, fill={"tricks-0": 3, "tricks-1": 6, "tricks-2": 4})
    assert response.status_code == 303
    # The page opens at the entry card (the next step), not down in the log.
    assert response.headers["Location"] == f"/games/{game_id}#turn"
    doc = parse_html(follow(client, response))
    assert doc.find("section", id="turn") is not None
    assert doc.find(cls="flashes").text == "Deal 2 corrected; later totals follow."
    assert [running_totals(doc, n) for n in (1, 2, 3, 4, 5)] == [
        ["+1", "−1", "0"],
        ["+3", "−2", "−1"],
        ["+4", "−4", "0"],
        ["+2", "−2", "0"],
        ["+1", "0", "−1"],
    ]
    assert doc.find("tr", id="deal-2").find_all("td")[1].text == "+2 = +3 3 tr"
    assert [li.text.split()[2] for li in doc.find("section", aria_label="Running totals").find_all("li")] == [
        "+1",
        "0",
        "−1",
    ]
    grid = doc.find("table", cls="grid").find("tbody").find_all("tr")
    assert grid[1].find_all("td")[0].text == f"#2 {signed(-1)}"  # Bob's Clubs box: his score is unchanged
    assert [row.find_all("td")[-1].text for row in grid] == ["+1", "0", "−1"]
    assert deal_numbers(app)[1] == (2, "clubs", [3, 6, 4])


def test_correcting_a_contract_to_one_the_chooser_plays_later_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=5)  # Bob chose Clubs in deal 2 and Diamonds in deal 5
    form = parse_html(page(client, f"/games/{game_id}/deals/2/edit")).find("form", method="post")
    before = db_snapshot(app)
    response = submit(client, form, fill={"contract": "diamonds"})
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    # The refusal speaks of the deal being corrected, not of the later deal the replay stopped at.
    assert doc.find(id="error-contract").text == "Deal 2: Bob has already played Diamonds (deal 5)."
    assert db_snapshot(app) == before
    assert parse_html(page(client, f"/games/{game_id}")).find("tr", id="deal-2").find(
        "span", cls="contract-name"
    ).text == ("Clubs")


def test_a_correction_with_bad_tricks_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)
    form = parse_html(page(client, f"/games/{game_id}/deals/2/edit")).find("form", method="post")
    before = db_snapshot(app)
    response = submit(client, form, fill={"tricks-0": 3, "tricks-1": 6, "tricks-2": 5})
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    assert doc.find(cls="error").text == "Tricks must add up to 13 (got 14)."
    # The typed counts come back for fixing.
    assert [doc.find("input", name=f"tricks-{seat}").attrs["value"] for seat in range(3)] == ["3", "6", "5"]
    assert db_snapshot(app) == before


def test_a_stale_correction_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    form = parse_html(page(client, f"/games/{game_id}/deals/1/edit")).find("form", method="post")
    declare_form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, declare_form, declare_form.find("button", value="spades")))
    before = db_snapshot(app)
    response = submit(client, form, fill={"tricks-0": 7, "tricks-1": 5, "tricks-2": 1})
    assert response.status_code == 409
    assert "This game changed since you opened the form; nothing was saved." in text_of(
        response.get_data(as_text=True)
    )
    assert db_snapshot(app) == before


# -- the undo right after Save ------------------------------------------------------------------


def test_right_after_save_the_deals_undo_is_offered_near_the_top_once(
    app: Flask, client: FlaskClient
) -> None:
    """The page the save redirects to carries the same confirmed undo near the top (the script shows
    it for a few seconds); the next drawing of the page, and a declaration's, do not."""
    game_id = start_mizerka(client, deals=1)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    declared = follow(client, submit(client, form, form.find("button", value="clubs")))
    assert parse_html(declared).first(cls="undo-now") is None, "a declaration has no tricks to undo"
    tricks = parse_html(declared).find("form", cls="tricks-form")
    html = follow(client, submit(client, tricks, fill={"tricks-0": 2, "tricks-1": 8, "tricks-2": 3}))
    doc = parse_html(html)
    box = doc.find(cls="undo-now")
    assert "hidden" in box.attrs and box.attrs["data-undo-now"] == "8000"
    assert box.find("summary").text == "Undo deal 2"
    assert "Remove deal 2 (Clubs, chosen by Bob) from the game?" in box.text
    # Near the top: before the entry card and the log.
    order = [
        node for node in doc.iter() if node is box or node.attrs.get("id") in ("turn-heading", "log-heading")
    ]
    assert order[0] is box
    assert text_of(html).count("Deal 2 recorded.") == 1
    assert "flash-saved" not in html, "the offer is not a message"
    # Confirmed, it undoes deal 2 as the undo below the log does.
    undone = submit(client, box.find("form"))
    assert undone.status_code == 303
    assert "Deal 2 undone." in text_of(follow(client, undone))
    assert parse_html(page(client, f"/games/{game_id}")).first(cls="undo-now") is None
