"""A season's trend, and changing or deleting a season (docs/club-nights.md "Seasons"), through the
service, the pages and the API. The nights are test_seasons.py's: five in October 2026 (Ann, Bob,
Cid and Dan; Eve and Fay one night each), one in August, plus here one more on 30 October."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

import pytest

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Night
from scorekeeper.rules import RuleError
from scorekeeper.services import nights as club
from tests.api.api_support import check_documented
from tests.helpers import csrf_from, page, parse_html, text_of
from tests.nights.test_seasons import a_season_of_five_nights, night

pytestmark = pytest.mark.every_database
THIRD = Fraction(1, 3)
AUTUMN = {"starts_on": "2026-09-01", "ends_on": "2026-12-31"}


def the_moving_nights() -> None:
    """The five October nights and a sixth on 30 October: Dan +1 (+1/3), Bob +1 (+1/3), Cid -2 (-2/3)."""
    a_season_of_five_nights()
    night(["Dan", "Bob", "Cid"], "2026-10-30")


def a_season_with_a_moving_last_night() -> str:
    the_moving_nights()
    return club.create_season("Autumn", "mizerka", **AUTUMN)[0]


def made_on_its_page(client) -> str:
    """A season of the autumn made through its page (so this phone holds its pencil): its page's path."""
    html = page(client, "/seasons/new")
    form = {"csrf_token": csrf_from(html), "name": "Autumn", "game": "mizerka", **AUTUMN, "best": ""}
    created = client.post("/seasons/new", data=form)
    assert created.status_code == 303
    return created.headers["Location"]


def made_through_the_api(client) -> tuple[str, str]:
    """A season of the autumn made through the API: its path and its key."""
    created = client.post("/api/v1/seasons", json={"name": "Autumn", "ruleset": "mizerka", **AUTUMN})
    assert created.status_code == 201
    return created.headers["Location"], created.get_json()["key"]


def trends(season: club.SeasonView) -> list[tuple[str, int, int, int | None, int | None]]:
    names = season.names or {}
    return [(names[r.player], r.rank, r.points, r.previous, r.moved) for r in season.standings]


# Before 30 October (test_seasons.py): Ann 1st (+2), Cid 2nd (0), Bob and Dan 3rd (-1, margins -1/3).
# After it: Ann +2 (2/3) 1st; Bob -1 + 1 = 0 and Dan -1 + 1 = 0, margins 0, 4 nights each: both 2nd,
# up one place; Cid 0 - 2 = -2: 4th, down two places.
MOVED = [("Ann", 1, 2, 1, 0), ("Bob", 2, 0, 3, 1), ("Dan", 2, 0, 3, 1), ("Cid", 4, -2, 2, -2)]


def settings(season_id: str) -> tuple[object, ...]:
    season = club.load_season(season_id)
    return (season.name, season.ruleset.id, season.preset, season.starts_on, season.ends_on, season.best)


def test_the_trend_is_the_move_since_the_table_before_the_latest_night(ctx):
    assert trends(club.load_season(a_season_with_a_moving_last_night())) == MOVED


def test_changing_a_season_reads_its_table_again(ctx):
    season_id = a_season_with_a_moving_last_night()
    club.edit_season(season_id, {"name": " Late autumn ", "starts_on": "2026-10-08", "best": "2"})
    season = club.load_season(season_id)
    assert (season.name, season.starts_on, season.ends_on, season.best) == (
        "Late autumn",
        date(2026, 10, 8),
        date(2026, 12, 31),
        2,
    )
    # From 8 October, best 2: Dan +1 (8 Oct -2, 15 Oct +1, 22 Oct 0, 30 Oct +1) = 2 over 4 nights, margins
    # 1/3 + 1/3; Bob (15 Oct -2, 22 Oct 0, 30 Oct +1) = 1 over 3; Cid (+1, +1, -2) = 2, margins 2/3 over
    # 3 nights: Dan ranks above Cid on nights played; Ann (+1, 0, 0) = 1, margins 1/3, 3 nights, as Bob.
    assert [(club.load_season(season_id).names or {})[r.player] for r in season.standings] == [
        "Dan",
        "Cid",
        "Ann",
        "Bob",
    ]
    assert [(r.rank, r.points, r.margin) for r in season.standings] == [
        (1, 2, 2 * THIRD),
        (2, 2, 2 * THIRD),
        (3, 1, THIRD),
        (3, 1, THIRD),
    ]
    # The ranking may change too: Misère has no night in it, so the table empties; back to Mizerka.
    club.edit_season(season_id, {"ruleset": "misere"})
    assert (club.load_season(season_id).ruleset.id, club.load_season(season_id).nights) == ("misere", ())
    club.edit_season(season_id, {"ruleset": "mizerka"})
    assert len(club.load_season(season_id).nights) == 5


def test_every_refused_change_is_at_its_field_and_changes_nothing(ctx):
    season_id = a_season_with_a_moving_last_night()
    before = settings(season_id)
    for change, code, field in [
        ({"name": "  "}, "invalid_season", "name"),
        ({"ends_on": "2026-08-31"}, "invalid_season", "ends_on"),
        ({"starts_on": "2027-01-01", "name": "New name"}, "invalid_season", "ends_on"),
        ({"best": 0, "name": "New name"}, "invalid_season", "best"),
        ({"starts_on": "soon"}, "invalid_season", "starts_on"),
        ({"ruleset": "no-such-game"}, "unknown_ruleset", None),
    ]:
        with pytest.raises(RuleError) as refused:
            club.edit_season(season_id, change)
        assert (refused.value.code, refused.value.field if field else None) == (code, field), change
        assert settings(season_id) == before, change
    for unknown in ("nosuchseason", "x"):
        with pytest.raises(Refusal) as missing:
            club.edit_season(unknown, {"name": "Winter"})
        assert missing.value.code == "not_found"
        with pytest.raises(Refusal):
            club.delete_season(unknown)
    assert [season.id for season in club.list_seasons()] == [season_id]


