"""A whole Mizerka game by taps on a 360 px phone: the contract, two counts, save. Four taps a deal, no
keyboard: the third count fills itself. And the filled-in count stays a suggestion one can replace."""

from __future__ import annotations

from typing import TYPE_CHECKING

from e2e_support import PHONE, LiveServer, expected_totals, new_context, screenshot, shown_totals
from helpers import MIZERKA_DEALS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 780}}


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


def test_a_whole_mizerka_game_in_four_taps_a_deal(browser: Browser, live_server: LiveServer) -> None:
    context = new_context(browser, PHONE_360)
    page = context.new_page()
    page.goto(live_server.origin + "/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_label("Seat 3 deals").check()
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Start the game").click()
    taps = Taps(page)
    per_deal = []
    for deal in MIZERKA_DEALS:
        before = taps.count
        taps.tap(page.locator(f"button.contract[value='{deal.contract}']"), navigates=True)
        assert page.evaluate("() => document.activeElement.tagName") != "INPUT", "no keyboard on a phone"
        taps.tap(chip(page, 0, deal.tricks[0]))
        taps.tap(chip(page, 1, deal.tricks[1]))
        assert page.locator("#tricks-2").input_value() == str(deal.tricks[2])
        assert page.locator('[data-hint="tricks"]').inner_text() == "The counts add up to 13."
        if deal.number == 5:
            screenshot(page, "360-tricks-by-tap")
        taps.tap(page.get_by_role("button", name=f"Save deal {deal.number}"), navigates=True)
        assert shown_totals(page) == expected_totals(deal.totals)
        per_deal.append(taps.count - before)
    assert per_deal == [4] * 18, per_deal
    assert page.locator("#final-heading").inner_text() == "Winners: Ann & Bob"
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
    # Emptied again, the box stays the person's: another count does not refill it.
    third.fill("")
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
