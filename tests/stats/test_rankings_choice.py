"""The rankings and a player's page show one ranking (a ruleset, a preset, a number of players):
the Misère's two scorings apart, every ranking offered by name, old and unknown links answered."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.rules import RULESETS
from scorekeeper.rules.kierki import KIERKI
from tests.helpers import page, parse_html, signed, text_of

NAMES = ["Ann", "Bob", "Cid", "Dan"]


def play_misere(scoring: str) -> tuple[int, ...]:
    """A finished Misère game scored by ``scoring``; its totals."""
    loaded, _ = services.create_game("misere", NAMES, "Ann", {"scoring": scoring})
    for number in range(1, 7):
        services.record_deal(loaded.id, number=number, bids=[3, 3, 3, 3], tricks=[4, 3, 3, 3])
    services.record_deal(loaded.id, number=7, tricks=[13, 0, 0, 0])
    done = services.record_deal(loaded.id, number=8, tricks=[0, 13, 0, 0])
    totals = services.snapshot(loaded.id).state.totals
    db.session.remove()
    assert done is not None
    return totals


def choice(html: str) -> list[tuple[str, str, bool]]:
    """The ranking select's options: (value, name, selected)."""
    select = parse_html(html).find("form", cls="ranking-form").find("select", name="game")
    return [(o.attrs["value"], o.text, "selected" in o.attrs) for o in select.find_all("option")]


def points(html: str) -> dict[str, tuple[str, str]]:
    """Name -> (games, points) of the rankings table."""
    rows = parse_html(html).find("table", cls="rankings").find("tbody").find_all("tr")
    cells = [[cell.text for cell in row.find_all() if cell.tag in ("th", "td")] for row in rows]
    return {row[0]: (row[1], row[7]) for row in cells}


def test_the_misere_scorings_are_ranked_apart(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        standard, variant = play_misere("standard"), play_misere("variant")
    assert standard != variant
    # The old link names the ruleset: its default ranking, the standard scoring.
    html = page(client, "/rankings?game=misere")
    assert choice(html) == [
        ("mizerka", "Mizerka", False),
        ("misere", "Misère · Standard", True),
        ("misere/variant/4", "Misère · Variant", False),
        ("kierki", "Kierki · Standard · 4 players", False),
        ("kierki/standard/3", "Kierki · Standard · 3 players", False),
        ("kierki/no-fan-tan/4", "Kierki · No Fan Tan · 4 players", False),
        ("kierki/no-fan-tan/3", "Kierki · No Fan Tan · 3 players", False),
        ("kierki/no-robber/4", "Kierki · No robber · 4 players", False),
        ("kierki/no-robber/3", "Kierki · No robber · 3 players", False),
        ("kierki/short/4", "Kierki · Short (4 players)", False),
        ("barbu", "Barbu · Standard", False),
        ("barbu/domino-10/4", "Barbu · Domino 10", False),
    ]
    assert points(html) == {name: ("1", signed(total)) for name, total in zip(NAMES, standard, strict=True)}
    assert choice(page(client, "/rankings?game=misere/standard/4")) == choice(html)
    html = page(client, "/rankings?game=misere/variant/4&period=year")
    assert points(html) == {name: ("1", signed(total)) for name, total in zip(NAMES, variant, strict=True)}
    doc = parse_html(html)
    assert doc.find("title").text.startswith("Rankings · Misère · Variant · This year")
    assert "Bids made score 10 plus the bid" in text_of(html)  # the preset shown, said
    form = doc.find("form", cls="ranking-form")
    assert [(i.attrs["name"], i.attrs["value"]) for i in form.find_all("input")] == [("period", "year")]
    sort = doc.find("form", cls="sort-form")
    assert [(i.attrs["name"], i.attrs["value"]) for i in sort.find_all("input")] == [
        ("game", "misere/variant/4"),
        ("period", "year"),
    ]
    first = doc.find("table", cls="rankings").find("tbody").find("a")  # a winner of the one game
    link = first.attrs["href"]
    assert link.endswith("?game=misere/variant/4&period=year")
    # A player's page shows the same ranking, its deals alone.
    player = parse_html(page(client, link))
    assert player.find("title").text.startswith(f"{first.text} · Misère · Variant")
    assert [dd.text for dd in player.find("dl", cls="figures").find_all("dd")][:3] == ["1", "1", "8"]
    assert [
        row.find("td").text for row in player.find("table", cls="contract-stats").find("tbody").find_all("tr")
    ][:1] == ["1"]


@pytest.mark.parametrize(
    "game", ["misere/variant/3", "kierki/short/3", "kierki-x", "", "mizerka/standard/3/x"]
)
def test_an_unknown_ranking_shows_the_default(client: FlaskClient, game: str) -> None:
    html = page(client, f"/rankings?game={game}")
    assert [name for _value, name, selected in choice(html) if selected] == ["Mizerka"]


def test_every_ranking_of_every_ruleset_is_offered_by_name(client: FlaskClient) -> None:
    assert RULESETS["kierki"] is KIERKI
    offered = choice(page(client, "/rankings?game=kierki/no-robber/3"))
    assert [name for _value, name, _selected in offered] == [
        "Mizerka",
        "Misère · Standard",
        "Misère · Variant",
        "Kierki · Standard · 4 players",
        "Kierki · Standard · 3 players",
        "Kierki · No Fan Tan · 4 players",
        "Kierki · No Fan Tan · 3 players",
        "Kierki · No robber · 4 players",
        "Kierki · No robber · 3 players",
        "Kierki · Short (4 players)",
        "Barbu · Standard",
        "Barbu · Domino 10",
    ]
    assert [value for value, _name, selected in offered if selected] == ["kierki/no-robber/3"]
    assert ("kierki", "Kierki · Standard · 4 players", False) in offered  # the ruleset's default
    client.get("/language/pl?next=/")
    polish = [name for _value, name, _selected in choice(page(client, "/rankings?game=kierki"))]
    assert polish[3:5] == ["Kierki · Zwykła · na 4 osoby", "Kierki · Zwykła · na 3 osoby"]
