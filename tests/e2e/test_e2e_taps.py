"""Whole games by taps, as a table plays them on a phone held in one hand.

Mizerka in Polish on a 360x740 phone: the contract, two counts, save. Four taps a deal (three when the
chooser has one contract left), no keyboard: the third count fills itself. Misère in Italian, on a
320x640 phone (scrolling allowed, nothing wider than the screen) and on a 360x740 one: a bidding deal
where one player missed in 7 taps (four bids, Save, "missed", Save), one where two missed in 9 (four
bids, Save, three counts, Save), a deal without bids in 4.

At 360x740 every step of a deal fits the screen without scrolling, under the sticky scoreboard: each
contract button; each count's taps, box and Save; each bid's taps, box and Save. The page opens that
way after every Save (it may scroll itself, the person never does), and the scoreboard takes at most a
fifth of the height. And the filled-in count stays a suggestion one can replace."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import PHONE, SCREENS, LiveServer, expected_totals, new_context, screenshot, shown_totals
from helpers import MIZERKA_DEALS
from test_e2e_layout import OVERFLOW_JS, STEP_IN_VIEW_JS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 740}}
PHONE_320 = {**PHONE, "viewport": {"width": 320, "height": 640}, "device_scale_factor": 2}


def step_on_one_screen(page: Page, what: str) -> None:
    """Every control of the step at hand on screen, under the scoreboard and not covered by it, without
    the person scrolling; the scoreboard at most a fifth of the screen's height."""
    place: dict[str, Any] = page.evaluate(STEP_IN_VIEW_JS)
    assert place["controls"] > 0, what
    assert place["outside"] == [], f"{what}: {place}"
    assert place["board"] <= place["height"] / 5, f"{what}: the scoreboard takes {place['board']}px"


def nothing_wider_than_the_screen(page: Page, what: str) -> None:
    overflow = page.evaluate(OVERFLOW_JS)
    assert overflow["page"] <= 0 and not overflow["elements"], f"{what}: {overflow}"


def start(
    page: Page, server: LiveServer, game: str, names: list[str], first_dealer: int, language: str
) -> None:
    """The new-game form, in the page's language: names, who deals first, start."""
    page.context.add_cookies([{"name": "lang", "value": language, "url": server.origin}])
    page.goto(server.origin + f"/games/new?game={game}")
    for seat, name in enumerate(names):
        page.locator(f"#players-{seat}").fill(name)
    page.locator(f'input[name="first_dealer"][value="{first_dealer}"]').check()
    with page.expect_navigation(wait_until="load"):
        page.locator("main form .button.primary.big").click()


def save_button(page: Page) -> Locator:
    return page.locator("#turn form .actions button[type=submit]")


