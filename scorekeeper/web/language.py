"""The language switch (EN / PL / IT): remembered on this phone in a cookie, then back to the page."""

from __future__ import annotations

from flask import abort, redirect, request
from werkzeug.wrappers import Response

from ..i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES
from . import bp


def _local_path(target: str | None) -> str:
    """``target`` when it is a path on this site (never another host), else the home page."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@bp.get("/language/<code>")
def language(code: str) -> Response:
    """Speak ``code`` from now on, on this phone; back to the page the switch was on."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(_local_path(request.args.get("next")), 303)
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
