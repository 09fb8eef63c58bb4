"""Cached pages (Flask-Caching), each keyed by versions read from the database, never from the cache.

A game's pages (watcher's page, scoresheet, API state) by the game's ``version``; the club's pages
by the versions of their names in ``page_versions``: ``HOME``, one ``PLAYER``'s page, every
player's page (``PLAYERS``), the rankings (``STANDINGS``), the club nights (``NIGHTS``), which a
write's ``game_changed`` names
(``changed`` listens) and bumps in its own transaction.  A copy is never stale, only unused;
nothing is ever deleted, so a write never fails with the cache, and no copy older than the last
write is served once Redis answers again.  A cache that fails is skipped (the page drawn
afresh).  The versions are read before the page, so a copy is never keyed newer than what it
shows.  A cached page holds nothing of one visitor; its key names the language, host, day and
canonical address (``limits``).
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from typing import Any

from flask import Flask, current_app, g, request, session
from flask_caching import Cache
from redis import RedisError
from sqlalchemy import bindparam, func, select, text

from .extensions import db, game_changed
from .i18n import current_language
from .limits import canonical_address
from .models import PageVersion, today

logger = logging.getLogger(__name__)
#: The cached pages.
cache = Cache(with_jinja2_ext=False)

HOME = "home"  # the list of games
PLAYER = "player-{player_id}"  # one player's page: their games, in progress too
PLAYERS = "players"  # every player's page
STANDINGS = "standings"  # every finished game's figures, and every name
NIGHTS = "nights"  # every club night's players, rounds and tables (its standings move with HOME)
_NOTES = "scorekeeper_changed"  # in db.session.info: the names a transaction's writes change


def init_app(app: Flask) -> None:
    cache.init_app(app)
    app.add_template_global(page_address)


def changed(
    _sender: object = None, *, players: Iterable[int] = (), standings: bool = False, nights: bool = False
) -> None:
    """Note that the current transaction changes a game (``game_changed``, which every write sends):
    the home page's list and the pages of its ``players``; with ``standings`` (a game finished, a
    finished game changed, a name), the rankings and every player's page; with ``nights`` (a club
    night's write), the nights' and seasons' pages.  Their versions are bumped when it commits.
    A night's and a season's pages are keyed by ``HOME`` too: a deal at a night's table moves its
    standings."""
    notes: set[str] = db.session.info.setdefault(_NOTES, set())
    notes.add(HOME)
    notes.update(PLAYER.format(player_id=player_id) for player_id in players)
    if standings:
        notes.update((STANDINGS, PLAYERS))
    if nights:
        notes.add(NIGHTS)


def _before_commit(session: Any) -> None:
    notes = session.info.pop(_NOTES, None)
    if notes:
        session.flush()  # the last rows a write locks, in one order: two writes never wait in a ring
        shard = secrets.randbelow(PageVersion.SHARDS)
        session.execute(_BUMP, [{"name": name, "shard": shard} for name in sorted(notes)])


#: A name's version bumped in one of its shards (made at its first write).  Written out, in the words
#: SQLite and PostgreSQL share: SQLAlchemy's ON CONFLICT construct has no cache key, so it was compiled
#: again for every write.  Run once per name (executemany), in the names' order.
_BUMP = text(
    f"INSERT INTO {PageVersion.__tablename__} (name, shard, version) VALUES (:name, :shard, 1)"
    f" ON CONFLICT (name, shard) DO UPDATE SET version = {PageVersion.__tablename__}.version + 1"
)


def _after_rollback(session: Any) -> None:
    session.info.pop(_NOTES, None)


game_changed.connect(changed)
db.event.listen(db.session, "before_commit", _before_commit)
db.event.listen(db.session, "after_rollback", _after_rollback)


def versions(*names: str) -> tuple[int, ...]:
    """The version of each name (0 where no write changed it yet), from one query."""
    found = {name: int(total) for name, total in db.session.connection().execute(_VERSIONS, {"names": names})}
    return tuple(found.get(name, 0) for name in names)


#: Built once: every club page reads it, and building it cost as much as running it.
_VERSIONS = (
    select(PageVersion.name, func.sum(PageVersion.version))
    .where(PageVersion.name.in_(bindparam("names", expanding=True)))
    .group_by(PageVersion.name)
)


def cacheable() -> bool:
    """Whether this request may use the cache: not while flashed messages wait (they belong to
    one visit)."""
    return "_flashes" not in session


def _key(*parts: Hashable) -> str:
    return repr((current_language(), request.url_root, *parts))


def club_page(
    *names: str,
    query: Mapping[str, Collection[str]] | None = None,
    bypass: Callable[[], bool] | None = None,
    variant: Callable[[], Hashable] = str,
) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Cache a club page's view until a write changes one of ``names``' versions.

    A name may hold the view's arguments (``PLAYER``: ``{player_id}``).  ``query``: the values of
    each query parameter that are cached (``limits.canonical_address``); ``bypass``: when true,
    the page is this visitor's alone; ``variant``: what else the page depends on (who is looking).
    """

    def decorate(view: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(view)
        def cached_view(*args: Any, **kwargs: Any) -> str:
            address = canonical_address(query or {})
            if address is None or not cacheable():
                return view(*args, **kwargs)
            # The versions first: whatever the page shows is read after them.  A read the request
            # began before them (a cookie taken over) may be older: then the page is not cached.
            fresh = not db.session().in_transaction()
            if bypass is not None and bypass():
                return view(*args, **kwargs)
            stamp = versions(*(name.format(**kwargs) for name in names))
            drawn_at(address)
            key = ("club", address, today(), variant(), stamp)
            body = cached(key)
            if body is None:
                body = view(*args, **kwargs)
                if not (fresh and put(key, body)):
                    return str(body)
            g.page_copy = key  # the body is the copy cached for the key: so is its gzipped copy
            return str(body)

        return cached_view

    return decorate


def cached(key: tuple[Hashable, ...]) -> str | None:
    """The copy cached for ``key`` (a game's page by its version) in this request's language and
    host; None when there is none, or the cache does not answer."""
    try:
        body = cache.get(_key(*key))
    except RedisError as error:
        logger.warning("The page cache did not answer (%s): the page is drawn afresh.", error)
        g.cache_failed = True  # not asked again by this request: a second wait for nothing
        return None
    return None if body is None else str(body)


def put(key: tuple[Hashable, ...], body: str | bytes) -> bool:
    """Cache ``body`` for ``key``, unless it carries a form's token (one visitor's); whether it did."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if (isinstance(body, str) and f'name="{field}"' in body) or g.get("cache_failed"):
        return False
    try:
        cache.set(_key(*key), body)
    except RedisError as error:
        logger.warning("The page cache did not answer (%s): the page is not cached.", error)
        return False
    return True


def gzipped_copy(key: tuple[Hashable, ...]) -> bytes | None:
    """The gzipped copy cached beside the club page cached for ``key`` (``page_copy``), if any."""
    try:
        body = cache.get(_key("gzip", *key))
    except RedisError:
        return None
    return body if isinstance(body, bytes) else None


def page_copy() -> tuple[Hashable, ...] | None:
    """The key of the cached club page this request answers with, as it is cached (``club_page``)."""
    key: tuple[Hashable, ...] | None = g.get("page_copy")
    return key


def drawn_at(address: str) -> None:
    """The address of the page this request draws, as its copy's key names it (``page_address``)."""
    g.page_address = address


def page_address() -> str:
    """The address of the page being drawn, where the language switch brings a visitor back: a
    game's bare path (``drawn_at``), else the request's path and query."""
    address: str | None = g.get("page_address")
    return address if address is not None else request.full_path.rstrip("?")
