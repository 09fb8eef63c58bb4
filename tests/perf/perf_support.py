"""Helpers for the performance tests: a legal game to record, and a counter of SQL statements."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import services
from scorekeeper.extensions import db
from tests.helpers import hold_pencil

# The first words of ``store.snapshot``'s query (the game, its seats and its deals at once):
# enough to tell it even where ``StatementCounter`` shortens what it records.
FULL_READ = "SELECT games.id, games.version, games.updated_at, games.edit_key_hash, games.ruleset"


def is_full_read(statement: str) -> bool:
    """Whether ``statement`` reads the whole game (``store.snapshot``)."""
    return statement.startswith(FULL_READ)


PLAYERS = ["Cid", "Ann", "Bob"]
# A legal Mizerka game (Cid deals first): contract and tricks (Cid, Ann, Bob) of each of the 18 deals.
DEALS: list[tuple[str, tuple[int, int, int]]] = [
    ("hearts", (4, 5, 4)),
    ("mizerka", (6, 5, 2)),
    ("no-trumps", (8, 4, 1)),
    ("clubs", (1, 7, 5)),
    ("spades", (3, 1, 9)),
    ("diamonds", (6, 6, 1)),
    ("mizerka", (9, 0, 4)),
    ("hearts", (5, 2, 6)),
    ("clubs", (13, 0, 0)),
    ("no-trumps", (3, 4, 6)),
    ("clubs", (4, 2, 7)),
    ("mizerka", (3, 5, 5)),
    ("diamonds", (2, 8, 3)),
    ("no-trumps", (7, 1, 5)),
    ("spades", (7, 5, 1)),
    ("spades", (0, 9, 4)),
    ("diamonds", (5, 4, 4)),
    ("hearts", (5, 7, 1)),
]


class StatementCounter:
    """Counts the SQL statements the app's engine executes while ``counting()`` is open."""

    def __init__(self, app: Flask, *, whole: bool = False) -> None:
        """``whole``: keep each statement whole (else its first 120 characters, for messages)."""
        self.app = app
        self.statements: list[str] = []
        self.active = False
        self.length = None if whole else 120
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.active:
            self.statements.append(" ".join(statement.split())[: self.length])

    @contextmanager
    def counting(self) -> Iterator[list[str]]:
        self.statements = []
        self.active = True
        try:
            yield self.statements
        finally:
            self.active = False


def new_game(app: Flask, deals: int, *, players: list[str] = PLAYERS) -> tuple[str, str]:
    """A Mizerka game with its first ``deals`` deals recorded; returns its id and edit key."""
    with app.app_context():
        loaded, key = services.create_game("mizerka", players, players[0])
        game_id = loaded.id
        for number, (contract, tricks) in enumerate(DEALS[:deals], start=1):
            services.record_deal(
                game_id, number=number, contract=contract, tricks=dict(zip(players, tricks, strict=True))
            )
        db.session.remove()
    return game_id, key


def record(app: Flask, game_id: str, number: int) -> None:
    """Record deal ``number`` of a game ``new_game`` made with the usual players."""
    contract, tricks = DEALS[number - 1]
    with app.app_context():
        services.record_deal(
            game_id, number=number, contract=contract, tricks=dict(zip(PLAYERS, tricks, strict=True))
        )
        db.session.remove()


def with_pencil(client: FlaskClient, game_id: str, key: str) -> FlaskClient:
    """``client`` holding the game's pencil, as the scorer's phone does (a grant in its keyring)."""
    return hold_pencil(client, game_id)
