"""Configuration: the one place that reads the environment, with safe defaults for a laptop."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Games one client address may create through the API (Flask-Limiter syntax, ";" between limits).
GAME_CREATE_RATE_LIMIT = "30 per minute; 300 per day"
#: How long a hand-over link works (it works once, too).
HAND_OVER_SECONDS = 10 * 60

#: Redis, for the page cache and the rate limits: an answer within a second or none (the page is
#: then drawn afresh, the limit counted in memory), and no retry that would hold the request up.
REDIS_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 1.0, "socket_timeout": 1.0, "retry": None}


def _text(environ: Mapping[str, str], name: str) -> str:
    return environ.get(name, "").strip()


def _flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    value = _text(environ, name).lower()
    return default if not value else value not in ("0", "false", "no", "off")


@dataclass(frozen=True)
class Settings:
    """Every setting the environment may give, read once (README: "Running it for a club")."""

    instance_path: str | None = None  # SCOREKEEPER_INSTANCE; None: Flask's instance folder
    database_url: str | None = None  # DATABASE_URL; None: SQLite in the instance folder
    secret_key: str | None = None  # SECRET_KEY; None: one generated once into the instance folder
    admin_key: str | None = None  # SCOREKEEPER_ADMIN_KEY; None: one generated once into the instance folder
    auto_migrate: bool = True  # SCOREKEEPER_AUTO_MIGRATE=0 turns it off
    proxy_hops: int = 0  # SCOREKEEPER_PROXY_HOPS
    redis_url: str | None = None  # REDIS_URL; None: cached pages in each process, rate limits too
    rate_limit_enabled: bool = True  # RATELIMIT_ENABLED
    rate_limit_storage_uri: str | None = None  # RATELIMIT_STORAGE_URI; None: REDIS_URL, else memory
    game_create_rate_limit: str = GAME_CREATE_RATE_LIMIT  # GAME_CREATE_RATE_LIMIT
    hand_over_seconds: int = HAND_OVER_SECONDS  # SCOREKEEPER_HAND_OVER_SECONDS
    host: str = "127.0.0.1"  # HOST, for `make run`
    port: int = 5000  # PORT, for `make run`

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``environ`` (default: this process's environment)."""
        env = os.environ if environ is None else environ
        return cls(
            instance_path=_text(env, "SCOREKEEPER_INSTANCE") or None,
            database_url=normalise_database_url(_text(env, "DATABASE_URL")) or None,
            secret_key=_text(env, "SECRET_KEY") or None,
            admin_key=_text(env, "SCOREKEEPER_ADMIN_KEY") or None,
            auto_migrate=_text(env, "SCOREKEEPER_AUTO_MIGRATE") != "0",
            proxy_hops=int(_text(env, "SCOREKEEPER_PROXY_HOPS") or 0),
            redis_url=_text(env, "REDIS_URL") or None,
            rate_limit_enabled=_flag(env, "RATELIMIT_ENABLED", True),
            rate_limit_storage_uri=_text(env, "RATELIMIT_STORAGE_URI") or None,
            game_create_rate_limit=_text(env, "GAME_CREATE_RATE_LIMIT") or GAME_CREATE_RATE_LIMIT,
            hand_over_seconds=int(_text(env, "SCOREKEEPER_HAND_OVER_SECONDS") or HAND_OVER_SECONDS),
            host=_text(env, "HOST") or "127.0.0.1",
            port=int(_text(env, "PORT") or 5000),
        )


def database_url(instance_path: str, settings: Settings) -> str:
    """``DATABASE_URL`` (PostgreSQL through psycopg 3), else SQLite in the instance folder."""
    return settings.database_url or "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3")


def normalise_database_url(url: str) -> str:
    # Hosting platforms hand out postgres:// URLs; SQLAlchemy needs the driver named.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str, settings: Settings) -> str:
    """``SECRET_KEY`` from the environment, else one generated once into the instance folder."""
    return settings.secret_key or instance_secret(
        instance_path, "secret_key", secrets.token_hex(32), "SECRET_KEY"
    )


def admin_key(instance_path: str, settings: Settings) -> str:
    """The administrator's secret (rename and merge anyone): ``SCOREKEEPER_ADMIN_KEY``, else one
    generated once into the instance folder (``make run`` prints it)."""
    return settings.admin_key or instance_secret(
        instance_path, "admin_key", secrets.token_urlsafe(24), "SCOREKEEPER_ADMIN_KEY"
    )


