"""Guessing a secret through the pages (the admin key, a hand-over code) is bounded; the right one
always works.

The view checks the secret first, so a right one is accepted whoever else is guessing from the
same address (a club's phones share one).  Each wrong one is counted against the client's
address (``limits.client_address``) and against what it tried to open (the admin key, or one
game's hand-over), both in one atomic step each (``limits``' moving window ``hit``: under a lock
in memory, one script in Redis), so a burst from many threads or servers lets exactly the limit
through.  Past 10 a minute on either count, a wrong secret answers ``429`` (with Retry-After)
instead of ``403``.  Counted where the rate limits are (``RATELIMIT_STORAGE_URI``: Redis shares
it between servers); if that store does not answer, this process counts alone.
"""

from __future__ import annotations

import math

from flask import current_app
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from ..extensions import limiter
from ..limits import client_address

#: Wrong secrets a minute from one client address, and against one target, on each guarded form.
FAILED_ATTEMPTS_RATE_LIMIT = "10 per minute"
_HERE = MovingWindowRateLimiter(MemoryStorage())


def failed_attempts_limit() -> str:
    return str(current_app.config.get("FAILED_ATTEMPTS_RATE_LIMIT") or FAILED_ATTEMPTS_RATE_LIMIT)


def _hit(item: RateLimitItem, *identifiers: str) -> bool:
    """Count one more (unless already at the limit); whether it was within the limit."""
    storage = limiter.storage
    try:
        return MovingWindowRateLimiter(storage).hit(item, *identifiers)
    except StorageError:  # the shared store does not answer (its errors wrapped, or not)
        pass
    except storage.base_exceptions:
        pass
    return _HERE.hit(item, *identifiers)


def count_wrong_secret(scope: str, target: str) -> None:
    """Count a wrong secret sent to ``target`` (``scope``: "admin", "take"); past the limit, by this
    address or against this target, raise 429 instead of letting the view answer 403."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    prefix = str(current_app.config.get("RATELIMIT_KEY_PREFIX") or "")
    for item in parse_many(failed_attempts_limit()):
        # The target is counted only for tries its address was allowed: each count is exact on its
        # own (atomic), and so is the pair (two tries racing between them cannot both lose).
        within = _hit(item, prefix, scope, "address", client_address())
        if not within or not _hit(item, prefix, scope, "target", target):
            raise TooManyRequests(retry_after=math.ceil(item.get_expiry()))
