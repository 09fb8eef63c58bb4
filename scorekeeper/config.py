"""Configuration, read from the environment with safe defaults for a laptop."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` (PostgreSQL through psycopg 3), else SQLite in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3")
    return normalise_database_url(url)


def normalise_database_url(url: str) -> str:
    # Hosting platforms hand out postgres:// URLs; SQLAlchemy needs the driver named.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """``SECRET_KEY`` from the environment, else one generated once into the instance folder."""
    from_env = os.environ.get("SECRET_KEY", "").strip()
    if from_env:
        return from_env
    path = Path(instance_path) / "secret_key"
    try:
        # O_EXCL: when several workers start at once, exactly one writes the key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    for _ in range(50):
        key = path.read_text().strip()
        if key:
            return key
        import time

        time.sleep(0.01)  # another worker is between creating and writing the file
    raise RuntimeError(f"{path} is empty; delete it or set SECRET_KEY")


def default_config(instance_path: str, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults for every setting not in ``given`` (computed lazily: no key file if one is given)."""
    given = given or {}
    config: dict[str, Any] = {
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        # A game lasts an evening: a form opened at eight must still post at eleven.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_SSL_STRICT": True,
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "MAX_FORM_MEMORY_SIZE": 64 * 1024,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_NAME": "scorekeeper_session",
        # Schema created or upgraded when the app starts (tests turn this off).
        "AUTO_MIGRATE": os.environ.get("SCOREKEEPER_AUTO_MIGRATE", "1") != "0",
        "POLL_INTERVAL_MS": 3000,
        "JSON_SORT_KEYS": False,
    }
    if "SECRET_KEY" not in given:
        config["SECRET_KEY"] = secret_key(instance_path)
    if "SQLALCHEMY_DATABASE_URI" not in given:
        config["SQLALCHEMY_DATABASE_URI"] = database_url(instance_path)
    return {key: value for key, value in config.items() if key not in given}
