"""A PostgreSQL connection cut during a request costs that request at most, never the next ones.

The server ends the app's backend (``pg_terminate_backend``, as an administrator, a restart or
a failover would) at each point of a request: before a statement, after the last one (the
answer is made, the teardown's rollback finds the connection gone), at the commit, and while
the connection sits idle in the pool.  Issue 31, point 9.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask, Response
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.extensions import db
from tests.conftest import PG_URL, make_test_app

PLAYERS = ["Ann", "Bob", "Cid"]
DEAL = {"contract": "hearts", "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}}


def terminate(pid: int) -> None:
    """End the backend ``pid`` from another connection, as an administrator would."""
    with psycopg.connect(PG_URL, autocommit=True) as admin:
        (ended,) = admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() or (False,)
        assert ended, pid


class Cutter:
    """Cuts the connection of the next request at a chosen point (``arm``)."""

    def __init__(self, app: Flask) -> None:
        self.point: str | None = None
        self.pid: int | None = None  # the backend of the request's last statement
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._before)
            event.listen(db.engine, "after_cursor_execute", self._after)
            event.listen(db.engine, "commit", self._commit)
        app.after_request(self._after_request)

    def arm(self, point: str) -> None:
        self.point, self.pid = point, None

    def _fire(self, point: str, pid: int | None) -> None:
        if self.point == point and pid is not None:
            self.point = None
            terminate(pid)

    @staticmethod
    def _pid(conn: Any) -> int:
        return int(conn.connection.driver_connection.info.backend_pid)

    def _before(self, conn: Any, *_args: Any) -> None:
        self._fire("statement", self._pid(conn))

    def _after(self, conn: Any, *_args: Any) -> None:
        self.pid = self._pid(conn)

    def _commit(self, conn: Any) -> None:
        self._fire("commit", self._pid(conn))

    def _after_request(self, response: Response) -> Response:
        self._fire("answered", self.pid)
        return response


@pytest.fixture
def pg_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    if backend != "postgresql":
        pytest.skip("a connection the server cuts: PostgreSQL only")
    # As a server runs it: an error in a view answers 500 rather than reaching the test.
    app = make_test_app(backend, tmp_path, request, PROPAGATE_EXCEPTIONS=False)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def new_game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    created = client.post("/api/v1/games", json={"players": PLAYERS, "first_dealer": "Ann"})
    assert created.status_code == 201, created.get_data(as_text=True)
    body = created.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_key']}"}


def requests_of(client: FlaskClient, game_id: str, auth: dict[str, str]) -> dict[str, Callable[[], Any]]:
    """Reads and writes, through the pages and the API."""
    return {
        "game page": lambda: client.get(f"/games/{game_id}"),
        "scoresheet": lambda: client.get(f"/games/{game_id}/scoresheet"),
        "API game": lambda: client.get(f"/api/v1/games/{game_id}"),
        "home": lambda: client.get("/"),
        "rankings": lambda: client.get("/rankings"),
        "dry run": lambda: client.post(
            f"/api/v1/games/{game_id}/deals?dry_run=true", json={"contract": "hearts"}, headers=auth
        ),
    }


def assert_all_answer(client: FlaskClient, game_id: str, auth: dict[str, str]) -> None:
    for name, send in requests_of(client, game_id, auth).items():
        response = send()
        assert response.status_code == 200, (name, response.status_code)


CUTS = [
    *(
        (which, point)
        for which in ("game page", "API game", "home", "dry run")
        for point in ("statement", "answered")
    ),
    *(("write", point) for point in ("statement", "commit", "answered")),
]


@pytest.mark.parametrize(("which", "point"), CUTS)
def test_a_connection_cut_during_a_request_costs_that_request_at_most(
    pg_app: Flask, point: str, which: str
) -> None:
    cutter = Cutter(pg_app)
    client = pg_app.test_client()
    game_id, auth = new_game(client)
    send = requests_of(client, game_id, auth).get(which) or (
        lambda: client.post(f"/api/v1/games/{game_id}/deals", json=DEAL, headers=auth)
    )
    cutter.arm(point)
    answer = send()
    assert cutter.point is None, "the connection was not cut"
    # Cut before a statement, the request itself may fail: 503 with Retry-After (the database did
    # not answer: try again), or 409 for a lost write; cut once its answer was made, the teardown's
    # rollback must not turn it into an error.
    if point == "answered":
        assert answer.status_code in (200, 201), answer.status_code
    else:
        assert answer.status_code in (200, 201, 409, 503), answer.status_code
    if answer.status_code == 503:
        assert answer.headers["Retry-After"] == "5"
    # The next requests, every one of them, are answered.
    for _ in range(2):
        assert_all_answer(client, game_id, auth)
    deals = client.get(f"/api/v1/games/{game_id}").get_json()["deals"]
    assert len(deals) == (1 if which == "write" and answer.status_code == 201 else 0)


def test_a_connection_cut_while_idle_in_the_pool_is_replaced(pg_app: Flask) -> None:
    client = pg_app.test_client()
    game_id, auth = new_game(client)
    with pg_app.app_context():
        db.engine.dispose()  # the pool then holds one connection: the one opened here
        with db.engine.connect() as connection:
            pid = int(connection.connection.driver_connection.info.backend_pid)  # type: ignore[union-attr]
        terminate(pid)  # the pooled connection the next request would borrow
    assert_all_answer(client, game_id, auth)
