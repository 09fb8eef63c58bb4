"""Engine set-up and schema upgrades that are safe when several workers start at once."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from .extensions import db

logger = logging.getLogger(__name__)

ADVISORY_LOCK_ID = 727_115_001  # any constant shared by every worker of this app


#: How long a write waits for another writer's lock before it is refused as a conflict (409), in ms.
#: Shorter than a gunicorn worker's timeout (30 s): a stuck lock gets a clean answer, not a killed worker.
LOCK_TIMEOUT_MS = 15_000


def sqlite_pragmas(lock_timeout_ms: int) -> Any:
    """A connect hook: WAL for concurrent readers, a busy timeout instead of an instant 'locked', real FKs."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(lock_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (only a power cut may lose it).
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    return on_connect


def postgresql_settings(lock_timeout_ms: int) -> Any:
    """A connect hook: a lock wait longer than ``lock_timeout_ms`` fails (and becomes a 409 conflict)."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Outside a transaction, so that the pool's rollback on check-in cannot undo the SET.
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        cursor = dbapi_connection.cursor()
        cursor.execute(f"SET lock_timeout = {int(lock_timeout_ms)}")
        cursor.close()
        dbapi_connection.autocommit = autocommit

    return on_connect


def release_session(_error: BaseException | None = None) -> None:
    """End the request's session at teardown, without raising when its connection was lost.

    When the server cut the connection (a restart, a network cut), the session's rollback raises,
    which would fail the request after its answer and leave the broken session for a later request:
    its connections are invalidated instead and the session dropped.  Registered after
    Flask-SQLAlchemy's teardown, so it runs first (Flask runs them in reverse).
    """
    try:
        db.session.remove()
    except DBAPIError:
        logger.warning("The database connection was lost; it is replaced.", exc_info=True)
        registry = db.session.registry
        if registry.has():
            with contextlib.suppress(DBAPIError):
                registry().invalidate()
        registry.clear()


def configure_engine(app: Flask) -> None:
    """The engine's connect hooks, and the teardown that survives a connection lost during a request
    (``pool_pre_ping``, the config's default, replaces one lost while idle in the pool)."""
    app.teardown_appcontext(release_session)
    lock_timeout_ms = int(app.config.get("LOCK_TIMEOUT_MS") or LOCK_TIMEOUT_MS)
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", sqlite_pragmas(lock_timeout_ms))
        elif engine.dialect.name == "postgresql":
            event.listen(engine, "connect", postgresql_settings(lock_timeout_ms))


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
    if url.startswith("sqlite"):
        os.makedirs(app.instance_path, exist_ok=True)
        with open(Path(app.instance_path) / ".schema.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return
    with db.engine.connect() as connection:
        # Wait as long as another worker's upgrade takes, not just the usual lock timeout
        # (LOCAL: only until the commit below, so the pooled connection keeps its timeout).
        connection.execute(text("SET LOCAL lock_timeout = 0"))
        connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": ADVISORY_LOCK_ID})
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": ADVISORY_LOCK_ID})
            connection.commit()


def register_migrations(app: Flask) -> None:
    """Flask-Migrate on ``app``, once; only when a migration runs, as Alembic costs a serving
    worker memory it never uses."""
    if "migrate" not in app.extensions:
        from flask_migrate import Migrate

        Migrate(app, db, directory=migrations_dir(), render_as_batch=True)


_REVISION_LINE = re.compile(
    r"""^(down_revision|revision)\s*(?::[^=]*)?=\s*(None|'[^']*'|"[^"]*")\s*$""", re.MULTILINE
)


def newest_revision() -> str | None:
    """The newest migration's id, read from the migration files without Alembic; None when they
    do not name exactly one newest revision the simple way (then the caller asks Alembic)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((Path(migrations_dir()) / "versions").glob("*.py")):
        found = dict(_REVISION_LINE.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found or "down_revision" not in found:
            return None
        revisions.add(found["revision"].strip("'\""))
        if found["down_revision"] != "None":
            parents.add(found["down_revision"].strip("'\""))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def schema_is_current(app: Flask) -> bool:
    """Whether the database already stands at the newest migration (one cheap query)."""
    newest = newest_revision()
    if newest is None:
        return False
    try:
        with db.engine.connect() as connection:
            stamps = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except DBAPIError:  # no such table yet: a new database
        return False
    return stamps == [newest]


def upgrade_schema(app: Flask) -> None:
    """Create or upgrade the schema to the newest migration (Alembic loaded only if there is one to run)."""
    with app.app_context():
        if not schema_is_current(app):
            register_migrations(app)
            from flask_migrate import upgrade

            with schema_lock(app):
                upgrade(directory=migrations_dir())
        # No connection opened here may outlive start-up: a server that forks workers after
        # loading the app (gunicorn --preload) would otherwise share one socket between processes.
        db.engine.dispose()
