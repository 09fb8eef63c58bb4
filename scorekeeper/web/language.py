"""The language switch (EN / PL / IT): remembered on this phone in a cookie, then back to the page."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import abort, redirect, request
from werkzeug.wrappers import Response

from ..i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES
from . import bp

#: What a browser removes from anywhere in a URL before reading it (the URL Standard: ASCII tab or newline).
_DROPPED_BY_BROWSERS = dict.fromkeys(map(ord, "\t\n\r"))


def local_path(target: str | None) -> str:
    """``target`` when a browser would read it as a path on this site, else the home page ``/``.

    Judged as a browser reads a ``Location``: it trims leading and trailing control characters and
    spaces, drops every tab and newline, and takes a backslash for a slash, so ``/\\t/host``,
    ``/\\\\host`` and `` //host`` all name another host (``//host``).  What stays must be a path
    (one slash, then not a second one; no scheme, no host) without any control character, which a
    header cannot carry.  The path given back is the one the browser would have read.
    """
    if not target:
        return "/"
    read = target.strip("".join(map(chr, range(0x21)))).translate(_DROPPED_BY_BROWSERS).replace("\\", "/")
    if not read.startswith("/") or read.startswith("//"):
        return "/"
    if any(unicodedata.category(char).startswith("C") for char in read):
        return "/"
    parts = urlsplit(read)
    if parts.scheme or parts.netloc:
        return "/"
    return read


@bp.get("/language/<code>")
def language(code: str) -> Response:
    """Speak ``code`` from now on, on this phone; back to the page the switch was on."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(local_path(request.args.get("next")), 303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )
    response.headers["Cache-Control"] = "no-store"
    return response
