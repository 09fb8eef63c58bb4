"""The database does not answer (down, restarting, unreachable): every page and API call says so
with 503 and ``Retry-After``, so a phone's queue and a client try again, rather than 500; nothing is
stored meanwhile, and once the database answers again everything works as before."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import start_game
from sqlalchemy import event, func, select

from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game


@contextmanager
def database_down(app: Flask) -> Iterator[None]:
    """Every new connection to the database is refused, as by a stopped server (pooled ones are closed)."""

    with app.app_context():
        engine = db.engine
    refused = engine.dialect.loaded_dbapi.OperationalError  # the driver's own error (sqlite3, psycopg)

    def refuse(*_: Any) -> None:
        error = refused("connection refused")
        if engine.dialect.name == "sqlite":  # what sqlite3 says of a file it cannot open
            error.sqlite_errorname = "SQLITE_CANTOPEN"
        raise error

    with app.app_context():
        engine.dispose()
        event.listen(engine, "do_connect", refuse)
    try:
        yield
    finally:
        event.remove(engine, "do_connect", refuse)


def counts(app: Flask) -> tuple[int, int]:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)), db.session.scalar(
            select(func.count()).select_from(Deal)
        )


@pytest.mark.every_database
def test_pages_and_the_api_answer_503_while_the_database_is_down_and_recover_after(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, ["Ann", "Bob", "Cid"])
    before = counts(app)
    with database_down(app):
        for url in ("/", "/rankings", f"/games/{game_id}", f"/games/{game_id}/scoresheet"):
            answer = client.get(url)
            assert (answer.status_code, answer.headers["Retry-After"]) == (503, "5"), url
            assert "the database does not answer" in answer.get_data(as_text=True), url
        health = client.get("/healthz")
        assert (health.status_code, health.get_data(as_text=True)) == (503, "missing: database\n")
        state = client.get(f"/api/v1/games/{game_id}")
        created = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cid"]})
        for answer in (state, created):
            assert answer.status_code == 503
            assert answer.headers["Retry-After"] == "5"
            assert answer.get_json()["error"]["code"] == "unavailable"
        polish = client.get("/", headers={"Accept-Language": "pl"})
        assert "Baza danych nie odpowiada" in polish.get_data(as_text=True)
    assert counts(app) == before
    assert client.get("/healthz").status_code == 200
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200


def test_a_phone_s_poll_kept_as_304_is_asked_of_the_app_while_the_database_is_down(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, ["Ann", "Bob", "Cid"])
    poll = {"X-Scorekeeper-Poll": "1", "Accept-Encoding": "gzip"}
    tag = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    assert client.get(f"/games/{game_id}", headers={**poll, "If-None-Match": tag}).status_code == 304
    with database_down(app):
        answer = client.get(f"/games/{game_id}", headers={**poll, "If-None-Match": tag})
        assert (answer.status_code, answer.headers["Retry-After"]) == (503, "5")
    assert client.get(f"/games/{game_id}", headers={**poll, "If-None-Match": tag}).status_code == 304
