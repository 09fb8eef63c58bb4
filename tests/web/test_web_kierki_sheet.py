"""Kierki's scoresheet on the game page and the printable sheet (RULES.md 3.12): the deal log with what
each player took, the trump deals' suit and chooser, the running totals and their sum; the part grid
with the negative part's subtotal. Games are made through the JSON API; every figure expected is
RULES.md 3.10's worked example or tests/api/test_api_kierki_game.py's, computed by hand."""

from __future__ import annotations

from flask.testing import FlaskClient
from helpers import (
    KIERKI_EXAMPLE,
    KIERKI_NAMES,
    KIERKI_THREE,
    Node,
    page,
    parse_html,
    record_kierki,
    start_kierki,
)

EXAMPLE = [facts for facts, _ in KIERKI_EXAMPLE]
THREE = [facts for facts, _ in KIERKI_THREE]
MINUS = "\u2212"


def cells(row: Node) -> list[str]:
    return [cell.text for cell in row.children if isinstance(cell, Node) and cell.tag in ("th", "td")]


def log_row(html: str, number: int) -> Node:
    """Deal ``number``'s row of the log (the game page's, also the sheet's on phones)."""
    return parse_html(html).find("tr", id=f"deal-{number}")


def figures(row: Node) -> list[str]:
    """Per player, in seat order: "score = running total" and what they took, as the log shows them."""
    return [cell.text for cell in row.find_all("td", cls="fig")]


def totals_sum(row: Node) -> str | None:
    """The log's sum of the running totals after the deal (read out with its words, shown as "Σ")."""
    shown = row.first("span", cls="totals-sum")
    if shown is None:
        return None
    assert shown.text.startswith("ΣThe running totals added up: "), shown.text
    return shown.text.rsplit(": ", 1)[1]


def sheet_rows(html: str) -> list[Node]:
    return parse_html(html).find("table", cls="sheet-log").find("tbody").find_all("tr")


def grid(html: str) -> tuple[list[str], dict[str, list[str]]]:
    """The part grid: its headings' text (hidden words included), and each player's boxes by name."""
    table = parse_html(html).find("table", cls="parts")
    headings = [th.text for th in table.find("thead").find_all("th")]
    rows = {}
    for row in table.find("tbody").find_all("tr"):
        name = row.find("th").text.split(" ", 1)[1]  # after the player's mark
        rows[name] = [td.text for td in row.find_all("td")]
    return headings, rows


