"""The printed scoresheet in Polish and Italian: a finished Mizerka game and a finished Misère game.

Chromium prints the scoresheet of a phone whose language switch is set (the ``lang`` cookie) on A4
and Letter, as tests/e2e/test_e2e_print.py does in English; pdfinfo counts the pages and
pdftotext reads the text back.  On paper: the headings in the language (read from the ``.po``
catalogs, not from the app), not in English, every player's name (letters outside ASCII
included) and every final total, on one page.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from tests.helpers import MIZERKA_DEALS, signed

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"
CATALOGS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ["pl", "it"]
PAPER = ["A4", "Letter"]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _load_browser_tests() -> Any:
    """The browser tests' live server fixture and helpers, loaded from tests/e2e (not a package)."""
    sys.path.insert(0, str(E2E))  # their conftest imports e2e_support, which imports helpers
    sys.path.insert(0, str(ROOT / "tests"))
    spec = importlib.util.spec_from_file_location("e2e_fixtures_for_print", E2E / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


live_server = _load_browser_tests().live_server
from e2e_support import CHROMIUM_FLAGS, OUTPUT, PHONE, LiveServer, find_chromium, in_ci, new_context  # noqa: E402

MIZERKA_PLAYERS = ["Grzegorz", "Łucja", "Niccolò"]
MISERE_PLAYERS = ["Żaneta", "Bartłomiej", "Gianluca", "Carla"]
# Misère, Żaneta dealing first (Bartłomiej bids first): per deal the bids (deals 1-6) and tricks,
# by seat.  No dealer's bid makes the four add up to 13.
MISERE_DEALS: list[tuple[list[int] | None, list[int]]] = [
    ([3, 4, 2, 3], [3, 4, 2, 4]),
    ([0, 5, 5, 2], [1, 5, 5, 2]),
    ([2, 2, 2, 2], [2, 3, 4, 4]),
    ([4, 0, 3, 5], [4, 0, 4, 5]),
    ([1, 6, 1, 6], [1, 5, 1, 6]),
    ([3, 3, 3, 3], [3, 3, 3, 4]),
    (None, [6, 2, 4, 1]),
    (None, [0, 4, 3, 6]),
]


@cache
def catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as po_file:
        return read_po(po_file, locale=language)


def translated(language: str, message_id: str) -> str:
    message = catalog(language).get(message_id)
    assert message is not None, f"{language}: the catalog lacks {message_id!r}"
    assert message.string and not message.fuzzy, f"{language}: {message_id!r} is not translated"
    return str(message.string)


@dataclass(frozen=True)
class Finished:
    """A finished game made through the API: its id, game, players, contract labels and final totals."""

    id: str
    game: str
    players: list[str]
    contracts: list[str]
    totals: dict[str, int]


def _finished_mizerka(server: LiveServer) -> Finished:
    created = server.api("POST", "/api/v1/games", {"players": MIZERKA_PLAYERS, "first_dealer": "Niccolò"})
    for deal in MIZERKA_DEALS:
        body = {
            "number": deal.number,
            "contract": deal.contract,
            "tricks": dict(zip(MIZERKA_PLAYERS, deal.tricks, strict=True)),
        }
        server.api("POST", f"/api/v1/games/{created['id']}/deals", body, created["edit_key"])
    state = server.api("GET", f"/api/v1/games/{created['id']}")
    assert state["status"] == "finished"
    labels = ["Clubs", "Diamonds", "Hearts", "Spades", "No trumps", "Mizerka"]
    return Finished(created["id"], "Mizerka", MIZERKA_PLAYERS, labels, state["totals"])


def _finished_misere(server: LiveServer) -> Finished:
    body = {"ruleset": "misere", "players": MISERE_PLAYERS, "first_dealer": "Żaneta"}
    created = server.api("POST", "/api/v1/games", body)
    for number, (bids, tricks) in enumerate(MISERE_DEALS, start=1):
        deal: dict[str, Any] = {"number": number, "tricks": dict(zip(MISERE_PLAYERS, tricks, strict=True))}
        if bids is not None:
            deal["bids"] = dict(zip(MISERE_PLAYERS, bids, strict=True))
        server.api("POST", f"/api/v1/games/{created['id']}/deals", deal, created["edit_key"])
    state = server.api("GET", f"/api/v1/games/{created['id']}")
    assert state["status"] == "finished"
    labels = ["Hearts", "Diamonds", "Clubs", "Spades", "No trumps", "Blind", "Ciapa-ciapa", "Misère"]
    return Finished(created["id"], "Misère", MISERE_PLAYERS, labels, state["totals"])


@pytest.fixture(scope="module")
def finished(live_server: LiveServer) -> dict[str, Finished]:
    return {"mizerka": _finished_mizerka(live_server), "misere": _finished_misere(live_server)}


def poppler(tool: str, *args: str) -> str:
    if shutil.which(tool) is None:
        message = f"{tool} (Debian's poppler-utils) is needed to read the PDF back"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return subprocess.run([tool, *args], check=True, capture_output=True, timeout=60).stdout.decode()


def _print_all(server: LiveServer, finished: dict[str, Finished], chromium: str) -> dict[str, Path]:
    """Print each game's scoresheet in each language on each paper, with a Chromium of its own."""
    from playwright.sync_api import sync_playwright

    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS, headless=True)
        for language in LANGUAGES:
            context = new_context(browser, PHONE)
            context.add_cookies([{"name": "lang", "value": language, "url": server.origin}])
            page = context.new_page()
            for kind, game in finished.items():
                page.goto(f"{server.origin}/games/{game.id}/scoresheet")
                assert page.locator("html").get_attribute("lang") == language
                page.emulate_media(media="print")
                for paper in PAPER:
                    path = folder / f"scoresheet-{kind}-{language}-{paper}.pdf"
                    page.pdf(path=str(path), format=paper, print_background=True)
                    files[f"{kind}-{language}-{paper}"] = path
            context.close()
        browser.close()
    return files


