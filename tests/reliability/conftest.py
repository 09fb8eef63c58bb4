"""A real production server per test: gunicorn with several threaded workers, on SQLite or PostgreSQL.

``live_server`` starts ``gunicorn 'scorekeeper:create_app()'`` as ``make serve`` and
the README do, on a fresh database (a SQLite file in ``tmp_path``, or a private
PostgreSQL schema), and waits until every worker has loaded the app.  Requests
go over real sockets (``http.client``); ``race`` releases many of them at the same
moment with a ``threading.Barrier``.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from scorekeeper.config import normalise_database_url
from tests.conftest import PG_URL

START_TIMEOUT = 60.0  # seconds for gunicorn and all its workers to come up (a loaded 2-core CI box is slow)
REQUEST_TIMEOUT = 25.0  # a request waits at most this long (the app's own lock timeout is 15 s)
WORKERS = 4
THREADS = 4  # each worker's (gthread, as `make serve`; fewer than its 8, on a loaded CI box)

# Written next to the database: gunicorn calls it in each worker once the app is loaded, so the
# fixture knows when *every* worker is ready, not merely the first one to answer /healthz.
HOOKS = """
def post_worker_init(worker):
    worker.log.info("scorekeeper-test worker ready %s", worker.pid)
"""
LISTENING_RE = re.compile(r"Listening at: http://127\.0\.0\.1:(\d+)")
READY = "scorekeeper-test worker ready"
_counter = itertools.count(1)


@dataclass
class Answer:
    """One HTTP response, read whole."""

    status: int
    headers: dict[str, str]
    body: bytes
    raw_headers: list[tuple[str, str]] = field(default_factory=list)

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def header(self, name: str, default: str = "") -> str:
        return self.headers.get(name.lower(), default)

    def header_list(self, name: str) -> list[str]:
        """Every value of a header that may come more than once (``Set-Cookie``)."""
        return [value for key, value in self.raw_headers if key.lower() == name.lower()]


@dataclass
class Call:
    """An HTTP request to send (see ``race``)."""

    method: str
    path: str
    body: Any = None  # dict -> JSON, str -> form-encoded as given, None -> no body
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> tuple[bytes | None, dict[str, str]]:
        headers = dict(self.headers)
        if self.body is None:
            return None, headers
        if isinstance(self.body, str):
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
            return self.body.encode(), headers
        headers.setdefault("Content-Type", "application/json")
        return json.dumps(self.body).encode(), headers


class LiveServer:
    """gunicorn serving Scorekeeper on 127.0.0.1, in its own process group."""

    def __init__(self, env: dict[str, str], workdir: Path, workers: int, preload: bool = False) -> None:
        self.env = env
        self.workdir = workdir
        self.workers = workers
        self.preload = preload
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.log_path = workdir / f"gunicorn-{next(_counter)}.log"

    # -- life cycle -----------------------------------------------------------------------------

    def start(self) -> LiveServer:
        hooks = self.workdir / "gunicorn_hooks.py"
        hooks.write_text(HOOKS)
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(hooks),
            "--worker-class",
            "gthread",  # as `make serve` runs it
            "--workers",
            str(self.workers),
            "--threads",
            str(THREADS),
            "--keep-alive",
            "15",
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
            "--bind",
            "127.0.0.1:0",  # the port the kernel picks is read back from the log
            *no_control_socket(),
            *(["--preload"] if self.preload else []),
            "scorekeeper:create_app()",
        ]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=self.workdir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: one signal reaches master and workers
            )
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            log = self.log()
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn exited with {self.process.returncode}:\n{log}")
            match = LISTENING_RE.search(log)
            if match and log.count(READY) >= self.workers:
                self.port = int(match.group(1))
                answer = self.request("GET", "/healthz")
                assert answer.status == 200, answer.text
                return
            time.sleep(0.05)  # polling a condition, with a deadline
        raise AssertionError(f"gunicorn did not start within {START_TIMEOUT} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: the power-cord test, short of the power."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Graceful stop (SIGTERM), then SIGKILL to the whole group if anything is left."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # stray workers of a dead master
        self.process.wait(timeout=10)

    # -- requests -------------------------------------------------------------------------------

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        connection = self.connection()
        try:
            return send(connection, Call(method, path, body, headers or {}))
        finally:
            connection.close()

    def api(self, method: str, path: str, body: Any = None, key: str | None = None, **headers: str) -> Answer:
        extra = {name.replace("_", "-"): value for name, value in headers.items()}
        if key is not None:
            extra["Authorization"] = f"Bearer {key}"
        return self.request(method, "/api/v1" + path, body, extra)


def send(connection: http.client.HTTPConnection, call: Call) -> Answer:
    body, headers = call.encoded()
    connection.request(call.method, call.path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    raw = response.getheaders()
    return Answer(response.status, {k.lower(): v for k, v in raw}, data, raw)


def no_control_socket() -> list[str]:
    """gunicorn 24+ opens ~/.gunicorn/gunicorn.ctl, which parallel servers of one user would share."""
    from gunicorn.config import KNOWN_SETTINGS

    return ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []


def race(server: LiveServer, calls: list[Call | Callable[[], Call]]) -> list[Answer]:
    """Send every call at the same moment, each on its own connection; answers in the same order.

    A call may be given as a function that prepares it (e.g. fetches a form for its CSRF
    token); that runs first, then every client opens its connection and waits at the
    barrier, which releases them all together.
    """
    barrier = threading.Barrier(len(calls), timeout=REQUEST_TIMEOUT)
    answers: list[Answer | None] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int, call: Call | Callable[[], Call]) -> None:
        connection = server.connection()
        try:
            ready = call if isinstance(call, Call) else call()
            connection.connect()
            barrier.wait()
            answers[index] = send(connection, ready)
        except BaseException as error:
            barrier.abort()
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call), daemon=True) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT * 2)
    assert not any(thread.is_alive() for thread in threads), "a client hung"
    if failures:
        raise failures[0]
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


# -- the database behind the server ---------------------------------------------------------------


@dataclass
class LiveDatabase:
    """Where a live server keeps its data, and a way to look at it directly."""

    backend: str
    env: dict[str, str]
    sqlite_path: Path | None = None
    pg_url: str | None = None
    pg_schema: str | None = None

    def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        """Rows of a read-only query, straight from the database (not through the app)."""
        if self.sqlite_path is not None:
            uri = f"file:{self.sqlite_path}?mode=ro"
            with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=REQUEST_TIMEOUT)) as connection:
                return [tuple(row) for row in connection.execute(sql, params).fetchall()]
        assert self.pg_url is not None
        engine = create_engine(self.pg_url, connect_args={"options": f"-csearch_path={self.pg_schema}"})
        try:
            with engine.connect() as connection:
                return [tuple(row) for row in connection.execute(text(sql), params).all()]
        finally:
            engine.dispose()


@pytest.fixture
def live_database(backend: str, tmp_path: Path) -> Iterator[LiveDatabase]:
    """A fresh, empty database for a live server: a SQLite file, or a private PostgreSQL schema."""
    instance = tmp_path / "instance"
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DATABASE_URL",
            "SECRET_KEY",
            "WEB_CONCURRENCY",
            "GUNICORN_CMD_ARGS",
            "SCOREKEEPER_PROXY_HOPS",
            "REDIS_URL",
        )
        and not key.startswith("RATELIMIT_")
    }
    env.update(
        {
            "SCOREKEEPER_INSTANCE": str(instance),
            "SCOREKEEPER_AUTO_MIGRATE": "1",
            "SECRET_KEY": "live-server-test-key",
            "GAME_CREATE_RATE_LIMIT": "100000 per minute",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    if backend == "sqlite":
        yield LiveDatabase(backend, env, sqlite_path=instance / "scorekeeper.sqlite3")
        return
    url = normalise_database_url(PG_URL)
    schema = f"sk_live_{os.getpid()}_{next(_counter)}"
    admin = create_engine(url)
    with admin.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    # psycopg takes libpq's options in the URL: every connection of the app starts in the schema.
    query = urllib.parse.urlencode({"options": f"-csearch_path={schema}"})
    env["DATABASE_URL"] = f"{PG_URL}{'&' if '?' in PG_URL else '?'}{query}"
    try:
        yield LiveDatabase(backend, env, pg_url=url, pg_schema=schema)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def start_server(live_database: LiveDatabase, tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start (and at the end stop) gunicorn servers on the test's database; ``env`` adds settings."""
    servers: list[LiveServer] = []

    def start(workers: int = WORKERS, preload: bool = False, **env: str) -> LiveServer:
        server = LiveServer({**live_database.env, **env}, tmp_path, workers, preload)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
    # A 500 or a crashed worker leaves a traceback in the log even when every answer looked fine.
    for server in servers:
        assert "Traceback" not in server.log(), server.log()[-5000:]


@pytest.fixture
def live_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    """gunicorn with four threaded workers on a fresh database, every worker ready."""
    return start_server()


def report(request: pytest.FixtureRequest, line: str) -> None:
    """A figure worth keeping: printed (visible with -s) and recorded in the JUnit XML."""
    backend = request.node.callspec.params.get("backend", "?") if hasattr(request.node, "callspec") else "?"
    print(f"\n[reliability/{backend}] {line}")
    request.node.user_properties.append(("figures", line))
