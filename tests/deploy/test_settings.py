"""One settings object reads the environment; nothing else in the package does."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.config import GAME_CREATE_RATE_LIMIT, REDIS_OPTIONS, Settings, default_config

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def test_settings_from_an_empty_environment_are_the_laptop_defaults() -> None:
    assert Settings.from_environ({}) == Settings(
        instance_path=None,
        database_url=None,
        secret_key=None,
        auto_migrate=True,
        proxy_hops=0,
        redis_url=None,
        rate_limit_enabled=True,
        rate_limit_storage_uri=None,
        game_create_rate_limit=GAME_CREATE_RATE_LIMIT,
        host="127.0.0.1",
        port=5000,
    )


def test_settings_from_the_environment() -> None:
    environ = {
        "SCOREKEEPER_INSTANCE": "/srv/scorekeeper",
        "DATABASE_URL": " postgres://u:p@db/club ",
        "SECRET_KEY": "s3cret",
        "SCOREKEEPER_AUTO_MIGRATE": "0",
        "SCOREKEEPER_PROXY_HOPS": "1",
        "REDIS_URL": "redis://cache:6379/2",
        "RATELIMIT_ENABLED": "off",
        "RATELIMIT_STORAGE_URI": "redis://cache:6379",
        "GAME_CREATE_RATE_LIMIT": "5 per hour",
        "SCOREKEEPER_HAND_OVER_SECONDS": "120",
        "HOST": "0.0.0.0",
        "PORT": "8000",
    }
    assert Settings.from_environ(environ) == Settings(
        instance_path="/srv/scorekeeper",
        database_url="postgresql+psycopg://u:p@db/club",
        secret_key="s3cret",
        auto_migrate=False,
        proxy_hops=1,
        redis_url="redis://cache:6379/2",
        rate_limit_enabled=False,
        rate_limit_storage_uri="redis://cache:6379",
        game_create_rate_limit="5 per hour",
        hand_over_seconds=120,
        host="0.0.0.0",
        port=8000,
    )


def test_redis_holds_the_kept_pages_and_the_rate_limits_unless_told_otherwise(tmp_path: Path) -> None:
    laptop = default_config(str(tmp_path), Settings(secret_key="k", admin_key="a"))
    assert laptop["RATELIMIT_STORAGE_URI"] == "memory://"
    assert laptop["CACHE_TYPE"] == "SimpleCache"  # each process its own pages
    assert laptop["REDIS_URL"] is None
    club = default_config(str(tmp_path), Settings(secret_key="k", admin_key="a", redis_url="redis://r/1"))
    assert club["RATELIMIT_STORAGE_URI"] == club["CACHE_REDIS_URL"] == club["REDIS_URL"] == "redis://r/1"
    assert club["CACHE_TYPE"] == "RedisCache"
    # Redis unreachable: an answer within a second or none, no retries; the limits then counted
    # in memory (README: "Running it for a club").
    assert club["CACHE_OPTIONS"] == club["RATELIMIT_STORAGE_OPTIONS"] == REDIS_OPTIONS
    assert REDIS_OPTIONS["socket_timeout"] == REDIS_OPTIONS["socket_connect_timeout"] == 1.0
    assert REDIS_OPTIONS["retry"] is None
    assert club["RATELIMIT_IN_MEMORY_FALLBACK_ENABLED"] is True
    apart = Settings(
        secret_key="k", admin_key="a", redis_url="redis://r/1", rate_limit_storage_uri="memory://"
    )
    assert default_config(str(tmp_path), apart)["RATELIMIT_STORAGE_URI"] == "memory://"
    assert default_config(str(tmp_path), apart)["RATELIMIT_STORAGE_OPTIONS"] == {}


def test_only_the_settings_object_reads_the_environment() -> None:
    readers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"os\.environ|getenv", path.read_text())
    )
    assert readers == ["config.py"]