def test_the_worked_example_deal_by_deal(client: FlaskClient) -> None:
    game_id, _ = start_kierki(client, EXAMPLE)
    html = page(client, f"/games/{game_id}")
    deal1 = log_row(html, 1)
    assert deal1.find("span", cls="contract-name").text == "No tricks"
    assert deal1.find("span", cls="deal-who").text == "Ala dealt"
    assert totals_sum(deal1) == f"{MINUS}260"
    assert figures(deal1) == [
        f"{MINUS}40 = {MINUS}40 2 tr",
        f"{MINUS}100 = {MINUS}100 5 tr",
        "0 = 0 0 tr",
        f"{MINUS}120 = {MINUS}120 6 tr",
    ]
    assert figures(log_row(html, 2))[2] == f"{MINUS}140 = {MINUS}140 7 ♥"
    assert figures(log_row(html, 3))[1] == f"{MINUS}120 = {MINUS}220 2 Q"
    assert figures(log_row(html, 4))[0] == f"{MINUS}90 = {MINUS}270 3 K/J"
    # The takers are marked; the others took nothing that counts.
    assert figures(log_row(html, 5)) == [
        f"0 = {MINUS}270",
        f"0 = {MINUS}250",
        f"{MINUS}150 = {MINUS}350 K♥",
        f"0 = {MINUS}280",
    ]
    assert figures(log_row(html, 6)) == [
        f"0 = {MINUS}270",
        f"{MINUS}75 = {MINUS}325 7th",
        f"0 = {MINUS}350",
        f"{MINUS}75 = {MINUS}355 last",
    ]
    # The robber: everything each player took; after it the negative part's −2,600 (RULES.md 3.7).
    robber = log_row(html, 7)
    assert robber.find("span", cls="contract-name").text == "Robber"
    assert figures(robber) == [
        f"{MINUS}235 = {MINUS}505 3 tr 2 ♥ 0 Q 2 K/J 7th",
        f"{MINUS}480 = {MINUS}805 4 tr 5 ♥ 1 Q 3 K/J K♥",
        f"{MINUS}130 = {MINUS}480 2 tr 0 ♥ 1 Q 1 K/J",
        f"{MINUS}455 = {MINUS}810 4 tr 6 ♥ 2 Q 2 K/J last",
    ]
    assert totals_sum(robber) == f"{MINUS}2,600"
    # Trump deals: the suit and its chooser (the dealer).
    trumps = log_row(html, 8)
    assert trumps.find("span", cls="contract-name").text == "Trumps ♠ · Darek"
    assert trumps.find("span", cls="suit").attrs["aria-label"] == "Spades"
    assert figures(trumps)[0] == f"+75 = {MINUS}430 3 tr"
    assert totals_sum(trumps) == f"{MINUS}2,275"
    assert log_row(html, 9).find("span", cls="contract-name").text == "Trumps ♥ · Ala"
    # The Fan Tan: first and second out; the totals add up to 0 at the end.
    fan_tan = log_row(html, 12)
    assert figures(fan_tan) == [
        "+500 = +295 2nd out",
        f"0 = {MINUS}430",
        "+800 = +620 1st out",
        f"0 = {MINUS}485",
    ]
    assert totals_sum(fan_tan) == "0"


def test_the_part_grid_of_the_worked_example(client: FlaskClient) -> None:
    game_id, key = start_kierki(client, EXAMPLE[:7])
    html = page(client, f"/games/{game_id}")
    headings, rows = grid(html)
    assert headings[:9] == ["Player", "Tr", "♥", "Q", "KJ", "K♥", "7/L", "Rob", "Σ 1–7"]
    # The trump deals are headed by their chooser before the suit is named...
    assert headings[9:] == [
        "Da Trumps · Darek",
        "Al Trumps · Ala",
        "Ba Trumps · Bartek",
        "Ce Trumps · Celina",
        "FT",
        "Total",
    ]
    # ...the negative part's subtotal is each player's running total after deal 7; the deals to come
    # are empty boxes.
    assert rows["Ala"][:8] == [
        f"{MINUS}40",
        f"{MINUS}80",
        f"{MINUS}60",
        f"{MINUS}90",
        "0",
        "0",
        f"{MINUS}235",
        f"{MINUS}505",
    ]
    assert [boxes[7] for boxes in rows.values()] == [
        f"{MINUS}505",
        f"{MINUS}805",
        f"{MINUS}480",
        f"{MINUS}810",
    ]
    assert rows["Bartek"][8:13] == ["to come"] * 5
    table = parse_html(html).find("table", cls="parts")
    assert len(table.find_all("td", cls="open")) == 4 * 5

    for number, facts in enumerate(EXAMPLE[7:], start=8):
        record_kierki(client, game_id, key, number, facts, KIERKI_NAMES)
    headings, rows = grid(page(client, f"/games/{game_id}"))
    assert headings[9:13] == [
        "♠ Da Trumps ♠ · Darek",
        "♥ Al Trumps ♥ · Ala",
        "♣ Ba Trumps ♣ · Bartek",
        "♦ Ce Trumps ♦ · Celina",
    ]
    assert rows == {
        "Ala": [
            *(f"{MINUS}40", f"{MINUS}80", f"{MINUS}60", f"{MINUS}90", "0", "0", f"{MINUS}235"),
            f"{MINUS}505",
            "+75",
            "+150",
            "+50",
            "+25",
            "+500",
            "+295",
        ],
        "Bartek": [
            *(f"{MINUS}100", "0", f"{MINUS}120", f"{MINUS}30", "0", f"{MINUS}75", f"{MINUS}480"),
            f"{MINUS}805",
            "+50",
            "+75",
            "+175",
            "+75",
            "0",
            f"{MINUS}430",
        ],
        "Celina": [
            *("0", f"{MINUS}140", "0", f"{MINUS}60", f"{MINUS}150", "0", f"{MINUS}130"),
            f"{MINUS}480",
            "+100",
            "+25",
            "+50",
            "+125",
            "+800",
            "+620",
        ],
        "Darek": [
            *(f"{MINUS}120", f"{MINUS}40", f"{MINUS}60", f"{MINUS}60", "0", f"{MINUS}75", f"{MINUS}455"),
            f"{MINUS}810",
            "+100",
            "+75",
            "+50",
            "+100",
            "0",
            f"{MINUS}485",
        ],
    }


