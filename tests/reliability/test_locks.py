"""Lock waits are bounded, a lock not granted in time is a clean 409, and a real fault stays a 500."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from scorekeeper.database import LOCK_TIMEOUT_MS
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import is_contention
from tests.conftest import make_test_app
from tests.helpers import db_snapshot, declare, start_game, text_of
from tests.stats.checks import assert_figures_match

PLAYERS = ["Ann", "Bob", "Cid"]


@pytest.fixture
def short_lock_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    app = make_test_app(backend, tmp_path, request, LOCK_TIMEOUT_MS=300)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_every_connection_waits_for_locks_but_not_forever(app: Flask, backend: str) -> None:
    """SQLite: WAL and the busy timeout on every pooled connection; PostgreSQL: a lock timeout."""
    with app.app_context():
        for _ in range(2):  # a fresh connection, then one from the pool
            with db.engine.connect() as connection:
                if backend == "sqlite":
                    assert connection.execute(text("PRAGMA busy_timeout")).scalar() == LOCK_TIMEOUT_MS
                    assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
                    assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
                else:
                    assert (
                        connection.execute(text("SHOW lock_timeout")).scalar()
                        == f"{LOCK_TIMEOUT_MS // 1000}s"
                    )
                connection.rollback()  # a rolled-back transaction must not undo the setting
        db.session.remove()


def while_locked(app: Flask, game_id: str, call: Callable[[], Any]) -> tuple[Any, float]:
    """``call()`` while another writer holds the game (SQLite's write lock, PostgreSQL's row lock).

    Returns its answer and how long it took.  The call runs in a thread so that a missing
    lock timeout fails this test after a few seconds instead of hanging it.
    """
    with app.app_context():
        blocker = db.engine.connect()
        blocker.execute(update(Game).where(Game.id == game_id).values(version=Game.version))
    outcome: list[Any] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:
            failures.append(error)

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True)
    try:
        worker.start()
        worker.join(timeout=10)
        waited = time.monotonic() - started
    finally:
        blocker.rollback()
        blocker.close()
        worker.join(timeout=10)
    if failures:
        raise failures[0]
    assert waited < 10 and outcome, "the write waited for the lock without a time limit"
    return outcome[0], waited


def test_a_write_that_cannot_get_the_lock_in_time_is_a_clean_409(short_lock_app: Flask) -> None:
    """'database is locked' (SQLite) or a lock timeout (PostgreSQL): the contract's conflict, never a 500."""
    client = short_lock_app.test_client()
    created = client.post("/api/v1/games", json={"players": PLAYERS, "first_dealer": "Ann"})
    game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
    auth = {"Authorization": f"Bearer {key}"}
    deal = {"number": 1, "contract": "hearts", "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}}
    before = db_snapshot(short_lock_app)

    response, waited = while_locked(
        short_lock_app,
        game_id,
        lambda: client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=auth),
    )
    assert response.status_code == 409, response.get_data(as_text=True)
    assert response.get_json()["error"]["code"] == "conflict"
    assert set(response.get_json()["error"]) == {"code", "message", "field"}
    assert waited >= 0.25, waited  # it did wait for the lock before giving up
    assert db_snapshot(short_lock_app) == before, "a refused write changed something"

    response = client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=auth)
    assert response.status_code == 201, response.get_data(as_text=True)


def test_a_page_that_cannot_get_the_lock_in_time_says_so_kindly(short_lock_app: Flask) -> None:
    client = short_lock_app.test_client()
    game_id = start_game(client, PLAYERS)
    response, _waited = while_locked(short_lock_app, game_id, lambda: declare(client, game_id, 1, "hearts"))
    assert response.status_code == 409
    assert "Someone else changed this game at the same moment" in text_of(response.get_data(as_text=True))
    assert declare(client, game_id, 1, "hearts").status_code == 303


def test_a_database_fault_while_writing_is_a_500_not_a_conflict(
    tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """A broken schema must show up as the fault it is, not as "someone else changed this game"."""
    app = make_test_app("sqlite", tmp_path, request, PROPAGATE_EXCEPTIONS=False)
    try:
        client = app.test_client()
        created = client.post("/api/v1/games", json={"players": PLAYERS, "first_dealer": "Ann"})
        game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
        with app.app_context():
            db.session.execute(
                text("CREATE TRIGGER broken BEFORE INSERT ON deals BEGIN INSERT INTO nowhere VALUES (1); END")
            )
            db.session.commit()
        response = client.post(
            f"/api/v1/games/{game_id}/deals",
            json={"number": 1, "contract": "hearts"},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert response.status_code == 500
        assert response.get_json()["error"]["code"] == "server_error"
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def sqlite_error(tmp_path: Any, statement: str) -> sqlite3.Error:
    path = tmp_path / "errors.sqlite3"
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        holder.execute("CREATE TABLE IF NOT EXISTS t (x UNIQUE)")
        holder.execute("BEGIN IMMEDIATE")
        try:
            other.execute(statement)
        except sqlite3.Error as error:
            return error
        raise AssertionError(f"{statement} did not fail")
    finally:
        holder.close()
        other.close()


def wrapped(error: Exception) -> DBAPIError:
    kind = IntegrityError if isinstance(error, sqlite3.IntegrityError) else OperationalError
    return kind("statement", {}, error)


def test_contention_is_told_apart_from_faults(tmp_path: Any) -> None:
    assert is_contention(wrapped(sqlite_error(tmp_path, "BEGIN IMMEDIATE")))  # database is locked
    assert not is_contention(wrapped(sqlite_error(tmp_path, "SELECT * FROM no_such_table")))
    assert is_contention(IntegrityError("statement", {}, Exception("UNIQUE constraint failed")))

    class PgError(Exception):
        def __init__(self, sqlstate: str | None) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    for sqlstate in ("40001", "40P01", "55P03"):  # serialization failure, deadlock, lock timeout
        assert is_contention(OperationalError("statement", {}, PgError(sqlstate)))
    for sqlstate in ("57P01", "53100", "08006"):  # admin shutdown, disk full, connection failure
        assert not is_contention(OperationalError("statement", {}, PgError(sqlstate)))


def test_a_write_waiting_for_sqlites_write_lock_goes_on_once_it_is_free(
    tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """A write that finds another holding SQLite's write lock waits for it (the connection's busy
    timeout), then goes through.  (PostgreSQL queues writers on the row lock itself.)"""
    app = make_test_app("sqlite", tmp_path, request)
    try:
        _write_once_the_lock_is_free(app)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _write_once_the_lock_is_free(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": PLAYERS, "first_dealer": "Ann"})
    game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
    deal = {"number": 1, "contract": "hearts", "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}}
    with app.app_context():
        blocker = db.engine.connect()
        blocker.execute(update(Game).where(Game.id == game_id).values(version=Game.version))
    answers: list[Any] = []
    worker = threading.Thread(
        target=lambda: answers.append(
            client.post(
                f"/api/v1/games/{game_id}/deals", json=deal, headers={"Authorization": f"Bearer {key}"}
            )
        ),
        daemon=True,
    )
    worker.start()
    time.sleep(0.2)
    blocker.rollback()
    blocker.close()
    worker.join(timeout=10)
    assert answers and answers[0].status_code == 201, answers and answers[0].get_data(as_text=True)
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == LOCK_TIMEOUT_MS
        assert_figures_match(game_id)
        db.session.remove()
