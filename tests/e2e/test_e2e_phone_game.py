"""A whole 18-deal Mizerka game on a phone, with taps and the on-screen inputs only.

Along the way: a refused entry and its fix, an undo, a correction of an earlier deal, a second phone
watching live, and every request recorded to prove that nothing leaves the server's own origin.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from e2e_support import (
    PHONE,
    LiveServer,
    expected_totals,
    new_context,
    screenshot,
    shown_totals,
    tap_and_load,
)
from helpers import CONTRACT_LABELS, MIZERKA_DEALS, MIZERKA_NAMES, MizerkaDeal

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

GAME_URL = re.compile(r"/games/[A-Za-z0-9_-]+$")
WRONG_DEAL_7 = (3, 10, 0)  # typed by mistake for (10, 3, 0); corrected after deal 8


def tricks_input(page: Page, seat: int) -> Locator:
    return page.locator(f"#tricks-{seat}")


def tap_count(page: Page, seat: int, count: int) -> None:
    """A tap on the count under the player; another player's taps open, a tap on this one's line first."""
    chips = page.locator(f'.count-chips[data-for="tricks-{seat}"]')
    if not chips.is_visible():
        page.locator(f'.number-row[data-seat="{seat}"] .who').tap()
    chips.locator(f'button[value="{count}"]').tap()


def enter_count(page: Page, seat: int, count: int) -> None:
    """As a person would: up to 9 with one tap under the player, more typed."""
    field = tricks_input(page, seat)
    if count <= 9:
        tap_count(page, seat, count)
    else:
        field.tap()
        page.keyboard.type(str(count))
    assert field.input_value() == str(count)


def declare(page: Page, deal: MizerkaDeal) -> None:
    """Tap the chooser's contract among the buttons shown (only the ones still left are offered)."""
    heading = page.locator("#turn-heading")
    if deal.number > 15:  # the chooser's last contract is chosen already: nothing to tap
        assert page.locator("form.declare-form button.contract").count() == 0
        assert heading.inner_text().strip() == (
            f"Deal {deal.number}: {CONTRACT_LABELS[deal.contract]}, chosen by {deal.chooser}"
        )
        return
    assert heading.inner_text().strip() == f"{deal.chooser} chooses"
    buttons = page.locator("form.declare-form button.contract")
    assert buttons.count() == 6 - (deal.number - 1) // 3, "one contract fewer on each of the chooser's turns"
    tap_and_load(page, page.locator(f"form.declare-form button.contract[value='{deal.contract}']"))
    assert f"Deal {deal.number}: {CONTRACT_LABELS[deal.contract]}" in heading.inner_text()


def enter_tricks(page: Page, tricks: tuple[int, int, int]) -> None:
    """The first two counts by hand; the last fills itself in (a dashed box the user may still change)."""
    enter_count(page, 0, tricks[0])
    enter_count(page, 1, tricks[1])
    last = tricks_input(page, 2)
    assert last.input_value() == str(tricks[2])
    assert last.get_attribute("data-auto") == "1"


def save(page: Page, number: int) -> None:
    tap_and_load(page, page.get_by_role("button", name=f"Save deal {number}"))


def play_deal(page: Page, deal: MizerkaDeal, tricks: tuple[int, int, int] | None = None) -> None:
    declare(page, deal)
    enter_tricks(page, tricks or deal.tricks)
    save(page, deal.number)
    if tricks is None:
        assert shown_totals(page) == expected_totals(deal.totals), f"after deal {deal.number}"


