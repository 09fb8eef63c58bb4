"""The new-game form: names, first dealer, and every refusal (422, message on the page, no game)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    follow,
    game_count,
    page,
    parse_html,
    play,
    start_game,
    text_of,
)

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


# -- emoji names (issue 31, point 12) ----------------------------------------------------------------

SPADES, CODER, FAMILY = (
    "\u2660\ufe0f Pik",
    "\U0001f469\u200d\U0001f4bb Ada",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467",
)
EMOJI_TABLE = [SPADES, CODER, FAMILY]


def marked(response: Any) -> list[str]:
    """The name inputs the page marks as wrong."""
    doc = parse_html(response.get_data(as_text=True))
    return [
        node.attrs["name"] or "" for node in doc.find_all("input") if node.attrs.get("aria-invalid") == "true"
    ]


def test_emoji_names_play_a_whole_game_and_show_everywhere(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, EMOJI_TABLE)
    play(client, game_id, [(deal.contract, list(deal.tricks)) for deal in MIZERKA_DEALS[:3]])
    game_page = page(client, f"/games/{game_id}")
    sheet = page(client, f"/games/{game_id}/scoresheet")
    for name in EMOJI_TABLE:
        assert name in game_page and name in sheet, name
    # The chart's key and marks: a mark never splits an emoji sequence (no dangling joiner).
    for html in (game_page, sheet):
        chart = parse_html(html).find("svg")
        assert chart is not None
        for mark in parse_html(html).find_all("span", cls="mark"):
            assert not mark.text.endswith("\u200d") and not mark.text.startswith(("\u200d", "\ufe0f")), (
                mark.text
            )
    assert "\U0001f469\u200d\U0001f469" in text_of(sheet)
    # Exports carry the names as typed.
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["players"] == EMOJI_TABLE
    assert list(exported["deals"][0]["tricks"]) == EMOJI_TABLE
    csv_text = client.get(f"/games/{game_id}/export.csv").get_data().decode("utf-8-sig")
    assert f"{CODER} tricks" in csv_text and f"{FAMILY} total" in csv_text
    api = client.get(f"/api/v1/games/{game_id}").get_json()
    assert api["players"] == EMOJI_TABLE and list(api["totals"]) == EMOJI_TABLE


@pytest.mark.parametrize(
    ("names", "wrong"),
    [
        (["Ann", "Bo\u200db", "Cid"], ["players-1"]),  # a joiner between letters
        (["Ann", "Bob", "Cid\ufe0f"], ["players-2"]),  # a selector after a letter
        (["\u200dAnn", "Bob", "Cid"], ["players-0"]),  # a leading joiner
        (["\U0001f469\u200d", "Bob", "Cid"], ["players-0"]),  # a joiner with nothing to join
        (["Ann", "\ufe0f", "Cid"], ["players-1"]),  # a selector alone
        (["Ann", "Bob", "ANN"], ["players-2"]),  # the same name twice: the second is wrong
        ([SPADES, "Bob", "\u2660 PIK"], ["players-2"]),
    ],
)
def test_a_refused_name_marks_its_own_field_alone(
    app: Flask, client: FlaskClient, names: list[str], wrong: list[str]
) -> None:
    response = post_new_game(client, names, first_dealer="0")
    assert response.status_code == 422
    assert marked(response) == wrong
    assert parse_html(response.get_data(as_text=True)).find(id="error-players").text
    assert game_count(app) == 0


def test_emoji_names_through_the_api(client: FlaskClient) -> None:
    names = ["\U0001f44d\U0001f3fd Bo", "\U0001f1f5\U0001f1f1 Ola", "#\ufe0f\u20e3 Kim"]
    created = client.post("/api/v1/games", json={"players": names, "first_dealer": names[1]})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["players"] == names and body["first_dealer"] == names[1]
    auth = {"Authorization": f"Bearer {body['edit_key']}"}
    deal = {"contract": "hearts", "tricks": dict(zip(names, [1, 7, 5], strict=True))}
    recorded = client.post(f"/api/v1/games/{body['id']}/deals", json=deal, headers=auth)
    assert recorded.status_code == 201, recorded.get_json()
    assert list(recorded.get_json()["tricks"]) == names
    # A joiner or selector that hides is refused where a name is given, and where one names a player.
    for hidden in ("Bo\u200db", "\u200d", "Ola\ufe0f"):
        refused = client.post("/api/v1/games", json={"players": ["Ann", hidden, "Cid"]})
        assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "invalid_players"
    tricks = {"\U0001f44d\U0001f3fd Bo\u200d": 1, names[1]: 7, names[2]: 5}
    refused = client.post(
        f"/api/v1/games/{body['id']}/deals", json={"contract": "clubs", "tricks": tricks}, headers=auth
    )
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "tricks_players"
    # The export comes back as the same game.
    export = client.get(f"/api/v1/games/{body['id']}/export").get_json()
    imported = client.post("/api/v1/games/import", json=export)
    assert imported.status_code == 201 and imported.get_json()["players"] == names


# -- house rules: each choice with what it changes; Kierki's 3 or 4 players ---------------------------


def offered(html: str, option: str) -> list[tuple[str, str, str]]:
    """The choices of a house-rules option: (value, label, summary) in the page's order."""
    form = parse_html(html).find("form", method="post")
    choices = []
    for radio in form.find_all("input", type="radio", name=option):
        label = radio.parent
        summary = label.find("small", cls="summary")
        text = label.text.removesuffix(summary.text if summary else "").strip()
        choices.append((radio.attrs["value"] or "", text, summary.text if summary else ""))
    return choices


