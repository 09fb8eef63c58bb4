"""What a page says, and where each piece came from: the catalog's msgids, data, or neither.

- ``english_catalog()`` extracts the msgids from the sources exactly as ``make translations`` does
  (babel.cfg, the same keywords), so it needs no regenerated ``messages.pot``.
- ``traced(app)`` renders pages with every translated string between two invisible marks (any
  gettext, the templates' and Python's alike) and every other value a template prints between two
  others (data: names, numbers, dates; and what Python hands over). What is left outside both is
  the template's own text: if it has a letter, it never went through gettext. A template written
  once per language (``web/rules/pl.html``) is a translation as a whole; the app's name is a name.
- ``visible_strings(html)`` is what a person reads or hears: the text (scripts and styles left out)
  and the attributes read out or shown (title, aria-label, alt, placeholder, the description).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from flask import Flask
from jinja2 import BaseLoader, Environment
from markupsafe import Markup

from scorekeeper.i18n import LANGUAGES
from tests.helpers import Node, parse_html

ROOT = Path(__file__).resolve().parents[2]
# As the Makefile's `translations` target passes them to pybabel extract.
EXTRA_KEYWORDS = {"_l": None, "lazy_gettext": None, "N_": None}

GETTEXT_OPEN, GETTEXT_CLOSE = "\ue000", "\ue001"
DATA_OPEN, DATA_CLOSE = "\ue002", "\ue003"
MARKS = GETTEXT_OPEN + GETTEXT_CLOSE + DATA_OPEN + DATA_CLOSE
ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
LETTER = re.compile(r"[^\W\d_]")
#: The app's name: a name, written as it is in every language, like a player's.
BRAND = re.compile(r"(?<!\w)Scorekeeper(?!\w)")
#: A template written once per language, chosen by the request's language: a translation itself.
PER_LANGUAGE = re.compile(rf"(^|/)({'|'.join(LANGUAGES)})\.html$")


@cache
def english_catalog() -> frozenset[str]:
    """Every msgid (plural forms included) the sources hold, as ``make translations`` extracts them."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, **EXTRA_KEYWORDS}
    msgids: set[str] = set()
    for path in sorted(ROOT.glob("scorekeeper/**/*.py")) + sorted(ROOT.glob("templates/**/*.html")):
        relative = path.relative_to(ROOT).as_posix()
        for pattern, method in method_map:
            if _matches(pattern, relative):
                options = dict(options_map.get(pattern, {}))
                for _, message, _, _ in extract_from_file(method, str(path), keywords, ("NOTE",), options):
                    msgids.update([message] if isinstance(message, str) else [m for m in message if m])
                break
    return frozenset(msgids)


def _matches(pattern: str, path: str) -> bool:
    from babel.util import pathmatch

    return bool(pathmatch(pattern, path))


@dataclass
class Trace:
    """The msgids asked for while pages were drawn."""

    msgids: set[str] = field(default_factory=set)


class _Traced:
    """Translations that mark what they hand out (and note which msgid was asked for)."""

    def __init__(self, inner: Any, trace: Trace) -> None:
        self.inner, self.trace = inner, trace

    def _mark(self, text: str) -> str:
        return GETTEXT_OPEN + text + GETTEXT_CLOSE

    def ugettext(self, message: str) -> str:
        self.trace.msgids.add(message)
        return self._mark(self.inner.ugettext(message))

    gettext = ugettext

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        self.trace.msgids.update([singular, plural])
        return self._mark(self.inner.ungettext(singular, plural, n))

    ngettext = ungettext

    def upgettext(self, context: str, message: str) -> str:
        self.trace.msgids.add(message)
        return self._mark(self.inner.upgettext(context, message))

    def unpgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        self.trace.msgids.update([singular, plural])
        return self._mark(self.inner.unpgettext(context, singular, plural, n))


class _MacroOutput(Markup):
    """What a template's own macro drew: its text is the template's, judged like any other."""


def _written_in_a_template(value: Any) -> bool:
    """``value`` is a string constant of the template code printing it (``{{ 'Winner' if ... }}``)."""
    if type(value) is not str:
        return False
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        from_template = code.co_filename.endswith(".html") or code.co_filename == "<template>"
        if from_template and any(const is value for const in code.co_consts):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _data(value: Any) -> Any:
    """A value a template prints (finalize): marked as data unless the templates wrote it themselves
    (a macro's output, a string constant)."""
    if isinstance(value, _MacroOutput) or _written_in_a_template(value):
        return value
    if isinstance(value, Markup):
        return Markup(DATA_OPEN) + value + Markup(DATA_CLOSE)
    return DATA_OPEN + str(value) + DATA_CLOSE


