"""Rendered game pages and API game states, kept per worker and named by the game's version.

Every write that changes what a game's pages show (its deals, its players'
names) bumps the game's ``version`` in the same transaction, so a key made
of the game's id and version names one rendering for good: a kept copy can
never be stale, only unused (an LRU drops it).  A request reads the version
with one cheap query (the one that answers 304s anyway) and, when the copy is
there, skips loading, replaying and rendering the game: on this stack that
is most of a page's time (bench/README.md).

A copy is kept per language (the request's, ``i18n.current_language``).  What else differs
between requests stays out of the copy: a page waiting to show
flashed messages is neither served from nor stored in the cache, the
CSRF token of the forms is stored as a placeholder and filled in afresh, and the page's own
address (where the language switch brings a visitor back, ``page_address``) is the one its key
names, never the request's query string: a copy served to everyone holds nothing that one
visitor put in a URL.
``PAGE_CACHE_SIZE`` (entries per worker, 0 turns it off) and ``PAGE_CACHE_BYTES`` (the
pages' bytes per worker, their gzip allowed for) bound the memory: pages run from 5 to
50 kB, so a count alone let a worker's copies grow from under 1 MB to over 6 MB as
bigger pages (a busy player's) took the places of smaller ones.

A kept copy also keeps its gzip once made (``Kept.gzipped``): a page served as kept, to a
phone that accepts gzip, is not compressed again (``scorekeeper.compression`` asks
``kept_gzip``). Compressing a 40 kB page costs about as much as serving it from here.

The club's pages (home, rankings, a player's page) change with any game, so they are
named by the club's latest write instead (``club_page``): the highest ``games.updated_at``,
which every write bumps, read from an index in one query.  A maximum is not a counter,
though: a write still in flight may commit later with an earlier time.  So a club page is
kept only once the club has been quiet for ``CLUB_PAGE_SETTLE_SECONDS`` (longer than a
write can take, lock waits included): every write stamped up to then has committed, and
the copy can never hide one.  A busy club renders its pages afresh (from stored figures,
in a fixed number of queries); a quiet one serves them kept.
"""

from __future__ import annotations

import gzip
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import date, datetime, timedelta
from typing import Generic, TypeVar

from flask import Flask, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

from .database import LOCK_TIMEOUT_MS
from .i18n import current_language

DEFAULT_SIZE = 128  # entries per worker
DEFAULT_BYTES = 3 * 1024 * 1024  # per worker: some 75 pages of 40 kB, or all 128 of the small ones
CSRF_PLACEHOLDER = "\x00csrf\x00"  # cannot occur in a rendered page: NUL is never emitted
CSRF_PLACEHOLDER_BYTES = CSRF_PLACEHOLDER.encode()


V = TypeVar("V")

GZIP_LEVEL = 3  # a third of level 6's CPU time for a body some 10% larger (bench/README.md)


class Kept:
    """A rendered body (UTF-8), and its gzip once a response has needed it (about a sixth of its size).

    Kept encoded: a page with one character outside Latin-1 (a minus sign) is a Python string of
    two bytes a character, twice its UTF-8.
    """

    __slots__ = ("_gzipped", "_parts", "body")

    def __init__(self, body: str) -> None:
        self.body = body.encode()
        self._gzipped: bytes | None = None
        self._parts: list[bytes] | None = None

    def text(self) -> str:
        return self.body.decode()

    @property
    def weight(self) -> int:
        """Bytes counted against ``PAGE_CACHE_BYTES``: the body and an allowance for its gzip."""
        return len(self.body) + len(self.body) // 4

    def gzipped(self) -> bytes:
        """The gzip of the body; made once."""
        # Two threads may both compress it once; either result is the same bytes.
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.body, compresslevel=GZIP_LEVEL, mtime=0)
        return self._gzipped

    def gzipped_with(self, token: bytes, filled: bytes) -> bytes:
        """The gzip of the body with ``token`` in each CSRF placeholder's place; the rest made once.

        A page with a form carries a new token in every response, and compressing such a page
        (the scorer's game page) afresh each time cost its worker about a sixth of its time.  The
        parts between the placeholders are compressed once, each a run of deflate blocks of its
        own that refers to nothing before it and ends on a byte (``_deflated``); the token goes
        between them as a stored block, not compressed, so that the secret is never compressed
        together with the page either (BREACH).  One valid gzip stream, checksum and size its own.
        ``filled``: the body with the token in place (the response's bytes, checked by the caller).
        """
        if self._parts is None:
            self._parts = _deflated(self.body.split(CSRF_PLACEHOLDER_BYTES))
        stored = b"\x00" + struct.pack("<HH", len(token), len(token) ^ 0xFFFF) + token  # not the last block
        trailer = struct.pack("<II", zlib.crc32(filled), len(filled) & 0xFFFFFFFF)
        return GZIP_HEADER + stored.join(self._parts) + trailer


#: gzip's header as ``gzip.compress(..., mtime=0)`` writes it: deflate, no name, no time, any system.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _deflated(parts: list[bytes]) -> list[bytes]:
    """Each part as raw deflate blocks that refer to nothing outside it; all but the last end
    with a sync flush (on a byte, not final), so that other blocks may go between them."""
    deflated = []
    for number, part in enumerate(parts):
        compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        last = number == len(parts) - 1
        deflated.append(
            compressor.compress(part) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
        )
    return deflated


