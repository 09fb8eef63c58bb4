"""Barbu through everything every game has, by the pages: the pencil handed over to another phone, a
rematch of a finished game (its preset kept), the export taken away and brought back by the import page
(the JSON with the doubles, the CSV the same for the copy), and a player's page with its chart of the
finished games counted in its ranking."""

from __future__ import annotations

import io
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    BARBU_NAMES,
    barbu_example,
    barbu_game,
    csrf_from,
    follow,
    page,
    parse_html,
    start_barbu,
    start_game,
)
from test_web_access import hand_over_link, take
from test_web_barbu import EXAMPLE, FOUR, post, totals

from scorekeeper.extensions import db
from scorekeeper.models import Player

API = "/api/v1"


def holding(client: FlaskClient, game_id: str, key: str) -> None:
    """The phone that made the game through the API holds its pencil (the page's key cookie)."""
    client.set_cookie(f"sk_edit_{game_id}", key, path=f"/games/{game_id}")


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"{API}/games/{game_id}").get_json()
    return answer


def test_the_pencil_handed_over_enters_a_doubled_deal(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, FOUR, "0", game="barbu")
    assert post(client, game_id, 1, EXAMPLE[0][0]).status_code == 303
    other = app.test_client()
    code, _shown = hand_over_link(client, game_id)
    assert follow(other, take(other, game_id, code))
    # The other phone enters deal 2 (Darek doubles Ala in Trumps), by the card's form.
    response = post(other, game_id, 2, EXAMPLE[1][0])
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    assert totals(other, game_id) == ["+18", "+39", "−7", "−9"]  # RULES.md 4.9 after deal 2
    assert state(other, game_id)["deals"][1]["doubles"] == [
        {"by": "Darek", "against": "Ala", "redoubled": False}
    ]


def quick_rotation(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A standard game's deals (each declarer's seven in turn) in quick rotation's order: deal n is the
    ((n − 1) mod 4)-th declarer's ((n − 1) div 4)-th deal."""
    return [deals[7 * ((n - 1) % 4) + (n - 1) // 4] for n in range(1, 29)]


def test_a_rematch_keeps_the_players_and_the_preset(client: FlaskClient) -> None:
    game_id, key = start_barbu(client, quick_rotation(barbu_game()), preset="quick-rotation")
    holding(client, game_id, key)
    finished = state(client, game_id)
    assert finished["status"] == "finished"
    form = parse_html(page(client, f"/games/{game_id}")).find("form", action=f"/games/{game_id}/rematch")
    response = client.post(
        form.attrs["action"], data={"csrf_token": csrf_from(page(client, f"/games/{game_id}"))}
    )
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    again = state(client, new_id)
    assert again["ruleset"] == "barbu" and again["options"] == {"preset": "quick-rotation"}
    assert again["players"] == BARBU_NAMES
    # The first deal moves one seat on: Bartek declares deal 1, Celina deal 2 (quick rotation).
    assert again["declarers"][:5] == ["Bartek", "Celina", "Darek", "Ala", "Bartek"]
    assert again["next_deal"]["chooser"] == "Bartek" and again["deals"] == []
    # Its card is the scorer's: the contract step, all seven of Bartek's contracts.
    buttons = (
        parse_html(page(client, f"/games/{new_id}"))
        .find("section", id="turn")
        .find_all("button", cls="contract")
    )
    assert len(buttons) == 7


def test_exported_and_imported_by_the_pages_the_game_comes_back_with_its_doubles(client: FlaskClient) -> None:
    game_id, _key = start_barbu(client, barbu_example())
    exported = client.get(f"/games/{game_id}/export.json").get_data()
    form_page = page(client, "/games/import")
    upload = {"csrf_token": csrf_from(form_page), "file": (io.BytesIO(exported), "barbu.json")}
    response = client.post("/games/import", data=upload, content_type="multipart/form-data")
    # The same game is here already: the page asks first, the file's text kept in its form.
    assert response.status_code == 409
    asked = parse_html(response.get_data(as_text=True)).find("textarea").text
    response = client.post(
        "/games/import",
        data={"csrf_token": csrf_from(form_page), "text": asked, "again": "1"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    copy_id = response.headers["Location"].rsplit("/", 1)[-1]
    copy, original = state(client, copy_id), state(client, game_id)
    assert copy["deals"] == original["deals"]
    assert copy["totals"] == {"Ala": 70, "Bartek": -110, "Celina": 46, "Darek": -32}
    assert copy["double_counts"] == original["double_counts"]
    # The CSV deal log of the copy is the original's, the doubles in it.
    csv_of = [client.get(f"/games/{gid}/export.csv").get_data(as_text=True) for gid in (copy_id, game_id)]
    assert csv_of[0] == csv_of[1]
    assert "Bartek×Ala; Bartek×Celina; Bartek×Darek; Celina×Ala R" in csv_of[0]
    # The importing phone holds the copy's pencil: its card, Bartek's deal 9.
    card = parse_html(page(client, f"/games/{copy_id}")).find("section", id="turn")
    assert "Bartek" in card.find("legend").text


def test_the_players_chart_counts_the_games_of_its_ranking(client: FlaskClient) -> None:
    # A standard game (every total 0), and a quick-rotation one without Bartek's double on Ala in her
    # No tricks (his +2 from −8 against −6 not settled: Ala +2, Bartek −2): both count in the standard
    # ranking; a Domino 10 game counts in its own.
    start_barbu(client, barbu_game())
    undoubled = barbu_game()
    undoubled[0] = {**undoubled[0], "doubles": []}
    start_barbu(client, quick_rotation(undoubled), preset="quick-rotation")
    start_barbu(client, barbu_game(), preset="domino-10")
    with client.application.app_context():
        ala = db.session.execute(db.select(Player.id).where(Player.name == "Ala")).scalar_one()
    html = page(client, f"/players/{ala}?game=barbu")
    chart = parse_html(html).find("svg", cls="chart")
    dots = [dot.find("title").text for dot in chart.find_all("circle")]
    assert [title.rsplit(": ", 1)[1] for title in dots] == ["0", "+2"]
    assert "best +2, worst 0" in chart.find("desc").text
    alone = parse_html(page(client, f"/players/{ala}?game=barbu/domino-10/4"))
    assert alone.first("svg", cls="chart") is None  # one game: nothing to draw yet
