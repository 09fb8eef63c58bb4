"""After an offline reload the page offers only what the server's deals and the phone's kept ones allow.

The page kept by the service worker was drawn right after deal 1 was saved: it carries the undo
near the top and the undo under the log, both for deal 1.  Deals 2 and 3 entered offline, the page
reloaded offline: the one undo offered is deal 3's, and every number on the page says the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from e2e_support import LiveServer, api_game, screenshot, tap_and_load
from helpers import MIZERKA_DEALS
from test_e2e_offline import enter_offline, kept_for_offline, scorer, server_deals
from test_e2e_offline_integrity import kept, misere_game, send_now, until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def undo_controls(page: Page) -> list[str]:
    """The undo summaries a person can see on the page."""
    return [text.strip() for text in page.locator("details.undo summary:visible").all_inner_texts()]


def tricks_kept(page: Page, *numbers: int) -> None:
    """Wait until each deal's tricks are kept on the phone (its row shows once the contract or the
    bids are): a reload before that reloads a phone on which the deal is still being entered."""
    for number in numbers:
        until(
            page,
            lambda number=number: any(op["number"] == number and op.get("tricks") for op in kept(page)),
            f"deal {number}'s tricks kept",
        )


def test_an_offline_reload_with_deals_kept_offers_the_undo_of_the_last_deal_alone(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=0, declare_next=True)
    context, page = scorer(browser, live_server, game)
    # Deal 1's tricks saved through the page's form: the page drawn then offers its undo twice.
    for seat, count in enumerate(MIZERKA_DEALS[0].tricks):
        page.locator(f"#tricks-{seat}").fill(str(count))
    tap_and_load(page, page.get_by_role("button", name="Save deal 1"))
    kept_for_offline(page)
    assert page.locator("[data-undo-now]").count() == 1

    context.set_offline(True)
    enter_offline(page, 2, "Clubs", MIZERKA_DEALS[1].tricks)
    enter_offline(page, 3, "Mizerka", MIZERKA_DEALS[2].tricks)
    page.reload()
    expect(page.locator("#offline-status")).to_contain_text("Offline")
    expect(page.locator("#offline-deal-3")).to_contain_text("not sent yet")

    # One undo, the last deal's, and the entry and scoreboard on deal 4.
    until(page, lambda: undo_controls(page) == ["Undo deal 3"], f"one undo, deal 3's: {undo_controls(page)}")
    expect(page.locator("#offline-turn h2, #offline-turn h1").first).to_contain_text("chooses")
    expect(page.locator(".scoreboard .deal-no")).to_contain_text("Deal 4 of")
    # The contracts table too: Bob's clubs (#2) and Cid's mizerka (#3), scored once sent.
    rows = page.locator("table.grid tbody tr")
    expect(rows.nth(1)).to_contain_text("#2")
    expect(rows.nth(2)).to_contain_text("#3")
    screenshot(page, "offline-reload-undo")

    # Confirmed, it takes deal 3 (kept on this phone) back; the next deal is deal 3 again.
    page.locator("details.undo summary:visible").tap()
    page.get_by_role("button", name="Yes, undo deal 3").tap()
    expect(page.locator("#offline-deal-3")).to_have_count(0)
    until(page, lambda: undo_controls(page) == ["Undo deal 2"], f"deal 2's undo: {undo_controls(page)}")
    assert [op["number"] for op in kept(page)] == [2]
    expect(rows.nth(2)).not_to_contain_text("#3")
    expect(page.locator(".scoreboard .deal-no")).to_contain_text("Deal 3 of")
    enter_offline(page, 3, "Spades", (5, 4, 4))

    # Back online: the server gets deals 2 and 3 as entered, nothing waits, nothing conflicts.
    context.set_offline(False)
    send_now(page)
    until(page, lambda: kept(page) == [], "everything kept was sent")
    deals = server_deals(live_server, game.id)
    assert [deal["contract"] for deal in deals] == ["hearts", "clubs", "spades"]
    expect(page.locator(".offline-conflict")).to_have_count(0)
    expect(page.locator(".scoreboard .deal-no")).to_contain_text("Deal 4 of")
    context.close()


def test_an_undo_form_of_an_old_copy_of_the_page_is_not_kept_as_the_undo_of_another_deal(
    browser: Browser, live_server: LiveServer
) -> None:
    """The service worker keeps a posted form only if it agrees with the deals kept on the phone: an
    undo of deal 1 posted from a copy drawn before deals 2 and 3 were kept is said, and discarded."""
    from playwright.sync_api import expect

    game = api_game(live_server, deals=1)
    context, page = scorer(browser, live_server, game)
    context.set_offline(True)
    enter_offline(page, 2, "Clubs", MIZERKA_DEALS[1].tricks)
    enter_offline(page, 3, "Mizerka", MIZERKA_DEALS[2].tricks)
    kept_form = page.evaluate(
        """async () => {
             const form = new FormData();
             form.set('number', '1');
             form.set('version', '1');
             return ScorekeeperQueue.keepForm(`/games/${document.body.dataset.game}/undo`, form);
           }"""
    )
    assert kept_form is not None
    page.reload()
    panel = page.locator(".offline-conflict")
    expect(panel).to_contain_text(
        "Deal 1 was not accepted: it was made on an old copy of the page; this phone's last deal is deal 3."
    )
    assert [(op["kind"], op["number"]) for op in kept(page)] == [("record", 2), ("record", 3), ("undo", 1)]
    assert undo_controls(page) == ["Undo deal 3"]
    # Back online, deals 2 and 3 go; the old copy's undo waits, said, until the scorer drops it.
    context.set_offline(False)
    send_now(page)
    until(page, lambda: len(server_deals(live_server, game.id)) == 3, "deals 2 and 3 were sent")
    until(page, lambda: [op["kind"] for op in kept(page)] == ["undo"], "the stale undo alone is left")
    expect(panel).to_contain_text("Deal 1 was not accepted")
    panel.get_by_role("button", name="Discard this change").tap()
    until(page, lambda: kept(page) == [], "the stale undo discarded")
    assert len(server_deals(live_server, game.id)) == 3
    context.close()


def test_misere_an_offline_reload_with_deals_kept_offers_the_undo_of_the_last_deal_alone(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = misere_game(live_server, bids=(3, 3, 3, 3))
    context, page = scorer(browser, live_server, game)
    for seat, count in enumerate((4, 3, 3, 3)):
        page.locator(f"#tricks-{seat}").fill(str(count))
    tap_and_load(page, page.get_by_role("button", name="Save deal 1"))
    kept_for_offline(page)

    context.set_offline(True)
    card = page.locator("#offline-turn")
    for number in (2, 3):
        for seat, bid in enumerate((3, 3, 3, 3)):
            card.locator(f"#offline-bids-{seat}").fill(str(bid))
        card.get_by_role("button", name="Save the bids").tap()
        for seat, count in enumerate((4, 3, 3, 3)):
            card.locator(f"#offline-tricks-{seat}").fill(str(count))
        card.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")
        tricks_kept(page, number)
    page.reload()
    expect(page.locator("#offline-deal-3")).to_contain_text("not sent yet")
    until(page, lambda: undo_controls(page) == ["Undo deal 3"], f"one undo, deal 3's: {undo_controls(page)}")
    expect(page.locator(".scoreboard .deal-no")).to_contain_text("Deal 4 of 8")

    page.locator("details.undo summary:visible").tap()
    page.get_by_role("button", name="Yes, undo deal 3").tap()
    until(page, lambda: undo_controls(page) == ["Undo deal 2"], f"deal 2's undo: {undo_controls(page)}")
    context.set_offline(False)
    send_now(page)
    until(page, lambda: kept(page) == [], "everything kept was sent")
    assert len(server_deals(live_server, game.id)) == 2
    expect(page.locator(".offline-conflict")).to_have_count(0)
    context.close()
