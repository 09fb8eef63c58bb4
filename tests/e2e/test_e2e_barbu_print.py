"""Barbu's printed scoresheet (RULES.md 4.11): a whole game of 28 deals with 40-character names on one A4
and one Letter page, in each language, every deal's running totals and their sum on paper.

Chromium prints the page (print media, page.pdf()); poppler's pdfinfo counts the pages and pdftotext reads
the text back (as tests/e2e/test_e2e_print.py does for the other games)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import KIERKI_LONG_NAMES, OUTPUT, PHONE, ApiGame, LiveServer, new_context
from helpers import barbu_example, barbu_game
from test_e2e_print import PAPER, PRINTABLE_PX, SPILLED_JS, figure, poppler

if TYPE_CHECKING:
    from playwright.sync_api import Browser

LANGUAGES = ["en", "pl", "it"]


def barbu_on(server: LiveServer, names: list[str]) -> ApiGame:
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "barbu", "players": names, "first_dealer": names[0]}
    )
    game = ApiGame(created["id"], created["edit_key"])
    for number, deal in enumerate(barbu_game(names), start=1):
        server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": number, **deal}, game.key)
    return game


@pytest.fixture(scope="module")
def barbu_printed(browser: Browser, live_server: LiveServer) -> dict[tuple[str, str], Path]:
    """The whole game's sheet printed on each paper in each language (kept under test-output/pdf/)."""
    game = barbu_on(live_server, KIERKI_LONG_NAMES)
    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for language in LANGUAGES:
        context = new_context(browser, PHONE)
        context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
        page = context.new_page()
        page.goto(live_server.origin + game.path("/scoresheet"))
        page.emulate_media(media="print")
        for paper in PAPER:
            path = folder / f"barbu-scoresheet-{language}-{paper}.pdf"
            page.pdf(path=str(path), format=paper, print_background=True)
            files[(language, paper)] = path
        context.close()
    return files


def running_totals(names: list[str]) -> list[list[int]]:
    """Each deal's running totals, from the game's own contract points and doubles worked out here:
    in each declarer's seven (tests/helpers.py ``barbu_seven``, the declarer first, then from their
    left as 1, 2, 3) the deal scores by that order."""
    seven = [
        # no tricks 4/3/3/3 (−8 −6 −6 −6), 1 doubles the declarer: 1 × (−6 − (−8)) = 2 to 1.
        [-10, -4, -6, -6],
        # no hearts 1/5/4/3, the ace to 2 (−2 −10 −12 −6), 2 doubles, redoubled: 2 × (−12 − (−2)) = −20.
        [18, -10, -32, -6],
        # no queens 0/2/1/1 (0 −12 −6 −6), 3 doubles: −6 − 0 = −6.
        [6, -12, -6, -12],
        # trumps 6/2/3/2 (+30 +10 +15 +10), all three double the declarer: −20, −15, −20.
        [85, -10, 0, -10],
        # no king of hearts to 3 (0 0 0 −20), 1 doubles 3: 0 − (−20) = 20.
        [0, 20, 0, -40],
        # no last two: the 12th to 1, the 13th to 2.
        [0, -10, -20, 0],
        # domino: the declarer, 2, 1, 3 out (+45 +5 +20 −5).
        [45, 5, 20, -5],
    ]
    totals, running = [], [0, 0, 0, 0]
    for declarer in range(4):
        for scores in seven:
            for offset, score in enumerate(scores):
                running[(declarer + offset) % 4] += score
            totals.append(list(running))
    return totals


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_barbu_game_prints_on_one_page(
    paper: str, language: str, barbu_printed: dict[tuple[str, str], Path]
) -> None:
    path = barbu_printed[(language, paper)]
    info = poppler("pdfinfo", str(path)).decode()
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info
    text = " ".join(poppler("pdftotext", str(path), "-").decode().split())
    assert "\u2026" not in text, "something is shortened on the sheet"
    for name in KIERKI_LONG_NAMES:
        # A 40-letter word may break at the column's edge: its letters are all there, in order.
        assert re.search(r"\s?".join(map(re.escape, name)), text), f"{name!r} is not whole on the sheet"