def instance_secret(instance_path: str, filename: str, fresh: str, setting: str) -> str:
    """The secret stored in the instance folder's ``filename``, written as ``fresh`` the first time."""
    path = Path(instance_path) / filename
    try:
        # O_EXCL: when several workers start at once, exactly one writes the key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(fresh)
    for _ in range(50):
        key = path.read_text().strip()
        if key:
            return key
        import time

        time.sleep(0.01)  # another worker is between creating and writing the file
    raise RuntimeError(f"{path} is empty; delete it or set {setting}")


def rate_limit_defaults(settings: Settings | None = None) -> dict[str, Any]:
    """Rate-limit settings (from the environment unless ``settings`` are given)."""
    settings = settings or Settings.from_environ()
    storage = settings.rate_limit_storage_uri or settings.redis_url or "memory://"
    return {
        "RATELIMIT_ENABLED": settings.rate_limit_enabled,
        # In memory, each worker process counts for itself: N workers let N times the limit through.
        # A shared store (REDIS_URL, or e.g. redis://host:6379) makes the limit exact across workers
        # and hosts; an explicit RATELIMIT_STORAGE_URI wins.
        "RATELIMIT_STORAGE_URI": storage,
        "RATELIMIT_STORAGE_OPTIONS": REDIS_OPTIONS if storage.startswith("redis") else {},
        # Redis unreachable: each process counts in memory until it answers again (README).
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "RATELIMIT_SWALLOW_ERRORS": True,
        "RATELIMIT_HEADERS_ENABLED": True,  # Retry-After on a 429
        "GAME_CREATE_RATE_LIMIT": settings.game_create_rate_limit,
    }


#: What is worth gzipping: text of every kind the app serves (pages, CSS, JS, SVG icons, JSON, CSV).
COMPRESSIBLE = (
    "text/html",
    "text/css",
    "text/csv",
    "text/plain",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
)


def compress_defaults() -> dict[str, Any]:
    """Flask-Compress: gzip only (every phone takes it), at a level that keeps the game page and its
    files far under 50 KB without costing a page much time; not below 600 bytes, where gzip's own
    header and the extra response header eat the saving."""
    return {
        "COMPRESS_REGISTER": False,
        "COMPRESS_MIMETYPES": list(COMPRESSIBLE),
        "COMPRESS_ALGORITHM": ["gzip"],
        "COMPRESS_LEVEL": 6,
        "COMPRESS_MIN_SIZE": 600,
        "COMPRESS_STREAMS": False,
        "COMPRESS_EVALUATE_CONDITIONAL_REQUEST": False,  # the app answers its own 304s
    }


#: How long a page stays cached (a write makes its copy unused at once: ``caching``).
CACHE_SECONDS = 600
#: Pages one process keeps in memory (5 to 50 kB each) when there is no Redis: a game page per table
#: of a club of a few hundred, and its club pages.
PAGES_PER_PROCESS = 1000


def cache_defaults(settings: Settings) -> dict[str, Any]:
    """Where cached pages live (Flask-Caching's ``CACHE_*``): with ``REDIS_URL``, in Redis, shared by
    every process of every app server; without it, in each process's memory.  Their keys come from
    the database (``caching``), so either way a write shows on every process's next page."""
    if settings.redis_url:
        return {
            "CACHE_TYPE": "RedisCache",
            "CACHE_REDIS_URL": settings.redis_url,
            "CACHE_OPTIONS": REDIS_OPTIONS,
            "CACHE_KEY_PREFIX": "scorekeeper:",
            "CACHE_DEFAULT_TIMEOUT": CACHE_SECONDS,
        }
    return {
        "CACHE_TYPE": "SimpleCache",
        "CACHE_THRESHOLD": PAGES_PER_PROCESS,
        "CACHE_DEFAULT_TIMEOUT": CACHE_SECONDS,
    }


def default_config(
    instance_path: str, settings: Settings, given: dict[str, Any] | None = None
) -> dict[str, Any]:
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
        "AUTO_MIGRATE": settings.auto_migrate,
        "PROXY_HOPS": settings.proxy_hops,
        "POLL_INTERVAL_MS": 3000,
        "HAND_OVER_SECONDS": settings.hand_over_seconds,
        # Replay the ratings a process died owing, in a thread, as the app starts (tests start it
        # where they test it).
        "RATINGS_RESUME": not given.get("TESTING", False),
        **rate_limit_defaults(settings),
        **cache_defaults(settings),
        "REDIS_URL": settings.redis_url,
        **compress_defaults(),
    }
    if "SECRET_KEY" not in given:
        config["SECRET_KEY"] = secret_key(instance_path, settings)
    if "ADMIN_KEY" not in given:
        config["ADMIN_KEY"] = admin_key(instance_path, settings)
    if "SQLALCHEMY_DATABASE_URI" not in given:
        config["SQLALCHEMY_DATABASE_URI"] = database_url(instance_path, settings)
    return {key: value for key, value in config.items() if key not in given}
