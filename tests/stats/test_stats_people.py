"""People across games: rename, merge, rematch, and a new game's date, note and known players."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import services, stats
from scorekeeper.errors import ConflictError
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Seat
from scorekeeper.stats.sums import summed_records
from scorekeeper.stored_figures import DealResult, GameResult
from tests.helpers import (
    csrf_from,
    db_snapshot,
    follow,
    page,
    parse_html,
    play,
    start_game,
    text_of,
)
from tests.stats.checks import assert_totals_match

DEALS = [("hearts", [8, 4, 1]), ("clubs", [2, 6, 5]), ("mizerka", [4, 9, 0])]  # tests/helpers' game


def player_named(name: str) -> Player:
    return db.session.execute(select(Player).where(Player.name == name)).scalar_one()


def post_form(client: FlaskClient, url: str, action: str, fill: dict[str, str]) -> object:
    token = csrf_from(page(client, url))
    return client.post(action, data={"csrf_token": token, **fill})


def test_rename_keeps_every_game_and_figure(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, ["Ann", "Bob", "Cid"], first_dealer="2")
    play(client, game_id, DEALS)
    with app.app_context():
        bob = player_named("Bob").id
    response = post_form(client, f"/players/{bob}", f"/players/{bob}/rename", {"name": "  Robert   B. "})
    html = follow(client, response)
    assert "Renamed: Robert B." in text_of(html)
    game = text_of(page(client, f"/games/{game_id}"))
    assert "Robert B." in game and "Bob" not in game
    with app.app_context():
        assert db.session.get(Player, bob).name_key == "robert b."
        state = services.snapshot(game_id).state
        assert state.setup.players == ("Ann", "Robert B.", "Cid")
        assert state.totals == (3, -4, 1)  # tests/helpers.MIZERKA_DEALS after three deals
        # The game is unfinished: its deals count under the new name (the rankings wait for a finish).
        summed = summed_records(stats.Filters(), date.today(), bob)
        assert [(row.name, row.deals) for row in db.session.execute(select(summed))] == [("Robert B.", 3)]
    # A new game typed with the new name (any case) finds the same person.
    start_game(client, ["ROBERT b.", "Dan", "Eve"])
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(Player)).scalar_one() == 5


def test_rename_refusals(app: Flask, client: FlaskClient) -> None:
    start_game(client, ["Ann", "Bob", "Cid"])
    with app.app_context():
        bob = player_named("Bob").id
    before = db_snapshot(app)
    for name, message in [
        (
            "ann",
            "Ann is already a player. If Bob and Ann are the same person, merge the two records instead.",
        ),
        ("   ", "A player needs a name."),
        ("x" * 41, "Names can be at most 40 characters."),
        ("Bo\u202eb", "Names cannot contain control or invisible formatting characters."),
    ]:
        response = post_form(client, f"/players/{bob}", f"/players/{bob}/rename", {"name": name})
        assert response.status_code == 422, name
        error = parse_html(response.get_data(as_text=True)).find(id="error-name")
        assert error.text == message
    assert db_snapshot(app) == before
    # Changing only the case is a rename, not a clash with oneself.
    response = post_form(client, f"/players/{bob}", f"/players/{bob}/rename", {"name": "BOB"})
    assert response.status_code == 303
    assert client.post("/players/999/rename", data={"name": "Zed"}).status_code in (400, 404)


def test_merge_two_records_of_one_person(app: Flask, client: FlaskClient) -> None:
    first = start_game(client, ["Kasia", "Bob", "Cid"], first_dealer="2")
    play(client, first, DEALS)
    second = start_game(client, ["Kasia W.", "Dan", "Eve"])
    with app.app_context():
        kasia, kasia_w = player_named("Kasia").id, player_named("Kasia W.").id
    response = post_form(client, "/players", "/players/merge", {"duplicate": "kasia w.", "keep": "KASIA"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/players/{kasia}"
    assert "all the games are now Kasia's" in text_of(follow(client, response))
    with app.app_context():
        assert db.session.get(Player, kasia_w) is None
        assert {
            seat.game_id for seat in db.session.execute(select(Seat).where(Seat.player_id == kasia)).scalars()
        } == {
            first,
            second,
        }
        assert services.snapshot(second).setup.players == ("Kasia", "Dan", "Eve")
        assert services.snapshot(first).state.totals == (3, -4, 1)
        for model in (GameResult, DealResult):
            owners = db.session.execute(select(model.player_id).distinct()).scalars().all()
            assert kasia_w not in owners
        person = next(p for p in stats.people() if p.name == "Kasia")
        assert person.games == 2
        assert_totals_match()
    # Both games still open and play on.
    assert client.get(f"/games/{second}").status_code == 200


def test_merge_from_the_player_page(app: Flask, client: FlaskClient) -> None:
    start_game(client, ["Ann", "Bob", "Cid"])
    start_game(client, ["Anne", "Dan", "Eve"])
    with app.app_context():
        ann, anne = player_named("Ann").id, player_named("Anne").id
    response = post_form(client, f"/players/{anne}", f"/players/{anne}/merge", {"keep": "Ann"})
    assert response.headers["Location"] == f"/players/{ann}"
    assert client.get(f"/players/{anne}").status_code == 404


def test_merge_refused_when_they_sat_at_the_same_table(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, ["Ann", "Bob", "Cid"])
    play(client, game_id, DEALS[:1])
    before = db_snapshot(app)
    response = post_form(client, "/players", "/players/merge", {"duplicate": "Bob", "keep": "Ann"})
    assert response.status_code == 409
    error = parse_html(response.get_data(as_text=True)).find(id="error-keep")
    assert error.text == (
        "Bob and Ann played together in a game, so they are two people: merging them would seat one "
        "person twice at the same table. Nothing was changed."
    )
    assert db_snapshot(app) == before
    with app.app_context():
        bob = player_named("Bob").id
    response = post_form(client, f"/players/{bob}", f"/players/{bob}/merge", {"keep": "Cid"})
    assert response.status_code == 409
    assert "Bob and Cid played together in a game" in text_of(response.get_data(as_text=True))
    for fill, field, message in [
        ({"duplicate": "Nobody", "keep": "Ann"}, "duplicate", "There is no player called Nobody."),
        ({"duplicate": "Ann", "keep": ""}, "keep", "Give a player's name."),
        ({"duplicate": "Ann", "keep": "ann"}, "keep", "Choose two different players to merge."),
    ]:
        response = post_form(client, "/players", "/players/merge", fill)
        assert response.status_code == 422
        assert parse_html(response.get_data(as_text=True)).find(id=f"error-{field}").text == message
    assert db_snapshot(app) == before


def test_merge_counts_shared_games(app: Flask) -> None:
    with app.app_context():
        for _ in range(2):
            services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")
        ann, bob = player_named("Ann").id, player_named("Bob").id
        with pytest.raises(ConflictError) as refused:
            services.merge_players(bob, ann)
        assert refused.value.code == "players_share_game"
        assert "played together in 2 games" in refused.value.message


def test_rematch_same_people_next_dealer(app: Flask, client: FlaskClient) -> None:
    from tests.helpers import MIZERKA_DEALS

    game_id = start_game(client, ["Ann", "Bob", "Cid"], first_dealer="2", note="Friday, Ann's")
    html = page(client, f"/games/{game_id}")
    assert parse_html(html).first("form", action=f"/games/{game_id}/rematch") is None  # not over yet
    play(client, game_id, [(d.contract, list(d.tricks)) for d in MIZERKA_DEALS])
    doc = parse_html(page(client, f"/games/{game_id}"))
    form = doc.find("form", action=f"/games/{game_id}/rematch")
    response = client.post(form.attrs["action"] or "", data={"csrf_token": csrf_from(html)})
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert new_id != game_id
    new_page = follow(client, response)
    assert "Rematch: same seats, Ann deals first." in text_of(new_page)
    # The rematch's scorer holds its pencil: the declare form is there.
    assert parse_html(new_page).first("form", action=f"/games/{new_id}/deals") is not None
    with app.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert [s.player_id for s in new.seats] == [s.player_id for s in old.seats]
        assert (old.first_dealer, new.first_dealer) == (2, 0)  # Cid dealt first; now Ann, one seat on
        assert new.note == "Friday, Ann's" and new.played_on == date.today()
        assert new.ruleset == "mizerka" and not new.deals
    # A rematch of a game in progress is refused, and a missing game is a 404.
    response = client.post(f"/games/{new_id}/rematch", data={"csrf_token": csrf_from(html)})
    assert "A rematch starts once this game is over." in text_of(follow(client, response))
    assert client.post("/games/nosuchgame/rematch", data={"csrf_token": csrf_from(html)}).status_code == 404


def test_rematch_of_misere_keeps_the_options(app: Flask) -> None:
    with app.app_context():
        loaded, _ = services.create_game("misere", ["P", "Q", "R", "S"], "S", {"scoring": "variant"})
        for number in range(1, 7):
            services.record_deal(loaded.id, number=number, bids=[3, 3, 3, 3], tricks=[4, 3, 3, 3])
        for number in (7, 8):
            services.record_deal(loaded.id, number=number, tricks=[13, 0, 0, 0])
        again, _ = services.rematch(loaded.id)
        assert again.setup.players == ("P", "Q", "R", "S")
        assert again.setup.first_dealer == 0  # S (seat 3) dealt first; the next seat is P
        assert again.setup.options_dict == {"scoring": "variant"}


def test_new_game_offers_known_players_and_takes_a_date_and_note(app: Flask, client: FlaskClient) -> None:
    start_game(client, ["Ann", "Bob", "Cid"])
    start_game(client, ["Dan", "Eve", "Ann"])
    doc = parse_html(page(client, "/games/new"))
    options = [node.attrs["value"] for node in doc.find("datalist", id="known-players").find_all("option")]
    assert options == ["Ann", "Bob", "Cid", "Dan", "Eve"]
    assert doc.find("input", id="players-0").attrs["list"] == "known-players"
    taps = [node.attrs["data-pick"] for node in doc.find(cls="tap-list").find_all("button")]
    assert taps == ["Dan", "Eve", "Ann", "Bob", "Cid"]  # newest game first, in seat order
    assert doc.find("input", id="played_on").attrs["value"] == date.today().isoformat()
    game_id = start_game(client, ["Ann", "Bob", "Cid"], played_on="2026-01-09", note="  Club   night ")
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.played_on, game.note) == (date(2026, 1, 9), "Club night")
    sheet = text_of(page(client, f"/games/{game_id}/scoresheet"))
    assert "9 January 2026" in sheet and "Club night" in sheet


@pytest.mark.parametrize(
    ("fill", "field", "message"),
    [
        ({"played_on": "yesterday"}, "played_on", "Give the date as year-month-day, e.g. 2026-03-14."),
        (
            {"played_on": (date.today() + timedelta(days=3)).isoformat()},
            "played_on",
            "The date a game was played cannot be in the future.",
        ),
        ({"note": "x" * 201}, "note", "The note can be at most 200 characters."),
    ],
)
def test_new_game_refuses_a_bad_date_or_note(
    app: Flask, client: FlaskClient, fill: dict[str, str], field: str, message: str
) -> None:
    html = page(client, "/games/new")
    data = {"csrf_token": csrf_from(html), "first_dealer": "0", **fill}
    data.update({f"players-{i}": name for i, name in enumerate(["Ann", "Bob", "Cid"])})
    response = client.post("/games/new?game=mizerka", data=data)
    assert response.status_code == 422
    assert parse_html(response.get_data(as_text=True)).find(id=f"error-{field}").text == message
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(Game)).scalar_one() == 0


def test_players_page_and_nav(app: Flask, client: FlaskClient) -> None:
    assert "No players yet" in text_of(page(client, "/players"))
    start_game(client, ["Ann", "Bob", "Cid"])
    doc = parse_html(page(client, "/players"))
    assert [a.text for a in doc.find("ul", cls="people").find_all("a")] == ["Ann", "Bob", "Cid"]
    assert doc.find("nav", aria_label="Site").find("a", href="/rankings").text == "Rankings"
    assert "No Mizerka games yet." in text_of(page(client, "/rankings"))
