"""This phone's games (``/this-phone/games``): one statement, whatever the number of games the
phone holds or opened and the number of games in the club; none for a phone with nothing to ask."""

from __future__ import annotations

from flask import Flask
from perf_support import StatementCounter, new_game, with_pencil

from scorekeeper.stats.game_list import MOST_HELD, MOST_OPENED

URL = "/this-phone/games"


def test_this_phones_games_take_one_statement_whatever_their_number(app: Flask) -> None:
    counter = StatementCounter(app)
    phone = app.test_client()
    counts = []
    made: list[str] = []
    for held in (1, MOST_HELD + 3):
        while len(made) < held:
            game_id, key = new_game(app, len(made) % 4)
            with_pencil(phone, game_id, key)
            made.append(game_id)
        watched = [new_game(app, 2)[0] for _ in range(held)]
        url = f"{URL}?opened={','.join(watched + made[:3])}"
        with counter.counting() as statements:
            response = phone.get(url)
        assert response.status_code == 200
        assert len(response.get_json()["games"]) == min(held, MOST_HELD) + min(held, MOST_OPENED)
        counts.append(list(statements))
    assert [len(statements) for statements in counts] == [1, 1], counts


def test_a_phone_with_nothing_to_ask_sends_no_statement(app: Flask) -> None:
    counter = StatementCounter(app)
    new_game(app, 3)
    with counter.counting() as statements:
        response = app.test_client().get(URL)
    assert response.status_code == 200 and response.get_json() == {"games": []}
    assert statements == []
