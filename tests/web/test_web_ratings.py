"""The rating beside each player's totals on the rankings and the player page: mu - 3 sigma to one
decimal, with the games behind it, in the request's language; and the pages follow a correction."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from flask import Flask
from helpers import parse_html
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Player
from tests.perf.perf_support import DEALS

OPENSKILL = PlackettLuce()


def play(players: list[str]) -> str:
    loaded, _key = services.create_game("mizerka", players, players[0])
    for number, (contract, tricks) in enumerate(DEALS, start=1):
        services.record_deal(
            loaded.id, number=number, contract=contract, tricks=dict(zip(players, tricks, strict=True))
        )
    return loaded.id


def shown(mu: float, sigma: float, minus: str = "−", point: str = ".") -> str:
    """mu - 3 sigma as the pages write it: one decimal, half up, a real minus sign."""
    value = Decimal(mu - 3 * sigma).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    text = f"{abs(value)}".replace(".", point)
    return f"{minus}{text}" if value < 0 else text


def expected() -> dict[str, str]:
    """The two games below rated by openskill itself: Cid, Ann, Bob places 1, 1, 3 (DEALS leave +3, +3,
    -6); then Dan, Cid, Ann, places 1, 1, 3 again by seat."""
    new = OPENSKILL.rating
    first = OPENSKILL.rate([[new()], [new()], [new()]], ranks=[1, 1, 3])
    cid, ann, bob = (team[0] for team in first)
    second = OPENSKILL.rate([[new()], [cid], [ann]], ranks=[1, 1, 3])
    dan, cid, ann = (team[0] for team in second)
    return {
        "Ann": f"{shown(ann.mu, ann.sigma)} (2 games)",
        "Bob": f"{shown(bob.mu, bob.sigma)} (1 game)",
        "Cid": f"{shown(cid.mu, cid.sigma)} (2 games)",
        "Dan": f"{shown(dan.mu, dan.sigma)} (1 game)",
    }


def rating_cells(html: str) -> dict[str, str]:
    table = parse_html(html).find("table", cls="rankings")
    rows = table.find("tbody").find_all("tr")
    return {row.find("th").text: row.find("td", data_label="Rating").text for row in rows}


def test_the_rankings_show_each_players_rating_and_its_games(app: Flask) -> None:
    with app.app_context():
        play(["Cid", "Ann", "Bob"])
        play(["Dan", "Cid", "Ann"])
    client = app.test_client()
    html = client.get("/rankings?game=mizerka").get_data(as_text=True)
    assert rating_cells(html) == expected()
    heading = parse_html(html).find("table", cls="rankings").find("thead").find_all("th")[-1]
    assert heading.text == "Rating"
    # Bob lost his only game: below zero, written with a real minus sign.
    assert rating_cells(html)["Bob"].startswith("−")


def test_the_player_page_shows_the_rating(app: Flask) -> None:
    with app.app_context():
        play(["Cid", "Ann", "Bob"])
        play(["Dan", "Cid", "Ann"])
        cid = db.session.execute(select(Player.id).where(Player.name == "Cid")).scalar_one()
        newcomer = services.create_game("mizerka", ["Zed", "Yul", "Xan"], "Zed")[0]
        zed = db.session.execute(select(Player.id).where(Player.name == "Zed")).scalar_one()
        services.record_deal(
            newcomer.id,
            number=1,
            contract=DEALS[0][0],
            tricks=dict(zip(["Zed", "Yul", "Xan"], DEALS[0][1], strict=True)),
        )
    client = app.test_client()
    figures = parse_html(client.get(f"/players/{cid}?game=mizerka").get_data(as_text=True)).find(
        "dl", cls="figures"
    )
    terms = {div.find("dt").text: div.find("dd").text for div in figures.find_all("div")}
    assert terms["Rating"] == expected()["Cid"]
    # Whoever has not finished a game has no rating yet.
    figures = parse_html(client.get(f"/players/{zed}?game=mizerka").get_data(as_text=True)).find(
        "dl", cls="figures"
    )
    terms = {div.find("dt").text: div.find("dd").text for div in figures.find_all("div")}
    assert terms["Rating"] == "–"


def test_the_rating_in_polish_and_italian(app: Flask) -> None:
    with app.app_context():
        play(["Cid", "Ann", "Bob"])
        play(["Dan", "Cid", "Ann"])
    client = app.test_client()
    english = expected()
    for language, games, other in (("pl", "(2 partie)", "(1 partia)"), ("it", "(2 partite)", "(1 partita)")):
        html = client.get("/rankings?game=mizerka", headers={"Accept-Language": language}).get_data(
            as_text=True
        )
        table = parse_html(html).find("table", cls="rankings")
        cells = {
            row.find("th").text: row.find_all("td")[-1].text for row in table.find("tbody").find_all("tr")
        }
        figure = english["Cid"].split(" ")[0].replace(".", ",")
        assert cells["Cid"] == f"{figure} {games}"
        assert cells["Bob"].endswith(other)


def test_a_correction_shows_on_the_rankings_at_once(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
    client = app.test_client()
    before = rating_cells(client.get("/rankings?game=mizerka").get_data(as_text=True))
    with app.app_context():
        services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})  # Bob now wins it
    after = rating_cells(client.get("/rankings?game=mizerka").get_data(as_text=True))
    assert before != after
    # Rated afresh with Bob first, Cid second, Ann last (totals -2, -4, +6 by seat).
    bob, cid, ann = (
        team[0] for team in OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(3)], ranks=[1, 2, 3])
    )
    assert after == {
        "Bob": f"{shown(bob.mu, bob.sigma)} (1 game)",
        "Cid": f"{shown(cid.mu, cid.sigma)} (1 game)",
        "Ann": f"{shown(ann.mu, ann.sigma)} (1 game)",
    }