@pytest.fixture(scope="module")
def printed(live_server: LiveServer, finished: dict[str, Finished]) -> dict[str, Path]:
    """The PDFs (kept under test-output/pdf/).

    Printed in a thread of their own: Playwright's sync API runs one instance per thread, and
    the browser tests' session-wide Chromium may already hold this one.
    """
    chromium = find_chromium()
    if chromium is None:
        message = "browser tests skipped: no Chromium was found (looked for /usr/bin/chromium)"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(_print_all, live_server, finished, chromium).result(timeout=600)


def headings(language: str, game: Finished) -> list[str]:
    """The scoresheet's headings in ``language``, from its catalog: the title, standings, table heads."""
    english = ["Final standings", "Deals", "Dealer", "Contract"]
    english += ["Contracts", "Chooser"] if game.game == "Mizerka" else ["Bid"]
    title = translated(language, "%(game)s scoresheet") % {"game": translated(language, game.game)}
    return [title, *(translated(language, heading) for heading in english)]


KINDS = ["mizerka", "misere"]


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_scoresheet_prints_on_one_page(
    language: str, kind: str, paper: str, printed: dict[str, Path]
) -> None:
    info = poppler("pdfinfo", str(printed[f"{kind}-{language}-{paper}"]))
    pages = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
    assert pages and pages.group(1) == "1", info
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)
    assert size, info
    expected = {"A4": (595.3, 841.9), "Letter": (612.0, 792.0)}[paper]  # portrait, in points
    assert abs(float(size.group(1)) - expected[0]) < 2 and abs(float(size.group(2)) - expected[1]) < 2, info


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_paper_speaks_the_language_and_names_everyone_with_their_total(
    language: str, kind: str, paper: str, printed: dict[str, Path], finished: dict[str, Finished]
) -> None:
    game = finished[kind]
    text = poppler("pdftotext", "-layout", str(printed[f"{kind}-{language}-{paper}"]), "-")
    flowing = " ".join(text.split())  # a heading may wrap onto a second line
    for heading in headings(language, game):
        assert heading in flowing, f"{language}: {heading!r} is not on the {kind} scoresheet"
    assert "Final standings" not in flowing and "scoresheet" not in flowing
    # A contract's label may wrap in its cell ("Senza / briscola"): read as Chromium draws it, cell by cell.
    drawn = " ".join(poppler("pdftotext", "-raw", str(printed[f"{kind}-{language}-{paper}"]), "-").split())
    for label in game.contracts:
        assert translated(language, label) in drawn, f"{language}: the contract {label!r} is not on paper"
    # The standings: each player's place, mark, name (a winner's badge after it) and final total.
    for name in game.players:
        total = signed(game.totals[name])
        standing = (
            rf"\d+\.\s+(?:\S{{1,4}}\s+)?{re.escape(name)}\s+(?:[^\d\s+−]+\s+){{0,2}}{re.escape(total)}(?!\d)"
        )
        assert re.search(standing, flowing), f"{language}: {name} {total} is not in the standings"
    winners = [name for name in game.players if game.totals[name] == max(game.totals.values())]
    badge = translated(language, "winner")
    assert len(re.findall(rf"\b{re.escape(badge)}\b", flowing)) == len(winners), f"{language}: {badge!r}"
