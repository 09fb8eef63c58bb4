"""Barbu taken away and brought back: the JSON export (version 1) carries the doubles, an import gives the
same game; the CSV deal log gives the doubles and each player's contract points and doubling result
(RULES.md 4.9's eight deals, every figure RULES.md 4.9's)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask.testing import FlaskClient
from helpers import barbu_example, page, start_barbu

from scorekeeper.extensions import db
from scorekeeper.stored_figures import DealResult

API = "/api/v1"


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"{API}/games/{game_id}").get_json()
    return {key: value for key, value in answer.items() if key not in ("id", "edit_key")}


def test_a_barbu_game_comes_back_the_same_with_its_doubles(client: FlaskClient) -> None:
    game_id, _ = start_barbu(client, barbu_example())
    export = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    assert export["version"] == 1 and export["ruleset"] == "barbu"
    assert export["deals"][2]["doubles"] == [
        {"by": "Celina", "against": "Ala", "redoubled": False},
        {"by": "Celina", "against": "Bartek", "redoubled": True},
    ]
    assert export["deals"][2]["ace_of_hearts"] == "Bartek"
    assert export["deals"][3]["doubles"] == []
    assert export["deals"][4]["places"] == ["Celina", "Ala", "Darek", "Bartek"]
    created = client.post(f"{API}/games/import", json=export)
    assert created.status_code == 201, created.get_json()
    copy_id = created.get_json()["id"]
    assert state(client, copy_id) == state(client, game_id)
    sheet = page(client.application.test_client(), f"/games/{copy_id}/scoresheet")
    assert sheet.replace(copy_id, "GAME") == page(
        client.application.test_client(), f"/games/{game_id}/scoresheet"
    ).replace(game_id, "GAME")
    # The stored figures of the copy are the original's: Bartek's doubles in deal 1 (his three, won).
    with client.application.app_context():
        rows = {
            (row.game_id == game_id, row.number, row.seat): (
                row.bets,
                row.bets_made,
                row.bets_won,
                row.bets_lost,
                row.bet_points,
            )
            for row in db.session.execute(db.select(DealResult)).scalars()
        }
    assert rows[(True, 1, 1)] == rows[(False, 1, 1)] == (3, 3, 3, 0, 24)
    # Celina in deal 1: Bartek's double on her (lost 6) and hers on Ala, redoubled, settled at 0.
    assert rows[(True, 1, 2)] == (2, 1, 0, 1, -6)
    assert rows[(True, 4, 3)] == (0, 0, 0, 0, 0)


def test_the_csv_deal_log_gives_the_doubles_and_the_figures(client: FlaskClient) -> None:
    game_id, _ = start_barbu(client, barbu_example())
    text = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    heading = rows[0]
    by_name = [dict(zip(heading, row, strict=True)) for row in rows[1:]]
    assert len(by_name) == 8
    assert by_name[0]["doubles"] == "Bartek×Ala; Bartek×Celina; Bartek×Darek; Celina×Ala R"
    assert by_name[3]["doubles"] == ""
    # Deal 3 (RULES.md 4.6's example): contract points −4 / −16 / 0 / −10, doubling −4 / −32 / +36 / 0.
    deal3 = by_name[2]
    assert [deal3[f"{name} Contract points"] for name in ("Ala", "Bartek", "Celina", "Darek")] == [
        "-4",
        "-16",
        "0",
        "-10",
    ]
    assert [deal3[f"{name} Doubling result"] for name in ("Ala", "Bartek", "Celina", "Darek")] == [
        "-4",
        "-32",
        "36",
        "0",
    ]
    assert [deal3[f"{name} score"] for name in ("Ala", "Bartek", "Celina", "Darek")] == [
        "-8",
        "-48",
        "36",
        "-10",
    ]
    assert [deal3[f"{name} total"] for name in ("Ala", "Bartek", "Celina", "Darek")] == [
        "10",
        "-9",
        "29",
        "-19",
    ]
    assert deal3["ace of hearts"] == "Bartek" and deal3["Bartek hearts"] == "6"
    assert by_name[1]["trumps"] == "Spades" and by_name[4]["first out"] == "Celina"
    assert [by_name[7][f"{name} total"] for name in ("Ala", "Bartek", "Celina", "Darek")] == [
        "70",
        "-110",
        "46",
        "-32",
    ]
