"""Words a person reads, as the engine says them: English message ids, said again at the edge.

The engine stays free of Flask and Babel: it marks its sentences with ``N_`` (a no-op that
``pybabel extract`` finds, so the catalogs hold them) and a count with its noun with ``n_``
(extracted as a plural entry), and says them in English; the app says them in the reader's
language through a ``Speech`` of its own (``scorekeeper.messages``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it (the engine speaks English)."""
    return message


class InContext(str):
    """A message id said in a context of its own (``pgettext``): one English word that two games
    translate apart ("Trumps": one game's trump deal, another's trumps contract).  A plain ``str``
    everywhere else; the edge reads its ``context``."""

    context: str


def NC_(context: str, message: str) -> str:
    """Mark ``message`` for translation in ``context`` (extracted with its ``msgctxt``), as ``N_``
    marks one without: the engine speaks English, the edge says it in its context."""
    word = InContext(message)
    word.context = context
    return word


def context_of(message: str) -> str | None:
    """The context a message id is said in (``NC_``), None for one without."""
    return getattr(message, "context", None)


@dataclass(frozen=True)
class Plural:
    """A count said with its noun, in the reader's plural form: ``%(num)d`` in the forms is the count."""

    singular: str
    plural: str
    count: int


def n_(singular: str, plural: str, count: int) -> Plural:
    """Mark a count's forms for translation (a plural entry); a refusal's param says it."""
    return Plural(singular, plural, count)


@dataclass(frozen=True)
class Term:
    """A word of the game (a contract, an option, a game's name): its ``id`` and English ``label``.

    The label is a message id: in a refusal's params a term is said as its label, in the
    reader's language.
    """

    id: str
    label: str


def english_list(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cid"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class Speech:
    """How to say a message: translate a message id, say a count with its noun, join a list of names."""

    translate: Callable[[str], str]
    plural: Callable[[Plural], str]
    """The count's form for the reader's language, its ``%(num)d`` filled in."""
    join: Callable[[Sequence[str]], str]


def english_plural(count: Plural) -> str:
    return (count.singular if count.count == 1 else count.plural) % {"num": count.count}


#: The engine's own language.
ENGLISH = Speech(translate=lambda message: message, plural=english_plural, join=english_list)
