"""What a person notices at the table: text readable on its real background, Share one tap away, live
updates that neither leave old news up nor push the form, and a screen that stays on over plain http.

Why axe did not catch the invisible "Import a game" link: axe reports text whose colour equals its
background (a 1:1 ratio) as *incomplete*, not as a violation, on the guess that it is hidden on purpose;
the accessibility test fails on violations only. The check below measures every piece of text against
the background actually painted behind it (semi-transparent layers composited), in both themes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from e2e_support import PHONE, STATES, Games, LiveServer, api_game, scorer_context

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# Every element with text of its own: its colour against the composited backgrounds of the element
# and its ancestors; WCAG AA (4.5:1, or 3:1 for large text).
CONTRAST_JS = """() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const luminance = (c) => {
    const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    const [r, g, b] = c.slice(0, 3).map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (e) => {
    const layers = [];
    for (let p = e; p; p = p.parentElement) {
      const c = parse(getComputedStyle(p).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg, .visually-hidden, .skip, [aria-hidden=true]')) continue;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !e.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const style = getComputedStyle(e);
    const bg = background(e);
    const fg = over(parse(style.color), bg);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const text = e.textContent.trim().slice(0, 40);
    if (ratio < needed) out.push(`${e.tagName.toLowerCase()}.${e.className} "${text}" ${ratio.toFixed(2)}:1`);
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_is_readable_on_its_real_background(
    scheme: str, browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games, color_scheme=scheme)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for name, show in STATES.items():
        show(page, live_server, games)
        low = page.evaluate(CONTRAST_JS)
        if low:
            found[name] = low
    context.close()
    assert found == {}, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)


def test_the_contrast_check_sees_text_the_colour_of_its_background(
    browser: Browser, live_server: LiveServer
) -> None:
    """The check itself: the old home page's import link (felt green on felt green) fails it."""
    context = scorer_context(browser, PHONE, live_server, Games(*[api_game(live_server)] * 4))
    page = context.new_page()
    page.goto(live_server.origin + "/")
    assert page.evaluate(CONTRAST_JS) == []
    page.evaluate(
        "() => { const felt = getComputedStyle(document.querySelector('.hero')).backgroundColor;"
        " document.querySelector('.hero-more a').style.color = felt; }"
    )
    assert [line.split('"')[1] for line in page.evaluate(CONTRAST_JS)] == ["Import a game"]
    context.close()


def test_share_is_one_tap_from_the_top_of_the_game(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games)
    context.add_init_script(
        "window.__shared = [];"
        "navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };"
    )
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    share = page.get_by_role("link", name="Share")
    box = share.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["viewport"]["height"], "in view without scrolling"
    share.tap()
    shared = page.evaluate("() => window.__shared")
    assert shared == [{"title": page.title(), "url": live_server.origin + games.declaring.path()}]
    assert page.url.endswith(games.declaring.path()), "the phone's share sheet, not a jump down the page"
    # The QR codes in the panel are centred.
    page.evaluate("() => { document.getElementById('share').closest('details').open = true; }")
    for svg in page.locator("#share svg").all():
        qr, figure = svg.bounding_box(), svg.locator("xpath=..").bounding_box()
        assert (
            qr
            and figure
            and abs((qr["x"] - figure["x"]) - (figure["x"] + figure["width"] - qr["x"] - qr["width"])) < 2
        )
    context.close()


def test_without_a_share_sheet_the_link_is_copied(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.origin)
    context.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    page.get_by_role("link", name="Share").tap()
    toast = page.locator("#toast")
    toast.wait_for()
    assert toast.inner_text().strip().endswith("Link copied: paste it to the other phones.")
    assert (
        page.evaluate("() => navigator.clipboard.readText()") == live_server.origin + games.declaring.path()
    )
    context.close()


def test_without_javascript_share_opens_the_panel(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    page.get_by_role("link", name="Share").tap()
    page.wait_for_function("() => document.getElementById('share').closest('details').open")
    assert page.locator("#share figcaption a").first.is_visible()
    context.close()


def test_live_updates_clear_old_news_and_never_push_the_form(
    browser: Browser, live_server: LiveServer
) -> None:
    game = api_game(live_server, deals=2)
    context = scorer_context(browser, PHONE, live_server, Games(*[game] * 4))
    page = context.new_page()
    page.goto(live_server.origin + game.path())
    tap_contract = page.locator("button.contract").first
    with page.expect_navigation(wait_until="load"):
        tap_contract.tap()
    assert page.locator(".flash").count() == 1  # "Deal 3: ... Enter the tricks when played."
    # Another phone enters deal 3's tricks: this page follows, and the old message goes.
    state = live_server.api("GET", f"/api/v1/games/{game.id}")
    pending = state["deals"][-1]
    order = state["players"]
    tricks = dict(zip(order, [5, 4, 4], strict=True))
    live_server.api("PUT", f"/api/v1/games/{game.id}/deals/{pending['number']}", {"tricks": tricks}, game.key)
    page.wait_for_selector("button.contract", timeout=15_000)
    assert page.locator(".flash").count() == 0, "no 'Deal 3: ...' once deal 4 is up"

    # Typing while another phone records: a notice at the foot of the screen; the form stays put.
    field = page.locator("button.contract").first
    before = field.bounding_box()
    page.evaluate(
        "() => { const i = document.createElement('input'); i.type = 'number'; i.value = '3';"
        " document.querySelector('.declare-form').append(i); i.focus(); }"
    )
    nxt = live_server.api("GET", f"/api/v1/games/{game.id}")["next_deal"]
    live_server.api(
        "POST",
        f"/api/v1/games/{game.id}/deals",
        {"number": nxt["number"], "contract": nxt["available_contracts"][0]},
        game.key,
    )
    notice = page.locator("#toast")
    notice.wait_for(timeout=15_000)
    assert "updated on another phone" in notice.inner_text()
    assert page.evaluate("() => getComputedStyle(document.getElementById('toast')).position") == "fixed"
    assert field.bounding_box() == before
    context.close()


def test_the_screen_stays_on_over_plain_http(browser: Browser, live_server: LiveServer, games: Games) -> None:
    """No Wake Lock API (not a secure context): the first tap starts a muted blank video from our origin."""
    context = scorer_context(browser, PHONE, live_server, games)
    context.add_init_script(
        "delete Navigator.prototype.wakeLock;"
        "window.__videos = []; const play = HTMLMediaElement.prototype.play;"
        "HTMLMediaElement.prototype.play = function () {"
        " window.__videos.push(this); return play.call(this); };"
    )
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    assert page.evaluate("() => 'wakeLock' in navigator") is False
    page.locator("h1").tap()
    page.wait_for_function("() => window.__videos.length > 0 && !window.__videos[0].paused", timeout=10_000)
    sources = page.evaluate(
        "() => Array.from(window.__videos[0].querySelectorAll('source')).map((s) => s.src)"
    )
    assert sources == [live_server.origin + f"/static/media/keepawake.{kind}" for kind in ("webm", "mp4")]
    assert page.evaluate("() => window.__videos[0].muted && window.__videos[0].loop")
    assert page.locator("[data-awake-note]").is_hidden()
    context.close()
