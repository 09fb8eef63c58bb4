"""Kept pages (Flask-Caching): what names each copy, and the one hook that drops what a write spoils.

Two kinds of pages are kept, whole, as rendered:

- A game's page for watchers, its scoresheet and the API's game state, named by the game's id and
  ``version``.  Every write that changes what they show (a deal, a player's name) bumps the version
  in the same transaction, so such a copy is never stale, only unused (it ages out).
- The club's pages (home, the rankings, a player's page), named by **tags**: short random strings
  kept in the cache, one per thing a page shows that a write may change (``HOME``: the list of
  games; ``PLAYER``: one player's games, in progress too; ``PLAYERS``: every player's page;
  ``STANDINGS``: every finished game's figures and every name).  A write says what it changed with ``changed``; once its transaction
  commits, the hook drops those tags, and the next view names (and renders) a new copy.  A busy
  club keeps serving its rankings from the cache while games in progress are written.

Copies live where ``CACHE_TYPE`` says (``config.cache_defaults``): in each process's memory, with
the tags in files of the instance folder that every process of the server reads; or both in
Redis, shared by every app server.  A tag is read before anything of the page is, so a copy is
never named by a tag newer than what it shows.

A kept page holds nothing of one visitor: a page with flashed messages waiting is neither served
from nor kept in the cache, a page with a form (its CSRF token) is never kept (the scorer's game
page is rendered for each request), and a copy's key names the language, the host, the day (the
rankings' periods count from it) and the address: a club page's with its query string, so it is
served only to that same address, a game's without (``page_address`` draws its bare path).
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

#: The kept pages.
cache = Cache(with_jinja2_ext=False)
#: The tags that name the current copies of the club's pages: shared by every process.
tags = Cache(with_jinja2_ext=False)

HOME = "home"
PLAYERS = "players"
PLAYER = "player-{player_id}"
STANDINGS = "standings"
_NOTES = "scorekeeper_changed"  # in db.session.info: the tags a transaction's writes spoil


def init_app(app: Flask) -> None:
    cache.init_app(app)
    tags.init_app(app, config=dict(app.config["CACHE_TAGS"]))
    app.add_template_global(page_address)


# -- what a write changed --------------------------------------------------------------------------


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


# -- serving kept pages ----------------------------------------------------------------------------


def keepable() -> bool:
    """Whether this request may be served from, and kept in, the cache: not while flashed messages
    wait (they belong to one visit and to the page that shows them)."""
    return "_flashes" not in session


def _key(*parts: Hashable) -> str:
    return repr((current_language(), request.url_root, *parts))


def club_page(
    *names: str, bypass: Callable[[], bool] | None = None, variant: Callable[[], Hashable] = str
) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """A club page's view (returning its body), kept until a write changes one of ``names``' tags.

    A name may hold the view's arguments (``PLAYER``: ``{player_id}``).  ``bypass``: when true,
    the page is this visitor's alone (rendered, never kept); ``variant``: what else the page
    depends on (who is looking).
    """

    def decorate(view: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(view)
        def kept(*args: Any, **kwargs: Any) -> str:
            # The tags first: whatever the page shows is read after them.  A read the request
            # began before them (a cookie taken over) may be older: then the page is not kept.
            stamp = current_tags(*(name.format(**kwargs) for name in names))
            fresh = not db.session().in_transaction()
            if not keepable() or (bypass is not None and bypass()):
                return view(*args, **kwargs)
            key = _key("club", request.full_path, today(), variant(), stamp)
            body = cache.get(key)
            if body is None:
                body = view(*args, **kwargs)
                if fresh:
                    keep(key, body)
            return str(body)

        return kept

    return decorate


def kept(key: tuple[Hashable, ...]) -> str | None:
    """The copy kept for ``key`` (a game's page by its version) in this request's language and host."""
    body = cache.get(_key(*key))
    return None if body is None else str(body)


def keep(key: tuple[Hashable, ...] | str, body: str) -> None:
    """Keep ``body`` for ``key``, unless it carries a form's token (one visitor's)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if f'name="{field}"' in body:
        return
    cache.set(key if isinstance(key, str) else _key(*key), body)


def drawn_at(address: str) -> None:
    """The address of the page this request draws, as its copy's key names it (``page_address``)."""
    g.page_address = address


def page_address() -> str:
    """The address of the page being drawn, where the language switch brings a visitor back.

    A game's pages give their bare path (``drawn_at``), whatever query came with the request; any
    other page the request's path and query, which a club page's key names.
    """
    address: str | None = g.get("page_address")
    return address if address is not None else request.full_path.rstrip("?")
