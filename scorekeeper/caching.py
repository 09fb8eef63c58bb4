"""Cached pages (Flask-Caching): the key of each copy, read from the database, never from the cache.

A game's pages (watcher's page, scoresheet, API state) are keyed by the game's ``version``, which
every write that changes them bumps in the same transaction.  The club's pages are keyed by the
versions of their **names** in ``page_versions``: ``HOME``, one ``PLAYER``'s page, every player's
page (``PLAYERS``), the rankings (``STANDINGS``); a write names those it changes with ``changed``
and they are bumped in its own transaction, the last rows it locks.  So a copy is never stale,
only unused, and nothing is ever deleted from the cache: a write that commits is answered as
committed, and once the cache (Redis) answers again after an outage, no copy older than the last
write is served.  The cache is only a help: when it fails, the page is drawn afresh (and a warning
logged).  The versions are read before anything of the page, so a copy is never keyed by a version
newer than what it shows.  A cached page holds nothing of one visitor (no flashed messages, no form
token; its key names the language, host, day and address); a club page is cached only at its
canonical address, each query parameter one the page knows with one of its values: any other
query is drawn afresh, so no client can add keys at will.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from typing import Any

from flask import Flask, current_app, g, request, session, url_for
from flask_caching import Cache
from redis import RedisError
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from .extensions import db
from .i18n import current_language
from .models import PageVersion, today

logger = logging.getLogger(__name__)
#: The cached pages.
cache = Cache(with_jinja2_ext=False)

HOME = "home"  # the list of games
PLAYER = "player-{player_id}"  # one player's page: their games, in progress too
PLAYERS = "players"  # every player's page
STANDINGS = "standings"  # every finished game's figures, and every name
_NOTES = "scorekeeper_changed"  # in db.session.info: the names a transaction's writes change


def init_app(app: Flask) -> None:
    cache.init_app(app)
    app.add_template_global(page_address)


def changed(*, players: Iterable[int] = (), standings: bool = False) -> None:
    """Note that the current transaction changes a game: the home page's list and the pages of
    its ``players``; with ``standings`` (a game finished, a finished game changed, a name), the
    rankings and every player's page.  Their versions are bumped when it commits."""
    notes: set[str] = db.session.info.setdefault(_NOTES, set())
    notes.add(HOME)
    notes.update(PLAYER.format(player_id=player_id) for player_id in players)
    if standings:
        notes.update((STANDINGS, PLAYERS))


def _before_commit(session: Any) -> None:
    notes = session.info.pop(_NOTES, None)
    if notes:
        # Last, in one order: a write locks these rows after all its others, so two never wait
        # on each other.
        session.flush()
        dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
        bump = dialect.insert(PageVersion).values([{"name": name, "version": 1} for name in sorted(notes)])
        session.execute(
            bump.on_conflict_do_update(index_elements=["name"], set_={"version": PageVersion.version + 1})
        )


def _after_rollback(session: Any) -> None:
    session.info.pop(_NOTES, None)


db.event.listen(db.session, "before_commit", _before_commit)
db.event.listen(db.session, "after_rollback", _after_rollback)


def versions(*names: str) -> tuple[int, ...]:
    """The version of each name (0 where no write changed it yet), from one query."""
    query = select(PageVersion.name, PageVersion.version).where(PageVersion.name.in_(names))
    found: dict[str, int] = {name: version for name, version in db.session.execute(query)}
    return tuple(found.get(name, 0) for name in names)


def cacheable() -> bool:
    """Whether this request may use the cache: not while flashed messages wait (they belong to
    one visit)."""
    return "_flashes" not in session


def canonical_address(query: Mapping[str, Collection[str]]) -> str | None:
    """The request's address in one spelling when each of its query parameters is in ``query``,
    once, with one of the values listed there; None otherwise."""
    args = request.args
    for name in args:
        if name not in query or len(args.getlist(name)) > 1 or args[name] not in query[name]:
            return None
    values: dict[str, Any] = {**(request.view_args or {}), **dict(sorted(args.items()))}
    return url_for(str(request.endpoint), **values)


def _key(*parts: Hashable) -> str:
    return repr((current_language(), request.url_root, *parts))


def club_page(
    *names: str,
    query: Mapping[str, Collection[str]] | None = None,
    bypass: Callable[[], bool] | None = None,
    variant: Callable[[], Hashable] = str,
) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Cache a club page's view until a write changes one of ``names``' versions.

    A name may hold the view's arguments (``PLAYER``: ``{player_id}``).  ``query``: the query
    parameters the page reads, each with the values that are cached (any other query: drawn
    afresh, ``canonical_address``); ``bypass``: when true, the page is this visitor's alone
    (never cached); ``variant``: what else the page depends on (who is looking).
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
            key = _key("club", address, today(), variant(), stamp)
            body = _get(key)
            if body is None:
                body = view(*args, **kwargs)
                if fresh:
                    put(key, body)
            return str(body)

        return cached_view

    return decorate


def _get(key: str) -> Any:
    try:
        return cache.get(key)
    except RedisError as error:
        logger.warning("The page cache did not answer (%s): the page is drawn afresh.", error)
        return None


def cached(key: tuple[Hashable, ...]) -> str | None:
    """The copy cached for ``key`` (a game's page by its version) in this request's language and host."""
    body = _get(_key(*key))
    return None if body is None else str(body)


def put(key: tuple[Hashable, ...] | str, body: str) -> None:
    """Cache ``body`` for ``key``, unless it carries a form's token (one visitor's)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if f'name="{field}"' in body:
        return
    try:
        cache.set(key if isinstance(key, str) else _key(*key), body)
    except RedisError as error:
        logger.warning("The page cache did not answer (%s): the page is not kept.", error)


def drawn_at(address: str) -> None:
    """The address of the page this request draws, as its copy's key names it (``page_address``)."""
    g.page_address = address


def page_address() -> str:
    """The address of the page being drawn, where the language switch brings a visitor back: a
    game's bare path (``drawn_at``), else the request's path and query."""
    address: str | None = g.get("page_address")
    return address if address is not None else request.full_path.rstrip("?")
