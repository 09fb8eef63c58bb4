"""The phone at the table: it works without JavaScript, the small touches work with it, the screen stays
awake, both themes, installable, the rules at hand, and a light page that never calls another origin."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

import pytest
from e2e_support import (
    OUTPUT,
    PHONE,
    Games,
    LiveServer,
    api_game,
    expected_totals,
    new_context,
    scorer_context,
    shown_totals,
    tap_and_load,
)
from helpers import MIZERKA_DEALS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PAGE_WEIGHT_LIMIT = 50 * 1024  # bytes on the wire: the game page with its CSS, JS and icons


def test_a_game_is_played_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    """Plain forms: tap the contract, type the three counts, save; no tap target is offered."""
    context = new_context(browser, PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.origin + "/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_label("Seat 3 deals").check()
    tap_and_load(page, page.get_by_role("button", name="Start the game"))
    for deal in MIZERKA_DEALS[:2]:
        tap_and_load(page, page.locator(f"button.contract[value='{deal.contract}']"))
        assert page.locator(".count-chips").first.is_hidden(), "the taps need the script"
        for seat, count in enumerate(deal.tricks):
            page.locator(f"#tricks-{seat}").fill(str(count))
        tap_and_load(page, page.get_by_role("button", name=f"Save deal {deal.number}"))
        assert shown_totals(page) == expected_totals(deal.totals)
    context.close()


def test_the_last_count_fills_itself_and_zero_is_one_tap(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games)
    page = context.new_page()
    page.goto(live_server.origin + games.tricks.path())
    fields = [page.locator(f"#tricks-{seat}") for seat in range(3)]

    def tap(seat: int, count: int) -> None:
        chips = page.locator(f'.count-chips[data-for="tricks-{seat}"]')
        if not chips.is_visible():  # one player's taps at a time: a tap on the line opens theirs
            page.locator(f'.number-row[data-seat="{seat}"] .who').tap()
        chips.locator(f'button[value="{count}"]').tap()

    # Zero is one tap, from an empty box.
    tap(0, 0)
    assert fields[0].input_value() == "0"
    tap(1, 7)
    assert fields[1].input_value() == "7"
    # Two counts known: the third is filled in, marked as filled by the app.
    assert fields[2].input_value() == "6"
    assert fields[2].get_attribute("data-auto") == "1"
    # A changed count updates it; the person's own entries are never overwritten.
    fields[1].fill("9")
    assert fields[2].input_value() == "4"
    fields[2].fill("3")
    assert fields[2].get_attribute("data-auto") is None
    fields[1].fill("8")
    assert fields[2].input_value() == "3"
    # Impossible sums fill nothing in.
    fields[2].fill("")
    fields[1].fill("13")
    fields[0].fill("5")
    assert fields[2].input_value() == ""
    tap(2, 13)
    assert fields[2].input_value() == "13"
    context.close()


WAKE_LOCK_SPY = """
  window.__wakeLocks = [];
  Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
    request: (kind) => {
      window.__wakeLocks.push(kind);
      return Promise.resolve({ release: () => Promise.resolve() });
    },
  }});
