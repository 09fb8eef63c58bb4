"""Engine set-up and schema upgrades that are safe when several workers start at once."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.engine import Engine

from .extensions import db

ADVISORY_LOCK_ID = 727_115_001  # any constant shared by every worker of this app


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL for concurrent readers, a busy timeout instead of instant 'locked', real foreign keys."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout = 15000")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def configure_engine(app: Flask) -> None:
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", sqlite_pragmas)


def migrations_dir() -> str:
    """Migrations ship inside the package in a wheel, and sit at the top level in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "migrations", here.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return str(candidate)
    raise RuntimeError("migrations folder not found")


@contextlib.contextmanager
def schema_lock(app: Flask) -> Iterator[None]:
    """One upgrader at a time: an advisory lock on PostgreSQL, a file lock for SQLite."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if is_sqlite(url):
        os.makedirs(app.instance_path, exist_ok=True)
        with open(Path(app.instance_path) / ".schema.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return
    with db.engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": ADVISORY_LOCK_ID})
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": ADVISORY_LOCK_ID})
            connection.commit()


def upgrade_schema(app: Flask) -> None:
    """Create or upgrade the schema to the newest migration."""
    from flask_migrate import upgrade

    with app.app_context(), schema_lock(app):
        upgrade(directory=migrations_dir())
