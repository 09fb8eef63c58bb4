"""Seasons (CLUB.md "Seasons"): nights of one game and preset between two dates, each player's best
nights summed, read from the nights' standings.

Every night below is one Mizerka table of 3, seated in the listed order (round 1 "in the order"),
the first listed dealing first. A whole game of DEALS leaves the seats on +3, +3, -6: places 1, 1, 3,
so placement points +1, +1, -2 (two tied first at 3 seats share (2 + 0) / 2 = +1; last 3 + 1 - 6 = -2)
and margins (total - mean 0) / (3 - (-6)) = +1/3, +1/3, -2/3. A table closed before its first deal
stands at 0, 0, 0: all tied, 0 points and 0 margin each.
"""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.rules import RuleError
from scorekeeper.services import nights as club
from tests.conftest import make_test_app
from tests.helpers import csrf_from, page, parse_html, text_of
from tests.perf.perf_support import DEALS, StatementCounter

pytestmark = pytest.mark.every_database
LINK = club.TableLink("test-secret")
THIRD = Fraction(1, 3)


def night(seats: list[str], played_on: str, *, whole: bool = True, ruleset: str = "mizerka") -> str:
    """A night of one table of ``seats`` (in seat order) on ``played_on``: its game played whole, or
    closed before its first deal."""
    night_id, _ = club.create_night(
        f"Night {played_on}", ruleset, rounds=1, first_round="order", played_on=played_on
    )
    for name in seats:
        club.check_in(night_id, name)
    club.seat_next_round(night_id)
    club.start_round(night_id, LINK)
    table = club.load_night(night_id).rounds[0].tables[0]
    if whole:
        for number, (contract, tricks) in enumerate(DEALS, start=1):
            services.record_deal(
                table.game_id, number=number, contract=contract, tricks=dict(zip(seats, tricks, strict=True))
            )
    else:
        club.close_table(night_id, 1, 1)
    return night_id


def a_season_of_five_nights() -> list[str]:
    """Five nights in October 2026, one in August (outside the season), one of another game."""
    return [
        night(["Ann", "Bob", "Cid"], "2026-10-01"),  # Ann +1 (+1/3), Bob +1 (+1/3), Cid -2 (-2/3)
        night(["Cid", "Ann", "Dan"], "2026-10-08"),  # Cid +1, Ann +1, Dan -2
        night(["Dan", "Cid", "Bob"], "2026-10-15"),  # Dan +1, Cid +1, Bob -2
        night(["Bob", "Dan", "Ann"], "2026-10-22", whole=False),  # all 0, unfinished
        night(["Ann", "Eve", "Fay"], "2026-10-29", whole=False),  # all 0, unfinished
        night(["Dan", "Bob", "Cid"], "2026-08-27"),  # before the season: not counted
    ]


def rows_of(season: club.SeasonView) -> list[tuple[str, int, int, Fraction, int, int, Fraction]]:
    names = season.names or {}
    return [
        (names[r.player], r.rank, r.points, r.margin, r.nights, r.tables, r.average) for r in season.standings
    ]


