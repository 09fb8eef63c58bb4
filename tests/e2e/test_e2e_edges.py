"""Small screens, the details: the rankings sorted by one compact control and listing only players with a
finished game; a player's contracts without hidden columns; the correction page's list a real tap target in
both themes; a quota never split from its number; the header's links on one line; a link in a sentence
that leaves the lines where they were."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import PHONE, LiveServer, api_game, in_both_themes, new_context, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

THEMES = ["light", "dark"]


def phone(width: int, height: int = 740) -> dict[str, Any]:
    return {**PHONE, "viewport": {"width": width, "height": height}, "device_scale_factor": 2}


def open_page(browser: Browser, server: LiveServer, width: int, language: str = "en", **options: Any) -> Page:
    context = new_context(browser, phone(width), **options)
    context.add_cookies([{"name": "lang", "value": language, "url": server.origin}])
    return context.new_page()


@pytest.mark.parametrize("theme", THEMES)
def test_rankings_sort_by_one_compact_control_and_list_only_finished_players(
    theme: str, browser: Browser, live_server: LiveServer
) -> None:
    api_game(live_server, deals=18)  # Ann, Bob and Cid finish a game
    unfinished = live_server.api(
        "POST", "/api/v1/games", {"players": ["Ann", "Bob", "Yolanda Onlyunfinished"], "first_dealer": "Ann"}
    )
    body = {"number": 1, "contract": "hearts", "tricks": {"Ann": 7, "Bob": 5, "Yolanda Onlyunfinished": 1}}
    live_server.api("POST", f"/api/v1/games/{unfinished['id']}/deals", body, unfinished["edit_key"])
    page = open_page(browser, live_server, 360, color_scheme=theme)
    for period in ("all", "year", "30d"):
        page.goto(f"{live_server.origin}/rankings?period={period}")
        text = page.locator("main").inner_text()
        assert "Yolanda" not in text, f"a player with no finished game is ranked ({period})"
        assert "Ann" in text
    page.goto(live_server.origin + "/rankings")
    screenshot(page, f"edges-rankings-360-{theme}")
    # The headings' row is read out, not shown; no stray "·"; the control is one labelled list.
    assert (
        page.evaluate("() => document.querySelector('.rankings thead').getBoundingClientRect().height") <= 1
    )
    assert "·" not in page.locator("main .rankings").inner_text()  # the game list's names have theirs
    control = page.get_by_label("Sort by")
    box = control.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 360
    order = page.get_by_label("Order").bounding_box()
    assert order is not None and abs(order["y"] - box["y"]) < 2, "the two lists share a row"
    assert not page.get_by_role("button", name="Sort").is_visible(), "with the script, choosing sorts"
    with page.expect_navigation(wait_until="load"):
        control.select_option("name")
    # A new column its natural way round, on the ranking shown (the latest game's).
    assert page.url.endswith("/rankings?game=mizerka&sort=name"), page.url
    names = page.locator(".rankings tbody th").all_inner_texts()
    assert names == sorted(names, key=str.lower)
    page.context.close()
    # Without the script, the button sends the choice.
    page = open_page(browser, live_server, 360, java_script_enabled=False)
    page.goto(live_server.origin + "/rankings")
    page.get_by_label("Sort by").select_option("points")
    page.get_by_label("Order").select_option("asc")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Sort").click()
    assert "sort=points" in page.url and "dir=asc" in page.url
    page.context.close()


# Every cell of the table inside the screen and its box not scrolling sideways.
CONTRACTS_FIT_JS = """() => {
  const table = document.querySelector('table.contract-stats');
  const wrap = table.closest('.table-wrap');
  const cells = [...table.querySelectorAll('tbody td, tbody th')].map((e) => e.getBoundingClientRect());
  return {scrolls: wrap.scrollWidth - wrap.clientWidth, cells: cells.length,
          outside: cells.filter((r) => r.right > innerWidth + 0.5 || r.left < -0.5).length};
}"""


@pytest.mark.parametrize(("width", "theme"), in_both_themes([320, 360, 390]))
def test_a_player_s_contracts_show_every_column_on_a_phone(
    width: int, theme: str, browser: Browser, live_server: LiveServer
) -> None:
    api_game(live_server, deals=18)
    page = open_page(browser, live_server, width, "it", color_scheme=theme)
    page.goto(live_server.origin + "/players")
    page.locator("main a[href^='/players/']", has_text="Ann").first.click()
    page.wait_for_load_state()
    fit = page.evaluate(CONTRACTS_FIT_JS)
    # Six contracts: the name, chosen, average, made and the 1st to 6th choice.
    assert fit["cells"] == 6 * 10 and fit["outside"] == 0 and fit["scrolls"] <= 0, fit
    # Each figure says what it is: its heading beside it.
    labels = page.evaluate(
        "() => [...document.querySelectorAll('table.contract-stats tbody td')].map("
        "(e) => getComputedStyle(e, '::before').content)"
    )
    assert all(label not in ("none", "normal", '""') for label in labels), labels[:5]
    screenshot(page.locator("table.contract-stats"), f"edges-contracts-{width}-{theme}")
    page.context.close()


@pytest.mark.parametrize("theme", THEMES)
def test_the_swap_list_is_a_comfortable_tap_target_styled_like_the_fields(
    theme: str, browser: Browser, live_server: LiveServer
) -> None:
    game = api_game(live_server, deals=18)
    page = open_page(browser, live_server, 360, color_scheme=theme)
    page.context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page.goto(live_server.origin + game.path("/deals/1/edit"))
    swap = page.locator("select")
    assert swap.count() == 1
    look = swap.evaluate(
        """(e) => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
        const field = getComputedStyle(document.querySelector('input, .choice'));
        return {height: r.height, right: r.right, font: parseFloat(s.fontSize), border: s.borderTopWidth,
                radius: s.borderTopLeftRadius, background: s.backgroundColor, color: s.color,
                card: getComputedStyle(e.closest('.card')).backgroundColor, appearance: s.appearance}; }"""
    )
    assert look["height"] >= 44 and look["right"] <= 360, look
    assert look["font"] >= 16 and look["border"] == "2px" and look["radius"] == "8px", look
    assert look["background"] == look["card"], look  # the field's surface, dark in the dark theme
    swap.scroll_into_view_if_needed()
    screenshot(page, f"edges-correct-360-{theme}")
    page.context.close()


def test_a_quota_stays_with_its_number(browser: Browser, live_server: LiveServer) -> None:
    game = api_game(live_server, deals=4, declare_next=True)
    for language, word in (("pl", "plan"), ("it", "obiettivo")):
        page = open_page(browser, live_server, 320, language)
        page.context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
        page.goto(live_server.origin + game.path())
        what = page.locator(".number-row .what").all_inner_texts()
        assert what and all(f"{word}\u00a0" in text for text in what), what
        page.context.close()


# Lines of a link's text (a nav link on one line) and the line boxes of a paragraph with a link.
LINES_JS = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top))).size;
})"""


@pytest.mark.parametrize("language", ["en", "pl", "it"])
def test_the_header_s_links_keep_to_one_line_and_inline_links_keep_the_lines(
    language: str, browser: Browser, live_server: LiveServer
) -> None:
    page = open_page(browser, live_server, 320, language)
    page.goto(live_server.origin + "/")
    assert page.evaluate(LINES_JS, "header.site nav a") == [1, 1, 1]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    # The import link's line is as tall as the paragraph's other lines, its tap area still 44 px.
    spacing = page.evaluate(
        """() => { const p = document.querySelector('.hero-more'), a = p.querySelector('a');
        const range = document.createRange(); range.selectNodeContents(p);
        const tops = [...new Set([...range.getClientRects()].map((r) => Math.round(r.top)))];
        return {height: p.getBoundingClientRect().height, lines: tops.length,
                line: parseFloat(getComputedStyle(p).lineHeight), tap: a.getBoundingClientRect().height}; }"""
    )
    assert spacing["height"] <= spacing["lines"] * spacing["line"] + 1, spacing
    assert spacing["tap"] >= 44, spacing
    page.context.close()
