"""Fixtures: an app per test on SQLite, and again on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.config import normalise_database_url
from scorekeeper.database import register_migrations
from scorekeeper.extensions import db

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
# Each test app keeps its pages apart; the Redis tests say where theirs go (TEST_REDIS_URL).
os.environ.pop("REDIS_URL", None)
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
REDIS_URL = os.environ.get("TEST_REDIS_URL", "").strip()


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
        return {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/scorekeeper-test.sqlite3"}
    url, schema = request.getfixturevalue("pg_schema")
    return {
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={schema}"}},
    }


def make_test_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest, **extra: Any) -> Flask:
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
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
            db.create_all()
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


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
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
