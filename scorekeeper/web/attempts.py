"""Guessing a secret through the pages (the admin key, a hand-over code) is bounded by address.

Only failures count (``deduct_when``: the 403 a wrong secret answers): a club whose phones share
one address can sign in and take the pencil as often as it likes.  Past the limit, the address
gets ``429 rate_limited`` until the window moves on, whatever it sends.  Counted by
Flask-Limiter in its configured storage (``RATELIMIT_STORAGE_URI``, in memory by default).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app
from werkzeug.wrappers import Response

from ..extensions import limiter

#: Failed attempts one client address may make a minute, on each of the guarded forms.
FAILED_ATTEMPTS_RATE_LIMIT = "10 per minute"


def failed_attempts_limit() -> str:
    return str(current_app.config.get("FAILED_ATTEMPTS_RATE_LIMIT") or FAILED_ATTEMPTS_RATE_LIMIT)


def _failed(response: Response) -> bool:
    return response.status_code == 403


def limit_failed_attempts(scope: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorates a view whose wrong secret answers 403: 10 such a minute from one address, then 429."""
    decorate: Callable[[Callable[..., Any]], Callable[..., Any]] = limiter.limit(
        failed_attempts_limit, methods=["POST"], deduct_when=_failed, scope=f"failed-{scope}"
    )
    return decorate