class _PerLanguageMarked(BaseLoader):
    """The app's loader, with each per-language template marked as translated from end to end."""

    def __init__(self, inner: BaseLoader) -> None:
        self.inner = inner

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Any]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        if PER_LANGUAGE.search(template):
            source = GETTEXT_OPEN + source + GETTEXT_CLOSE
        return source, filename, uptodate


@contextmanager
def traced(app: Flask, monkeypatch: Any) -> Iterator[Trace]:
    """Draw ``app``'s pages with the marks described above (set before any template is compiled)."""
    import flask_babel
    from jinja2.runtime import Macro

    trace = Trace()
    original: Callable[..., Any] = flask_babel.Domain.get_translations
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: _Traced(original(self), trace))
    invoke: Callable[..., Any] = Macro._invoke
    monkeypatch.setattr(Macro, "_invoke", lambda self, *args: _MacroOutput(invoke(self, *args)))
    app.jinja_env.finalize = _data
    assert app.jinja_env.loader is not None
    app.jinja_env.loader = _PerLanguageMarked(app.jinja_env.loader)
    app.jinja_env.cache = {}  # templates compiled from here on call finalize
    yield trace


def without_marks(html: str) -> str:
    """A traced page as the phone would get it."""
    return html.translate({ord(mark): None for mark in MARKS})


def strings_of(node: Node) -> Iterator[str]:
    """The page's text (one string per text node, in order, scripts and styles left out)."""
    for child in node.children:
        if isinstance(child, str):
            yield child
        elif child.tag not in ("script", "style"):
            yield from strings_of(child)


def attribute_strings(doc: Node) -> Iterator[tuple[str, str]]:
    """(where, value) of each attribute a person reads or hears, the page's description included."""
    for node in doc.iter():
        for name in ATTRIBUTES:
            value = node.attrs.get(name)
            if value:
                yield f"<{node.tag} {name}>", value
        if node.tag == "meta" and node.attrs.get("name") == "description":
            yield "<meta description>", node.attrs.get("content") or ""


def unmarked(text: str) -> list[str]:
    """The pieces of ``text`` outside every mark (translated or data), one per stretch."""
    pieces: list[str] = []
    depth, current = 0, []
    for char in text:
        if char in (GETTEXT_OPEN, DATA_OPEN):
            depth += 1
        elif char in (GETTEXT_CLOSE, DATA_CLOSE):
            depth -= 1
            assert depth >= 0, f"a mark closes that never opened in {text!r}"
        elif depth == 0:
            current.append(char)
            continue
        pieces.append("".join(current))
        current = []
    pieces.append("".join(current))
    pieces = [" ".join(BRAND.sub("", piece).split()) for piece in pieces]
    return [piece for piece in pieces if LETTER.search(piece)]


def untranslatable_texts(html: str) -> list[str]:
    """Every text of a traced page a person reads that is neither a translation nor data."""
    doc = parse_html(html)
    found = [f"text: {piece!r}" for piece in unmarked("\n".join(strings_of(doc)))]
    for where, value in attribute_strings(doc):
        found += [f"{where}: {piece!r}" for piece in unmarked(value)]
    return found


def visible_strings(html: str) -> list[str]:
    """What a person reads or hears on a page, whitespace folded: the text as a whole (twice: text
    nodes run together, so a sentence with a <strong> in it reads whole, and one per line, so a
    heading never runs into the next line's first word), then each read-out attribute."""
    doc = parse_html(html)
    texts = list(strings_of(doc))
    whole = ["".join(texts), "\n".join(texts)]
    return [" ".join(text.split()) for text in whole] + [value for _, value in attribute_strings(doc)]


def msgid_pattern(msgid: str) -> re.Pattern[str] | None:
    """A msgid as it reads on a page: its tags dropped, each placeholder any short value; None if no words."""
    plain = re.sub(r"<[^>]+>", "", msgid).replace("%%", "%")
    parts = re.split(r"%\(\w+\)([sd])", plain)
    texts, kinds = parts[::2], parts[1::2]
    if not any(LETTER.search(text) for text in texts):
        return None
    body = re.escape(" ".join(texts[0].split()))
    for kind, text in zip(kinds, texts[1:], strict=True):
        # A number (%d, or a placeholder a word is glued to: 1st, 2nd), else any short value.
        body += r"\d+" if kind == "d" or text[:1].isalpha() else r"\S.{0,60}?"
        # The space after a placeholder stays: "%(tricks)s Q" is "3 Q", never a link ending in Q.
        body += re.escape(re.sub(r"\s+", " ", text))
    return re.compile(rf"(?<!\w){body}(?!\w)")
