"""Every text a person reads on a page is a msgid of the catalog or data, and none is left in English.

Each page of the app (home, new game for both games, a game in progress of each game, a bidding
deal, a watching phone, a correction, a finished game, the scoresheets, rankings, players, a
player's page, import, hand-over, the administrator's sign-in, an error page, the rules) is drawn
once per language; see ``texts.py`` for how each piece of text is traced to where it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper import services
from scorekeeper.i18n import CATALOGS
from tests.conftest import make_test_app
from tests.helpers import declare, page, start_game, start_mizerka
from tests.i18n.texts import (
    english_catalog,
    msgid_pattern,
    traced,
    untranslatable_texts,
    visible_strings,
    without_marks,
)

PAGES = [
    "home",
    "new-mizerka",
    "new-misere",
    "mizerka-choosing",
    "mizerka-playing",
    "mizerka-watching",
    "mizerka-correction",
    "mizerka-finished",
    "mizerka-scoresheet",
    "misere-bidding",
    "misere-playing",
    "misere-correction",
    "misere-scoresheet",
    "hand-over",
    "rankings",
    "players",
    "player",
    "import",
    "admin",
    "not-found",
    "rules",
]
TRANSLATED = ["pl", "it"]
MISERE_NAMES = ["Ala", "Ola", "Ela", "Iza"]


def draw_every_page(app: Flask, languages: list[str]) -> dict[tuple[str, str], str]:
    """Play the games the pages need, then draw each page in each of ``languages``."""
    client = app.test_client()
    finished = start_mizerka(client, deals=18)
    choosing = start_mizerka(client, deals=2)
    playing = start_mizerka(client, deals=1)
    assert declare(client, playing, 2, "clubs").status_code == 303
    bidding = start_game(client, MISERE_NAMES, first_dealer="0", game="misere", note="Club night")
    misere = start_game(client, MISERE_NAMES, first_dealer="0", game="misere")
    with app.app_context():
        services.record_deal(misere, number=1, bids=[1, 1, 1, 1])
        services.update_deal(misere, 1, tricks=[4, 3, 3, 3])
        services.record_deal(misere, number=2, bids=[2, 1, 3, 1])
    player = re.search(r'href="/players/(\d+)"', without_marks(page(client, "/players")))
    assert player, "no player listed"
    urls = {
        "home": "/",
        "new-mizerka": "/games/new?game=mizerka",
        "new-misere": "/games/new?game=misere",
        "mizerka-choosing": f"/games/{choosing}",
        "mizerka-playing": f"/games/{playing}",
        "mizerka-watching": f"/games/{playing}",
        "mizerka-correction": f"/games/{finished}/deals/3/edit",
        "mizerka-finished": f"/games/{finished}",
        "mizerka-scoresheet": f"/games/{finished}/scoresheet",
        "misere-bidding": f"/games/{bidding}",
        "misere-playing": f"/games/{misere}",
        "misere-correction": f"/games/{misere}/deals/1/edit",
        "misere-scoresheet": f"/games/{misere}/scoresheet",
        "hand-over": f"/games/{finished}/take",
        "rankings": "/rankings",
        "players": "/players",
        "player": f"/players/{player.group(1)}",
        "import": "/games/import",
        "admin": "/admin",
        "not-found": "/games/nope",
        "rules": "/rules",
    }
    assert list(urls) == PAGES
    watcher = app.test_client()
    drawn: dict[tuple[str, str], str] = {}
    for language in languages:
        for reader in (client, watcher):
            assert reader.get(f"/language/{language}?next=/").status_code == 303
        for name, url in urls.items():
            reader = watcher if name == "mizerka-watching" else client
            response = reader.get(url)
            assert response.status_code == (404 if name == "not-found" else 200), (name, response.status_code)
            html = response.get_data(as_text=True)
            assert f'<html lang="{language}">' in without_marks(html), name
            drawn[language, name] = html
    return drawn


@pytest.fixture(scope="module")
def traced_english(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[dict[tuple[str, str], str], set[str]]]:
    """Every page in English, each piece of text marked with where it came from; the msgids asked for."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        app = make_test_app("sqlite", tmp_path_factory.mktemp("traced"), request)
        with traced(app, monkeypatch) as trace:
            yield draw_every_page(app, ["en"]), trace.msgids


@pytest.fixture(scope="module")
def translated_pages(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> dict[tuple[str, str], str]:
    """Every page in Polish and Italian, as a phone gets them."""
    app = make_test_app("sqlite", tmp_path_factory.mktemp("translated"), request)
    return draw_every_page(app, TRANSLATED)


@pytest.mark.parametrize("name", PAGES)
def test_every_text_of_an_english_page_is_a_msgid_or_data(
    traced_english: tuple[dict[tuple[str, str], str], set[str]], name: str
) -> None:
    """A text of a template's own that never went through gettext would stay English in every language."""
    pages, _ = traced_english
    found = untranslatable_texts(pages["en", name])
    assert not found, "not from a msgid, not data:\n" + "\n".join(found)


def test_every_msgid_a_page_asks_for_is_in_the_catalog(
    traced_english: tuple[dict[tuple[str, str], str], set[str]],
) -> None:
    """``_(variable)`` would translate nothing: the extracted catalog would never hold its text."""
    _, asked = traced_english
    assert asked, "no page asked for a translation"
    assert sorted(asked - english_catalog()) == []


@cache
def translations(language: str) -> tuple[str, ...]:
    """Every translation the language's catalog holds (a word it shares with English is fine)."""
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    found: list[str] = []
    for message in catalog:
        if not message.id:  # the catalog's header
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        found += [text for text in strings if text]
    return tuple(found)


def english_left(html: str, language: str) -> list[str]:
    """The msgids of the English catalog a page still shows in English."""
    texts = visible_strings(html)
    left: set[str] = set()
    for msgid in english_catalog():
        pattern = msgid_pattern(msgid)
        if pattern is None:
            continue
        for text in texts:
            found = pattern.search(text)
            if found and not any(found.group(0) in translated for translated in translations(language)):
                left.add(msgid)
    return sorted(left)


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_is_left_on_a_translated_page(
    translated_pages: dict[tuple[str, str], str], language: str, name: str
) -> None:
    """Passes once the catalogs are translated: no interface text of the catalog shows in English."""
    left = english_left(translated_pages[language, name], language)
    assert not left, f"shown in English on the {language} page:\n" + "\n".join(left)


def test_the_english_check_sees_a_text_that_skipped_gettext(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check itself: a template's bare word is caught, a translated one and data are not."""
    with traced(app, monkeypatch), app.test_request_context("/"):
        template = app.jinja_env.from_string(
            "<p title=\"{{ _('Rules') }}\">Bare words {{ name }} {{ _('Rules') }}</p>"
            '<p aria-label="Stray">{{ 3 }}</p>'
            "{% macro said() %}<i>Said</i>{% endmacro %}"
            "<p>{{ said() }} {{ name }} {{ 'Ahead' if name else 'Behind' }}</p>"
        )
        html = template.render(name="Ala")
    assert untranslatable_texts(html) == [
        "text: 'Bare words'",
        "text: 'Said'",
        "text: 'Ahead'",
        "<p aria-label>: 'Stray'",
    ]


def test_the_translated_check_sees_english() -> None:
    """The check itself: an English msgid on a page is caught, whatever the data around it."""
    assert "New game" in english_catalog()
    found = english_left('<nav><a href="/">Scorekeeper</a><a href="/games/new">New game</a></nav>', "pl")
    assert "New game" in found
    assert english_left("<p>Ala, Ola, 13</p>", "pl") == []
