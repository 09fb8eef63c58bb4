"""The pages that lead to a game (issue 42): the home page offers every game the pages score, from
the registry of games; a player's page and the rankings open on the game played most recently."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from helpers import KIERKI_EXAMPLE, page, parse_html, start_kierki, start_mizerka, submit

from scorekeeper.extensions import db
from scorekeeper.models import Player

EXAMPLE = [facts for facts, _ in KIERKI_EXAMPLE]


def test_the_home_page_offers_every_game_of_the_registry(client: FlaskClient) -> None:
    html = page(client, "/")
    buttons = [(a.attrs["href"], a.text) for a in parse_html(html).find("p", cls="actions").find_all("a")]
    assert buttons == [
        ("/games/new", "New Mizerka game"),
        ("/games/new?game=misere", "New Misère game"),
        ("/games/new?game=kierki", "New Kierki game"),
        ("/games/new?game=barbu", "New Barbu game"),
    ]
    # Empty: nothing about how many names, which differs from game to game.
    assert "No games yet. Start one: all it takes is the players' names." in html
    assert "three names" not in html
    client.set_cookie("lang", "pl")
    assert "Nowa partia: Kierki" in page(client, "/")


def test_a_kierki_players_page_and_the_rankings_open_on_kierki(client: FlaskClient) -> None:
    start_mizerka(client, deals=18)  # the club played Mizerka first (Ann, Bob, Cid)...
    start_kierki(client, EXAMPLE[:2])  # ...then Kierki, whose players never played Mizerka
    with client.application.app_context():
        bartek = db.session.execute(db.select(Player.id).where(Player.name == "Bartek")).scalar_one()
        ann = db.session.execute(db.select(Player.id).where(Player.name == "Ann")).scalar_one()
    html = page(client, f"/players/{bartek}")
    assert parse_html(html).find("title").text.startswith("Bartek · Kierki")
    assert "No Mizerka games yet" not in html
    # The rankings count finished games: they open on the game finished last, Mizerka so far...
    assert parse_html(page(client, "/rankings")).find("title").text.startswith("Rankings · Mizerka")
    start_kierki(client, EXAMPLE)  # ...until a Kierki game finishes
    assert parse_html(page(client, "/rankings")).find("title").text.startswith("Rankings · Kierki")
    # Ann played Mizerka only: her page opens on it; a link keeps the ranking it was made on.
    assert parse_html(page(client, f"/players/{ann}")).find("title").text.startswith("Ann · Mizerka")
    rankings = parse_html(page(client, "/rankings?game=mizerka"))
    assert {a.attrs["href"] for a in rankings.find_all("a") if a.text == "Ann"} == {
        f"/players/{ann}?game=mizerka"
    }


def test_a_refused_hand_over_link_leads_with_only_watch(app: Flask, client: FlaskClient) -> None:
    """The game page says "share" (the scorer's phone keeps its pencil); a link refused (used, or too
    old) opens on "Only watch", the one thing left to do, before another try."""
    game_id = start_mizerka(client, deals=1)
    game_page = parse_html(page(client, f"/games/{game_id}"))
    share = game_page.find("form", action=f"/games/{game_id}/hand-over")
    assert share.find("button").text == "Share the pencil"
    assert "This phone keeps its pencil too." in share.text
    phone = app.test_client()
    form = parse_html(page(phone, f"/games/{game_id}/take")).find("form", id="take-form")
    assert [a.text for a in form.find("p", cls="actions").iter() if a.tag in ("a", "button")] == [
        "Take the pencil",
        "Only watch",
    ]
    refused = submit(phone, form, fill={"key": "x" * 43})
    assert refused.status_code == 403
    actions = parse_html(refused.get_data(as_text=True)).find("form", id="take-form").find("p", cls="actions")
    first = next(node for node in actions.iter() if node.tag in ("a", "button"))
    assert (first.text, "primary" in first.classes) == ("Only watch", True)
