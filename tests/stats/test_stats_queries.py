"""The number of SQL queries a page issues does not grow with the games or deals behind it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

from scorekeeper import caching, services
from scorekeeper.extensions import db
from scorekeeper.stored_figures import GameResult
from tests.helpers import MIZERKA_DEALS, hold_pencil
from tests.stats.dataset import play_misere, play_mizerka


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def queries(app: Flask, client: FlaskClient, url: str) -> int:
    assert client.get(url).status_code == 200  # warm: connections and compiled templates
    with app.app_context():
        caching.cache.clear()  # the page drawn again, not served kept
    with counting(app) as statements:
        assert client.get(url).status_code == 200
    return len(statements)


def busiest_player(app: Flask) -> int:
    with app.app_context():
        most = func.count().desc()
        player = db.session.execute(
            select(GameResult.player_id).group_by(GameResult.player_id).order_by(most).limit(1)
        ).scalar_one()
        db.session.remove()
    return int(player)


def test_rankings_and_player_page_with_1_and_with_20_games(app: Flask, client: FlaskClient) -> None:
    names = ["Ann", "Bob", "Cid", "Dan"]
    app.config["CLUB_PAGE_SETTLE_SECONDS"] = 0  # the games below are written now: the club is quiet at once
    with app.app_context():
        play_mizerka(names[:3], date.today(), {1: (1, -1, 0)})
    one = busiest_player(app)
    pages = ["/rankings", "/rankings?period=year&sort=win_pct", f"/players/{one}", "/players", "/games/new"]
    with_one = [queries(app, client, url) for url in pages]
    with app.app_context():  # 19 more, over two years; every sixth is a game of Misère
        for n in range(1, 20):
            played_on = date.today() - timedelta(days=37 * n)
            if n % 6 == 0:
                play_misere(names, played_on)
            else:
                play_mizerka(
                    [names[(n + seat) % 4] for seat in range(3)], played_on, {n % 18 + 1: (1, 0, -1)}
                )
    many = busiest_player(app)
    with app.app_context():
        games = db.session.execute(
            select(func.count()).select_from(GameResult).where(GameResult.player_id == many)
        ).scalar_one()
        assert games >= 10
    pages[2] = f"/players/{many}"
    with_twenty = [queries(app, client, url) for url in pages]
    assert with_twenty == with_one
    # The rankings' versions (``caching``), the ranking of the latest finished game (the address
    # names none), then one GROUP BY.
    assert with_one[0] == 3


def test_game_page_queries_do_not_grow_with_deals(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        loaded, _key = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Cid")
        game_id = loaded.id
        db.session.remove()
    hold_pencil(client, game_id)  # the scorer's view
    counts = []
    recorded = 0
    for deals in (1, 9, 18):  # the page for the finished game (18) shows the chart and the rematch button
        with app.app_context():
            for deal in MIZERKA_DEALS[recorded:deals]:
                services.record_deal(
                    game_id, number=deal.number, contract=deal.contract, tricks=list(deal.tricks)
                )
            db.session.remove()
        recorded = deals
        counts.append(
            (queries(app, client, f"/games/{game_id}"), queries(app, client, f"/games/{game_id}/scoresheet"))
        )
    assert counts[0] == counts[1] == counts[2], counts
