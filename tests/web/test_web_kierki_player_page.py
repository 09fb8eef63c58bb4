"""A player's page for Kierki: per contract, the deals played, the average score and what the
player took (RULES.md 3.10's worked example, played twice; every figure worked out by hand)."""

from __future__ import annotations

from flask.testing import FlaskClient
from helpers import KIERKI_EXAMPLE, page, parse_html, start_kierki

from scorekeeper.extensions import db
from scorekeeper.models import Player

EXAMPLE = [facts for facts, _ in KIERKI_EXAMPLE]


def contract_rows(html: str) -> dict[str, list[str]]:
    table = parse_html(html).find("table", cls="contract-stats")
    rows = {}
    for row in table.find("tbody").find_all("tr"):
        rows[row.find("th").text.strip()] = [cell.text.strip() for cell in row.find_all("td")]
    return rows


def test_what_bartek_took_per_contract(client: FlaskClient) -> None:
    start_kierki(client, EXAMPLE)
    start_kierki(client, EXAMPLE[:9])  # a second game, in progress after deal 9
    with client.application.app_context():
        bartek = db.session.execute(db.select(Player.id).where(Player.name == "Bartek")).scalar_one()
    html = page(client, f"/players/{bartek}?game=kierki")
    rows = contract_rows(html)
    # Played, average score, took.  No tricks: 5 tricks twice (-100 each).
    assert rows["No tricks"] == ["2", "−100.0", "5.0"]
    assert rows["No hearts"] == ["2", "0", "0.0"]
    # The king of hearts: Celina took it both times; the robber's king went to Bartek (its tricks: 4).
    assert rows["No king of hearts"] == ["2", "0", "0/2"]
    assert rows["No seventh or last trick"] == ["2", "−75.0", "1.0"]
    assert rows["Robber"] == ["2", "−480.0", "4.0"]
    # Trumps: 2, 3, 7, 3 tricks in the first game, 2 and 3 in the second: 20 in 6 deals (3.33...);
    # scores 50 + 75 + 175 + 75 + 50 + 75 = 500 in 6 deals.
    assert rows["Trumps"] == ["6", "+83.3", "3.3"]
    # The Fan Tan: one deal, not among the first two out.
    assert rows["Fan Tan"] == ["1", "0", "0/1"]
    assert "Took" in html and "Made" not in parse_html(html).find("table", cls="contract-stats").text
    celina = contract_rows(page(client, f"/players/{bartek + 1}?game=kierki"))
    assert celina["No king of hearts"] == ["2", "−150.0", "2/2"]
    assert celina["Fan Tan"] == ["1", "+800.0", "1/1"]