def test_a_season_sums_each_players_best_nights(ctx):
    a_season_of_five_nights()
    club.create_night("Other game", "misere", played_on="2026-10-01")
    every = club.create_season("Autumn", "mizerka", starts_on="2026-09-01", ends_on="2026-12-31")[0]
    season = club.load_season(every)
    assert season.best == 10
    assert [n.played_on for n in season.nights] == [date(2026, 10, day) for day in (1, 8, 15, 22, 29)]
    # Best 10 of at most 4 nights: every night counts.
    # Ann: +1 +1 0 0 = 2 over 4 nights, 4 tables (average 2/4); margins 1/3 + 1/3 = 2/3.
    # Cid: -2 +1 +1 = 0 over 3; margins -2/3 + 1/3 + 1/3 = 0.
    # Bob: +1 -2 0 = -1 over 3, margins 1/3 - 2/3 = -1/3; Dan: -2 +1 0 = -1, margins -2/3 + 1/3 = -1/3:
    # equal points, margins and nights played: they share 3rd. Eve and Fay played one night: not listed.
    assert rows_of(season) == [
        ("Ann", 1, 2, 2 * THIRD, 4, 4, Fraction(2, 4)),
        ("Cid", 2, 0, Fraction(0), 3, 3, Fraction(0)),
        ("Bob", 3, -1, -THIRD, 3, 3, -THIRD),
        ("Dan", 3, -1, -THIRD, 3, 3, -THIRD),
    ]

    best_two = club.load_season(
        club.create_season("Autumn, best 2", "mizerka", starts_on="2026-09-01", ends_on="2026-12-31", best=2)[
            0
        ]
    )
    # The best 2 nights by points: Ann +1 +1 = 2 (margins 2/3), Cid +1 +1 = 2 (2/3): tied on both, Ann
    # played 4 nights to Cid's 3 and ranks first. Bob +1 and 0 = 1 (1/3), Dan +1 and 0 = 1 (1/3): shared.
    # The average still counts every night played.
    assert rows_of(best_two) == [
        ("Ann", 1, 2, 2 * THIRD, 4, 4, Fraction(2, 4)),
        ("Cid", 2, 2, 2 * THIRD, 3, 3, Fraction(0)),
        ("Bob", 3, 1, THIRD, 3, 3, -THIRD),
        ("Dan", 3, 1, THIRD, 3, 3, -THIRD),
    ]

    # A season of September only: no night in it.
    empty = club.load_season(
        club.create_season("September", "mizerka", starts_on="2026-09-01", ends_on="2026-09-30")[0]
    )
    assert (empty.nights, empty.standings) == ((), ())
    # From August: the night of 27 August counts too (Dan +1 and +1/3, Bob +1 and +1/3, Cid -2 and
    # -2/3): Bob and Dan -1 + 1 = 0 with margins -1/3 + 1/3 = 0 over 4 nights each, sharing 2nd;
    # Cid 0 - 2 = -2, margins 0 - 2/3, average -2/4.
    wider = club.load_season(
        club.create_season("Late summer", "mizerka", starts_on="2026-08-01", ends_on="2026-10-31")[0]
    )
    assert rows_of(wider) == [
        ("Ann", 1, 2, 2 * THIRD, 4, 4, Fraction(2, 4)),
        ("Bob", 2, 0, Fraction(0), 4, 4, Fraction(0)),
        ("Dan", 2, 0, Fraction(0), 4, 4, Fraction(0)),
        ("Cid", 4, -2, -2 * THIRD, 4, 4, Fraction(-2, 4)),
    ]


def test_a_correction_at_a_table_moves_the_season(ctx):
    nights = a_season_of_five_nights()
    season_id = club.create_season("Autumn", "mizerka", starts_on="2026-09-01", ends_on="2026-12-31")[0]
    table = club.load_night(nights[0]).rounds[0].tables[0]
    # The last deal of the first night undone: the table plays on at its 17 deals' totals.
    services.undo_deal(table.game_id, 18)
    changed = {row.player: row.points for row in club.load_night(nights[0]).standings}
    names = {name: player for player, name in club.load_night(nights[0]).names.items()}
    assert changed[names["Ann"]] != 1  # the first night's places moved
    season = club.load_season(season_id)
    ann = next(r for r in season.standings if r.player == names["Ann"])
    # Ann's season points are her first night's points as they stand now, +1 +0 +0 from the others.
    assert ann.points == changed[names["Ann"]] + 1


def test_creating_a_season_refuses_bad_input_at_the_field(ctx):
    cases = [
        ({"name": ""}, "name"),
        ({"starts_on": "soon"}, "starts_on"),
        ({"ends_on": "2026-08-31"}, "ends_on"),
        ({"best": "0"}, "best"),
        ({"best": "many"}, "best"),
    ]
    for change, field in cases:
        settings: dict[str, Any] = {
            "name": "Autumn",
            "starts_on": "2026-09-01",
            "ends_on": "2026-12-31",
            "best": 10,
            **change,
        }
        with pytest.raises(RuleError) as refused:
            club.create_season(settings.pop("name"), "mizerka", **settings)
        assert (refused.value.code, refused.value.field) == ("invalid_season", field)
    with pytest.raises(RuleError) as refused:
        club.create_season("Autumn", "no-such-game", starts_on="2026-09-01", ends_on="2026-12-31")
    assert refused.value.code == "unknown_ruleset"
    assert club.list_seasons() == []


