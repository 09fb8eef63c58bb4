"""The texts the script reads: one JSON block on every page, each a msgid, each used, none missing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import page, parse_html
from tests.i18n.texts import english_catalog

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

# The scripts that read the block (the offline entry carries its own words in the game's plan).
SCRIPTS = [
    script
    for script in sorted((Path(__file__).resolve().parents[2] / "static" / "js").glob("*.js"))
    if "'ui-strings'" in script.read_text()
]
CALL = re.compile(r"\bt\(\s*'([^']*)'")
ANY_CALL = re.compile(r"(?<![\w.])t\(")


def ui_strings(html: str) -> dict[str, Any]:
    blocks = [s for s in parse_html(html).find_all("script", id="ui-strings")]
    assert len(blocks) == 1, "one block of texts per page"
    block = blocks[0]
    assert block.attrs.get("type") == "application/json"  # data: never run, so the CSP allows it
    text = "".join(child for child in block.children if isinstance(child, str))
    loaded = json.loads(text)
    assert isinstance(loaded, dict)
    return loaded


def keys_used() -> set[str]:
    assert [script.name for script in SCRIPTS] == ["app.js"]
    used: set[str] = set()
    for script in SCRIPTS:
        source = script.read_text()
        calls = CALL.findall(source)
        # Every call names its key in so many words, so this list is the whole list.
        assert len(calls) == len(ANY_CALL.findall(source)), script.name
        used.update(calls)
    return used


def test_every_page_carries_the_texts_as_valid_json(client: FlaskClient) -> None:
    for url in ("/", "/games/new", "/rankings", "/rules"):
        strings = ui_strings(page(client, url))
        assert strings and all(isinstance(value, str) and value for value in strings.values()), url


def test_the_keys_are_those_the_script_uses(client: FlaskClient) -> None:
    strings = ui_strings(page(client, "/"))
    used = keys_used()
    assert used, "the script reads no text"
    assert sorted(used - set(strings)) == [], "t() asks for a key the page does not carry"
    assert sorted(set(strings) - used) == [], "a text no script reads"
    assert list(strings) == sorted(strings), "keys by area, alphabetised"


def test_each_text_is_a_msgid_with_its_placeholders_left_for_the_script(client: FlaskClient) -> None:
    strings = ui_strings(page(client, "/"))
    assert sorted(set(strings.values()) - english_catalog()) == []
    assert strings["count.so_far"] == "%(total)s of %(target)s so far."


def test_the_texts_follow_the_page_s_language(client: FlaskClient) -> None:
    """The block is drawn by gettext in the request's language: an Italian phone gets Italian ones."""
    english = ui_strings(page(client, "/"))
    client.get("/language/it?next=/")
    italian = page(client, "/")
    assert '<html lang="it">' in italian
    assert set(ui_strings(italian)) == set(english)
