"""Rendered game pages and API game states, kept per worker and named by the game's version.

Every write that changes what a game's pages show (its deals, its players'
names) bumps the game's ``version`` in the same transaction, so a key made
of the game's id and version names one rendering for good: a kept copy can
never be stale, only unused (an LRU drops it).  A request reads the version
with one cheap query (the one that answers 304s anyway) and, when the copy is
there, skips loading, replaying and rendering the game: on this stack that
is most of a page's time (bench/README.md).

What differs between requests stays out of the copy: a page waiting to show
flashed messages is neither served from nor stored in the cache, and the
CSRF token of the forms is stored as a placeholder and filled in afresh.
``PAGE_CACHE_SIZE`` (entries per worker, 0 turns it off) bounds the memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from flask import Flask, current_app, g, session
from flask_wtf.csrf import generate_csrf

DEFAULT_SIZE = 128  # a page is 20-50 kB: at most a few MB per worker
CSRF_PLACEHOLDER = "\x00csrf\x00"  # cannot occur in a rendered page: NUL is never emitted


class PageCache:
    """A small thread-safe LRU of rendered bodies (str)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            body = self._entries.get(key)
            if body is not None:
                self._entries.move_to_end(key)
            return body

    def put(self, key: Hashable, body: str) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._entries[key] = body
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def init_app(app: Flask) -> None:
    app.config.setdefault("PAGE_CACHE_SIZE", DEFAULT_SIZE)
    app.extensions["scorekeeper_page_cache"] = PageCache(int(app.config["PAGE_CACHE_SIZE"]))


def _cache() -> PageCache:
    cache: PageCache = current_app.extensions["scorekeeper_page_cache"]
    return cache


def usable() -> bool:
    """Whether this request may use the cache: ask before rendering (rendering takes the flashes)."""
    # Flashed messages belong to one visit: such a page is rendered, and not kept.
    return _cache().size > 0 and "_flashes" not in session


def cached(key: Hashable) -> str | None:
    """The kept body for ``key``, with this request's CSRF token filled in; None when there is none.

    Call only when ``usable()`` said so for this request.
    """
    body = _cache().get(key)
    if body is not None and CSRF_PLACEHOLDER in body:
        body = body.replace(CSRF_PLACEHOLDER, generate_csrf())
    return body


def keep(key: Hashable, body: str) -> None:
    """Keep a body just rendered for ``key`` (when ``usable()`` said so before rendering it).

    Its CSRF token, if a form used one, is stored as a placeholder.
    """
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    token = g.get(field)  # Flask-WTF keeps the request's signed token here once a form used it
    if token:
        body = body.replace(token, CSRF_PLACEHOLDER)
    elif f'name="{field}"' in body:
        return  # a token this module cannot see: never keep it
    _cache().put(key, body)
