"""This phone's games: the home page is one page for everyone (kept), and what is one phone's
(the games its keyring holds, the games it opened) is answered to that phone alone, never kept."""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper import services, stats
from scorekeeper.access import DEVICE_COOKIE
from scorekeeper.extensions import db
from scorekeeper.models import Pencil, utcnow
from scorekeeper.stats.game_list import MOST_HELD
from tests.helpers import MIZERKA_DEALS, hold_pencil, page, parse_html, play, start_game, start_mizerka

URL = "/this-phone/games"


def answer(client: FlaskClient, url: str = URL) -> list[dict[str, object]]:
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store, private"
    assert response.mimetype == "application/json"
    games: list[dict[str, object]] = response.get_json()["games"]
    return games


def ids(games: list[dict[str, object]]) -> list[object]:
    return [game["id"] for game in games]


def test_a_phone_is_answered_its_own_games_and_another_phone_none_of_them(app: Flask) -> None:
    phone_a, phone_b, stranger = app.test_client(), app.test_client(), app.test_client()
    first = start_game(phone_a, ["Ann", "Bob", "Cid"])
    play(phone_a, first, [(d.contract, list(d.tricks)) for d in MIZERKA_DEALS[:2]])
    second = start_game(phone_a, ["Ann", "Dan", "Eve"])
    theirs = start_game(phone_b, ["Zoe", "Yan", "Xia"])

    mine = answer(phone_a)
    assert ids(mine) == [second, first]  # in progress, newest first
    assert all(game["held"] is True for game in mine)
    newest, older = mine
    assert newest["players"] == "Ann · Dan · Eve" and newest["url"] == f"/games/{second}"
    assert newest["ruleset"] == "Mizerka" and newest["finished"] is False
    assert newest["deal"] == "Deal 1/18" and newest["leader"] == ""
    assert older["deal"] == "Deal 3/18" and str(older["leader"]).startswith("Leader: ")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", str(older["datetime"])) and older["date"]

    assert ids(answer(phone_b)) == [theirs]
    assert answer(stranger) == []  # no device: nothing, and no statement sent (tests/perf)
    # A device cookie the server never made names no keyring.
    stranger.set_cookie(DEVICE_COOKIE, "made-up")
    assert answer(stranger) == []


def test_opened_games_are_answered_as_watched_and_nothing_else_is(app: Flask) -> None:
    phone_a, phone_b = app.test_client(), app.test_client()
    watched = start_game(phone_b, ["Zoe", "Yan", "Xia"])
    own = start_game(phone_a, ["Ann", "Bob", "Cid"])

    games = answer(phone_a, f"{URL}?opened={watched},nosuchgame,{own},bad%00id,{watched}")
    assert ids(games) == [own, watched]
    assert [game["held"] for game in games] == [True, False]
    # Another phone naming a game it opened is told it watches it: no one's keyring shows.
    assert [(game["id"], game["held"]) for game in answer(phone_b, f"{URL}?opened={own}")] == [
        (own, False),
        (watched, True),
    ]


def test_the_opened_list_read_is_bounded(app: Flask) -> None:
    phone = app.test_client()
    made = [start_game(phone, ["Ann", "Bob", f"P{i}"]) for i in range(3)]
    watcher = app.test_client()
    many = ",".join(["x" * 20] * 500 + made)  # only the first MOST_OPENED distinct plausible ids count
    assert answer(watcher, f"{URL}?opened={many}") == []
    assert len(answer(watcher, f"{URL}?opened={','.join(made)}")) == 3
    assert stats.MOST_OPENED >= 3


def test_the_home_page_is_the_same_for_every_phone_and_carries_the_section_to_fill(app: Flask) -> None:
    phone_a, phone_b, stranger = app.test_client(), app.test_client(), app.test_client()
    for client, names in ((phone_a, ["Ann", "Bob", "Cid"]), (phone_b, ["Zoe", "Yan", "Xia"])):
        page(client, f"/games/{start_game(client, names)}")  # its flash shown there, as after the redirect
    answer(phone_a)  # what one phone was answered changes nothing on the shared page
    bodies = []
    for client in (phone_a, phone_b, stranger, phone_a):
        response = client.get("/")
        assert response.status_code == 200
        assert "private" not in response.headers.get("Cache-Control", "")
        bodies.append(response.data)
    assert bodies[0] == bodies[1] == bodies[2] == bodies[3]
    doc = parse_html(bodies[0].decode())
    section = doc.find("section", id="this-phone")
    assert "hidden" in section.attrs and section.attrs["data-source"] == URL
    assert section.find("h2").text == "This phone's games"
    assert section.find("ul", cls="game-list").find_all("li") == []  # drawn on the phone only
    assert section.find("template", id="this-phone-game") is not None


def test_a_phone_holding_many_games_is_answered_its_newest(app: Flask) -> None:
    phone = app.test_client()
    oldest = start_game(phone, ["Ann", "Bob", "Cid"])
    with app.app_context():
        # The first grant an hour older (grants made in one moment are told apart by id alone).
        db.session.execute(
            update(Pencil).where(Pencil.game_id == oldest).values(created_at=utcnow() - timedelta(hours=1))
        )
        db.session.commit()
        newer = [
            services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")[0].id for _ in range(MOST_HELD)
        ]
        db.session.remove()
    for game_id in newer:  # more grants than are answered: the keyring itself, faster than forms
        hold_pencil(phone, game_id)
    games = answer(phone)
    assert sorted(map(str, ids(games))) == sorted(newer)
    # The game it no longer lists among its held ones comes back once the phone says it opened it.
    assert oldest in ids(answer(phone, f"{URL}?opened={oldest}"))


def test_a_finished_game_is_answered_as_the_home_list_shows_it(app: Flask) -> None:
    phone = app.test_client()
    game_id = start_mizerka(phone, deals=len(MIZERKA_DEALS))
    (game,) = answer(phone)
    assert game["id"] == game_id and game["finished"] is True and game["deal"] == ""
    home = parse_html(page(phone, "/"))
    shown = next(
        item for item in home.find_all("a", cls="game-item") if item.attrs["href"] == f"/games/{game_id}"
    )
    assert str(game["leader"]).startswith("Won by: ") and str(game["leader"]) in shown.text
    assert str(game["date"]) in shown.text and str(game["players"]) in shown.text
