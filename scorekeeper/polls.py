"""A game page's poll answered 304 without the app, from the game's version alone.

Every phone at a table asks its game page every few seconds with the ETag it was last given
(``X-Scorekeeper-Poll``, ``If-None-Match``), and nearly always nothing has changed.  The app
answers that from one query, but running it (the request's context, session, language, hooks)
costs several times the query.  So once the app has answered a poll 304, ``Polls`` keeps that
answer's headers under everything the app read to give it: the path, the If-None-Match sent,
the cookies, the languages and encodings taken, the host and the proxy's forwarded headers.
The same request again is answered the same 304 without the app, after one query of the game's
version, while it is the version the ETag names; a new version goes to the app, which draws
the page.  The version is read from the database every time, never cached, so a write through any
process is seen by the next poll.

What the app decides beyond the version: whether this phone holds the pencil (its device cookie's
keyring, and the pencils in it; part of the ETag) and its language.  The language is read from the
cookie and ``Accept-Language`` (part of the key).  A phone with no device cookie holds no pencil,
so it needs no check; one with a device cookie is sent to the app at least every
``PENCIL_SECONDS`` (a pencil taken or given up since shows then).  A request with an old per-game
key cookie, or any other method, path or missing header, goes to the app as ever.

Behind a proxy that says when it took the request (nginx: ``X-Request-Start: t=${msec}``), a poll
that waited longer than ``serving.SHED_SECONDS`` for a worker is told to come back later at once
(503 and ``Retry-After``, as ``make run`` tells it: ``serving.Shed``), so the workers catch up with
the room instead of answering phones that gave up, and a scorer's Save is not left behind them.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from . import serving
from .access import DEVICE_COOKIE, KEY_COOKIE_PREFIX

#: The game page's path; a game's id is a short URL-safe token.
GAME_PAGE = re.compile(r"/games/([A-Za-z0-9_-]{1,64})")
#: The version an ETag names (``web.games.routes._etag``: ``"v12-r-en"``, ``:gzip`` added when gzipped).
VERSION = re.compile(r'^(?:W/)?"v(\d+)-')
#: A phone with a device cookie has its pencil checked by the app at least this often.
PENCIL_SECONDS = 30.0
#: Answers cached, at most (the oldest go first): a few per phone.
MOST_CACHED = 20_000
#: What the app reads to answer a poll, besides the path and If-None-Match.
READ = (
    "HTTP_COOKIE",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_ACCEPT_ENCODING",
    "HTTP_HOST",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "wsgi.url_scheme",
    "SCRIPT_NAME",
)
QUERY = text("SELECT version FROM games WHERE id = :id")


class Polls:
    """WSGI middleware: a poll the app answered 304 is answered the same without it while the
    game's version is the one its ETag names."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.cached: dict[tuple[str, ...], tuple[int, list[tuple[str, str]], float]] = {}
        self.lock = threading.Lock()
        self.engine: Engine | None = None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if "HTTP_X_SCOREKEEPER_POLL" in environ and waited(environ) > serving.SHED_SECONDS:
            headers = [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Retry-After", serving.retry_after()),
                ("Cache-Control", "no-store"),
                ("Content-Length", str(len(serving.Shed.BODY))),
            ]
            start_response("503 SERVICE UNAVAILABLE", headers)
            return [serving.Shed.BODY]
        key = self.key(environ)
        if key is None:
            return self.wsgi_app(environ, start_response)
        with self.lock:
            cached = self.cached.get(key)
        if cached is not None:
            version, headers, until = cached
            if time.monotonic() < until and self.version(key[0]) == version:
                start_response("304 NOT MODIFIED", headers)
                return []

        def learn(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if status.startswith("304 ") and not any(name.lower() == "set-cookie" for name, _ in headers):
                tag = next((value for name, value in headers if name.lower() == "etag"), "")
                found = VERSION.match(tag)
                if found:
                    self.keep(key, int(found.group(1)), headers, environ)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, learn)

    @staticmethod
    def key(environ: dict[str, Any]) -> tuple[str, ...] | None:
        """What the app reads to answer this poll (the game's id first); None: not a poll cached."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        tag = environ.get("HTTP_IF_NONE_MATCH")
        found = GAME_PAGE.fullmatch(environ.get("PATH_INFO", ""))
        if not found or not tag or "HTTP_X_SCOREKEEPER_POLL" not in environ:
            return None
        if KEY_COOKIE_PREFIX in environ.get("HTTP_COOKIE", ""):
            return None  # an old key cookie: the app takes it over
        return (found.group(1), tag, *(str(environ.get(name, "")) for name in READ))

    def keep(
        self, key: tuple[str, ...], version: int, headers: list[tuple[str, str]], environ: dict[str, Any]
    ) -> None:
        pencil = DEVICE_COOKIE in environ.get("HTTP_COOKIE", "")
        until = time.monotonic() + PENCIL_SECONDS if pencil else float("inf")
        with self.lock:
            if len(self.cached) >= MOST_CACHED:
                for old in list(self.cached)[: MOST_CACHED // 4]:
                    del self.cached[old]
            self.cached[key] = (version, list(headers), until)

    def version(self, game_id: str) -> int | None:
        """The game's version, from the database (one query; the app's engine and its pool)."""
        if self.engine is None:
            from .extensions import db

            with self.app.app_context():
                self.engine = db.engine
        try:
            with self.engine.connect() as connection:
                row = connection.execute(QUERY, {"id": game_id}).first()
        except SQLAlchemyError:
            return None  # the app answers (503 when the database does not answer)
        return None if row is None else int(row[0])


def waited(environ: dict[str, Any]) -> float:
    """Seconds since the proxy took the request (``X-Request-Start``: ``t=`` and seconds, or
    milliseconds or microseconds since 1970); 0 when it does not say."""
    raw = environ.get("HTTP_X_REQUEST_START", "").removeprefix("t=")
    try:
        started = float(raw)
    except ValueError:
        return 0.0
    while started > 1e11:  # milliseconds, microseconds
        started /= 1000
    return max(0.0, time.time() - started)


def init_app(app: Flask) -> None:
    app.wsgi_app = Polls(app, app.wsgi_app)  # type: ignore[method-assign]