def test_deleting_a_season_keeps_its_nights_and_games(ctx):
    season_id = a_season_with_a_moving_last_night()
    other = club.create_season("Same dates", "mizerka", **AUTUMN)[0]
    nights = db.session.query(Night).count()
    club.delete_season(season_id)
    assert [season.id for season in club.list_seasons()] == [other]
    with pytest.raises(Refusal):
        club.load_season(season_id)
    assert db.session.query(Night).count() == nights == 7
    # The nights' games still stand: another season of the same dates reads the same table.
    assert trends(club.load_season(other)) == MOVED


def test_changing_and_deleting_a_season_through_its_pages(app, client):
    with app.app_context():
        the_moving_nights()
    url = made_on_its_page(client)
    season_id = url.rsplit("/", 1)[1]
    tree = parse_html(page(client, url))
    rows = tree.find("table", cls="season-standings").find("tbody").find_all("tr")
    assert [[cell.text for cell in row.find_all() if cell.tag == "td"][:2] for row in rows] == [
        ["1", "=same place"],
        ["2", "▲1up 1 place"],
        ["2", "▲1up 1 place"],
        ["4", "▼2down 2 places"],
    ]
    html = page(client, url)
    assert f"{url}/edit" in html and f"{url}/delete" in html
    form_html = page(client, f"{url}/edit")
    values = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', form_html))
    assert (values["name"], values["starts_on"], values["ends_on"], values["best"]) == (
        "Autumn",
        "2026-09-01",
        "2026-12-31",
        "10",
    )
    assert re.search(
        r'<option[^>]*selected[^>]*value="mizerka"|<option[^>]*value="mizerka"[^>]*selected', form_html
    )
    form = {"csrf_token": csrf_from(form_html), "name": "Winter", "game": "mizerka", **AUTUMN, "best": "10"}
    for wrong, message in (
        ({"name": ""}, "Give the season a name."),
        ({"ends_on": "2026-08-01"}, "cannot end before it starts"),
        ({"best": "0"}, "Best nights: a whole number from 1 to 100."),
    ):
        refused = client.post(f"{url}/edit", data={**form, **wrong})
        assert refused.status_code == 422
        assert message in text_of(refused.get_data(as_text=True))
        assert 'aria-invalid="true"' in refused.get_data(as_text=True)
        with app.app_context():
            assert club.load_season(season_id).name == "Autumn"
    changed = client.post(f"{url}/edit", data=form)
    assert (changed.status_code, changed.headers["Location"]) == (303, url)
    assert "Winter" in text_of(page(client, url))
    assert client.get("/seasons/nosuchseason/edit").status_code == 404
    # Deleting asks first: the confirmation page changes nothing.
    asked = page(client, f"{url}/delete")
    assert "its nights and every game played at them stay" in text_of(asked)
    assert client.get(url).status_code == 200
    deleted = client.post(f"{url}/delete", data={"csrf_token": csrf_from(asked)})
    assert (deleted.status_code, deleted.headers["Location"]) == (303, "/seasons")
    assert client.get(url).status_code == 404
    assert "Winter" not in text_of(page(client, "/seasons"))
    with app.app_context():
        assert db.session.query(Night).count() == 7
    assert (
        client.post("/seasons/nosuchseason/delete", data={"csrf_token": csrf_from(asked)}).status_code == 404
    )


def test_changing_and_deleting_a_season_through_the_api(app, client):
    with app.app_context():
        the_moving_nights()
    path, key = made_through_the_api(client)
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    read = client.get(path)
    check_documented("GET", path, read)
    assert [
        (r["player"], r["rank"], r["previous_rank"], r["trend"], r["moved"])
        for r in read.get_json()["standings"]
    ] == [("Ann", 1, 1, "same", 0), ("Bob", 2, 3, "up", 1), ("Dan", 2, 3, "up", 1), ("Cid", 4, 2, "down", -2)]
    for body, field in (
        ({"name": ""}, "name"),
        ({"ends_on": "2026-08-01"}, "ends_on"),
        ({"best": 0}, "best"),
        ({"name": "Winter", "starts_on": "2027-01-01"}, "ends_on"),
    ):
        refused = client.patch(path, json=body)
        check_documented("PATCH", path, refused)
        assert refused.status_code == 422
        assert (refused.get_json()["error"]["code"], refused.get_json()["error"]["field"]) == (
            "invalid_season",
            field,
        )
        assert client.get(path).get_json() == read.get_json()
    changed = client.patch(path, json={"name": "Winter", "best": 2, "ends_on": None})
    check_documented("PATCH", path, changed)
    assert changed.status_code == 200
    answer = changed.get_json()
    assert (answer["name"], answer["best"], answer["ends_on"]) == ("Winter", 2, "2026-12-31")
    assert client.get(path).get_json() == answer
    missing = client.patch("/api/v1/seasons/nosuchseason", json={"name": "Winter"})
    check_documented("PATCH", "/api/v1/seasons/nosuchseason", missing)
    assert (missing.status_code, missing.get_json()["error"]["code"]) == (404, "not_found")
    deleted = client.delete(path)
    check_documented("DELETE", path, deleted)
    assert deleted.status_code == 204
    assert client.get(path).status_code == 404
    again = client.delete(path)
    check_documented("DELETE", path, again)
    assert again.status_code == 404
    with app.app_context():
        assert db.session.query(Night).count() == 7