def test_the_misere_s_scorings_are_offered_with_what_each_changes(client: FlaskClient) -> None:
    from scorekeeper.rules.misere import PRESETS

    choices = offered(page(client, "/games/new?game=misere"), "scoring")
    assert choices == [(preset.id, preset.label, preset.summary) for preset in PRESETS]
    assert (
        "checked"
        in parse_html(page(client, "/games/new?game=misere"))
        .find("input", name="scoring", value="standard")
        .attrs
    )


def test_the_misere_s_scoring_is_said_in_the_table_s_language(client: FlaskClient) -> None:
    client.get("/language/pl?next=/")
    choices = offered(page(client, "/games/new?game=misere"), "scoring")
    assert [label for _, label, _ in choices] == ["Zwykła", "Wariant"]
    assert choices[1][2].startswith("Deklaracja ugrana: 10 plus deklaracja")


def test_kierki_offers_four_seats_its_presets_and_every_first_dealer(client: FlaskClient) -> None:
    from scorekeeper.rules.kierki import PRESETS

    html = page(client, "/games/new?game=kierki")
    doc = parse_html(html)
    form = doc.find("form", method="post")
    assert form.attrs["action"] == "/games/new?game=kierki"
    assert [link.text for link in doc.find("nav", cls="tabs").find_all("a")] == [
        "Mizerka",
        "Misère",
        "Kierki",
        "Barbu",
    ]
    seats = [form.find("input", name=f"players-{seat}") for seat in range(4)]
    assert ["required" in seat.attrs for seat in seats] == [True, True, True, False]
    assert "3 or 4 players: for 3, leave seat 4 empty." in text_of(html)
    radios = [node.attrs["value"] for node in form.find_all("input", type="radio", name="first_dealer")]
    assert radios == ["random", "0", "1", "2", "3"]
    assert offered(html, "preset") == [(preset.id, preset.label, preset.summary) for preset in PRESETS]
    assert "checked" in form.find("input", name="preset", value="standard").attrs


@pytest.mark.parametrize(
    ("names", "preset", "first_dealer", "deals"),
    [
        (["Ala", "Bartek", "Celina"], "no-robber", "2", 9),
        (["Ala", "Bartek", "Celina", "Darek"], "short", "3", 8),
        (["Ala", "Bartek", "Celina", ""], "no-fan-tan", "0", 13),
    ],
    ids=["3-players", "4-players", "3-players-seat-4-empty"],
)
def test_a_kierki_game_is_created_with_its_players_and_preset(
    app: Flask, client: FlaskClient, names: list[str], preset: str, first_dealer: str, deals: int
) -> None:
    from scorekeeper import services

    game_id = start_game(client, names, first_dealer=first_dealer, game="kierki", preset=preset)
    with app.app_context():
        game = services.snapshot(game_id)
        db.session.remove()
    players = tuple(name for name in names if name)
    assert game.setup.ruleset == "kierki"
    assert game.setup.players == players
    assert game.setup.options_dict == {"preset": preset}
    assert game.setup.first_dealer == int(first_dealer)
    assert game.state.deal_count == deals


def test_the_short_game_with_three_players_is_refused_at_its_field(app: Flask, client: FlaskClient) -> None:
    before = db_snapshot(app)
    response = post_new_game_of(client, "kierki", ["Ala", "Bartek", "Celina"], preset="short")
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    assert doc.find(id="error-options").text == ("Short (4 players) is for 4 players only (this game has 3).")
    assert "checked" in doc.find("input", name="preset", value="short").attrs
    assert [doc.find("input", name=f"players-{seat}").attrs.get("value") for seat in range(3)] == [
        "Ala",
        "Bartek",
        "Celina",
    ]
    assert game_count(app) == 0
    assert db_snapshot(app) == before


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ala", "Bartek", "", ""], "Every player needs a name."),
        (["Ala", "", "Celina", "Darek"], "Every player needs a name."),
    ],
    ids=["two-names", "a-gap"],
)
def test_kierki_needs_three_or_four_names_in_a_row(
    app: Flask, client: FlaskClient, names: list[str], message: str
) -> None:
    response = post_new_game_of(client, "kierki", names)
    assert response.status_code == 422
    assert parse_html(response.get_data(as_text=True)).find(id="error-players").text == message
    assert game_count(app) == 0


def test_the_empty_fourth_seat_cannot_deal_first(app: Flask, client: FlaskClient) -> None:
    response = post_new_game_of(client, "kierki", ["Ala", "Bartek", "Celina"], first_dealer="3")
    assert response.status_code == 422
    assert "Seat 4 is empty: choose a player's seat, or a draw." in text_of(response.get_data(as_text=True))
    assert game_count(app) == 0


def post_new_game_of(
    client: FlaskClient, game: str, names: list[str], first_dealer: str = "0", **extra: Any
) -> Any:
    data: dict[str, Any] = {
        "csrf_token": csrf_from(page(client, f"/games/new?game={game}")),
        "first_dealer": first_dealer,
        **extra,
    }
    data.update({f"players-{seat}": name for seat, name in enumerate(names)})
    return client.post(f"/games/new?game={game}", data=data)
