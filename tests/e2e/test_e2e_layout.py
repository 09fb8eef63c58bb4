"""Every page on a small phone, a phone and a tablet: no sideways scrolling, big enough tap targets,
and the running totals in view while the tricks are entered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import (
    KIERKI_LONG_NAMES,
    KIERKI_WIDEST,
    PHONE,
    SMALL_PHONE,
    STATES,
    TABLET,
    Games,
    LiveServer,
    in_both_themes,
    kierki_game,
    new_context,
    scorer_context,
    screenshot,
)
from helpers import KIERKI_NAMES, KIERKI_THREE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

DEVICES = {"small-phone": SMALL_PHONE, "phone": PHONE, "tablet": TABLET}
MIN_TAP = 44  # CSS px, both ways

# Elements wider than the viewport, unless a scrolling box (a wide table's wrapper) holds them; and text
# drawn past the right edge though its box fits (a word longer than its box spills out of it).
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (e) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(e).overflowX);
  const held = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (scrolls(p)) return true; } return false; };
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.left >= -1 && r.right <= width + 1) continue;
    if (!e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    if (e.closest('.skip, .visually-hidden') || held(e)) continue;
    out.push(`${e.tagName.toLowerCase()}.${e.className} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const e = node.parentElement;
    if (!node.data.trim() || e.closest('.skip, .visually-hidden') || scrolls(e) || held(e)) continue;
    if (!e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = [...range.getClientRects()].find((r) => r.width && (r.left < -1 || r.right > width + 1));
    if (r) out.push(`text in ${e.tagName.toLowerCase()}.${e.className} "${node.data.trim().slice(0, 30)}" `
      + `[${Math.round(r.left)}, ${Math.round(r.right)}]`);
  }
  return {page: document.documentElement.scrollWidth - width, elements: out.slice(0, 10)};
}"""

# What a finger aims at: links, buttons, inputs, summaries; a radio or checkbox counts by its label.
TAP_TARGETS_JS = """(minimum) => {
  const out = [];
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[tabindex]:not([tabindex="-1"])';
  for (const e of document.querySelectorAll(sel)) {
    const target = e.matches('input[type=radio], input[type=checkbox]') && e.closest('label') || e;
    // Not rendered: hidden, or inside a closed <details> (laid out, but content-visibility: hidden).
    if (!target.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    const r = target.getBoundingClientRect();
    if (r.width < minimum - 0.5 || r.height < minimum - 0.5) {
      const text = (target.innerText || target.getAttribute('aria-label') || target.outerHTML).trim();
      const size = `${r.width.toFixed(1)}x${r.height.toFixed(1)}`;
      out.push(`${target.tagName.toLowerCase()}.${target.className} "${text.slice(0, 60)}" ${size}`);
    }
  }
  return out;
}"""


def check_page(page: Page) -> list[str]:
    problems: list[str] = []
    overflow: dict[str, Any] = page.evaluate(OVERFLOW_JS)
    if overflow["page"] > 0 or overflow["elements"]:
        problems.append(f"overflows sideways by {overflow['page']}px: {overflow['elements']}")
    small = page.evaluate(TAP_TARGETS_JS, MIN_TAP)
    problems += [f"tap target under {MIN_TAP}x{MIN_TAP}: {target}" for target in small]
    return problems


@pytest.mark.parametrize("device", DEVICES)
def test_every_page_fits_and_is_easy_to_tap(
    device: str, browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, DEVICES[device], live_server, games)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    for name, show in STATES.items():
        show(page, live_server, games)
        found = check_page(page)
        if found:
            problems[name] = found
        if name in (
            "declaring",
            "entering-tricks",
            "finished",
            "scoresheet",
            "undo-and-share-open",
            "hand-over-link",
        ):
            screenshot(page, f"{device}-{name}")
    context.close()
    assert problems == {}, "\n".join(f"{name}: {p}" for name, found in problems.items() for p in found)


# The step of a deal at hand (the entry card's form): each of its controls shown (a button, a box), inside
# the screen, below the sticky scoreboard and not covered by it (what is drawn at its centre is the control);
# and the scoreboard's height, against the screen's.
STEP_IN_VIEW_JS = """() => {
  const board = document.querySelector('section.scoreboard').getBoundingClientRect();
  const form = document.querySelector('#turn form');
  const outside = [];
  let controls = 0;
  for (const e of form ? form.querySelectorAll('button, input:not([type=hidden])') : []) {
    if (!e.checkVisibility({visibilityProperty: true})) continue;
    controls += 1;
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const seen = r.top >= board.bottom - 0.5 && r.bottom <= innerHeight + 0.5
      && r.left >= 0 && r.right <= innerWidth;
    if (!seen || !hit || !(hit === e || e.contains(hit))) {
      const text = (e.value || e.getAttribute('aria-label') || e.textContent).trim().slice(0, 30);
      const where = `[${Math.round(r.top)}, ${Math.round(r.bottom)}]`;
      outside.push(`${e.tagName.toLowerCase()}.${e.className} "${text}" ${where}`);
    }
  }
  return {controls, outside: outside.slice(0, 8), board: board.height, height: innerHeight};
}"""


