"""The printed scoresheet of a finished game: one A4 page and one Letter page, everything on it, and
readable in black and white.

Chromium prints the page (print media, page.pdf()); poppler's pdfinfo counts the pages, pdftotext reads
the text back, and pdftoppm renders it to check that no colour is left to carry a meaning.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from e2e_support import (
    KIERKI_LONG_NAMES,
    KIERKI_WIDEST,
    KIERKI_WIDEST_TOTALS,
    OUTPUT,
    PHONE,
    Games,
    LiveServer,
    in_ci,
    kierki_game,
    new_context,
)
from helpers import CONTRACT_LABELS, KIERKI_EXAMPLE, KIERKI_NAMES, MIZERKA_DEALS, MIZERKA_NAMES, signed

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PAPER = ["A4", "Letter"]


def poppler(tool: str, *args: str) -> bytes:
    if shutil.which(tool) is None:
        message = f"{tool} (Debian's poppler-utils) is needed to read the PDF back"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return subprocess.run([tool, *args], check=True, capture_output=True, timeout=60).stdout


@pytest.fixture(scope="module")
def printed(browser: Browser, live_server: LiveServer, games: Games) -> dict[str, Path]:
    """The finished game's scoresheet printed on each paper size (kept under test-output/pdf/)."""
    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, PHONE)
    page = context.new_page()
    page.goto(live_server.origin + games.finished.path("/scoresheet"))
    page.emulate_media(media="print")
    files = {}
    for paper in PAPER:
        path = folder / f"scoresheet-{paper}.pdf"
        page.pdf(path=str(path), format=paper, print_background=True)
        files[paper] = path
    context.close()
    return files


@pytest.mark.parametrize("paper", PAPER)
def test_the_scoresheet_prints_on_one_page(paper: str, printed: dict[str, Path]) -> None:
    info = poppler("pdfinfo", str(printed[paper])).decode()
    pages = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
    assert pages and pages.group(1) == "1", info
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)
    assert size, info
    expected = {"A4": (595.3, 841.9), "Letter": (612.0, 792.0)}[paper]  # portrait, in points
    assert abs(float(size.group(1)) - expected[0]) < 2 and abs(float(size.group(2)) - expected[1]) < 2, info


@pytest.mark.parametrize("paper", PAPER)
def test_every_deal_and_the_standings_are_on_paper(paper: str, printed: dict[str, Path]) -> None:
    text = poppler("pdftotext", "-layout", str(printed[paper]), "-").decode()
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "Mizerka scoresheet" in text
    assert "Final standings" in text
    # Each name after its mark ("An"), the key to the chart's line ends beside the standings.
    for place, name, total in (("1.", "Ann", 3), ("1.", "Bob", 3), ("3.", "Cid", -6)):
        assert re.search(
            rf"{re.escape(place)}\s+{name[:2]}\s+{name}(\s+★?\s*winner)?\s+{re.escape(signed(total))}", text
        ), name
    assert text.count("winner") == 2, "the winners are named in words, not only in colour"
    for deal in MIZERKA_DEALS:
        row = [str(deal.number), deal.dealer, deal.chooser, CONTRACT_LABELS[deal.contract]]
        # one column group per player: tricks, score, running total
        for seat in range(3):
            row += [str(deal.tricks[seat]), signed(deal.scores[seat]), signed(deal.totals[seat])]
        assert " ".join(row) in lines, f"deal {deal.number} is missing or garbled: {' '.join(row)}"
    for name in MIZERKA_NAMES:
        assert name in text


