"""For hosting: ``/healthz`` (liveness: the app and its database answer) and ``/readyz`` (readiness:
everything it is configured to use answers), in plain text, never cached.

Without Redis the app still serves (pages drawn afresh, limits counted in memory: README), so
``/healthz`` does not ask it; ``/readyz`` does when ``REDIS_URL`` names one, and answers 503 naming
what does not answer (``missing: redis``), e.g. for a load balancer to prefer a server whose Redis
answers.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from flask import current_app, make_response
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from .. import services
from ..config import REDIS_OPTIONS
from . import bp


def _plain(text: str, status: int) -> Response:
    response = make_response(text, status)
    response.mimetype = "text/plain"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness and database check: one trivial query (503 ``missing: database`` when it fails)."""
    try:
        services.ping()
    except SQLAlchemyError:
        return _plain("missing: database\n", 503)
    return _plain("ok\n", 200)


def _redis_answers() -> None:
    url = current_app.config.get("REDIS_URL")
    if url:
        with redis.Redis.from_url(url, **REDIS_OPTIONS) as client:
            client.ping()


@bp.get("/readyz")
def readyz() -> Response:
    """200 ``ok`` when the database answers, and Redis too where ``REDIS_URL`` names one; else 503
    ``missing:`` and what does not answer (``database``, ``redis``)."""
    checks: dict[str, Callable[[], None]] = {"database": services.ping, "redis": _redis_answers}
    missing = []
    for name, check in checks.items():
        try:
            check()
        except (SQLAlchemyError, redis.RedisError):
            missing.append(name)
    return _plain(f"missing: {', '.join(missing)}\n", 503) if missing else _plain("ok\n", 200)
