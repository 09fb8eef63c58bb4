"""Cached pages (Flask-Caching): the key of each copy, and the hook that drops what a write spoils.

A game's pages (watcher's page, scoresheet, API state) are keyed by the game's ``version``, which
every write that changes them bumps in the same transaction: a copy is never stale, only unused.
The club's pages are keyed by **tags**, random strings in the ``tags`` cache (shared by every
process: instance-folder files or Redis): ``HOME``, one ``PLAYER``'s page, every player's page
(``PLAYERS``), the rankings (``STANDINGS``); a write names the tags it spoils with ``changed`` and
they are dropped once it commits.  A tag is read before anything of the page, so a copy is never
keyed by a tag newer than what it shows.  A cached page holds nothing of one visitor: no flashed
messages, no form token, and its key names the language, host, day and address.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from flask import Flask, current_app, g, request, session
from flask_caching import Cache

from .extensions import db
from .i18n import current_language
from .models import today

#: The cached pages.
cache = Cache(with_jinja2_ext=False)
#: The current tags of the club's pages: shared by every process.
tags = Cache(with_jinja2_ext=False)

HOME = "home"  # the list of games
PLAYER = "player-{player_id}"  # one player's page: their games, in progress too
PLAYERS = "players"  # every player's page
STANDINGS = "standings"  # every finished game's figures, and every name
_NOTES = "scorekeeper_changed"  # in db.session.info: the tags a transaction's writes spoil


def init_app(app: Flask) -> None:
    cache.init_app(app)
    tags.init_app(app, config=dict(app.config["CACHE_TAGS"]))
    app.add_template_global(page_address)


def changed(*, players: Iterable[int] = (), standings: bool = False) -> None:
    """Note that the current transaction changes a game: the home page's list and the pages of
    its ``players``; with ``standings`` (a game finished, a finished game changed, a name), the
    rankings and every player's page.  The copies go once the transaction commits; on a rollback
    nothing does."""
    notes: set[str] = db.session.info.setdefault(_NOTES, set())
    notes.add(HOME)
    notes.update(PLAYER.format(player_id=player_id) for player_id in players)
    if standings:
        notes.update((STANDINGS, PLAYERS))


def _after_commit(session: Any) -> None:
    notes = session.info.pop(_NOTES, None)
    if notes:
        tags.delete_many(*notes)


def _after_rollback(session: Any) -> None:
    session.info.pop(_NOTES, None)


db.event.listen(db.session, "after_commit", _after_commit)
db.event.listen(db.session, "after_rollback", _after_rollback)


def current_tags(*names: str) -> tuple[str, ...]:
    """The current tag of each name, a new one where there is none."""
    found = tags.get_many(*names)
    current = []
    for name, tag in zip(names, found, strict=True):
        if tag is None:
            tag = secrets.token_hex(8)
            tags.set(name, tag)
        current.append(str(tag))
    return tuple(current)


def cacheable() -> bool:
    """Whether this request may use the cache: not while flashed messages wait (they belong to
    one visit)."""
    return "_flashes" not in session


def _key(*parts: Hashable) -> str:
    return repr((current_language(), request.url_root, *parts))


def club_page(
    *names: str, bypass: Callable[[], bool] | None = None, variant: Callable[[], Hashable] = str
) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Cache a club page's view until a write changes one of ``names``' tags.

    A name may hold the view's arguments (``PLAYER``: ``{player_id}``).  ``bypass``: when true,
    the page is this visitor's alone (never cached); ``variant``: what else the page depends on
    (who is looking).
    """

    def decorate(view: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(view)
        def cached_view(*args: Any, **kwargs: Any) -> str:
            # The tags first: whatever the page shows is read after them.  A read the request
            # began before them (a cookie taken over) may be older: then the page is not cached.
            stamp = current_tags(*(name.format(**kwargs) for name in names))
            fresh = not db.session().in_transaction()
            if not cacheable() or (bypass is not None and bypass()):
                return view(*args, **kwargs)
            key = _key("club", request.full_path, today(), variant(), stamp)
            body = cache.get(key)
            if body is None:
                body = view(*args, **kwargs)
                if fresh:
                    put(key, body)
            return str(body)

        return cached_view

    return decorate


def cached(key: tuple[Hashable, ...]) -> str | None:
    """The copy cached for ``key`` (a game's page by its version) in this request's language and host."""
    body = cache.get(_key(*key))
    return None if body is None else str(body)


def put(key: tuple[Hashable, ...] | str, body: str) -> None:
    """Cache ``body`` for ``key``, unless it carries a form's token (one visitor's)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if f'name="{field}"' in body:
        return
    cache.set(key if isinstance(key, str) else _key(*key), body)


def drawn_at(address: str) -> None:
    """The address of the page this request draws, as its copy's key names it (``page_address``)."""
    g.page_address = address


def page_address() -> str:
    """The address of the page being drawn, where the language switch brings a visitor back: a
    game's bare path (``drawn_at``), else the request's path and query."""
    address: str | None = g.get("page_address")
    return address if address is not None else request.full_path.rstrip("?")