@pytest.mark.parametrize("paper", PAPER)
def test_every_deals_running_totals_and_their_sum_are_on_paper(
    paper: str, barbu_printed: dict[tuple[str, str], Path]
) -> None:
    lines = [
        " ".join(line.split())
        for line in poppler("pdftotext", "-layout", str(barbu_printed[("en", paper)]), "-")
        .decode()
        .splitlines()
    ]
    expected: Any = running_totals(KIERKI_LONG_NAMES)
    assert expected[-1] == [0, 0, 0, 0]
    for number, totals in enumerate(expected, start=1):
        row = [line for line in lines if re.match(rf"{number} \S{{2}} ", line)]  # the number, the mark
        assert row, f"deal {number} is not on the {paper} sheet"
        shown = " ".join(row).split()
        assert all(figure(total) in shown for total in totals), (number, totals, shown)
        # The running totals added up: 0 after each declarer's seven.
        assert row[0].split()[-1] == figure(sum(totals)), (number, row[0])
        if number % 7 == 0:
            assert sum(totals) == 0


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_on_the_barbu_sheet_spills_out_of_its_box(
    browser: Browser, live_server: LiveServer, paper: str, language: str
) -> None:
    """Laid out as on paper, every cell of the sheet holds its words and figures: the whole game with
    40-character names, and RULES.md 4.9's eight deals (its doubles, its warning)."""
    games = [barbu_on(live_server, KIERKI_LONG_NAMES), example_on(live_server)]
    context = new_context(browser, {"viewport": {"width": PRINTABLE_PX[paper], "height": 1000}})
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    page = context.new_page()
    page.emulate_media(media="print")
    for game in games:
        page.goto(live_server.origin + game.path("/scoresheet"))
        spilled = page.evaluate(SPILLED_JS)
        assert spilled == [], f"{game.path('/scoresheet')} in {language} on {paper}: {spilled}"
    context.close()


def example_on(server: LiveServer) -> ApiGame:
    names = ["Ala", "Bartek", "Celina", "Darek"]
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "barbu", "players": names, "first_dealer": "Ala"}
    )
    game = ApiGame(created["id"], created["edit_key"])
    for number, deal in enumerate(barbu_example(), start=1):
        server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": number, **deal}, game.key)
    return game


# Every word of the sheet's headings (the deal log's and the contract grid's, the players' names at the
# head of their columns and rows among them) drawn on more than one line: the word and its cell's class.
BROKEN_WORDS_JS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('table.sheet-log thead th, table.grid th')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push([m[0], th.className]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_heading_of_the_barbu_sheet_breaks_inside_a_word(
    browser: Browser, live_server: LiveServer, paper: str, language: str
) -> None:
    """The sheet's headings wrap between words ("Chooser" was printed "Choose" over "r"), in every
    language, on both papers, with 40-character names: only a 40-letter surname, wider alone than its
    player's four columns, breaks where the column ends (whole in the standings and the contract grid)."""
    game = barbu_on(live_server, KIERKI_LONG_NAMES)
    context = new_context(browser, {"viewport": {"width": PRINTABLE_PX[paper], "height": 1000}})
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(live_server.origin + game.path("/scoresheet"))
    assert page.evaluate(BROKEN_WORDS_JS) == [[KIERKI_LONG_NAMES[3], "name-col"]]
    context.close()


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chooser_heading_is_one_word_on_paper(
    paper: str, language: str, barbu_printed: dict[tuple[str, str], Path]
) -> None:
    text = poppler("pdftotext", "-layout", str(barbu_printed[(language, paper)]), "-").decode()
    heading = {"en": "Chooser", "pl": "Wybiera", "it": "Sceglie"}[language]
    assert re.search(rf"(^|\s)#\s+{heading}\s", text, re.MULTILINE), f"{heading} is not whole on {paper}"
