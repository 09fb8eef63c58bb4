"""The home page: games in progress first, then the newest finished ones, a page of each at a time.

Its figures come from stored rows, so each listed game is checked against its replay.
"""

from __future__ import annotations

from datetime import date, timedelta

from babel.dates import format_date
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper import services
from scorekeeper.charts import signed
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.helpers import MIZERKA_DEALS, page, parse_html

START = date(2026, 3, 1)


def make_games(app: Flask, deals_per_game: list[int]) -> list[str]:
    """A game per entry, created in this order a minute apart, with that many deals recorded."""
    ids = []
    with app.app_context():
        for i, deals in enumerate(deals_per_game):
            # Seated as the hand-scored game of tests.helpers (the third player deals first).
            names = ["Ann", f"B{i}", f"C{i}"]
            loaded, _key = services.create_game(
                "mizerka", names, names[2], played_on=START + timedelta(days=i)
            )
            for deal in MIZERKA_DEALS[:deals]:
                services.record_deal(
                    loaded.id, number=deal.number, contract=deal.contract, tricks=list(deal.tricks)
                )
            ids.append(loaded.id)
        # Creation times a minute apart, in list order (the clock may not move between two inserts).
        for minute, game_id in enumerate(ids):
            stamp = services.snapshot(game_id).created_at.replace(second=0) + timedelta(minutes=minute)
            db.session.execute(update(Game).where(Game.id == game_id).values(created_at=stamp))
        db.session.commit()
        db.session.remove()
    return ids


def listed(html: str) -> tuple[list[tuple[str, str]], str | None]:
    """The games a home page lists as (id, text), and its link to a next page."""
    doc = parse_html(html)
    games = [(item.attrs["href"].rsplit("/", 1)[1], item.text) for item in doc.find_all("a", cls="game-item")]
    more = [a.attrs["href"] for a in doc.find_all("a", rel="next")]
    return games, (more[0] if more else None)


def test_games_in_progress_come_first_then_the_newest_finished(app: Flask, client: FlaskClient) -> None:
    ids = make_games(app, [18, 3, 18, 0, 18])
    games, more = listed(page(client, "/"))
    assert [game_id for game_id, _ in games] == [ids[3], ids[1], ids[4], ids[2], ids[0]]
    assert more is None
    doc = parse_html(page(client, "/"))
    assert doc.find("h2", id="playing-heading").text == "Games in progress"
    assert doc.find("h2", id="finished-heading").text == "Finished games"


def test_each_listed_game_shows_its_replayed_figures(app: Flask, client: FlaskClient) -> None:
    ids = make_games(app, [18, 5, 0])
    games = dict(listed(page(client, "/"))[0])
    with app.app_context():
        for i, game_id in enumerate(ids):
            state = services.snapshot(game_id).state
            text = games[game_id]
            assert f"Ann · B{i} · C{i}" in text
            assert "Mizerka" in text
            assert format_date(START + timedelta(days=i), "medium", locale="en_GB") in text  # day first
            leaders = " & ".join(state.setup.players[s.seat] for s in state.standings if s.rank == 1)
            lead = signed(max(state.totals))
            if state.finished:
                assert "Finished" in text and f"Won by: {leaders} ({lead})" in text
            elif state.completed_deals:
                assert f"Deal {state.completed_deals + 1}/18" in text
                assert f"Leader: {leaders} ({lead})" in text
            else:
                assert "Deal 1/18" in text and "Leader" not in text
        db.session.remove()


def test_more_and_older_pages_list_every_game_once_in_order(app: Flask, client: FlaskClient) -> None:
    app.config["HOME_GAMES_PER_LIST"] = 2
    deals = [18, 2, 18, 2, 18, 2, 18, 18, 2]
    ids = make_games(app, deals)
    playing = [game_id for game_id, d in reversed(list(zip(ids, deals, strict=True))) if d < 18]
    finished = [game_id for game_id, d in reversed(list(zip(ids, deals, strict=True))) if d == 18]
    html = page(client, "/")
    doc = parse_html(html)
    first = [a.attrs["href"] for a in doc.find_all("a", rel="next")]
    assert [link.split("=")[0] for link in first] == ["/?playing_after", "/?finished_after"]
    assert [game_id for game_id, _ in listed(html)[0]] == playing[:2] + finished[:2]
    for link, expected in zip(first, (playing, finished), strict=True):
        seen = expected[:2]
        while link is not None:
            games, link = listed(page(client, link))
            seen += [game_id for game_id, _ in games]
        assert seen == expected


def test_an_empty_club_and_a_page_past_the_end(client: FlaskClient) -> None:
    assert "No games yet." in parse_html(page(client, "/")).text
    assert "No older games." in parse_html(page(client, "/?finished_after=NoSuchGame")).text