def test_the_printable_sheet_of_the_worked_example(client: FlaskClient) -> None:
    game_id, key = start_kierki(client, EXAMPLE[:7])
    html = page(client, f"/games/{game_id}/scoresheet")
    sheet = parse_html(html)
    assert "In progress: 7 of 12 deals" in sheet.find("p", cls="sheet-meta").text
    assert sheet.find("section", cls="sheet-grid").first("table", cls="parts")
    rows = sheet_rows(html)
    assert len(rows) == 12
    # Per player: what they took, the score, the running total; then the sum of the running totals.
    assert cells(rows[6]) == [
        "7",
        "Celina",
        "Robber",
        *("3 tr 2 ♥ 0 Q 2 K/J 7th", f"{MINUS}235", f"{MINUS}505"),
        *("4 tr 5 ♥ 1 Q 3 K/J K♥", f"{MINUS}480", f"{MINUS}805"),
        *("2 tr 0 ♥ 1 Q 1 K/J", f"{MINUS}130", f"{MINUS}480"),
        *("4 tr 6 ♥ 2 Q 2 K/J last", f"{MINUS}455", f"{MINUS}810"),
        f"{MINUS}2,600",
    ]
    assert cells(rows[4])[3:] == [
        *("", "0", f"{MINUS}270"),
        *("", "0", f"{MINUS}250"),
        *("K♥", f"{MINUS}150", f"{MINUS}350"),
        *("", "0", f"{MINUS}280"),
        f"{MINUS}1,150",
    ]
    # The deals to come: their number, dealer and contract (fixed from the start), the rest to fill in.
    assert "blank" in rows[7].classes
    assert cells(rows[7]) == ["8", "Darek", "Trumps · Darek", *[""] * 13]
    assert cells(rows[11])[:3] == ["12", "Darek", "Fan Tan"]

    for number, facts in enumerate(EXAMPLE[7:], start=8):
        record_kierki(client, game_id, key, number, facts, KIERKI_NAMES)
    rows = sheet_rows(page(client, f"/games/{game_id}/scoresheet"))
    assert cells(rows[7])[:4] == ["8", "Darek", "Trumps ♠ · Darek", "3 tr"]
    assert cells(rows[11]) == [
        "12",
        "Darek",
        "Fan Tan",
        *("2nd out", "+500", "+295"),
        *("", "0", f"{MINUS}430"),
        *("1st out", "+800", "+620"),
        *("", "0", f"{MINUS}485"),
        "0",
    ]


def test_a_pending_deal_shows_as_pending(client: FlaskClient) -> None:
    game_id, key = start_kierki(client, EXAMPLE[:7])
    client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"number": 8, "trumps": "spades"},  # the declaration alone: the cards are being played
        headers={"Authorization": f"Bearer {key}"},
    )
    html = page(client, f"/games/{game_id}")
    row = log_row(html, 8)
    assert "pending" in row.classes
    assert row.find("span", cls="contract-name").text == "Trumps ♠ · Darek"
    assert totals_sum(row) is None
    assert figures(row) == ["playing…"] * 4
    headings, boxes = grid(html)
    assert headings[9] == "♠ Da Trumps ♠ · Darek"
    assert [player[8] for player in boxes.values()] == ["…playing…"] * 4
    assert [player[-1] for player in boxes.values()] == [
        f"{MINUS}505",
        f"{MINUS}805",
        f"{MINUS}480",
        f"{MINUS}810",
    ]
    sheet = sheet_rows(page(client, f"/games/{game_id}/scoresheet"))
    assert cells(sheet[7]) == ["8", "Darek", "Trumps ♠ · Darek", *("…", "", "") * 4, ""]