def test_a_season_through_its_pages(app, client):
    with app.app_context():
        a_season_of_five_nights()
    assert "/seasons" in page(client, "/")
    assert "/seasons" in page(client, "/nights/new")
    html = page(client, "/seasons/new")
    game = next(v for v in re.findall(r'<option[^>]*value="([^"]+)"', html) if v.startswith("mizerka"))
    form = {
        "csrf_token": csrf_from(html),
        "name": "Autumn ladder",
        "game": game,
        "starts_on": "2026-09-01",
        "ends_on": "2026-12-31",
        "best": "",
    }
    wrong = client.post("/seasons/new", data={**form, "ends_on": "2026-08-01"})
    assert wrong.status_code == 422
    assert "cannot end before it starts" in text_of(wrong.get_data(as_text=True))
    assert 'aria-invalid="true"' in wrong.get_data(as_text=True)
    created = client.post("/seasons/new", data=form)
    assert created.status_code == 303
    url = created.headers["Location"]
    listed = text_of(page(client, "/seasons"))
    assert "Autumn ladder" in listed and "2026-09-01 – 2026-12-31" in listed
    tree = parse_html(page(client, url))
    table = tree.find("table", cls="season-standings").find("tbody")
    rows = [
        [cell.text for cell in row.find_all() if cell.tag in ("td", "th")] for row in table.find_all("tr")
    ]
    # The latest night (29 October: Ann, Eve, Fay all 0) moved no one: "=", read out "same place".
    assert rows == [
        ["1", "=same place", "Ann", "+2", "+0.67", "4", "4", "+0.50"],
        ["2", "=same place", "Cid", "0", "0.00", "3", "3", "0.00"],
        ["3", "=same place", "Bob", "−1", "−0.33", "3", "3", "−0.33"],
        ["3", "=same place", "Dan", "−1", "−0.33", "3", "3", "−0.33"],
    ]
    assert "the best 10 nights count" in text_of(page(client, url))
    assert client.get("/seasons/nosuchseason").status_code == 404


def test_the_season_page_reads_in_the_same_statements_whatever_its_nights(app, client):
    counter = StatementCounter(app)
    with app.app_context():
        season_id = club.create_season("Autumn", "mizerka", starts_on="2026-09-01", ends_on="2026-12-31")[0]
    counts = []
    for seats, day in (
        (["Ann", "Bob", "Cid"], "2026-10-01"),
        (["Cid", "Ann", "Dan"], "2026-10-08"),
        (["Dan", "Cid", "Bob"], "2026-10-15"),
        (["Bob", "Dan", "Ann"], "2026-10-22"),
    ):
        with app.app_context():
            night(seats, day)
        for _again in range(2):
            with counter.counting() as statements:
                assert client.get(f"/seasons/{season_id}").status_code == 200
            counts.append(len(statements))
    # The cached page's versions, then the season, its nights, their tables with the games' figures
    # and the names: four, however many nights (within the budget of every page,
    # tests/perf/test_query_budget.py), drawn anew after each night's writes; the copy cached until
    # then reads the versions alone.
    assert counts == [4, 1, 4, 1, 4, 1, 4, 1]


def test_a_season_counts_against_the_creation_limit(backend: str, tmp_path: Any, request: Any) -> None:
    app = make_test_app(
        backend, tmp_path, request, RATELIMIT_ENABLED=True, GAME_CREATE_RATE_LIMIT="1 per minute"
    )
    client = app.test_client()
    try:
        html = page(client, "/seasons/new")
        form = {
            "csrf_token": csrf_from(html),
            "name": "Autumn",
            "game": "mizerka",
            "starts_on": "2026-09-01",
            "ends_on": "2026-12-31",
            "best": "10",
        }
        assert client.post("/seasons/new", data=form).status_code == 303
        assert client.post("/seasons/new", data=form).status_code == 429
        assert client.post("/api/v1/nights", json={"name": "Thu", "ruleset": "misere"}).status_code == 429
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_season_through_the_api(app, client):
    from tests.api.api_support import check_documented

    with app.app_context():
        a_season_of_five_nights()
    body = {"name": "Autumn", "ruleset": "mizerka", "starts_on": "2026-09-01", "ends_on": "2026-12-31"}
    created = client.post("/api/v1/seasons", json=body)
    check_documented("POST", "/api/v1/seasons", created)
    assert created.status_code == 201
    season = created.get_json()
    assert created.headers["Location"] == f"/api/v1/seasons/{season['id']}"
    read = client.get(f"/api/v1/seasons/{season['id']}")
    check_documented("GET", f"/api/v1/seasons/{season['id']}", read)
    key = season.pop("key")  # shown once, in the creation's answer only
    assert len(key) >= 22 and "key" not in read.get_json()
    assert read.get_json() == season
    assert (season["best"], season["seat_counts"], len(season["nights"])) == (10, [3], 5)
    assert [
        (r["rank"], r["player"], r["points"], r["margin"], r["nights"], r["tables"], r["average"])
        for r in season["standings"]
    ] == [
        (1, "Ann", 2, 0.6667, 4, 4, 0.5),
        (2, "Cid", 0, 0.0, 3, 3, 0.0),
        (3, "Bob", -1, -0.3333, 3, 3, -0.3333),
        (3, "Dan", -1, -0.3333, 3, 3, -0.3333),
    ]
    refused = client.post("/api/v1/seasons", json={**body, "best": 0})
    check_documented("POST", "/api/v1/seasons", refused)
    assert refused.status_code == 422
    assert (refused.get_json()["error"]["code"], refused.get_json()["error"]["field"]) == (
        "invalid_season",
        "best",
    )
    assert client.get("/api/v1/seasons/nosuchseason").status_code == 404
