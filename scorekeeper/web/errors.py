"""Error pages in the site's style, and JSON errors under /api/, in the request's language."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException

from ..errors import HTTP_CODES
from ..rules import N_

#: What an error page (or the API's error body) says, by HTTP status (message ids).
MESSAGES = {
    400: N_("That request could not be understood."),
    404: N_("There is nothing at this address. The link may be mistyped, or the game was never created."),
    405: N_("That action is not possible at this address."),
    413: N_("That request is too large."),
    429: N_("Too many requests; wait a moment and try again."),
    500: N_("Something went wrong on our side. Nothing you entered was lost; try again."),
    503: N_(
        "The scores cannot be read or saved just now: the database does not answer. Try again in a moment."
    ),
}

#: An error page's heading, by HTTP status (message ids; another status keeps the framework's name).
TITLES = {
    400: N_("Bad Request"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Request Entity Too Large"),
    429: N_("Too Many Requests"),
    500: N_("Server error"),
    503: N_("Service Unavailable"),
}


#: Seconds a client is asked to wait when the database does not answer.
UNAVAILABLE_RETRY_AFTER = 5


#: PostgreSQL's SQLSTATEs of a connection lost or refused (class 08; the server shutting down or
#: starting up: 57P01-57P03); psycopg gives none when it could not connect at all.
_GONE_STATES = ("08", "57P01", "57P02", "57P03")
#: SQLite's errors of a database file that cannot be reached (a missing or unmounted folder, a disk).
_GONE_SQLITE = {"SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_NOTADB"}


def unreachable(error: DBAPIError) -> bool:
    """Whether ``error`` says the database cannot be reached (rather than a fault in a statement)."""
    if error.connection_invalidated:
        return True
    driver = error.orig
    if hasattr(driver, "sqlstate"):  # psycopg
        state = getattr(driver, "sqlstate", None)
        return state is None or str(state).startswith(_GONE_STATES)
    return getattr(driver, "sqlite_errorname", None) in _GONE_SQLITE


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def message_for(status: int, fallback: str | None = None) -> str:
    """What the page or the API says for ``status``, in the request's language."""
    if status in MESSAGES:
        return str(gettext(MESSAGES[status]))
    return fallback or str(gettext(MESSAGES[400]))


def title_for(status: int, fallback: str) -> str:
    return str(gettext(TITLES[status])) if status in TITLES else fallback


def _retry_after(error: HTTPException) -> dict[str, str]:
    """A 429 raised by the app itself (``attempts``) says when to try again, as Flask-Limiter's do."""
    seconds = getattr(error, "retry_after", None)
    return {"Retry-After": str(seconds)} if isinstance(seconds, int) else {}


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Any:
        message = gettext(
            "This form had expired or was sent from elsewhere, so nothing was saved. "
            "The page has been reloaded: please try again."
        )
        title = gettext("Form expired")
        return render_template("errors/error.html", status=400, title=title, message=message), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        # A limit with a message of its own (the games one client may start) says it, translated.
        limited = isinstance(error, RateLimitExceeded) and error.limit.error_message
        own = error.description if limited else None
        if _wants_json():
            from ..api.errors import error_body

            return error_body(
                HTTP_CODES.get(status, HTTP_CODES[400]),
                own or message_for(status, error.description or error.name),
                None,
                status,
            )
        return (
            render_template(
                "errors/error.html",
                status=status,
                title=title_for(status, error.name),
                message=own or message_for(status, error.description),
            ),
            status,
            _retry_after(error),
        )

    @app.errorhandler(OperationalError)
    @app.errorhandler(InterfaceError)
    def database_unavailable(error: DBAPIError) -> Any:
        """The database does not answer (down, restarting, unreachable): 503 with ``Retry-After``, so a
        phone's queue and a client try again.  Any other database error is the fault it is: 500."""
        if not unreachable(error):
            current_app.logger.error("Exception on %s [%s]", request.path, request.method, exc_info=error)
            return server_error(error)
        current_app.logger.warning("The database did not answer: %s", str(error).splitlines()[0])
        headers = {"Retry-After": str(UNAVAILABLE_RETRY_AFTER), "Cache-Control": "no-store"}
        if _wants_json():
            body = {"code": HTTP_CODES[503], "message": message_for(503), "field": None}
            return jsonify(error=body), 503, headers
        title = title_for(503, "Service Unavailable")
        page = render_template("errors/error.html", status=503, title=title, message=message_for(503))
        return page, 503, headers

    @app.errorhandler(500)
    def server_error(error: Exception) -> Any:
        if _wants_json():
            return jsonify(error={"code": HTTP_CODES[500], "message": message_for(500), "field": None}), 500
        return render_template(
            "errors/error.html", status=500, title=title_for(500, "Server error"), message=message_for(500)
        ), 500
