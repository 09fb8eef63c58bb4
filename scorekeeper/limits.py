"""Bounds on what a request may carry, checked before anything reaches the database.

* Numbers: every id, deal number and page number from a URL, a query string or a
  form fits the database's integer column (PostgreSQL's ``integer``, 32 bits), or
  it is treated as unknown (404) or brought to the nearest valid value (pages).
  ``<int:...>`` in every route is the bounded converter below; query strings go
  through ``query_int``; forms through ``BoundedIntegerField`` (``web/forms.py``).
* Cache keys: a page is cached only at its canonical address (``canonical_address``):
  each query parameter one the page reads, once, with one of its values; any other query is
  drawn afresh, so no client can add keys to the cache at will (``caching.club_page``).
* Body size: a body longer than ``MAX_CONTENT_LENGTH`` is refused with 413 however
  it is framed.  Werkzeug refuses an over-long ``Content-Length`` itself; a
  chunked body has no length, so ``BodyLimit`` reads it (up to one byte over the
  limit) before the app sees the request, and marks it too large.
"""

from __future__ import annotations

import io
import ipaddress
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from flask import Flask, abort, request, url_for
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wsgi import get_content_length

#: The largest id or count the database's integer columns hold (PostgreSQL ``integer``).
MAX_DB_INT = 2**31 - 1
TOO_LARGE = "scorekeeper.body_too_large"


def digits_up_to(limit: int) -> str:
    """A regular expression for the decimal numbers 0..``limit`` (no sign, no leading zeros past its length).

    For 2147483647: up to nine digits, or ten digits no greater, place by place.
    """
    text = str(limit)
    choices = [rf"\d{{1,{len(text) - 1}}}"] if len(text) > 1 else []
    for place, digit in enumerate(text):
        if digit != "0":
            rest = len(text) - place - 1
            choices.append(text[:place] + f"[0-{int(digit) - 1}]" + (rf"\d{{{rest}}}" if rest else ""))
    choices.append(text)
    return "(?:" + "|".join(choices) + ")"


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` that matches only whole numbers the database can hold; any other is a 404.

    The bound is in the pattern itself: a path with a bigger number matches no route
    at all (a bound checked after matching would make Werkzeug answer 405 for some
    methods), and a thousand-digit number never reaches ``int()``.
    """

    regex = digits_up_to(MAX_DB_INT)

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_DB_INT)
        super().__init__(map, *args, **kwargs)


def query_int(
    args: Mapping[str, str], name: str, default: int, *, low: int = 1, high: int = MAX_DB_INT
) -> int:
    """A whole number from the query string, brought within ``low..high``; ``default`` if not a number.

    A page number past either end shows the nearest page instead of failing.
    """
    raw = (args.get(name) or "").strip()
    sign = -1 if raw.startswith("-") else 1
    digits = raw.lstrip("+-")
    if not digits.isascii() or not digits.isdigit():
        return default
    if len(digits) > 12:  # far beyond any bound: no need to convert it
        return high if sign > 0 else low
    return max(low, min(high, sign * int(digits)))


def canonical_address(query: Mapping[str, Collection[str]]) -> str | None:
    """The request's address in one spelling when each of its query parameters is in ``query``,
    once, with one of the values listed there; None otherwise."""
    args = request.args
    for name in args:
        if name not in query or len(args.getlist(name)) > 1 or args[name] not in query[name]:
            return None
    values: dict[str, Any] = {**(request.view_args or {}), **dict(sorted(args.items()))}
    return url_for(str(request.endpoint), **values)


class BodyLimit:
    """WSGI middleware: a body without ``Content-Length`` (chunked) is read here, up to the limit.

    The body read is handed on as a plain stream with its length, so the app
    treats it exactly like one sent with ``Content-Length``; one byte over the
    limit marks the request too large, and the app answers 413 (in the API's
    JSON error body or the site's error page) without reading it.
    """

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        # Werkzeug ignores Content-Length on a chunked request, and then stops reading at the
        # limit without a word: the body would be cut short and the rest silently dropped.
        if limit is not None and get_content_length(environ) is None and environ.get("wsgi.input_terminated"):
            stream = environ["wsgi.input"]
            body = bytearray()
            while len(body) <= limit:
                chunk = stream.read(min(64 * 1024, limit + 1 - len(body)))
                if not chunk:
                    break
                body += chunk
            if len(body) > limit:
                environ[TOO_LARGE] = True
                body = bytearray()
            environ["wsgi.input"] = io.BytesIO(bytes(body))
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated", None)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.wsgi_app(environ, start_response)


def client_address() -> str:
    """The key every limit counts a client by: its address (``request.remote_addr``, the proxy's
    word behind ``SCOREKEEPER_PROXY_HOPS``) in one spelling.

    ``::FFFF:192.0.2.1``, ``::ffff:c000:201`` and ``192.0.2.1`` are one IPv4 client; an IPv6
    client is its /64, the block one home or phone is given (it may pick any address in it).
    """
    raw = request.remote_addr or ""
    try:
        address = ipaddress.ip_address(raw.split("%", 1)[0])  # a zone (fe80::1%eth0) names no client
    except ValueError:
        return raw or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def init_app(app: Flask) -> None:
    """Bounded ``<int:...>`` in every route, and the body limit for chunked requests."""
    app.url_map.converters["int"] = BoundedIntConverter
    app.wsgi_app = BodyLimit(app, app.wsgi_app)  # type: ignore[method-assign]

    @app.before_request
    def refuse_over_long_body() -> None:
        if request.environ.get(TOO_LARGE):
            abort(413)
