"""The catalogs are up to date with the code and fully translated.

- the English catalog (``messages.pot``) holds exactly the messages ``make translations``
  extracts from the code and templates today (the same mapping, keywords and comment tags,
  read from the Makefile), no more and no fewer;
- every message has a Polish and an Italian translation, neither empty nor fuzzy;
- a translation has the same named placeholders as its message (``%(player)s`` stays
  ``%(player)s``), so saying it never fails or drops a value.

After changing a message: ``make translations``, then translate what is new.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ("pl", "it")

#: A named placeholder of Python's %-formatting and its conversion: ``%(player)s`` -> ("player", "s").
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa])")


def _extract_options() -> tuple[list[str], list[str]]:
    """The ``--keywords`` and ``--add-comments`` of the Makefile's ``translations`` target."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntranslations:", 1)[1].split("\n\n", 1)[0].replace("\\\n", " ")
    words = shlex.split(recipe)
    keywords = [words[i + 1] for i, word in enumerate(words) if word == "--keywords"]
    comments = [words[i + 1] for i, word in enumerate(words) if word == "--add-comments"]
    return keywords, comments


@cache
def extracted() -> Catalog:
    """What ``pybabel extract`` (as ``make translations`` runs it) finds in the code now."""
    keyword_args, comment_tags = _extract_options()
    assert "N_" in keyword_args and comment_tags == ["NOTE"], "the Makefile's extraction changed shape"
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(keyword_args)}
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords, comment_tags=comment_tags
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as po_file:
        return read_po(po_file, locale=locale)


def ids(catalog: Iterable[Message]) -> set[tuple[object, str | None]]:
    """The catalog's messages, by id (a plural message by its singular) and context."""
    return {(_key(message.id), message.context) for message in catalog if message.id}


def _key(message_id: object) -> object:
    return message_id[0] if isinstance(message_id, (tuple, list)) else message_id


def placeholders(text: str) -> set[tuple[str, str]]:
    return set(PLACEHOLDER.findall(text))


def test_the_extraction_finds_the_messages_of_code_and_templates() -> None:
    found = ids(extracted())
    assert ("There is no such game.", None) in found  # N_ in the package
    assert ("Tricks must add up to %(total)d (got %(got)d).", None) in found  # N_ in the pure engine
    assert ("a game", None) in found  # n_, a plural entry
    plural = extracted().get("a game")
    assert plural is not None and plural.pluralizable and "%(num)d games" in plural.id


def test_the_english_catalog_holds_exactly_the_messages_in_the_code() -> None:
    pot = ids(read_catalog(CATALOGS / "messages.pot"))
    found = ids(extracted())
    missing = sorted(map(str, found - pot))
    stale = sorted(map(str, pot - found))
    assert not missing, f"run `make translations`: messages.pot lacks {len(missing)}: {missing[:20]}"
    assert not stale, f"run `make translations`: messages.pot holds {len(stale)} gone: {stale[:20]}"


def test_plural_messages_are_plural_in_the_english_catalog() -> None:
    pot = {(_key(m.id), m.context): m for m in read_catalog(CATALOGS / "messages.pot") if m.id}
    for message in extracted():
        known = pot.get((_key(message.id), message.context))
        if message.id and known is not None:
            assert known.pluralizable == message.pluralizable, message.id


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    pot = read_catalog(CATALOGS / "messages.pot")
    catalog = read_catalog(CATALOGS / language / "LC_MESSAGES" / "messages.po", language)
    untranslated, fuzzy = [], []
    for message in pot:
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        strings = [] if translated is None else _strings(translated.string)
        if not strings or not all(strings):
            untranslated.append(_key(message.id))
        elif translated is not None and translated.fuzzy:
            fuzzy.append(_key(message.id))
    assert not untranslated, f"{language}: {len(untranslated)} untranslated, e.g. {untranslated[:10]}"
    assert not fuzzy, f"{language}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:10]}"


def _strings(string: object) -> list[str]:
    if isinstance(string, (tuple, list)):
        return [str(form) for form in string]
    return [str(string)] if string else []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    catalog = read_catalog(CATALOGS / language / "LC_MESSAGES" / "messages.po", language)
    wrong = [
        f"{message.id!r} -> {message.string!r}"
        for message in catalog
        if message.id and not placeholders_agree(message.id, message.string)
    ]
    assert not wrong, f"{language}: placeholders differ in {len(wrong)}: {wrong[:10]}"


def placeholders_agree(message_id: object, string: object) -> bool:
    """Whether a translation says the values its message says (empty translations aside).

    A singular message's translation has the same named placeholders; each form of a plural
    one uses only the message's placeholders, and may leave the count out (Polish "jedna gra").
    """
    if isinstance(message_id, (tuple, list)):
        allowed = set().union(*(placeholders(str(form)) for form in message_id))
        return all(placeholders(form) <= allowed for form in _strings(string) if form)
    translated = _strings(string)
    return not translated or not translated[0] or placeholders(translated[0]) == placeholders(str(message_id))


@pytest.mark.parametrize(
    ("message_id", "string", "agree"),
    [
        ("Deal %(deal)d recorded.", "Rozdanie %(deal)d zapisane.", True),
        ("Deal %(deal)d recorded.", "Rozdanie zapisane.", False),
        ("Deal %(deal)d recorded.", "Rozdanie %(number)d zapisane.", False),
        ("Deal %(deal)d recorded.", "Rozdanie %(deal)s zapisane.", False),
        ("Deal %(deal)d recorded.", "", True),  # untranslated: the other test's concern
        (("a game", "%(num)d games"), ("jedna gra", "%(num)d gry", "%(num)d gier"), True),
        (("a game", "%(num)d games"), ("jedna gra", "%(count)d gry", "%(num)d gier"), False),
    ],
)
def test_the_placeholder_check_itself(message_id: object, string: object, agree: bool) -> None:
    assert placeholders_agree(message_id, string) is agree