class Lru(Generic[V]):
    """A small thread-safe LRU, the least recently used dropped first.

    At most ``size`` entries and, with ``weigh``, at most ``max_weight`` of their weights in all
    (an entry heavier than that is not kept).
    """

    def __init__(self, size: int, max_weight: int = 0, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.max_weight = max_weight if weigh is not None else 0
        self._weigh = weigh
        self._weight = 0
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def weight(self) -> int:
        """The weights of the entries kept, in all (0 without ``weigh``)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: V) -> None:
        if self.size <= 0:
            return
        weight = self._weigh(value) if self._weigh is not None else 0
        with self._lock:
            self._drop(key)
            if self.max_weight and weight > self.max_weight:
                return
            self._entries[key] = (value, weight)
            self._weight += weight
            while len(self._entries) > self.size or (self.max_weight and self._weight > self.max_weight):
                _, (_, dropped) = self._entries.popitem(last=False)
                self._weight -= dropped

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0

    def _drop(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._weight -= entry[1]


class PageCache(Lru[Kept]):
    """Rendered bodies, kept as ``Kept``: at most ``size`` of them and ``max_bytes`` of their weight."""

    def __init__(self, size: int, max_bytes: int) -> None:
        super().__init__(size, max_bytes, lambda kept: kept.weight)

    def keep(self, key: Hashable, body: str) -> Kept | None:
        if self.size <= 0:
            return None
        kept = Kept(body)
        self.put(key, kept)
        return kept


def init_app(app: Flask) -> None:
    app.config.setdefault("PAGE_CACHE_SIZE", DEFAULT_SIZE)
    app.config.setdefault("PAGE_CACHE_BYTES", DEFAULT_BYTES)
    app.config.setdefault("CLUB_PAGE_SETTLE_SECONDS", settle_seconds(app.config.get("LOCK_TIMEOUT_MS")))
    app.add_template_global(page_address)
    app.extensions["scorekeeper_page_cache"] = PageCache(
        int(app.config["PAGE_CACHE_SIZE"]), int(app.config["PAGE_CACHE_BYTES"])
    )


def settle_seconds(lock_timeout_ms: int | None = None) -> float:
    """How long the club must be quiet before its pages are kept: longer than any write can take.

    A write stamps its time, may wait twice for a lock (the claim, then the totals), then commits.
    """
    return 2 * int(lock_timeout_ms or LOCK_TIMEOUT_MS) / 1000 + 5


def _cache() -> PageCache:
    cache: PageCache = current_app.extensions["scorekeeper_page_cache"]
    return cache


def usable(address: str) -> bool:
    """Whether this request may use the cache: ask before rendering (rendering takes the flashes).

    ``address`` is the page's own, as its key names it (``drawn_at``).
    """
    drawn_at(address)
    # Flashed messages belong to one visit: such a page is rendered, and not kept.
    return _cache().size > 0 and "_flashes" not in session


def drawn_at(address: str) -> None:
    """The address of the page this request draws (path and query), for ``page_address``."""
    g.page_address = address


def page_address() -> str:
    """The address of the page being drawn, where the language switch brings a visitor back.

    A page that may be kept gives it (``usable``, ``drawn_at``) from what its key holds: the game
    and its scoresheet their bare path, whatever query came with the request, a club page the
    path and query it is kept for.  Any other page is drawn for its visitor alone: the request's.
    """
    address: str | None = g.get("page_address")
    return address if address is not None else request.full_path.rstrip("?")


def cached(key: Hashable) -> str | None:
    """The kept body for ``key``, with this request's CSRF token filled in; None when there is none.

    Call only when ``usable()`` said so for this request.
    """
    kept = _cache().get((current_language(), key))
    if kept is None:
        return None
    body = kept.text()
    g.kept_page = kept
    if CSRF_PLACEHOLDER in body:
        token = generate_csrf()
        g.kept_token = token.encode()
        return body.replace(CSRF_PLACEHOLDER, token)
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
    kept = _cache().keep((current_language(), key), body)
    if kept is not None:
        g.kept_page = kept
        if token and CSRF_PLACEHOLDER in body:
            g.kept_token = token.encode()


def kept_gzip(body: bytes) -> bytes | None:
    """The kept gzip of ``body`` when it is the page this request served from (or kept in) the cache,
    its form token filled in (``Kept.gzipped_with``).

    The bytes are compared, so a response that is not exactly the kept page is compressed afresh.
    """
    kept: Kept | None = g.get("kept_page")
    if kept is None:
        return None
    token: bytes | None = g.get("kept_token")
    if token is None:
        return kept.gzipped() if body == kept.body else None
    if body != kept.body.replace(CSRF_PLACEHOLDER_BYTES, token):
        return None
    return kept.gzipped_with(token, body)


def club_page(
    latest_write: datetime | None,
    today: date,
    now: datetime,
    render: Callable[[], str],
    variant: Hashable = None,
) -> str:
    """A club page (home, rankings, a player): kept for this URL while no game is written.

    ``latest_write`` is the club's latest write (None: no game yet), ``today`` the date the
    periods count from; ``render`` renders the page afresh.  The copy is kept only when
    the club has been quiet long enough that no earlier-stamped write can still commit.
    ``variant`` names what else the page depends on (who is looking: the administrator or not).
    """
    settle = timedelta(seconds=float(current_app.config["CLUB_PAGE_SETTLE_SECONDS"]))
    settled = latest_write is None or now - latest_write >= settle
    address = request.full_path.rstrip("?")
    reusable = usable(address) and settled
    key = ("club", address, request.url_root, latest_write, today, variant)
    body = cached(key) if reusable else None
    if body is None:
        body = render()
        if reusable:
            keep(key, body)
    return body