class Taps:
    """Counts every tap made on the page."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def tap(self, target: Locator, navigates: bool = False) -> None:
        self.count += 1
        if navigates:
            with self.page.expect_navigation(wait_until="load"):
                target.tap()
        else:
            target.tap()


def chip(page: Page, seat: int, count: int) -> Locator:
    return page.locator(f'.count-chips[data-for="tricks-{seat}"] button[value="{count}"]')


def test_a_whole_mizerka_game_in_polish_in_four_taps_a_deal_each_step_on_one_screen(
    browser: Browser, live_server: LiveServer
) -> None:
    context = new_context(browser, PHONE_360)
    page = context.new_page()
    start(page, live_server, "mizerka", ["Ann", "Bob", "Cid"], 2, "pl")
    taps = Taps(page)
    per_deal = []
    for deal in MIZERKA_DEALS:
        before = taps.count
        if deal.number <= 15:
            step_on_one_screen(page, f"deal {deal.number}: the contracts")
            taps.tap(page.locator(f"button.contract[value='{deal.contract}']"), navigates=True)
        else:  # the chooser's last contract is chosen already: its counts at once
            assert page.locator("button.contract").count() == 0
        assert page.evaluate("() => document.activeElement.tagName") != "INPUT", "no keyboard on a phone"
        step_on_one_screen(page, f"deal {deal.number}: the counts")
        taps.tap(chip(page, 0, deal.tricks[0]))
        step_on_one_screen(page, f"deal {deal.number}: the second count")
        taps.tap(chip(page, 1, deal.tricks[1]))
        assert page.locator("#tricks-2").input_value() == str(deal.tricks[2])
        assert page.locator('[data-hint="tricks"]').inner_text() == "Suma się zgadza: 13."
        step_on_one_screen(page, f"deal {deal.number}: the counts filled in, Save")
        if deal.number == 5:
            screenshot(page, "360-tricks-by-tap")
        taps.tap(save_button(page), navigates=True)
        assert shown_totals(page) == expected_totals(deal.totals)
        per_deal.append(taps.count - before)
    assert per_deal == [4] * 15 + [3] * 3, per_deal
    assert page.locator("#final-heading").inner_text() == "Wygrana: Ann & Bob"
    context.close()


def test_the_filled_in_count_is_a_suggestion(browser: Browser, live_server: LiveServer) -> None:
    """Backspace on it leaves it empty; typing replaces it ('6', not '67'); the hint counts along."""
    created = live_server.api(
        "POST", "/api/v1/games", {"players": ["Ann", "Bob", "Cid"], "first_dealer": "Cid"}
    )
    live_server.api(
        "POST", f"/api/v1/games/{created['id']}/deals", {"contract": "hearts"}, created["edit_key"]
    )
    context = new_context(browser, PHONE)
    context.add_cookies(
        [
            {
                "name": f"sk_edit_{created['id']}",
                "value": created["edit_key"],
                "url": f"{live_server.origin}/games/{created['id']}",
            }
        ]
    )
    page = context.new_page()
    page.goto(live_server.origin + f"/games/{created['id']}")
    hint = page.locator('[data-hint="tricks"]')
    chip(page, 0, 5).tap()
    assert hint.inner_text() == "5 of 13 so far."
    chip(page, 1, 1).tap()
    third = page.locator("#tricks-2")
    assert third.input_value() == "7" and hint.inner_text() == "The counts add up to 13."
    third.focus()
    page.keyboard.press("Backspace")
    assert third.input_value() == "", "emptied by the person, not filled again"
    assert hint.inner_text() == "6 of 13 so far."
    page.keyboard.type("6")
    assert third.input_value() == "6"
    assert hint.inner_text() == "12 of 13 so far."
    # Emptied again, the box stays the person's: another count does not refill it. (The taps are
    # open under one player at a time: a tap on Bob's line opens his.)
    third.fill("")
    page.locator('.number-row[data-seat="1"] .who').tap()
    chip(page, 1, 2).tap()
    assert third.input_value() == ""
    # Focus selects a count, so typing replaces it.
    page.locator("#tricks-0").focus()
    page.keyboard.type("4")
    assert page.locator("#tricks-0").input_value() == "4"
    # Enter moves on, and saves from the last count.
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "tricks-1"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "tricks-2"
    page.keyboard.type("7")
    with page.expect_navigation(wait_until="load"):
        page.keyboard.press("Enter")
    assert page.locator(".flash").first.inner_text().strip().endswith("Deal 1 recorded.")
    context.close()


# A Misère game, Ann dealing first. Bids in bidding order (the dealer last), the dealer never
# making them add up to 13; then everyone but the dealer makes the bid: one tap on the dealer's
# "missed" (in deal 6 two players miss: three counts by tap). Deals 7 and 8 have no bids: three counts
# and Save.
MISERE_NAMES = ["Ann", "Bob", "Cid", "Dan"]
MISERE_BIDS = [(3, 2, 4, 1), (2, 3, 3, 0), (4, 1, 2, 5), (0, 3, 3, 3), (1, 1, 5, 2), (3, 3, 3, 2)]
MISERE_LAST = [(4, 3, 5, 1), (2, 2, 2, 7)]
# Deal 6, two players missed: the tricks in bidding order (bids 3, 3, 3 and the dealer's 2).
MISSED_BY_TWO = {6: (4, 2, 3, 4)}


def count_chip(page: Page, kind: str, seat: int, count: int) -> Locator:
    return page.locator(f'.count-chips[data-for="{kind}-{seat}"] button[value="{count}"]')


@pytest.mark.parametrize("size", ["320x640", "360x740"])
def test_a_whole_misere_game_in_italian_by_taps(size: str, browser: Browser, live_server: LiveServer) -> None:
    """A bidding deal where one player missed in 7 taps (four bids, Save, 'missed', Save), one where two
    missed in 9, the others in 4;
    at 360x740 each step on one screen, at 320x640 nothing wider than the screen."""
    from playwright.sync_api import expect

    one_screen = size == "360x740"
    context = new_context(browser, PHONE_360 if one_screen else PHONE_320, accept_downloads=True)
    if one_screen:  # a phone whose browser shares files (plain http has no share sheet otherwise)
        context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    start(page, live_server, "misere", MISERE_NAMES, 0, "it")
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    taps = Taps(page)
    per_deal, previews = [], []

    def look(what: str) -> None:
        if one_screen:
            step_on_one_screen(page, what)
        else:
            nothing_wider_than_the_screen(page, what)

    for number, bids in enumerate(MISERE_BIDS, start=1):
        before = taps.count
        dealer = (number - 1) % 4
        order = [(dealer + offset) % 4 for offset in range(1, 5)]
        assert page.locator('li[aria-current="step"]').inner_text().startswith(str(number))
        look(f"deal {number}: the bids")
        for seat, bid in zip(order[:3], bids[:3], strict=True):
            taps.tap(count_chip(page, "bids", seat, bid))
        forbidden = 13 - sum(bids[:3])
        if 0 <= forbidden <= 13:
            expect(count_chip(page, "bids", dealer, forbidden)).to_be_disabled()
            note = page.locator("[data-forbidden-note]")
            expect(note).to_have_text(
                f"{MISERE_NAMES[dealer]} non può chiamare {forbidden}: le chiamate sommate darebbero 13."
            )
            assert page.get_by_text("non può chiamare").count() == 1, "said once, at the dealer"
        look(f"deal {number}: the dealer's bid, the forbidden one said")
        if number == 1:
            screenshot(page, f"{size}-misere-bids")
        taps.tap(count_chip(page, "bids", dealer, bids[3]))
        taps.tap(save_button(page), navigates=True)
        # The tricks in bidding order, each with the bid, never "quota".
        rows = page.locator(".tricks-form .number-row")
        assert [rows.nth(i).get_attribute("data-seat") for i in range(4)] == [str(s) for s in order]
        assert "obiettivo" not in page.locator(".tricks-form").inner_text().lower()
        look(f"deal {number}: the tricks")
        if number in MISSED_BY_TWO:  # three counts by tap under each player in turn, the fourth fills itself
            tricks = MISSED_BY_TWO[number]
            for seat, count in zip(order[:3], tricks[:3], strict=True):
                taps.tap(count_chip(page, "tricks", seat, count))
            assert page.locator(f"#tricks-{dealer}").input_value() == str(tricks[3])
        else:  # the dealer missed: one tap gives everyone else their bid and the dealer what is left
            taps.tap(page.locator(f'button.missed[data-target="tricks-{dealer}"]'))
            for seat, bid in zip(order[:3], bids[:3], strict=True):
                assert page.locator(f"#tricks-{seat}").input_value() == str(bid)
            assert page.locator(f"#tricks-{dealer}").input_value() == str(13 - sum(bids[:3]))
        expect(page.locator(f'output[data-preview-seat="{order[0]}"]')).not_to_have_text("")
        previews.append([page.locator(f'output[data-preview-seat="{s}"]').inner_text() for s in range(4)])
        look(f"deal {number}: the tricks filled in, their scores shown")
        if number == 1:
            screenshot(page, f"{size}-misere-tricks")
        taps.tap(save_button(page), navigates=True)
        per_deal.append(taps.count - before)
    for number, tricks in enumerate(MISERE_LAST, start=7):
        before = taps.count
        look(f"deal {number}: the tricks, no bids")
        for seat in range(3):
            taps.tap(count_chip(page, "tricks", seat, tricks[seat]))
        assert page.locator("#tricks-3").input_value() == str(tricks[3])
        expect(page.locator('output[data-preview-seat="3"]')).not_to_have_text("")
        previews.append([page.locator(f'output[data-preview-seat="{s}"]').inner_text() for s in range(4)])
        look(f"deal {number}: the tricks filled in")
        taps.tap(save_button(page), navigates=True)
        per_deal.append(taps.count - before)
    assert per_deal == [7] * 5 + [9] + [4] * 2, per_deal
    if not one_screen:
        nothing_wider_than_the_screen(page, "the finished game")
    # What the preview showed is what the game holds, deal by deal.
    state = live_server.api("GET", f"/api/v1/games/{game_id}")
    assert state["status"] == "finished"

    def signed(value: int) -> str:
        return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"

    for deal, shown in zip(state["deals"], previews, strict=True):
        expected = [
            f"{signed(deal['scores'][name])} \u2192 {signed(deal['totals'][name])}" for name in MISERE_NAMES
        ]
        assert shown == expected, (deal["number"], shown, expected)
    totals = shown_totals(page)
    assert [total for _, total in totals] == [signed(state["totals"][name]) for name in MISERE_NAMES]
    standings_as_a_picture(page, asked, shared=one_screen)
    context.close()


# A browser that can share files: what it was given is kept for the test to read.
SHARE_SHEET = """
  window.__shared = [];
  Object.defineProperty(navigator, 'canShare', { configurable: true,
    value: (data) => !!(data && data.files && data.files.length) });
  Object.defineProperty(navigator, 'share', { configurable: true, value: (data) => {
    window.__shared.push(...data.files.map((f) => ({ name: f.name, type: f.type, size: f.size })));
    return Promise.resolve();
  }});