# The scoreboard must be fully on screen, and the input not hidden under it.
IN_VIEW_JS = """(id) => {
  const board = document.querySelector('section.scoreboard .totals').getBoundingClientRect();
  const input = document.getElementById(id);
  const r = input.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {board_top: board.top, board_bottom: board.bottom, height: innerHeight,
          input_top: r.top, input_bottom: r.bottom, on_top: hit === input};
}"""


@pytest.mark.parametrize("device", DEVICES)
def test_totals_stay_in_view_while_entering_tricks(
    device: str, browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, DEVICES[device], live_server, games)
    page = context.new_page()
    page.goto(live_server.origin + games.tricks.path())
    for seat in range(3):
        field = page.locator(f"#tricks-{seat}")
        field.tap()  # scrolls it into view, as the browser does for a focused input
        page.keyboard.type("4" if seat < 2 else "")
        place = page.evaluate(IN_VIEW_JS, f"tricks-{seat}")
        assert 0 <= place["board_top"] < place["board_bottom"] <= place["height"], (seat, place)
        assert place["on_top"], f"the scoreboard covers seat {seat}'s input: {place}"
    # Scrolled right down to the save button, the totals are still there.
    page.get_by_role("button", name="Save deal 5").scroll_into_view_if_needed()
    page.mouse.wheel(0, 2000)
    page.wait_for_function("() => scrollY > 0")
    place = page.evaluate(IN_VIEW_JS, "tricks-2")
    assert 0 <= place["board_top"] < place["board_bottom"] <= place["height"], place
    assert page.locator("section.scoreboard .points").all_inner_texts() == ["+1", "−2", "+1"]
    context.close()


# -- Kierki's game page: its log and part grid on phones (RULES.md 3.12) --------------------------------

# Inside the log and the part grid: a table wider than its box (which would scroll sideways), and a cell
# whose content is wider than the cell (a figure spilling over its neighbour).
KIERKI_TABLES_JS = """() => {
  const out = [];
  for (const table of document.querySelectorAll('table.log, table.parts')) {
    const box = table.closest('.table-wrap');
    if (box.scrollWidth > box.clientWidth + 1 || table.getBoundingClientRect().right > innerWidth + 1)
      out.push(`${table.className}: ${table.scrollWidth}px in ${box.clientWidth}px`);
    for (const cell of table.querySelectorAll('td, th, td span')) {
      // Not shown: hidden, or a heading kept for screen readers only (a 1 px box, clipped).
      if (!cell.checkVisibility() || cell.closest('.visually-hidden')) continue;
      if (getComputedStyle(cell).clipPath !== 'none') continue;
      if (cell.scrollWidth > cell.clientWidth + 1 && getComputedStyle(cell).display !== 'inline')
        out.push(`${table.className} ${cell.tagName.toLowerCase()}.${cell.className} `
          + `"${cell.textContent.trim().slice(0, 30)}"`);
    }
  }
  return out.slice(0, 10);
}"""
KIERKI_GAMES = {
    # 4 players with names of 40 characters, 15 deals, totals of four digits
    "long-names": lambda server: kierki_game(server, KIERKI_LONG_NAMES, KIERKI_WIDEST, preset="no-fan-tan"),
    # 3 players, short names, a trump deal being played
    "three": lambda server: kierki_game(
        server,
        KIERKI_NAMES[:3],
        [facts for facts, _ in KIERKI_THREE[:8]],
        first="Bartek",
        then={"number": 9, "trumps": "spades"},
    ),
}


@pytest.mark.parametrize(("width", "theme"), in_both_themes([320, 360, 390]))
def test_a_kierki_log_fits_every_phone(
    width: int, theme: str, browser: Browser, live_server: LiveServer
) -> None:
    context = new_context(
        browser,
        {**PHONE, "viewport": {"width": width, "height": 800}, "device_scale_factor": 2},
        color_scheme=theme,
    )
    page = context.new_page()
    problems = {}
    for name, make in KIERKI_GAMES.items():
        page.goto(live_server.origin + make(live_server).path())
        assert page.locator("table.log tbody tr").count() in (9, 15)
        found = check_page(page) + page.evaluate(KIERKI_TABLES_JS)
        if found:
            problems[name] = found
        screenshot(page, f"kierki-{name}-{width}-{theme}")
    context.close()
    assert problems == {}, "\n".join(f"{name}: {p}" for name, found in problems.items() for p in found)
