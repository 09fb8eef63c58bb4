"""The app's words in the request's language: refusals said at the edge, and the game's terms.

The rules engine and the services speak English message ids with their values
(``Refusal.template`` and ``Refusal.params``); the pages, their forms and flashes, and the
JSON API's error bodies all say a refusal through ``say``, the one place a refusal becomes
text.  ``term`` says a word of the game (a contract's label, a game's name, an option).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel import Locale
from babel.lists import format_list
from flask import has_request_context
from flask_babel import get_locale, ngettext

from .i18n import translations
from .rules import ENGLISH, Notice, Plural, Refusal, Speech, Term, english_list
from .rules.words import context_of


def translate(message: str) -> str:
    """A message id in the request's language, in its own context where it has one (``NC_``: a word
    two games translate apart); the pages' ``_`` and every word of the game go through it."""
    context = context_of(message)
    catalog = translations()  # (Flask-Babel's gettext finds the catalog again for each word)
    return str(catalog.upgettext(context, message) if context else catalog.ugettext(message))


def speech() -> Speech:
    """The request's language, as the engine's ``Speech``: gettext, and the language's way of listing names.

    English lists keep the engine's own form ("Ann, Bob and Cid"); outside a request, English.
    """
    locale = get_locale() if has_request_context() else None
    if locale is None:
        return ENGLISH
    return Speech(translate=translate, plural=say_count, join=lambda items: join_names(items, locale))


def say_count(count: Plural) -> str:
    """A count with its noun in the request's language ("2 games", "2 gry", "5 gier")."""
    return str(ngettext(count.singular, count.plural, count.count))


def join_names(items: Sequence[str], locale: Locale | None = None) -> str:
    """Names as a list in ``locale``'s language (the request's): "Ann, Bob and Cid", "Ann, Bob i Cid"."""
    if locale is None:
        locale = get_locale() if has_request_context() else None
    if locale is None or locale.language == "en":
        return english_list(items)
    return format_list(list(items), locale=locale)


def say(refused: Refusal) -> str:
    """``refused`` in the request's language: its template translated, its params put in.

    Params that are words of the game (a contract, a game's name, an option: ``Term``s) are
    said translated too, names in a list are joined as the language joins them, and a
    refusal given as a param ("Deal 3: ...") is said the same way.
    """
    return refused.say(speech())


def term(word: Term | str) -> str:
    """A word of the game (a ``Term``, or a label that is a message id) in the request's language."""
    return translate(word.label if isinstance(word, Term) else word)


def say_notice(notice: Notice, players: Sequence[str]) -> str:
    """What a ruleset tells the table (a warning, a reminder) in the request's language, with names."""
    return translate(notice.message) % notice.params(players)


@dataclass(frozen=True)
class Shown:
    """What a page shows of a refusal: its code, its field and its message in the reader's language."""

    code: str
    field: str | None
    message: str
    seat: int | None = None
    """The one seat of a list of inputs (a game's players) the refusal concerns, when it says so."""


def shown(refused: Refusal | None) -> Shown | None:
    """``refused`` as a page shows it (None stays None)."""
    if refused is None:
        return None
    seat = refused.params.get("seat")
    return Shown(refused.code, refused.field, say(refused), seat if isinstance(seat, int) else None)