"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def standings_as_a_picture(page: Page, asked: list[str], shared: bool) -> None:
    """The finished game's "Share standings": its script comes with the first tap (the page stays light),
    and the picture goes to the share sheet where files can be shared, else it is downloaded."""
    from playwright.sync_api import expect

    assert not [url for url in asked if url.endswith("/standings.js")], "fetched before the tap"
    button = page.get_by_role("button", name="Condividi la classifica come immagine")
    name = f"Misère-{page.locator('.game-when time').get_attribute('datetime')}.png"  # the game's day
    if shared:
        button.tap()
        page.wait_for_function("() => window.__shared.length > 0")
        files = page.evaluate("() => window.__shared")
        assert [(f["name"], f["type"]) for f in files] == [(name, "image/png")]
        assert files[0]["size"] > 10_000
    else:
        with page.expect_download() as download:
            button.tap()
        assert download.value.suggested_filename == name
        path = download.value.path()
        width, height = png_size(path.read_bytes())
        assert width == 1080 and height > 600, (width, height)
        screenshot_file = SCREENS / "320x640-misere-standings.png"
        screenshot_file.parent.mkdir(parents=True, exist_ok=True)
        screenshot_file.write_bytes(path.read_bytes())
    expect(button).to_be_visible()
    assert [url for url in asked if url.endswith("/standings.js")], "fetched at the tap"