def start_game(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    screenshot(page, "01-home")
    tap_and_load(page, page.get_by_role("link", name="New Mizerka game"))
    for seat, name in enumerate(MIZERKA_NAMES):
        page.locator(f"#players-{seat}").tap()
        page.keyboard.type(name)
    page.get_by_label("Seat 3 deals").tap()  # Cid deals first, as in the hand-scored game
    screenshot(page, "02-new-game")
    tap_and_load(page, page.get_by_role("button", name="Start the game"))
    assert GAME_URL.search(page.url), page.url
    assert shown_totals(page) == expected_totals((0, 0, 0))
    assert page.locator(".flash").first.inner_text().strip().endswith("Cid deals first.")


def refused_then_fixed(page: Page, deal: MizerkaDeal) -> None:
    """Deal 1: the auto-filled last count is bumped by mistake; the server refuses 14 tricks."""
    declare(page, deal)
    screenshot(page, "04-entering-tricks")
    enter_tricks(page, deal.tricks)
    tap_count(page, 2, deal.tricks[2] + 1)  # 8 + 4 + 2 = 14
    assert tricks_input(page, 2).input_value() == str(deal.tricks[2] + 1)
    save(page, deal.number)
    alert = page.get_by_role("alert")
    assert "13" in alert.inner_text(), alert.inner_text()
    # Counts that do not add up are no single box's fault: the message is at the group, no box red.
    for seat in range(3):
        assert tricks_input(page, seat).get_attribute("aria-invalid") is None
    assert page.locator("fieldset.numbers").get_attribute("aria-describedby") == "error-tricks"
    assert shown_totals(page) == expected_totals((0, 0, 0)), "nothing was stored"
    screenshot(page, "05-refused-entry")
    tap_count(page, 2, deal.tricks[2])
    save(page, deal.number)
    assert shown_totals(page) == expected_totals(deal.totals)


def undo_last(page: Page, deal: MizerkaDeal, before: MizerkaDeal) -> None:
    page.locator("#live details.undo > summary").last.tap()  # the log's (the one after Save comes first)
    confirm = page.get_by_role("button", name=f"Yes, undo deal {deal.number}")
    confirm.wait_for(state="visible")
    screenshot(page, "06-undo")
    tap_and_load(page, confirm)
    assert page.locator(".flash").first.inner_text().strip() == f"Deal {deal.number} undone."
    assert shown_totals(page) == expected_totals(before.totals)
    assert page.locator("#turn-heading").inner_text().strip() == f"{deal.chooser} chooses"


def correct_deal(page: Page, deal: MizerkaDeal, now: MizerkaDeal) -> None:
    """Fix an earlier deal from its row in the log; every later total follows."""
    tap_and_load(page, page.get_by_role("link", name=f"Correct deal {deal.number}"))
    assert page.get_by_role("heading", level=1).inner_text().strip() == f"Correct deal {deal.number}"
    screenshot(page, "07-correct-deal")
    for seat in (0, 1):
        field = tricks_input(page, seat)
        field.tap()
        field.fill(str(deal.tricks[seat]))
    assert [tricks_input(page, seat).input_value() for seat in range(3)] == [str(n) for n in deal.tricks]
    tap_and_load(page, page.get_by_role("button", name="Save the correction"))
    assert page.url.endswith("#turn"), "the page opens at the entry card, not down in the log"
    assert shown_totals(page) == expected_totals(now.totals)


def watch_live(
    browser: Browser, game_url: str, scorer: Page, deal: MizerkaDeal, requested: list[str]
) -> BrowserContext:
    """A second phone opens the watch link: read-only, and it follows the scorer's next deal by itself."""
    context = new_context(browser, PHONE)
    context.on("request", lambda request: requested.append(request.url))
    watcher = context.new_page()
    watcher.goto(game_url)
    assert watcher.locator(".readonly").inner_text().startswith("You are watching.")
    assert watcher.locator("form").count() == 0
    before = shown_totals(watcher)
    assert before == shown_totals(scorer)
    screenshot(watcher, "08-watch-view")
    play_deal(scorer, deal)
    watcher.wait_for_function(
        "n => document.querySelector('.deal-no').textContent.includes(`Deal ${n} of`)",
        arg=deal.number + 1,
        timeout=15_000,
    )
    assert shown_totals(watcher) == expected_totals(deal.totals)
    return context


def test_a_whole_game_on_a_phone(browser: Browser, phone: BrowserContext, live_server: LiveServer) -> None:
    requested: list[str] = []
    problems: list[str] = []
    phone.on("request", lambda request: requested.append(request.url))
    page = phone.new_page()
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))

    start_game(page, live_server)
    game_url = page.url
    screenshot(page, "03-declaring")
    deals = {deal.number: deal for deal in MIZERKA_DEALS}

    refused_then_fixed(page, deals[1])
    for number in range(2, 6):
        play_deal(page, deals[number])
    undo_last(page, deals[5], before=deals[4])
    play_deal(page, deals[5])
    play_deal(page, deals[6])
    play_deal(page, deals[7], tricks=WRONG_DEAL_7)
    assert shown_totals(page) != expected_totals(deals[7].totals)
    play_deal(page, deals[8], tricks=deals[8].tricks)
    correct_deal(page, deals[7], now=deals[8])
    watcher = watch_live(browser, game_url, page, deals[9], requested)
    for number in range(10, 19):
        play_deal(page, deals[number])

    assert page.locator("#final-heading").inner_text().strip() == "Winners: Ann & Bob"
    standings = page.locator(".final .standings li")
    assert [" ".join(standings.nth(i).inner_text().split()) for i in range(3)] == [
        "1. Ann winner +3",
        "1. Bob winner +3",
        "3. Cid −6",
    ]
    assert page.locator(".deal-no").inner_text().strip() == "Game over · 18 deals"
    screenshot(page, "09-finished")
    watcher.pages[0].wait_for_selector("#final-heading", timeout=15_000)
    assert shown_totals(watcher.pages[0]) == expected_totals((3, 3, -6))
    watcher.close()

    tap_and_load(page, page.get_by_role("link", name="Scoresheet to print"))
    sheet_rows = page.locator("table.sheet-log tbody tr")
    assert sheet_rows.count() == 18
    for deal in MIZERKA_DEALS:
        cells = sheet_rows.nth(deal.number - 1).locator("th, td").all_inner_texts()
        assert cells[:4] == [str(deal.number), deal.dealer, deal.chooser, CONTRACT_LABELS[deal.contract]]
    screenshot(page, "10-scoresheet")

    # The refused entry answers 422, which Chromium logs; any other console error is a fault.
    assert [text for text in problems if "status of 422" not in text] == [], problems
    assert len(problems) == 1, problems
    origin = urlsplit(live_server.url)
    foreign = [url for url in requested if urlsplit(url)[:2] != origin[:2] and not url.startswith("data:")]
    assert foreign == [], foreign
    assert len(requested) > 100, "every request of the game was recorded"
