"""A whole Mizerka game through the real forms, checked against hand-computed scores."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from helpers import (
    CONTRACT_LABELS,
    CONTRACTS,
    MIZERKA_DEALS,
    MIZERKA_FIRST_DEALER,
    MIZERKA_NAMES,
    MizerkaDeal,
    Node,
    follow,
    page,
    parse_html,
    signed,
    submit,
)

# Final figures, by hand: each player's six boxes (deal number, chooser's score) and the standings.
FINAL_GRID = {
    "Ann": {"hearts": (1, 1), "mizerka": (4, -2), "clubs": (7, 3), "no-trumps": (10, -1), "spades": (13, 0),
            "diamonds": (16, 2)},
    "Bob": {"clubs": (2, -1), "diamonds": (5, 2), "hearts": (8, 0), "spades": (11, 1), "no-trumps": (14, 3),
            "mizerka": (17, -1)},
    "Cid": {"mizerka": (3, 1), "no-trumps": (6, -1), "spades": (9, 2), "hearts": (12, 0), "diamonds": (15, 1),
            "clubs": (18, -2)},
}  # fmt: skip
FINAL_STANDINGS = [("1.", "Ann", "+3", True), ("1.", "Bob", "+3", True), ("3.", "Cid", "−6", False)]


def scoreboard(doc: Node) -> Node:
    return doc.find("section", aria_label="Running totals")


def check_totals(doc: Node, totals: tuple[int, int, int], roles: dict[str, str] | None = None) -> None:
    items = scoreboard(doc).find_all("li")
    # Each player's mark (as the log draws it), name and total, and the role in this deal.
    assert [item.text.split()[:3] for item in items] == [
        [name[:2], name, signed(total)] for name, total in zip(MIZERKA_NAMES, totals, strict=True)
    ]
    for item, name in zip(items, MIZERKA_NAMES, strict=True):
        if roles is not None:
            assert item.text.split()[3:] == [roles[name]]


def check_grid(doc: Node, played: list[MizerkaDeal], totals: tuple[int, int, int]) -> None:
    """One row per player; a box per contract they chose: '#deal score'; empty boxes to come."""
    grid = doc.find("table", cls="grid")
    header = [cell.text for cell in grid.find("thead").find_all("th")]
    assert header == ["Player", "♣", "♦", "♥", "♠", "NT", "Miz", "Total"]
    rows = grid.find("tbody").find_all("tr")
    assert [row.find("th").text for row in rows] == MIZERKA_NAMES
    for seat, row in enumerate(rows):
        name = MIZERKA_NAMES[seat]
        boxes = row.find_all("td")
        assert len(boxes) == len(CONTRACTS) + 1
        for contract, box in zip(CONTRACTS, boxes, strict=False):
            chosen = [d for d in played if d.chooser == name and d.contract == contract]
            if chosen:
                deal = chosen[0]
                assert box.text == f"#{deal.number} {signed(deal.scores[seat])}", (name, contract)
            else:
                assert "#" not in box.text, (name, contract, box.text)
        assert boxes[-1].text == signed(totals[seat])


def check_log_row(doc: Node, deal: MizerkaDeal) -> None:
    row = doc.find("tr", id=f"deal-{deal.number}")
    assert row.find("th").text == str(deal.number)
    cells = row.find_all("td")
    assert CONTRACT_LABELS[deal.contract] in cells[0].text
    assert f"{deal.chooser} chose · {deal.dealer} dealt" in cells[0].text
    figures = [cell.text for cell in cells[1:]]
    assert figures == [
        f"{signed(score)} = {signed(total)} {tricks} tr"
        for score, total, tricks in zip(deal.scores, deal.totals, deal.tricks, strict=True)
    ]


def contract_buttons(doc: Node) -> list[Node]:
    return [button for button in doc.find_all("button") if button.attrs.get("name") == "contract"]


def declare_and_save(
    client: FlaskClient,
    doc: Node,
    deal: Any,
    game_id: str,
    game_url: str,
    used: dict[str, list[str]],
    totals: tuple[int, ...],
) -> Any:
    """Deal ``deal`` by its contract's button, then its tricks: the answer to the tricks' post."""
    turn = doc.find("section", aria_labelledby="turn-heading")
    roles = {deal.dealer: "Dealer", deal.chooser: "Forehand", deal.middlehand: "Middlehand"}
    # The chooser's remaining contracts, and only those, are offered as buttons.
    buttons = contract_buttons(doc)
    expected = [c for c in CONTRACTS if c not in used[deal.chooser]]
    assert [button.attrs["value"] for button in buttons] == expected
    assert [button.text.split(maxsplit=1)[1] for button in buttons] == [CONTRACT_LABELS[c] for c in expected]
    assert turn.find("legend").text == f"{deal.chooser}'s contracts left"
    assert not doc.find_all("form", cls="tricks-form")

    # Declare: press the contract's button.
    declare_form = doc.find("form", cls="declare-form")
    assert declare_form.attrs["action"] == f"/games/{game_id}/deals"
    button = next(b for b in buttons if b.attrs["value"] == deal.contract)
    declared = submit(client, declare_form, button)
    assert declared.status_code == 303
    assert declared.headers["Location"] == game_url
    used[deal.chooser].append(deal.contract)

    # The deal is being played: its contract shows, the tricks form replaces the buttons.
    doc = parse_html(follow(client, declared))
    label = CONTRACT_LABELS[deal.contract]
    assert f"Deal {deal.number}: {label}. Enter the tricks when played." in doc.find(cls="flashes").text
    assert f"Deal {deal.number} of 18 · {label}" in scoreboard(doc).text
    turn = doc.find("section", aria_labelledby="turn-heading")
    assert turn.find("h1").text == f"Deal {deal.number}: {label}, chosen by {deal.chooser}"
    assert f"{deal.middlehand} is middlehand" in turn.find("p", cls="roles").text
    assert not contract_buttons(doc)
    check_totals(doc, totals, roles)
    tricks_form = doc.find("form", cls="tricks-form")
    assert tricks_form.attrs["action"] == f"/games/{game_id}/deals/{deal.number}/tricks"
    assert f"Save deal {deal.number}" in tricks_form.find("button", type="submit").text
    fill = {f"tricks-{seat}": count for seat, count in enumerate(deal.tricks)}
    return submit(client, tricks_form, fill=fill)


def test_a_whole_game_through_the_forms(client: FlaskClient) -> None:
    new_game = parse_html(page(client, "/games/new"))
    form = new_game.find("form", method="post")
    fill = {f"players-{seat}": name for seat, name in enumerate(MIZERKA_NAMES)}
    fill["first_dealer"] = MIZERKA_FIRST_DEALER
    created = submit(client, form, fill=fill)
    assert created.status_code == 303
    game_url = created.headers["Location"]
    game_id = game_url.rsplit("/", 1)[-1]
    assert game_url == f"/games/{game_id}"
    html = follow(client, created)
    assert "Cid deals first." in parse_html(html).find(cls="flashes").text

    totals = (0, 0, 0)
    used: dict[str, list[str]] = {name: [] for name in MIZERKA_NAMES}
    for deal in MIZERKA_DEALS:
        doc = parse_html(html)
        # Whose turn: the deal number, the roles, the running totals so far.
        assert f"Deal {deal.number} of 18" in scoreboard(doc).text
        roles = {deal.dealer: "Dealer", deal.chooser: "Forehand", deal.middlehand: "Middlehand"}
        check_totals(doc, totals, roles)
        turn = doc.find("section", aria_labelledby="turn-heading")
        label = CONTRACT_LABELS[deal.contract]
        last = len(used[deal.chooser]) == 5
        if last:
            # The chooser's last contract is chosen already: the heading says it, no button to tap.
            assert turn.find("h1").text == f"Deal {deal.number}: {label}, chosen by {deal.chooser}"
        else:
            assert turn.find("h1").text == f"{deal.chooser} chooses"
        assert turn.find("p", cls="roles").text == (
            f"{deal.dealer} deals {deal.chooser} chooses and leads (forehand) {deal.middlehand} is middlehand"
        )
        check_grid(doc, [d for d in MIZERKA_DEALS if d.number < deal.number], totals)
        if last:
            assert not contract_buttons(doc)
            declare_form = doc.find("form", cls="declare-form")
            assert declare_form.find("input", name="contract").attrs["value"] == deal.contract
            fill = {f"tricks-{seat}": count for seat, count in enumerate(deal.tricks)}
            saved = submit(client, declare_form, fill=fill)
            used[deal.chooser].append(deal.contract)
        else:
            saved = declare_and_save(client, doc, deal, game_id, game_url, used, totals)
        assert saved.status_code == 303
        assert saved.headers["Location"] == game_url

        html = follow(client, saved)
        doc = parse_html(html)
        totals = deal.totals
        check_totals(doc, totals)
        check_log_row(doc, deal)
        flash = doc.find(cls="flashes").text
        if deal.number < 18:
            assert flash == f"Deal {deal.number} recorded."
        else:
            assert flash == "That was the last deal: the game is over."

    # The end: no more forms, the standings with the shared first place, the scoresheet link.
    doc = parse_html(html)
    assert scoreboard(doc).text.startswith("Game over · 18 deals")
    assert "Deal 19" not in html
    assert not doc.find_all("form", cls="declare-form")
    assert not doc.find_all("form", cls="tricks-form")
    assert not contract_buttons(doc)
    final = doc.find("section", cls="final")
    assert final.find("h1").text == "Winners: Ann & Bob"
    standings = final.find("ol", cls="standings").find_all("li")
    assert [
        (
            li.find(cls="rank").text,
            li.find(cls="who").text.split()[0],
            li.find(cls="points").text,
            "winner" in li.classes,
        )
        for li in standings
    ] == FINAL_STANDINGS
    assert [li.find(cls="who").text for li in standings] == ["Ann winner", "Bob winner", "Cid"]
    assert final.find("a", href=f"/games/{game_id}/scoresheet").text == "Scoresheet to print"
    check_totals(doc, (3, 3, -6))
    check_grid(doc, MIZERKA_DEALS, (3, 3, -6))
    for deal in MIZERKA_DEALS:
        check_log_row(doc, deal)
    for seat, name in enumerate(MIZERKA_NAMES):
        row = doc.find("table", cls="grid").find("tbody").find_all("tr")[seat]
        boxes = row.find_all("td")
        for contract, (number, score) in FINAL_GRID[name].items():
            assert boxes[CONTRACTS.index(contract)].text == f"#{number} {signed(score)}"

    # The scoresheet: title, players, every deal with running totals, the final standings.
    sheet_html = page(client, f"/games/{game_id}/scoresheet")
    sheet = parse_html(sheet_html)
    assert sheet.find("title").text == "Scoresheet · Ann, Bob, Cid · Mizerka"
    assert sheet.find("h1").text == "Mizerka scoresheet"
    meta = sheet.find("p", cls="sheet-meta").text
    assert "Players (clockwise): Ann, Bob, Cid" in meta
    assert "First dealer: Cid" in meta
    assert "Final" in meta
    standings_section = sheet.find("section", aria_labelledby="standings-heading")
    assert standings_section.find("h2").text == "Final standings"
    assert [
        (
            li.find(cls="rank").text,
            li.find(cls="who").text.split()[0],
            li.find(cls="points").text,
            "winner" in li.classes,
        )
        for li in standings_section.find_all("li")
    ] == FINAL_STANDINGS
    check_grid(sheet, MIZERKA_DEALS, (3, 3, -6))
    log = sheet.find("table", cls="sheet-log")
    rows = log.find("tbody").find_all("tr")
    assert len(rows) == 18
    for deal, row in zip(MIZERKA_DEALS, rows, strict=True):
        cells = [cell.text for cell in row.find_all() if cell.tag in ("th", "td")]
        assert cells == [
            str(deal.number),
            deal.dealer,
            deal.chooser,
            CONTRACT_LABELS[deal.contract],
            # one group per player (tricks, score, running total): a long name has the group's width
            *[
                figure
                for seat in range(3)
                for figure in (str(deal.tricks[seat]), signed(deal.scores[seat]), signed(deal.totals[seat]))
            ],
        ], deal.number
    assert sheet.find("a", href=game_url).text == "Back to the game"

    # The game list shows it finished, won by both leaders.
    home = parse_html(page(client, "/")).find("a", href=game_url).text
    assert "Finished" in home
    assert "Won by: Ann & Bob (+3)" in home  # signed, as everywhere else
