"""A whole Mizerka game by taps on a 360 px phone: the contract, two counts, save. Four taps a deal
(three when the chooser has one contract left), no keyboard: the third count fills itself. And the
filled-in count stays a suggestion one can replace."""

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


def test_a_whole_mizerka_game_in_four_taps_a_deal_and_three_for_a_last_contract(
    browser: Browser, live_server: LiveServer
) -> None:
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
        if deal.number <= 15:
            taps.tap(page.locator(f"button.contract[value='{deal.contract}']"), navigates=True)
        else:  # the chooser's last contract is chosen already: its counts at once
            assert page.locator("button.contract").count() == 0
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
    assert per_deal == [4] * 15 + [3] * 3, per_deal
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
# "missed". Deals 7 and 8 have no bids: three counts and Save.
MISERE_NAMES = ["Ann", "Bob", "Cid", "Dan"]
MISERE_BIDS = [(3, 2, 4, 1), (2, 3, 3, 0), (4, 1, 2, 5), (0, 3, 3, 3), (1, 1, 5, 2), (3, 3, 3, 2)]
MISERE_LAST = [(4, 3, 5, 1), (2, 2, 2, 7)]


def count_chip(page: Page, kind: str, seat: int, count: int) -> Locator:
    return page.locator(f'.count-chips[data-for="{kind}-{seat}"] button[value="{count}"]')


def test_a_whole_misere_game_by_taps(browser: Browser, live_server: LiveServer) -> None:
    """A bidding deal where one player missed in 7 taps (four bids, Save, 'missed', Save), the others in 4."""
    from playwright.sync_api import expect

    context = new_context(browser, PHONE_360)
    page = context.new_page()
    page.goto(live_server.origin + "/games/new?game=misere")
    for seat, name in enumerate(MISERE_NAMES):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_label("Seat 1 deals").check()
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Start the game").click()
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    taps = Taps(page)
    per_deal, previews = [], []
    for number, bids in enumerate(MISERE_BIDS, start=1):
        before = taps.count
        dealer = (number - 1) % 4
        order = [(dealer + offset) % 4 for offset in range(1, 5)]
        assert page.locator('li[aria-current="step"]').inner_text().startswith(str(number))
        for seat, bid in zip(order[:3], bids[:3], strict=True):
            taps.tap(count_chip(page, "bids", seat, bid))
        forbidden = 13 - sum(bids[:3])
        if 0 <= forbidden <= 13:
            expect(count_chip(page, "bids", dealer, forbidden)).to_be_disabled()
            note = page.locator("[data-forbidden-note]")
            expect(note).to_have_text(
                f"{MISERE_NAMES[dealer]} may not bid {forbidden}: the bids would add up to 13."
            )
            assert page.get_by_text("may not bid").count() == 1, "said once, at the dealer"
        if number == 1:
            screenshot(page, "360-misere-bids")
        taps.tap(count_chip(page, "bids", dealer, bids[3]))
        taps.tap(page.get_by_role("button", name="Save the bids"), navigates=True)
        # The tricks in bidding order, each with the bid, never "quota".
        rows = page.locator(".tricks-form .number-row")
        assert [rows.nth(i).get_attribute("data-seat") for i in range(4)] == [str(s) for s in order]
        assert "quota" not in page.locator(".tricks-form").inner_text().lower()
        # The dealer missed: one tap gives everyone else their bid and the dealer what is left.
        taps.tap(page.locator(f'button.missed[data-target="tricks-{dealer}"]'))
        for seat, bid in zip(order[:3], bids[:3], strict=True):
            assert page.locator(f"#tricks-{seat}").input_value() == str(bid)
        assert page.locator(f"#tricks-{dealer}").input_value() == str(13 - sum(bids[:3]))
        expect(page.locator(f'output[data-preview-seat="{order[0]}"]')).not_to_have_text("")
        previews.append([page.locator(f'output[data-preview-seat="{s}"]').inner_text() for s in range(4)])
        if number == 1:
            screenshot(page, "360-misere-tricks")
        taps.tap(page.get_by_role("button", name=f"Save deal {number}"), navigates=True)
        per_deal.append(taps.count - before)
    for number, tricks in enumerate(MISERE_LAST, start=7):
        before = taps.count
        for seat in range(3):
            taps.tap(count_chip(page, "tricks", seat, tricks[seat]))
        assert page.locator("#tricks-3").input_value() == str(tricks[3])
        expect(page.locator('output[data-preview-seat="3"]')).not_to_have_text("")
        previews.append([page.locator(f'output[data-preview-seat="{s}"]').inner_text() for s in range(4)])
        taps.tap(page.get_by_role("button", name=f"Save deal {number}"), navigates=True)
        per_deal.append(taps.count - before)
    assert per_deal == [7] * 6 + [4] * 2, per_deal
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
    context.close()
