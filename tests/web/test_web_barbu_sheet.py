"""Barbu's deal log, contract grid and printable sheet (RULES.md 4.11), on RULES.md 4.9's worked example
played through the JSON API: every figure expected is the one RULES.md 4.9 computes by hand."""

from __future__ import annotations

from flask.testing import FlaskClient
from helpers import Node, barbu_example, page, parse_html, start_barbu

MINUS = "\u2212"


def m(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def cells(row: Node) -> list[str]:
    return [cell.text for cell in row.children if isinstance(cell, Node) and cell.tag in ("th", "td")]


def log_row(html: str, number: int) -> Node:
    return parse_html(html).find("tr", id=f"deal-{number}")


# RULES.md 4.9: per deal, the deal scores and running totals, the doubling results, the totals' sum.
SCORES = [
    (-12, 24, -12, -24),
    (30, 15, 5, 15),
    (-8, -48, 36, -10),
    (0, 0, 0, -20),
    (70, -55, 45, 5),
    (-8, -4, -6, -8),
    (0, -60, 0, 30),
    (-2, 18, -22, -20),
]
POINTS = [
    (-6, 0, -6, -12),
    (25, 15, 5, 20),
    (-4, -16, 0, -10),
    (0, 0, 0, -20),
    (20, -5, 45, 5),
    (-8, -4, -6, -8),
    (0, -30, 0, 0),
    (-6, -2, -10, -8),
]
DOUBLING = [
    (-6, 24, -6, -12),
    (5, 0, 0, -5),
    (-4, -32, 36, 0),
    (0, 0, 0, 0),
    (50, -50, 0, 0),
    (0, 0, 0, 0),
    (0, -30, 0, 30),
    (4, 20, -12, -12),
]
TOTALS = [
    (-12, 24, -12, -24),
    (18, 39, -7, -9),
    (10, -9, 29, -19),
    (10, -9, 29, -39),
    (80, -64, 74, -34),
    (72, -68, 68, -42),
    (72, -128, 68, -12),
    (70, -110, 46, -32),
]
SUMS = [-24, 41, 11, -9, 56, 30, 0, -26]
DOUBLES = [
    "Ba×Al, Ba×Ce, Ba×Da, Ce×Al R",
    "Da×Al",
    "Ce×Al, Ce×Ba R",
    None,
    "Ba×Al R",
    None,
    "Da×Ba",
    "Ce×Ba, Da×Ba R, Al×Ce",
]


def test_the_deal_log_of_the_worked_example(client: FlaskClient) -> None:
    game_id, _ = start_barbu(client, barbu_example())
    html = page(client, f"/games/{game_id}")
    for number in range(1, 9):
        row = log_row(html, number)
        figures = [cell.text for cell in row.find_all("td", cls="fig")]
        for seat, shown in enumerate(figures):
            score, total, doubling = (
                SCORES[number - 1][seat],
                TOTALS[number - 1][seat],
                DOUBLING[number - 1][seat],
            )
            expected = f"{m(score)} = {m(total)}"
            assert shown.startswith(expected), (number, seat, shown)
            # The doubling result, where the deal had doubles and it is not 0.
            said = f"× Doubling result {m(doubling)}"
            assert (said in shown) == bool(DOUBLES[number - 1] and doubling), (number, seat, shown)
        total_sum = row.first("span", cls="totals-sum")
        assert total_sum is not None and total_sum.text.endswith(f": {m(SUMS[number - 1])}")
        bets = row.first("span", cls="bets")
        assert (bets.text.split(": ", 1)[1] if bets else None) == DOUBLES[number - 1]
    assert log_row(html, 2).find("span", cls="contract-name").text == "Trumps ♠ · Ala"
    assert log_row(html, 1).find("span", cls="deal-who").text == "Ala chose"
    # What each player took, as entered.
    assert [cell.text.split()[-2:] for cell in log_row(html, 1).find_all("td", cls="fig")] == [
        ["1", "Q"],
        ["0", "Q"],
        ["1", "Q"],
        ["2", "Q"],
    ]
    # Deal 7 ends Ala's seven: Darek doubled her once (RULES.md 4.9); no other deal warns.
    warned = [n for n in range(1, 9) if log_row(html, n).first("span", cls="deal-warning")]
    assert warned == [7]
    assert log_row(html, 7).find("span", cls="deal-warning").text == "⚠ Darek doubled Ala once (of 2)."


def grid_rows(html: str) -> dict[str, list[str]]:
    table = parse_html(html).find("table", cls="grid")
    return {row.find("th").text.split()[0]: cells(row) for row in table.find("tbody").find_all("tr")}


def test_the_contract_grid_counts_each_declarers_doubles(client: FlaskClient) -> None:
    game_id, _ = start_barbu(client, barbu_example())
    html = page(client, f"/games/{game_id}")
    table = parse_html(html).find("table", cls="grid")
    assert [th.text for th in table.find("thead").find_all("th")] == [
        "Player",
        "Tr",
        "♥",
        "Q",
        "K♥",
        "12/13",
        "Tru",
        "Dom",
        "Total",
    ]
    rows = grid_rows(html)
    # Ala's seven, in B1's contract order: the deal and her deal score; trumps with its suit.
    assert rows["Ala"][1:] == ["#6 −8", "#3 −8", "#1 −12", "#4 0", "#7 0", "#2 ♠ +30", "#5 +70", "+70"]
    assert rows["Bartek"][1:] == ["#8 +18", *["to come"] * 6, "−110"]
    # Against Ala (RULES.md 4.9): Bartek 2, Celina 2, Darek 1, from her left; nobody yet against Bartek
    # but in deal 8, where Celina and Darek doubled him.
    assert rows["Ala"][0] == "Ala BaBartek 2/2 CeCelina 2/2 DaDarek 1/2"
    assert rows["Bartek"][0] == "Bartek CeCelina 1/2 DaDarek 1/2 AlAla 0/2"
    darek_on_ala = table.find("tbody").find_all("tr")[0].find_all("span", cls="tally-one")[2]
    assert "short" in darek_on_ala.classes
    # Bartek's seven has only begun: nothing falls short yet.
    assert (
        not parse_html(html)
        .find("table", cls="grid")
        .find("tbody")
        .find_all("tr")[1]
        .first("span", cls="short")
    )
    # After deal 7, Ala's seven over: the same counts against her, none yet against Bartek.
    seven, _ = start_barbu(client, barbu_example()[:7])
    rows = grid_rows(page(client, f"/games/{seven}"))
    assert rows["Ala"][0] == "Ala BaBartek 2/2 CeCelina 2/2 DaDarek 1/2"
    assert rows["Bartek"][0] == "Bartek CeCelina 0/2 DaDarek 0/2 AlAla 0/2"


def test_the_printable_sheet_of_the_worked_example(client: FlaskClient) -> None:
    game_id, _ = start_barbu(client, barbu_example())
    sheet = parse_html(page(client, f"/games/{game_id}/scoresheet"))
    table = sheet.find("table", cls="sheet-log")
    assert "with-figures" in table.classes
    rows = table.find("tbody").find_all("tr")
    assert len(rows) == 28
    for number in range(1, 9):
        shown = cells(rows[number - 1])
        per_player = [
            m(value)
            for seat in range(4)
            for value in (
                POINTS[number - 1][seat],
                DOUBLING[number - 1][seat],
                SCORES[number - 1][seat],
                TOTALS[number - 1][seat],
            )
        ]
        assert shown[5:] == [*per_player, m(SUMS[number - 1])], number
        assert shown[4] == (DOUBLES[number - 1] or "")
    assert cells(rows[0])[:4] == ["1", "Ala", "No queens", "1/0/1/2 Q"]
    assert cells(rows[1])[2:4] == ["Trumps ♠", "5/3/1/4 tr"]
    assert cells(rows[2])[3] == "2/6/0/5 ♥ A♥ Ba"
    assert cells(rows[3])[3] == "K♥ Da"
    assert cells(rows[4])[3] == "Ce › Al › Da › Ba"
    assert cells(rows[6])[0] == "7 ⚠" and cells(rows[6])[3] == "12th Ba last Ba"
    assert sheet.find("ul", cls="sheet-warnings").text == "⚠ Deal 7: Darek doubled Ala once (of 2)."
    # The deals to come: their number, the rest to fill in.
    assert "blank" in rows[8].classes and cells(rows[8]) == ["9", *[""] * 21]
