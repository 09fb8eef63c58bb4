"""Every page on a small phone, a phone and a tablet: no sideways scrolling, big enough tap targets,
and the running totals in view while the tricks are entered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import (
    PHONE,
    SMALL_PHONE,
    STATES,
    TABLET,
    Games,
    LiveServer,
    new_context,
    scorer_context,
    screenshot,
)

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


# -- the sticky scoreboard: one strip, at most a fifth of the screen upright and a third sideways -------

BOARD_SIZES = {"320x640": (320, 640), "360x740": (360, 740), "390x844": (390, 844), "740x360": (740, 360)}

# The scoreboard's box, and each seat's name as the page holds it (what a screen reader reads) beside
# what the strip has room to show of it.
BOARD_JS = """() => {
  const board = document.querySelector('section.scoreboard');
  const names = [...board.querySelectorAll('li.total .who')].map((e) => ({
    text: e.textContent.trim(),
    lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))}));
  const r = board.getBoundingClientRect();
  return {height: r.height, left: r.left, right: r.right, names, width: innerWidth, screen: innerHeight};
}"""


@pytest.fixture(scope="module")
def board_games(live_server: LiveServer) -> dict[str, dict[str, Any]]:
    """Games of 40-character names (one a single word) at every step, and finished with the largest totals."""
    from test_e2e_long_names import seed_misere, seed_misere_in_progress, seed_mizerka

    return {
        "mizerka-choosing": seed_mizerka(live_server, deals=4),
        "mizerka-tricks": seed_mizerka(live_server, deals=4, declare=True),
        "mizerka-finished": seed_mizerka(live_server),
        "misere-bidding": seed_misere_in_progress(live_server, bid=False),
        "misere-tricks": seed_misere_in_progress(live_server, bid=True),
        "misere-finished": seed_misere(live_server),
    }


@pytest.mark.parametrize("language", ["en", "pl", "it"])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", BOARD_SIZES)
def test_the_scoreboard_is_one_strip(
    size: str,
    theme: str,
    language: str,
    browser: Browser,
    live_server: LiveServer,
    board_games: dict[str, dict[str, Any]],
) -> None:
    """At most a fifth of the screen's height upright (360x740: 148 px; 320x640: 128 px), a third
    sideways (740x360: 120 px), whatever the names, totals, theme and language: a column per player, one
    line per name (a long one ends in "…" there, whole in the page for a screen reader), nothing off the
    edge."""
    from test_e2e_long_names import pencil_cookies

    width, height = BOARD_SIZES[size]
    share = 1 / 3 if width > height else 1 / 5
    device = {**PHONE, "viewport": {"width": width, "height": height}, "device_scale_factor": 1}
    context = new_context(browser, device, color_scheme=theme)
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    context.add_cookies(pencil_cookies(live_server, board_games))  # type: ignore[arg-type]
    page = context.new_page()
    problems: list[str] = []
    for name, game in board_games.items():
        page.goto(live_server.origin + f"/games/{game['id']}")
        board: dict[str, Any] = page.evaluate(BOARD_JS)
        if board["height"] > share * height:
            problems.append(f"{name}: the scoreboard is {board['height']:.0f}px of {height}")
        if [n["text"] for n in board["names"]] != list(game["players"]):
            problems.append(f"{name}: names on the scoreboard {[n['text'] for n in board['names']]}")
        problems += [f"{name}: {n['text']} on {n['lines']} lines" for n in board["names"] if n["lines"] != 1]
        overflow = page.evaluate(OVERFLOW_JS)
        if overflow["page"] > 0 or overflow["elements"]:
            problems.append(f"{name}: wider than the screen: {overflow}")
        if language == "pl" or size in ("320x640", "740x360"):
            screenshot(page, f"board-{size}-{theme}-{language}-{name}")
    context.close()
    assert problems == [], "\n".join(problems)