def _pixels(ppm: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of a binary PPM (P6, maxval 255), as pdftoppm writes it."""
    fields: list[bytes] = []
    position = 2
    while len(fields) < 3:
        match = re.compile(rb"\s*(#[^\n]*\n\s*)*(\d+)").match(ppm, position)
        assert match, "not a PPM"
        fields.append(match.group(2))
        position = match.end()
    width, height, maxval = (int(field) for field in fields)
    assert ppm[:2] == b"P6" and maxval == 255
    return width, height, ppm[position + 1 :]


@pytest.mark.parametrize("paper", PAPER)
def test_the_printed_page_needs_no_colour(paper: str, printed: dict[str, Path]) -> None:
    """Rendered, the page is grey scale: wins, leads and suits are told by words and symbols."""
    ppm = poppler("pdftoppm", "-r", "60", "-singlefile", str(printed[paper]))
    width, height, rgb = _pixels(ppm)
    assert len(rgb) == width * height * 3
    coloured = sum(
        1
        for i in range(0, len(rgb), 3)
        if max(rgb[i], rgb[i + 1], rgb[i + 2]) - min(rgb[i], rgb[i + 1], rgb[i + 2]) > 24
    )
    assert coloured == 0, f"{coloured} coloured pixels on the {paper} page"
    ink = sum(1 for i in range(0, len(rgb), 3) if rgb[i] < 128)
    assert ink > width * height // 200, "the page is not blank"


# -- Kierki: 4 players, 15 deals (`no-fan-tan`), 40-character names, totals of four digits ---------------


def figure(value: int) -> str:
    """A figure as an English page prints it: "+850", "−2,575" (a real minus sign, thousands grouped)."""
    return f"+{value:,}" if value > 0 else f"\u2212{-value:,}" if value < 0 else "0"


@pytest.fixture(scope="module")
def kierki_printed(browser: Browser, live_server: LiveServer) -> dict[str, Path]:
    game = kierki_game(live_server, KIERKI_LONG_NAMES, KIERKI_WIDEST, preset="no-fan-tan")
    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, PHONE)
    page = context.new_page()
    page.goto(live_server.origin + game.path("/scoresheet"))
    page.emulate_media(media="print")
    files = {}
    for paper in PAPER:
        path = folder / f"kierki-scoresheet-{paper}.pdf"
        page.pdf(path=str(path), format=paper, print_background=True)
        files[paper] = path
    context.close()
    return files


@pytest.mark.parametrize("paper", PAPER)
def test_a_kierki_sheet_of_15_deals_prints_on_one_page_whole(
    paper: str, kierki_printed: dict[str, Path]
) -> None:
    path = kierki_printed[paper]
    info = poppler("pdfinfo", str(path)).decode()
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info
    text = " ".join(poppler("pdftotext", str(path), "-").decode().split())
    assert "Kierki scoresheet" in text and "Final standings" in text
    assert "\u2026" not in text, "something is shortened on the sheet"
    for name in KIERKI_LONG_NAMES:
        assert name in text, f"{name!r} is not whole on the {paper} sheet"
    # Every running total and the sum of the running totals after each deal (−2,600 after deal 7, 0 at
    # the end), in the widest figures a 4-player game has.
    running = [0, 0, 0, 0]
    lines = [
        " ".join(line.split())
        for line in poppler("pdftotext", "-layout", str(path), "-").decode().splitlines()
    ]
    for number, facts in enumerate(KIERKI_WIDEST, start=1):
        if "trumps" in facts:
            running = [total + 25 * tricks for total, tricks in zip(running, facts["tricks"], strict=True)]
        else:
            running[3] = {1: -260, 2: -520, 3: -760, 4: -1000, 5: -1150, 6: -1300, 7: -2600}[number]
        # The row's first line: its number, the dealer's mark (the names are long), the contract, the figures.
        row = [line for line in lines if re.match(rf"{number} (GF|GB|AL|Wo) ", line)]
        assert row, f"deal {number} is not on the {paper} sheet"
        shown = row[0].split()
        assert all(figure(total) in shown for total in running), (number, shown)
        assert shown[-1] == figure(sum(running)), (number, shown)
    assert tuple(running) == KIERKI_WIDEST_TOTALS
    assert "Σ 1–7" in text and figure(-2600) in text


@pytest.mark.parametrize("paper", PAPER)
def test_the_kierki_sheet_keeps_inside_the_printable_area_in_black_and_white(
    paper: str, kierki_printed: dict[str, Path]
) -> None:
    dpi = 100
    ppm = poppler("pdftoppm", "-r", str(dpi), "-singlefile", str(kierki_printed[paper]))
    width, height, rgb = _pixels(ppm)
    margin = round(10 / 25.4 * dpi)  # @page margin: 10 mm
    inked = [x for y in range(height) for x in range(width) if rgb[(y * width + x) * 3] < 110]
    assert max(inked) < width - margin + 2, f"ink past the printable area: column {max(inked)} of {width}"
    assert min(inked) > margin - 2, f"ink past the printable area: column {min(inked)}"
    coloured = sum(
        1
        for i in range(0, len(rgb), 3)
        if max(rgb[i], rgb[i + 1], rgb[i + 2]) - min(rgb[i], rgb[i + 1], rgb[i + 2]) > 24
    )
    assert coloured == 0, f"{coloured} coloured pixels on the {paper} page"


# -- every figure and word inside its box, in every language -------------------------------------------

#: The printable width of each paper at Chromium's 96 px an inch (the page less its 10 mm margins).
PRINTABLE_PX = {"A4": round((210 - 20) / 25.4 * 96), "Letter": round((215.9 - 20) / 25.4 * 96)}

# A table cell whose content reaches past its edges (a figure printed over its neighbour's).
SPILLED_JS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('main table td, main table th')) {
    const box = cell.getBoundingClientRect();
    // Its text as printed (a name said only to screen readers is not on paper).
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (text.parentElement.closest('.visually-hidden')) continue;
      range.selectNodeContents(text);
      const past = (r) => r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
      const spilled = Array.from(range.getClientRects()).some(past);
      if (spilled) { out.push(`${cell.className} "${text.textContent.trim()}"`); break; }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("language", ["en", "pl", "it"])
def test_nothing_on_a_printed_sheet_spills_out_of_its_box(
    browser: Browser, live_server: LiveServer, games: Games, paper: str, language: str
) -> None:
    """Laid out as on paper (print media, the paper's printable width), every cell of every sheet holds
    its own words and figures: RULES.md 3.10's Kierki game (the Fan Tan's places, the robber's counts),
    15 deals of long names and four-digit totals, and a Mizerka game, in each language."""
    worked = kierki_game(live_server, KIERKI_NAMES, [facts for facts, _ in KIERKI_EXAMPLE])
    widest = kierki_game(live_server, KIERKI_LONG_NAMES, KIERKI_WIDEST, preset="no-fan-tan")
    context = new_context(browser, {"viewport": {"width": PRINTABLE_PX[paper], "height": 1000}})
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    page = context.new_page()
    page.emulate_media(media="print")
    for game in (worked, widest, games.finished):
        page.goto(live_server.origin + game.path("/scoresheet"))
        spilled = page.evaluate(SPILLED_JS)
        assert spilled == [], f"{game.path('/scoresheet')} in {language} on {paper}: {spilled}"
    context.close()
