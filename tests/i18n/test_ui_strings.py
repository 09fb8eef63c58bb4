"""The texts the script reads: one JSON block on every page, each a msgid, each used, none missing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import page, parse_html, start_mizerka
from tests.i18n.texts import english_catalog

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

JS = Path(__file__).resolve().parents[2] / "static" / "js"
# The script that reads the block and those that speak through its t on every page that loads
# them, and the offline entry's (whose texts, offline.*, only the game page carries: the page
# that loads it).
READER = JS / "app.js"
PAGE = (READER, JS / "entry.js", JS / "game.js")
OFFLINE = (JS / "offline.js", JS / "offline_parts.js")
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


def keys_used(script: Path) -> set[str]:
    source = script.read_text()
    calls = CALL.findall(source)
    # Every call names its key in so many words, so this list is the whole list.
    assert len(calls) == len(ANY_CALL.findall(source)), script.name
    return set(calls)


def test_every_page_carries_the_texts_as_valid_json(client: FlaskClient) -> None:
    for url in ("/", "/games/new", "/rankings", "/rules"):
        strings = ui_strings(page(client, url))
        assert strings and all(isinstance(value, str) and value for value in strings.values()), url


def test_the_keys_are_those_the_scripts_use(client: FlaskClient) -> None:
    # One block, one t: only app.js reads the block, the other scripts speak through app.js's t.
    readers = sorted(script.name for script in JS.glob("*.js") if "ui-strings" in script.read_text())
    assert readers == ["app.js"]
    for script in PAGE[1:] + OFFLINE:
        assert "self.Scorekeeper.t" in script.read_text(), script.name
    own = re.compile(r"(?:const|let|function)\s+t\b\s*(?:=\s*\(|\()")
    assert [script.name for script in JS.glob("*.js") if own.search(script.read_text())] == ["app.js"]
    page_keys = set().union(*(keys_used(script) for script in PAGE))
    offline_keys = set().union(*(keys_used(script) for script in OFFLINE))
    assert page_keys and offline_keys, "a script reads no text"
    assert all(key.startswith("offline.") for key in offline_keys)
    assert not any(key.startswith("offline.") for key in page_keys)
    game_id = start_mizerka(client, deals=1)
    for url, used in (("/", page_keys), (f"/games/{game_id}", page_keys | offline_keys)):
        strings = ui_strings(page(client, url))
        assert sorted(used - set(strings)) == [], f"t() asks for a key {url} does not carry"
        assert sorted(set(strings) - used) == [], f"a text no script reads, on {url}"
        assert list(strings) == sorted(strings), "keys by area, alphabetised"


def test_each_text_is_a_msgid_with_its_placeholders_left_for_the_script(client: FlaskClient) -> None:
    html = page(client, f"/games/{start_mizerka(client, deals=1)}")
    strings = ui_strings(html)
    assert sorted(set(strings.values()) - english_catalog()) == []
    assert strings["count.so_far"] == "%(total)s of %(target)s so far."
    assert strings["offline.queued"] == "Saved on this phone, not sent yet: %(deals)s."
    plan = json.loads(parse_html(html).find(id="offline-plan").attrs["data-plan"] or "")
    assert plan["facts"][0]["short"] == "%(tricks)s tr", "the log's own words for a deal's tricks"
    assert strings["offline.refused"] == "Deal %(number)s was not accepted: %(message)s"


def test_the_texts_follow_the_page_s_language(client: FlaskClient) -> None:
    """The block is drawn by gettext in the request's language: an Italian phone gets Italian ones."""
    game = f"/games/{start_mizerka(client, deals=1)}"
    english = ui_strings(page(client, game))
    client.get("/language/it?next=/")
    italian = page(client, game)
    assert '<html lang="it">' in italian
    assert set(ui_strings(italian)) == set(english)
