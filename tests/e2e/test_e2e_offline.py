"""No deal lost when the network drops: the game page opens offline, keeps what is entered, sends it once.

The service worker needs a secure context; 127.0.0.1 is one.  Every wait is for a condition
(the worker in control, the page kept, a row drawn, the server holding the deals), never a sleep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import PHONE, LiveServer, api_game, new_context, screenshot
from helpers import MIZERKA_DEALS, MIZERKA_NAMES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page


def scorer(browser: Browser, server: LiveServer, game: Any) -> tuple[BrowserContext, Page]:
    context = new_context(browser, PHONE)
    context.add_cookies([game.cookie(server)])
    page = context.new_page()
    page.goto(server.origin + game.path())
    kept_for_offline(page)
    return context, page


def kept_for_offline(page: Page) -> None:
    """Wait until the service worker controls the page and the page itself is kept in its cache."""
    page.evaluate(
        """async () => {
             const deadline = Date.now() + 20000;
             while (Date.now() < deadline) {
               const kept = await caches.match(location.pathname, {ignoreVary: true});
               if (navigator.serviceWorker.controller && kept) return;
               await new Promise((resolve) => setTimeout(resolve, 50));
             }
             throw new Error('the page was not kept for offline use');
           }"""
    )


def by_seat(values: tuple[int, ...] | list[int]) -> dict[str, int]:
    return dict(zip(MIZERKA_NAMES, values, strict=True))


def enter_offline(page: Page, number: int, contract_label: str, tricks: tuple[int, ...]) -> None:
    """Choose the contract and enter the tricks on the offline entry card, as at the table."""
    from playwright.sync_api import expect

    card = page.locator("#offline-turn")
    card.get_by_role("button", name=contract_label, exact=True).tap()
    expect(card.get_by_role("heading")).to_contain_text(f"Deal {number}: {contract_label}")
    for seat, count in enumerate(tricks):
        card.locator(f"#offline-tricks-{seat}").fill(str(count))
    card.get_by_role("button", name=f"Save deal {number}").tap()
    expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")


def server_deals(server: LiveServer, game_id: str) -> list[dict[str, Any]]:
    return list(server.api("GET", f"/api/v1/games/{game_id}")["deals"])


def test_deals_entered_offline_survive_a_reload_and_reach_the_server_once(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    context.set_offline(True)
    status = page.locator("#offline-status")
    expect(status).to_contain_text("Offline")

    fifth, sixth, seventh = MIZERKA_DEALS[4:7]
    enter_offline(page, 5, "Diamonds", fifth.tricks)
    enter_offline(page, 6, "No trumps", (6, 2, 5))  # a slip, corrected below
    enter_offline(page, 7, "Clubs", seventh.tricks)
    # Deal 6 corrected while still on the phone: one deal, sent once, as corrected.
    page.locator("#offline-deal-6").get_by_role("button", name="Correct deal 6").tap()
    editor = page.locator("#offline-turn")
    expect(editor.get_by_role("heading")).to_have_text("Correct deal 6")
    for seat, count in enumerate(sixth.tricks):
        editor.locator(f"#offline-fix-tricks-{seat}").fill(str(count))
    editor.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#offline-deal-6")).to_contain_text("5 tr")
    expect(status).to_contain_text("#5, #6, #7")
    assert len(server_deals(live_server, game.id)) == 4, "nothing reaches the server while offline"

    # Reloaded without the network: the kept page, the offline mark, the deals kept on the phone.
    page.reload()
    expect(status).to_contain_text("Offline")
    for number in (5, 6, 7):
        expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")
    expect(page.locator("#offline-turn").get_by_role("heading")).to_contain_text("Bob chooses")
    screenshot(page, "offline-kept-deals")

    context.set_offline(False)
    # Sent, then the page drawn again from the server: its own rows, with the server's scores.
    expect(page.locator("#deal-7")).to_be_visible()
    expect(page.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert [deal["number"] for deal in deals] == list(range(1, 8))
    for expected, stored in zip(MIZERKA_DEALS[4:7], deals[4:7], strict=True):
        assert stored["contract"] == expected.contract
        assert stored["tricks"] == by_seat(expected.tricks)
        assert stored["scores"] == by_seat(expected.scores)
        assert stored["totals"] == by_seat(expected.totals)
    # Sent once: the queue is empty, and another round of sending changes nothing.
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    assert len(server_deals(live_server, game.id)) == 7
    context.close()
