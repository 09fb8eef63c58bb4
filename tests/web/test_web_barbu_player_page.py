"""A player's page for Barbu: the contracts each declared, and the doubles (RULES.md 4.9's eight deals;
every figure worked out by hand from 4.9's settlements)."""

from __future__ import annotations

from flask.testing import FlaskClient
from helpers import barbu_example, page, parse_html, start_barbu

from scorekeeper.extensions import db
from scorekeeper.models import Player


def player_id(client: FlaskClient, name: str) -> int:
    with client.application.app_context():
        return int(db.session.execute(db.select(Player.id).where(Player.name == name)).scalar_one())


def bet_figures(html: str) -> dict[str, str]:
    figures = {}
    for box in parse_html(html).find("h2", id="bets-heading").parent.find("dl").find_all("div"):
        figures[box.find("dt").text] = box.find("dd").text
    return figures


def contract_rows(html: str) -> dict[str, list[str]]:
    table = parse_html(html).find("table", cls="contract-stats")
    return {
        row.find("th").text.strip(): [c.text.strip() for c in row.find_all("td")]
        for row in table.find("tbody").find_all("tr")
    }


def test_the_doubles_and_contracts_of_the_worked_example(client: FlaskClient) -> None:
    start_barbu(client, barbu_example())
    # Bartek: deal 1 his "maximum" (won 6, 6 and 12); deal 3 Celina's redoubled double on him (lost 32);
    # deal 5 his double on Ala, redoubled (lost 50); deal 7 Darek's (lost 30); deal 8 Celina's (won 8)
    # and Darek's, redoubled (won 12): 8 doubles, 4 his own, 5 won, 3 lost, 24 − 32 − 50 − 30 + 20 = −68.
    bartek = bet_figures(page(client, f"/players/{player_id(client, 'Bartek')}?game=barbu"))
    assert bartek == {
        "Doubles played": "8",
        "Doubled others": "4",
        "Were doubled": "4",
        "Doubles won": "5 (63%)",
        "Doubles lost": "3",
        "Points from doubles": "−68",
    }
    # Celina: deal 1 Bartek's on her (lost 6) and hers on Ala, redoubled, which settled 0 (neither);
    # deal 3 hers on Ala (won 4) and on Bartek, redoubled (won 32); deal 8 hers on Bartek (lost 8) and
    # Ala's on her (lost 4): 6 doubles, 4 her own, 2 won, 3 lost, −6 + 36 − 12 = +18.
    celina = bet_figures(page(client, f"/players/{player_id(client, 'Celina')}?game=barbu"))
    assert celina == {
        "Doubles played": "6",
        "Doubled others": "4",
        "Were doubled": "2",
        "Doubles won": "2 (33%)",
        "Doubles lost": "3",
        "Points from doubles": "+18",
    }
    # Ala declared deals 1-7, each contract once: her deal score as declarer, what she took.
    rows = contract_rows(page(client, f"/players/{player_id(client, 'Ala')}?game=barbu"))
    assert rows["No queens"][:4] == ["1", "−12.0", "1.0", "1"]
    assert rows["Trumps"][:3] == ["1", "+30.0", "5.0"]
    assert rows["Domino"][:3] == ["1", "+70.0", "0/1"]
    assert rows["No last two"][:3] == ["1", "0", "0.0"]
