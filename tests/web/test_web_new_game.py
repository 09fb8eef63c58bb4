"""The new-game form: names, first dealer, and every refusal (422, message on the page, no game)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, db_snapshot, follow, game_count, page, parse_html, start_game, text_of

from scorekeeper.extensions import db
from scorekeeper.models import Player


def post_new_game(client: FlaskClient, names: list[str], first_dealer: str = "random", **extra: Any) -> Any:
    data: dict[str, Any] = {"csrf_token": csrf_from(page(client, "/games/new")), "first_dealer": first_dealer}
    data.update({f"players-{seat}": name for seat, name in enumerate(names)})
    data.update(extra)
    return client.post("/games/new", data=data)


def test_the_form_offers_three_seats_and_the_first_dealer(client: FlaskClient) -> None:
    doc = parse_html(page(client, "/games/new"))
    form = doc.find("form", method="post")
    assert form.attrs["action"] == "/games/new?game=mizerka"
    # The name inputs are the form's text fields (the note is one too, after them).
    assert [node.attrs["name"] for node in form.find_all("input", type="text") if node.attrs.get("name")][
        :3
    ] == [
        "players-0",
        "players-1",
        "players-2",
    ]
    for seat in range(3):
        assert form.find("input", name=f"players-{seat}").attrs["maxlength"] == "40"
    radios = [node.attrs["value"] for node in form.find_all("input", type="radio", name="first_dealer")]
    assert radios == ["random", "0", "1", "2"]
    assert "checked" in form.find("input", type="radio", value="random").attrs


def test_names_are_trimmed(app: Flask, client: FlaskClient) -> None:
    response = post_new_game(client, ["  Ann ", "\tBob  ", " Cid  Major "], first_dealer="0")
    doc = parse_html(follow(client, response))
    assert doc.find("title").text == "Ann, Bob, Cid Major · Mizerka · Scorekeeper"
    assert [
        li.find(cls="who").text for li in doc.find("section", aria_label="Running totals").find_all("li")
    ] == [
        "Ann",
        "Bob",
        "Cid Major",
    ]
    with app.app_context():
        names = sorted(db.session.execute(db.select(Player.name)).scalars())
    assert names == ["Ann", "Bob", "Cid Major"]


def test_names_of_one_and_of_forty_characters_are_accepted(app: Flask, client: FlaskClient) -> None:
    forty = "Maximilian Alexander von Hohenberg-Lange"
    assert len(forty) == 40
    game_id = start_game(client, ["A", forty, "Bo"])
    html = page(client, f"/games/{game_id}")
    assert forty in text_of(html)
    assert game_count(app) == 1


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "B" * 41, "Cid"], "Names can be at most 40 characters (BBBBBBBBBBBB… has 41)."),
        (["Ann", "", "Cid"], "Every player needs a name."),
        (["Ann", "   ", "Cid"], "Every player needs a name."),
        (["Ann", "Bob", "aNN"], "Two players are called aNN — names must differ (ignoring case)."),
        (["Ann", "Bob"], "Every player needs a name."),
    ],
    ids=["41-chars", "empty", "blank", "duplicate-ignoring-case", "missing"],
)
def test_bad_names_are_refused_and_no_game_is_created(
    app: Flask, client: FlaskClient, names: list[str], message: str
) -> None:
    before = db_snapshot(app)
    response = post_new_game(client, names, first_dealer="0")
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    assert doc.find(id="error-players").text == message
    # The typed names come back so they can be fixed.
    assert doc.find("input", name="players-0").attrs["value"] == "Ann"
    assert game_count(app) == 0
    assert db_snapshot(app) == before


def test_a_first_dealer_who_is_not_a_seat_is_refused(app: Flask, client: FlaskClient) -> None:
    response = post_new_game(client, ["Ann", "Bob", "Cid"], first_dealer="7")
    assert response.status_code == 422
    assert "7 is not playing in this game." in text_of(response.get_data(as_text=True))
    assert game_count(app) == 0


@pytest.mark.parametrize(
    ("seat", "dealer", "chooser", "middlehand"), [("0", "Ann", "Bob", "Cid"), ("1", "Bob", "Cid", "Ann")]
)
def test_the_chosen_first_dealer_deals_first(
    client: FlaskClient, seat: str, dealer: str, chooser: str, middlehand: str
) -> None:
    response = post_new_game(client, ["Ann", "Bob", "Cid"], first_dealer=seat)
    assert response.status_code == 303
    doc = parse_html(follow(client, response))
    assert doc.find(cls="flashes").text == f"{dealer} deals first."
    roles = doc.find("p", cls="roles").text
    assert roles == f"{dealer} deals {chooser} chooses and leads (forehand) {middlehand} is middlehand"
    assert "Deal 1 of 18" in doc.find("section", aria_label="Running totals").text


def test_a_random_draw_names_the_dealer_it_drew(client: FlaskClient) -> None:
    response = post_new_game(client, ["Ann", "Bob", "Cid"], first_dealer="random")
    assert response.status_code == 303
    doc = parse_html(follow(client, response))
    flash = doc.find(cls="flashes").text
    drawn = flash.removeprefix("The app drew ").removesuffix(" to deal first.")
    assert drawn in {"Ann", "Bob", "Cid"}, flash
    assert flash == f"The app drew {drawn} to deal first."
    assert doc.find("p", cls="roles").text.startswith(f"{drawn} deals ")


def test_no_first_dealer_at_all_means_a_random_draw(client: FlaskClient) -> None:
    data = {"csrf_token": csrf_from(page(client, "/games/new"))}
    data.update({f"players-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cid"])})
    response = client.post("/games/new", data=data)
    assert "The app drew " in text_of(follow(client, response))


def test_the_creator_gets_the_pencil_and_a_secure_cookie(client: FlaskClient) -> None:
    response = post_new_game(client, ["Ann", "Bob", "Cid"], first_dealer="0")
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    cookies = response.headers.getlist("Set-Cookie")
    assert not [line for line in cookies if line.startswith("sk_edit_")]  # no key leaves the server
    cookie = next(line for line in cookies if line.startswith("sk_device="))
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Path=/;" in cookie
    assert parse_html(follow(client, response)).find("form", cls="declare-form")
    assert game_id


def test_a_seat_left_out_of_the_post_is_missing_not_filled_by_its_neighbour(
    app: Flask, client: FlaskClient
) -> None:
    """Seat 2's name must not slide into seat 1 when seat 1's input is absent (a crafted post)."""
    token = csrf_from(page(client, "/games/new"))
    data = {
        "csrf_token": token,
        "first_dealer": "0",
        "players-0": "Ann",
        "players-2": "Cid",
        "players-3": "Dan",
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert (
        parse_html(response.get_data(as_text=True)).find(id="error-players").text
        == "Every player needs a name."
    )
    assert game_count(app) == 0
