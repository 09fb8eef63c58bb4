"""Fixtures: an app per test on SQLite, and on PostgreSQL too where the databases differ.

Which tests run on PostgreSQL (when TEST_DATABASE_URL is set): those where the two databases can
behave differently, marked ``every_database`` -- locks and concurrent writes, the migrations, the
stored figures and the SQL that writes and reads them, the statement budgets, a club taken away and
brought back, the held keys' ``INSERT ... ON CONFLICT``, two app servers on one database.  Every
folder or file in ``EVERY_DATABASE`` is marked as a whole; elsewhere a test or module says
``pytest.mark.every_database`` itself.  Every other test runs on SQLite only: a page drawn by the
same SQL is the same page on both, and running it twice only doubles the suite.

Parallel runs (``make test``: pytest-xdist, a worker per core): each worker is its own process with
its own SQLite files (``tmp_path``), its own PostgreSQL schema (named by its pid), its own Redis
database (``worker_redis_url``) and ports the kernel picks.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.config import normalise_database_url
from scorekeeper.database import register_migrations
from scorekeeper.extensions import db

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
SQLITE_FILE = "scorekeeper-test.sqlite3"  # each test's database, in its tmp_path
# Each test app keeps its pages apart; the Redis tests say where theirs go (TEST_REDIS_URL).
os.environ.pop("REDIS_URL", None)
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
HERE = Path(__file__).resolve().parent
#: Run on every database as a whole (see the module's docstring); paths under tests/.
EVERY_DATABASE = (
    "reliability",  # locks, concurrent writes, lost connections, two app servers
    "stats",  # the stored figures, their writer's SQL and their migrations
    "perf",  # statements per page: the SQL each page sends
    "transfer",  # a club's data taken away and brought back, every column's type
    "deploy/test_schema_and_startup.py",  # the migrations from an empty and an old schema
    "hostile/test_name_key_migration.py",
    "hostile/test_access_control.py",  # held keys: INSERT ... ON CONFLICT per dialect
    "web/test_web_this_phone.py",  # the same, through the pages
    "api/test_api_idempotency.py",  # a unique key's violation, read back per dialect
    "api/test_idempotency_migration.py",  # the answers' column changed on a kept table
    "web/test_web_form_once.py",  # a page form's key, kept with its change
    "web/test_cache_faults.py",  # the page versions a write bumps in its own transaction
)


def worker_redis_url() -> str:
    """TEST_REDIS_URL's database for this xdist worker: worker N (gwN) uses the named one plus N,
    so two workers never empty each other's (``redis://127.0.0.1:6379/6`` with two workers: 6 and 7).
    Empty when TEST_REDIS_URL is not set."""
    url = os.environ.get("TEST_REDIS_URL", "").strip()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    if not url or worker == "gw0":
        return url
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


def runs_on_every_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("every_database") is not None:
        return True
    if HERE not in item.path.parents:
        return False
    path = item.path.relative_to(HERE).as_posix()
    return any(path == entry or path.startswith(entry + "/") for entry in EVERY_DATABASE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # So that `pytest -m every_database` runs the part that differs by database.
    for item in items:
        if runs_on_every_database(item):
            item.add_marker(pytest.mark.every_database)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend``: SQLite, and PostgreSQL as well for the tests that run on every database."""
    chosen = any(mark.args[:1] == ("backend",) for mark in metafunc.definition.iter_markers("parametrize"))
    if "backend" in metafunc.fixturenames and not chosen:
        every = runs_on_every_database(metafunc.definition)
        metafunc.parametrize("backend", BACKENDS if every else ["sqlite"], indirect=True)


REDIS_URL = worker_redis_url()  # TEST_REDIS_URL's database, one per parallel worker


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[tuple[str, str]]:
    """A private schema for this test run, dropped at the end; tables created once."""
    url = normalise_database_url(PG_URL)
    schema = f"scorekeeper_test_{os.getpid()}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield url, schema
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def database_config(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> dict[str, Any]:
    if backend == "sqlite":
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/{SQLITE_FILE}"}
    url, schema = request.getfixturevalue("pg_schema")
    return {
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
    }


@pytest.fixture(scope="session")
def empty_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the empty schema, built once per worker: each test's app starts on a
    copy of it (building the tables for each test took a tenth of a second of DDL and disk syncs)."""
    path = tmp_path_factory.mktemp("empty-schema") / "empty.sqlite3"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "AUTO_MIGRATE": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        }
    )
    with app.app_context():
        db.create_all()
        db.session.remove()
        db.engine.dispose()  # the last connection's close checkpoints the WAL into the file
    return path


def make_test_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest, **extra: Any) -> Flask:
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    if backend == "sqlite" and "SQLALCHEMY_DATABASE_URI" not in extra:
        shutil.copyfile(request.getfixturevalue("empty_sqlite"), Path(tmp_path) / SQLITE_FILE)
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "AUTO_MIGRATE": False,
        "SERVER_NAME": None,
        "RATELIMIT_ENABLED": False,  # tests/reliability/ turns it on where it is tested
        **database_config(backend, tmp_path, request),
        **extra,
    }
    app = create_app(config)
    with app.app_context():
        if backend == "postgresql":
            db.create_all()
            tables = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
            db.session.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
            db.session.commit()
        else:
            db.create_all()  # the copied schema is there already: this checks it and adds nothing
    return app


def empty_schema(app: Flask) -> None:
    """Drop every table of ``app``'s database, the migrations' own included."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.session.remove()


@pytest.fixture
def old_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """An app on an empty database, for tests that build an old schema and run the migrations."""
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "ADMIN_KEY": "a",
            "AUTO_MIGRATE": False,
            **database_config(backend, tmp_path, request),
        }
    )
    register_migrations(app)
    empty_schema(app)
    yield app
    empty_schema(app)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database of the test's app: parametrized by ``pytest_generate_tests``."""
    return str(request.param)


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The test Redis database (``TEST_REDIS_URL``), emptied: where the pages and limits of a club
    go.  Without it these tests are skipped on a laptop and fail under CI."""
    reason = ""
    if not REDIS_URL:
        reason = "TEST_REDIS_URL is not set"
    else:
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        try:
            client.flushdb()
        except redis.RedisError as error:
            reason = f"no Redis at {REDIS_URL} ({error})"
        finally:
            client.close()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Redis tests, but {reason}", pytrace=False)
        pytest.skip(f"Redis tests skipped: {reason}; .ci/run starts a Redis server")
    yield REDIS_URL


@pytest.fixture
def app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    app = make_test_app(backend, tmp_path, request)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


def pytest_sessionstart(session: pytest.Session) -> None:
    # CI must run the PostgreSQL half as well; a silent skip would hide half the suite.
    if os.environ.get("CI") and not PG_URL:
        raise pytest.UsageError(
            "CI is set but TEST_DATABASE_URL is not: the PostgreSQL half would be skipped"
        )