"""


def test_the_screen_is_kept_awake_while_a_game_is_open(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games)
    context.add_init_script(WAKE_LOCK_SPY)
    page = context.new_page()
    page.goto(live_server.origin + games.tricks.path())
    page.wait_for_function("() => window.__wakeLocks.length > 0")
    assert page.evaluate("() => window.__wakeLocks") == ["screen"]
    # The browser drops the lock when the page is hidden; it is asked for again on coming back.
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate("() => window.__wakeLocks") == ["screen", "screen"]
    page.goto(live_server.origin + "/")
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.__wakeLocks") == [], "only a game keeps the screen on"
    context.close()


def test_the_real_wake_lock_api_is_asked_without_errors(
    browser: Browser, live_server: LiveServer, games: Games
) -> None:
    """Unstubbed: where the API is refused (headless, no permission) the page says nothing."""
    context = scorer_context(browser, PHONE, live_server, games)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(live_server.origin + games.tricks.path())
    assert page.evaluate("() => 'wakeLock' in navigator"), "Chromium offers the Screen Wake Lock API"
    page.wait_for_timeout(300)
    assert problems == []
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_system(
    scheme: str, browser: Browser, live_server: LiveServer, games: Games
) -> None:
    context = scorer_context(browser, PHONE, live_server, games, color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    colours = page.evaluate(
        """() => ({body: getComputedStyle(document.body).backgroundColor,
                   text: getComputedStyle(document.body).color,
                   scheme: getComputedStyle(document.documentElement).colorScheme})"""
    )
    light = {"body": "rgb(238, 242, 236)", "text": "rgb(20, 35, 27)"}
    dark = {"body": "rgb(16, 35, 26)", "text": "rgb(230, 239, 233)"}
    assert {key: colours[key] for key in ("body", "text")} == (dark if scheme == "dark" else light)
    assert page.locator("meta[name=theme-color]").count() == 2  # one per scheme, for the browser's bar
    context.close()


def test_it_installs_like_an_app(browser: Browser, live_server: LiveServer) -> None:
    """A web app manifest Chromium accepts, nothing stopping an install, and a start_url that opens
    the list of games (the manifest's fields and icons, as served: tests/i18n/test_manifest.py)."""
    context = new_context(browser, PHONE)
    page = context.new_page()
    page.goto(live_server.url)
    manifest_url = urljoin(page.url, page.locator("head link[rel=manifest]").get_attribute("href") or "")
    manifest: dict[str, Any] = json.loads(page.request.get(manifest_url).body())

    # What Chromium itself makes of it: no manifest errors, and nothing stopping an install.
    cdp = context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [], parsed["errors"]
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito profiles, where Chromium never offers an install.
    assert [e for e in installability if e["errorId"] != "in-incognito"] == [], installability

    # Launched from the home screen: start_url is the list of games.
    start = urljoin(manifest_url, manifest["start_url"])
    assert urlsplit(start)[:2] == urlsplit(live_server.url)[:2]
    page.goto(start)
    # The home page, whatever games the server holds (its lists have their own headings).
    assert page.get_by_role("heading", level=1, name="Keep the score, play the cards").is_visible()
    context.close()


def test_the_rules_are_one_tap_from_the_game(browser: Browser, live_server: LiveServer, games: Games) -> None:
    context = scorer_context(browser, PHONE, live_server, games)
    page = context.new_page()
    page.goto(live_server.origin + games.declaring.path())
    tap_and_load(page, page.locator("section.links").get_by_role("link", name="Rules"))
    assert urlsplit(page.url).path == "/rules" and urlsplit(page.url).fragment == "mizerka"
    heading = page.get_by_role("heading", name="Mizerka", exact=True)
    assert heading.is_visible() and heading.bounding_box() is not None
    assert "Quotas and scores" in page.locator("#mizerka").inner_text()
    context.close()


def transferred(page: Page, url: str) -> dict[str, int]:
    """Bytes on the wire (headers included) for every response while ``url`` loads, by URL."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on(
        "Network.responseReceived",
        lambda event: urls.__setitem__(event["requestId"], event["response"]["url"]),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]),
    )
    page.goto(url, wait_until="networkidle")
    return {urls.get(request, request): size for request, size in sizes.items()}


def test_the_game_page_is_light_and_stays_home(browser: Browser, live_server: LiveServer) -> None:
    """At most 50 KB on the wire, the biggest game page (finished, as the scorer sees it, share panel
    included) with its CSS, JS and icons, cache empty; every request goes to the server's own origin."""
    game = api_game(live_server, deals=18)
    context = new_context(browser, PHONE)
    context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    report: dict[str, dict[str, int]] = {}
    for label, path in (("finished", game.path()), ("scoresheet", game.path("/scoresheet")), ("home", "/")):
        sizes = transferred(page, live_server.origin + path)
        report[label] = sizes
        origin = urlsplit(live_server.url)[:2]
        assert [url for url in sizes if urlsplit(url)[:2] != origin] == []
    # The same for a game in progress, the page that stays open all evening.
    progress = api_game(live_server, deals=9, declare_next=True)
    context.add_cookies([progress.cookie(live_server)])  # type: ignore[list-item]
    report["in-progress"] = transferred(page, live_server.origin + progress.path())
    context.close()
    totals = {label: sum(sizes.values()) for label, sizes in report.items()}
    OUTPUT.mkdir(parents=True, exist_ok=True)  # this may be the run's first test to write there
    (OUTPUT / "page-weight.json").write_text(json.dumps({"totals": totals, "responses": report}, indent=1))
    print(f"page weight (bytes on the wire): {totals}")
    game_page = report["finished"]
    kinds = {urlsplit(url).path.rsplit(".", 1)[-1] for url in game_page}
    assert {"css", "js", "svg"} <= kinds, game_page
    for label in ("finished", "in-progress"):
        assert totals[label] <= PAGE_WEIGHT_LIMIT, f"the {label} game page weighs {totals[label]} bytes"