def test_a_three_player_game(client: FlaskClient) -> None:
    names = KIERKI_NAMES[:3]
    game_id, key = start_kierki(client, THREE[:7], names=names, first="Bartek")
    html = page(client, f"/games/{game_id}")
    assert "seats-3" in parse_html(html).find("table", cls="log").classes
    robber = log_row(html, 7)
    assert figures(robber) == [
        f"{MINUS}390 = {MINUS}785 6 tr 4 ♥ 1 Q 3 K/J 7th",
        f"{MINUS}475 = {MINUS}795 5 tr 4 ♥ 2 Q 2 K/J K♥",
        f"{MINUS}410 = {MINUS}970 6 tr 5 ♥ 1 Q 3 K/J last",
    ]
    # 3 players: −2,550 after the negative part (RULES.md 3.7).
    assert totals_sum(robber) == f"{MINUS}2,550"
    headings, rows = grid(html)
    # Bartek deals first: Celina deals deal 8 and names its trumps, then Ala, Bartek; then the Fan Tan.
    assert headings[8:] == [
        "Σ 1–7",
        "Ce Trumps · Celina",
        "Al Trumps · Ala",
        "Ba Trumps · Bartek",
        "FT",
        "Total",
    ]
    assert [boxes[7] for boxes in rows.values()] == [f"{MINUS}785", f"{MINUS}795", f"{MINUS}970"]

    for number, facts in enumerate(THREE[7:], start=8):
        record_kierki(client, game_id, key, number, facts, names)
    html = page(client, f"/games/{game_id}")
    assert figures(log_row(html, 11)) == [
        f"0 = {MINUS}360",
        "+790 = +495 1st out",
        f"+485 = {MINUS}135 2nd out",
    ]
    assert totals_sum(log_row(html, 11)) == "0"
    rows = sheet_rows(page(client, f"/games/{game_id}/scoresheet"))
    assert len(rows) == 11
    assert cells(rows[7]) == [
        "8",
        "Celina",
        "Trumps ♥ · Celina",
        *("6 tr", "+150", f"{MINUS}635"),
        *("6 tr", "+150", f"{MINUS}645"),
        *("5 tr", "+125", f"{MINUS}845"),
        f"{MINUS}2,125",
    ]


def test_the_sheet_speaks_polish_and_italian(client: FlaskClient) -> None:
    game_id, _ = start_kierki(client, EXAMPLE[:8])
    client.set_cookie("lang", "pl")
    html = page(client, f"/games/{game_id}/scoresheet")
    rows = sheet_rows(html)
    # Polish groups thousands with a no-break space.
    assert f">{MINUS}2\u00a0600<" in html and cells(rows[6])[-1] == f"{MINUS}2 600"
    assert cells(rows[6])[2:4] == ["Rozbójnik", "lewy: 3 2 ♥ 0 D 2 K/W 7. lewa"]
    assert cells(rows[7])[2] == "Odgrywka ♠ · Darek"
    assert cells(rows[8])[2] == "Odgrywka · Ala"
    headings, _ = grid(html)
    assert headings[1:9] == ["L", "♥", "D", "KW", "K♥", "7/O", "Roz", "Σ 1–7"]
    client.set_cookie("lang", "it")
    html = page(client, f"/games/{game_id}/scoresheet")
    rows = sheet_rows(html)
    assert cells(rows[6])[2:4] == ["Brigante", "3 pr. 2 ♥ 0 D 2 R/F 7ª presa"]
    assert cells(rows[7])[2] == "Briscola ♠ · Darek"
    assert cells(rows[4])[9] == "R♥"
