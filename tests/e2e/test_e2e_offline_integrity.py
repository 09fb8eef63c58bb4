"""A phone without network never records a deal the scorer did not mean (issue 30, scenarios 1-7).

Two phones (browser contexts) at one table, a third page where two tabs of one phone send the
same queue; `context.set_offline` and routes that lose an answer. Every wait is for a condition.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from e2e_support import ApiGame, LiveServer, api_game, screenshot, tap_and_load
from helpers import MIZERKA_DEALS
from test_e2e_offline import by_seat, enter_offline, kept_for_offline, scorer, server_deals

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Route

MISERE_NAMES = ["Ann", "Bob", "Cid", "Dee"]


def misere_game(server: LiveServer, bids: tuple[int, ...] | None = None) -> ApiGame:
    """A Misère game (Ann deals first, so Bob leads and bids first); deal 1 declared with ``bids``."""
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "misere", "players": MISERE_NAMES, "first_dealer": "Ann"}
    )
    game = ApiGame(created["id"], created["edit_key"])
    if bids is not None:
        body = {"number": 1, "bids": dict(zip(MISERE_NAMES, bids, strict=True))}
        server.api("POST", f"/api/v1/games/{game.id}/deals", body, game.key)
    return game


def until(page: Page, condition: Callable[[], bool], what: str, seconds: float = 20) -> None:
    """Waits for ``condition``, polling; the browser's events (routes) run meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(50)


def kept(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("async () => ScorekeeperQueue.ops(document.body.dataset.game)"))


def send_now(page: Page) -> None:
    """What the page does when the connection comes back: it sends what it kept."""
    page.evaluate("() => window.dispatchEvent(new Event('online'))")


def undo_on_the_page(page: Page, number: int) -> None:
    page.locator("#live details.undo summary").last.tap()
    tap_and_load(page, page.get_by_role("button", name=f"Yes, undo deal {number}"))


# -- 1. a deal undone on another phone does not come back ------------------------------------------


def test_1_a_deal_stored_whose_answer_was_lost_stays_undone_when_another_phone_undid_it(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    enter_offline(a, 5, "Diamonds", MIZERKA_DEALS[4].tricks)

    # Back online, A sends deal 5: the server stores it, its answer never reaches the phone, and
    # the network is gone again before A can look.
    keys: list[str] = []
    down: list[bool] = []

    def answer_lost(route: Route) -> None:
        request = route.request
        if "/sync/" in request.url and request.method != "GET" and not down:
            keys.append(request.headers.get("idempotency-key", ""))
            route.fetch()
            down.append(True)
            route.abort("connectionreset")
        elif down:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    a_context.route("**/*", answer_lost)
    a_context.set_offline(False)
    send_now(a)
    until(a, lambda: len(server_deals(live_server, game.id)) == 5, "deal 5 reached the server")
    assert server_deals(live_server, game.id)[4]["tricks"] == by_seat(MIZERKA_DEALS[4].tricks)
    expect(a.locator("#offline-deal-5")).to_contain_text("not sent yet")

    # B sees deal 5 and undoes it.
    b_context, b = scorer(browser, live_server, game)
    expect(b.locator("#deal-5")).to_contain_text("Diamonds")
    undo_on_the_page(b, 5)
    assert len(server_deals(live_server, game.id)) == 4

    # A's network is back: it sends deal 5 again, under the same key; the server answers its first
    # answer and stores nothing, and A says what happened.
    a_context.unroute("**/*")
    sent_again: list[str] = []
    a_context.on(
        "request",
        lambda r: sent_again.append(r.headers.get("idempotency-key", "")) if "/sync/" in r.url else None,
    )
    send_now(a)
    panel = a.locator(".offline-conflict")
    expect(panel).to_contain_text("Deal 5 was undone on another phone: enter it again, or drop it.")
    expect(panel).to_contain_text("Diamonds: Ann 0 tr · Bob 9 tr · Cid 4 tr")
    screenshot(a, "offline-undone-elsewhere")
    assert len(server_deals(live_server, game.id)) == 4, "B's undo stands"
    assert keys and set(sent_again) == set(keys[:1]), "sent again under the key it was made with"

    # The scorer drops it: nothing kept, the server's four deals.
    panel.get_by_role("button", name="Drop this phone's deal 5").tap()
    expect(a.locator(".offline-row")).to_have_count(0)
    assert kept(a) == []
    assert len(server_deals(live_server, game.id)) == 4
    a_context.close()
    b_context.close()


def test_1_a_deal_undone_elsewhere_can_be_entered_again_by_the_scorers_choice(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    # Kept as if its first send was stored and its answer lost: the request it sent, its key.
    deal = MIZERKA_DEALS[4]
    body = {"number": 5, "contract": deal.contract, "tricks": by_seat(deal.tricks)}
    key = "lost-answer-1"
    headers = {
        "Content-Type": "application/json",
        "Idempotency-Key": key,
        "Authorization": f"Bearer {game.key}",
    }
    import json
    import urllib.request

    request = urllib.request.Request(
        f"{live_server.origin}/api/v1/games/{game.id}/deals",
        json.dumps(body).encode(),
        headers,
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60):
        pass
    page.evaluate(
        """async ([key, tricks]) => {
             const Q = ScorekeeperQueue, game = document.body.dataset.game;
             await Q.putOp({ game, at: new Date().toISOString(), version: 4, number: 5, kind: 'record',
               contract: 'diamonds', bids: null, tricks, base: null, key,
               sending: { method: 'POST', number: 5, body: { number: 5, contract: 'diamonds', tricks },
                          etag: '"v4"', after: { contract: 'diamonds', bids: null, tricks } } });
           }""",
        [key, list(deal.tricks)],
    )
    live_server.api("DELETE", f"/api/v1/games/{game.id}/deals/5", None, game.key)
    page.reload()
    panel = page.locator(".offline-conflict")
    expect(panel).to_contain_text("Deal 5 was undone on another phone")
    assert len(server_deals(live_server, game.id)) == 4
    panel.get_by_role("button", name="Enter deal 5 again").tap()
    expect(page.locator("#deal-5")).to_contain_text("Diamonds")
    expect(page.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert len(deals) == 5 and deals[4]["tricks"] == by_seat(deal.tricks)
    context.close()


# -- 2. tricks never stored against another declaration -----------------------------------------------


def tricks_kept_by_the_worker(
    page: Page, context: BrowserContext, tricks: tuple[int, ...], number: int
) -> None:
    """Fills the tricks on the online form and saves while the network has no route: the worker keeps it."""
    from playwright.sync_api import expect

    for seat, count in enumerate(tricks):
        page.fill(f"#tricks-{seat}", str(count))
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name=f"Save deal {number}").tap()
    expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet", timeout=20_000)


def test_2_mizerka_tricks_queued_for_clubs_are_not_stored_on_the_hearts_deal_another_phone_declared(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=5)  # deal 6: Cid chooses (Clubs and Hearts left)
    live_server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": 6, "contract": "clubs"}, game.key)
    a_context, a = scorer(browser, live_server, game)
    expect(a.locator("#turn-heading")).to_contain_text("Deal 6: Clubs")
    tricks_kept_by_the_worker(a, a_context, (6, 4, 3), 6)

    # B undoes deal 6 and declares Hearts.
    b_context, b = scorer(browser, live_server, game)
    undo_on_the_page(b, 6)
    tap_and_load(b, b.get_by_role("button", name="Hearts", exact=True))
    assert server_deals(live_server, game.id)[5]["contract"] == "hearts"

    a_context.unroute("**/*")
    send_now(a)
    panel = a.locator(".offline-conflict")
    expect(panel).to_contain_text("Deal 6: another phone recorded something else meanwhile.")
    expect(panel).to_contain_text("Hearts: Ann playing… · Bob playing… · Cid playing…")
    expect(panel).to_contain_text("Clubs: Ann 6 tr · Bob 4 tr · Cid 3 tr")
    screenshot(a, "offline-tricks-on-another-declaration")
    stored = server_deals(live_server, game.id)[5]
    assert stored["contract"] == "hearts" and stored["tricks"] is None, "nothing written over B's declaration"
    a_context.close()
    b_context.close()


def test_2_misere_tricks_queued_for_some_bids_are_not_stored_on_other_bids(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = misere_game(live_server, bids=(3, 3, 3, 3))
    a_context, a = scorer(browser, live_server, game)
    tricks_kept_by_the_worker(a, a_context, (4, 3, 3, 3), 1)

    # B undoes deal 1 and enters other bids (Bob bids first; Ann deals and bids last).
    b_context, b = scorer(browser, live_server, game)
    undo_on_the_page(b, 1)
    for seat, bid in enumerate((2, 3, 3, 3)):
        b.fill(f"#bids-{seat}", str(bid))
    tap_and_load(b, b.get_by_role("button", name="Save the bids"))
    assert server_deals(live_server, game.id)[0]["bids"] == dict(zip(MISERE_NAMES, (2, 3, 3, 3), strict=True))

    a_context.unroute("**/*")
    send_now(a)
    panel = a.locator(".offline-conflict")
    expect(panel).to_contain_text("Deal 1: another phone recorded something else meanwhile.")
    expect(panel).to_contain_text("Ann bid 2, playing…")
    expect(panel).to_contain_text("Ann bid 3, 4 tr")
    stored = server_deals(live_server, game.id)[0]
    assert stored["tricks"] is None, "nothing written over B's bids"
    a_context.close()
    b_context.close()


# -- 3. one sender at a time ---------------------------------------------------------------------------


def test_3_two_tabs_sending_the_same_queue_send_each_deal_once_and_say_nothing_false(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, first = scorer(browser, live_server, game)
    second = context.new_page()
    second.goto(live_server.origin + game.path())
    kept_for_offline(second)
    context.set_offline(True)
    for deal in MIZERKA_DEALS[4:7]:
        enter_offline(
            first,
            deal.number,
            {"diamonds": "Diamonds", "no-trumps": "No trumps", "clubs": "Clubs"}[deal.contract],
            deal.tricks,
        )
    expect(second.locator("#offline-status")).to_contain_text("Offline")

    refused: list[str] = []
    for tab in (first, second):
        tab.on(
            "response",
            lambda r: (
                refused.append(f"{r.status} {r.url}") if "/sync/" in r.url and r.status >= 400 else None
            ),
        )
    # The first write is held until the other tab is sending too, or waits its turn for the lock.
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method != "GET" and "/sync/" in route.request.url and not held:
            held.append(route)
        else:
            route.continue_()

    context.route("**/*", hold)
    context.set_offline(False)
    send_now(first)
    send_now(second)

    def both_at_it() -> bool:
        waiting = second.evaluate("async () => (await navigator.locks.query()).pending.length")
        return len(held) >= 1 and (waiting >= 1 or len(refused) > 0)

    until(first, both_at_it, "the two tabs set about sending")
    held[0].continue_()
    context.unroute("**/*")
    for tab in (first, second):
        expect(tab.locator("#deal-7")).to_be_visible(timeout=20_000)
        expect(tab.locator(".offline-conflict")).to_have_count(0)
        expect(tab.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert [d["number"] for d in deals] == [1, 2, 3, 4, 5, 6, 7]
    assert refused == [], "a tab sent what the other was sending"
    # The other phone at the table sees the three deals.
    b_context, b = scorer(browser, live_server, game)
    expect(b.locator("#deal-7")).to_contain_text("Clubs")
    b_context.close()
    context.close()


# -- 4. the contract buttons offline are the page's -------------------------------------------------


def test_4_offline_the_contract_buttons_keep_the_online_order_and_suit_marks(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    b_context, b = scorer(browser, live_server, game)
    online = [text.split() for text in b.locator(".declare-form button.contract").all_inner_texts()]
    assert online[0][0] in "♣♦♥♠" and len(online) >= 5
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    buttons = a.locator("#offline-turn button.contract")
    expect(buttons).to_have_count(len(online))
    assert [text.split() for text in buttons.all_inner_texts()] == online
    # Tapped by position, the same contract as online.
    buttons.nth(0).tap()
    expect(a.locator("#offline-turn h1")).to_contain_text(f"Deal 5: {' '.join(online[0][1:])}")
    screenshot(a, "offline-contract-buttons")
    a_context.close()
    b_context.close()


# -- 5. offline undo asks first ---------------------------------------------------------------------


@pytest.mark.parametrize("whose", ["the server's deal", "a deal kept on the phone"])
def test_5_offline_undo_asks_for_the_same_confirmation_as_online(
    browser: Browser, live_server: LiveServer, whose: str
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    b_context, b = scorer(browser, live_server, game)
    b.locator("#live details.undo summary").last.tap()
    question = b.locator("#live details.undo p").last.inner_text()
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    number = 4
    if whose != "the server's deal":
        enter_offline(a, 5, "Diamonds", MIZERKA_DEALS[4].tricks)
        number = 5
    undo = a.locator("details.offline-undo")
    undo.locator("summary", has_text=f"Undo deal {number}").tap()
    # Asked first: nothing is undone by the first tap.
    expect(undo.get_by_role("button", name=f"Yes, undo deal {number}")).to_be_visible()
    if number == 4:
        expect(undo.locator("p")).to_have_text(question)
        expect(a.locator("#offline-undone-4")).to_have_count(0)
    else:
        expect(undo.locator("p")).to_have_text("Remove deal 5 (Diamonds, chosen by Bob) from the game?")
        expect(a.locator("#offline-deal-5")).to_contain_text("not sent yet")
    undo.get_by_role("button", name=f"Yes, undo deal {number}").tap()
    if number == 4:
        expect(a.locator("#offline-undone-4")).to_contain_text("undo not sent yet")
        a_context.set_offline(False)
        expect(a.locator(".offline-row")).to_have_count(0)
        assert len(server_deals(live_server, game.id)) == 3
    else:
        expect(a.locator("#offline-deal-5")).to_have_count(0)
        assert kept(a) == []
    a_context.close()
    b_context.close()


# -- 6. the scoreboard follows the offline entry --------------------------------------------------------


def board(page: Page) -> dict[str, Any]:
    scoreboard = page.locator("section.scoreboard")
    return {
        "deal": scoreboard.locator(".deal-no").inner_text().strip(),
        "roles": scoreboard.locator("li.total").evaluate_all(
            # A deal's role (role-dealer...), not the standing ("Ahead") that only the scores decide.
            "(items) => items.map((li) => (li.querySelector('[class*=role-]') || {}).textContent || '')"
        ),
        "line": page.locator("section.turn:not([hidden]) p.roles").inner_text().strip(),
    }


def test_6_mizerka_offline_the_scoreboard_and_roles_follow_the_entry_and_the_old_flash_goes(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=3)
    a_context, a = scorer(browser, live_server, game)
    # Deal 4 saved online: its flash is up.
    tap_and_load(a, a.get_by_role("button", name="Mizerka", exact=True))
    for seat, count in enumerate(MIZERKA_DEALS[3].tricks):
        a.fill(f"#tricks-{seat}", str(count))
    tap_and_load(a, a.get_by_role("button", name="Save deal 4"))
    expect(a.locator(".flashes")).to_contain_text("Deal 4 recorded.")
    kept_for_offline(a)
    expect(a.locator(".scoreboard .deal-no")).to_contain_text("Deal 5 of 18")

    a_context.set_offline(True)
    enter_offline(a, 5, "Diamonds", MIZERKA_DEALS[4].tricks)
    expect(a.locator(".flashes")).to_have_count(0)
    expect(a.locator(".scoreboard .deal-no")).to_have_text("Deal 6 of 18")
    expect(a.locator(".scoreboard")).to_contain_text("Totals after deal 4")
    offline = board(a)
    screenshot(a, "offline-scoreboard")

    # B, once A's deal 5 is sent: the server's own drawing of deal 6 is what A showed offline.
    a_context.set_offline(False)
    expect(a.locator("#deal-5")).to_be_visible()
    b_context, b = scorer(browser, live_server, game)
    assert board(b) == offline
    expect(a.locator(".scoreboard")).not_to_contain_text("Totals after deal 4")
    a_context.close()
    b_context.close()


def test_6_misere_offline_the_scoreboard_and_roles_follow_the_bids_and_tricks(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = misere_game(live_server)
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    card = a.locator("#offline-turn")
    for seat, bid in enumerate((3, 3, 3, 3)):
        card.locator(f"#offline-bids-{seat}").fill(str(bid))
    card.get_by_role("button", name="Save the bids").tap()
    expect(a.locator(".scoreboard .deal-no")).to_contain_text("Deal 1 of 8")
    for seat, count in enumerate((4, 3, 3, 3)):
        card.locator(f"#offline-tricks-{seat}").fill(str(count))
    card.get_by_role("button", name="Save deal 1").tap()
    expect(a.locator(".scoreboard .deal-no")).to_have_text("Deal 2 of 8")
    offline = board(a)
    assert offline["roles"].count("Dealer") == 1 and offline["roles"].count("Leads") == 1

    a_context.set_offline(False)
    expect(a.locator("#deal-1")).to_be_visible()
    b_context, b = scorer(browser, live_server, game)
    assert board(b) == offline
    a_context.close()
    b_context.close()


# -- 7. nothing the worker keeps carries a key ---------------------------------------------------------


def hand_over_qr(server: LiveServer, game: ApiGame) -> str:
    """The drawing of the QR code that would hand this game's pencil over (its modules, as SVG path data)."""
    import re

    import segno

    url = f"{server.origin}/games/{game.id}/take#{game.key}"
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True)
    found = re.search(r' d="([^"]+)"', svg)
    assert found
    return found.group(1)


def test_7_the_kept_page_holds_no_key_once_the_cookies_are_cleared(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    enter_offline(a, 5, "Diamonds", MIZERKA_DEALS[4].tricks)
    # The browser's cookies cleared: offline, the kept page holds nothing that hands the pencil over.
    a_context.clear_cookies()
    a.reload()
    expect(a.locator("#offline-status")).to_contain_text("Offline")
    page_kept = a.evaluate("async () => (await caches.match(location.pathname, {ignoreVary: true})).text()")
    assert game.key not in page_kept
    assert hand_over_qr(live_server, game) not in page_kept, "the kept page carries the hand-over QR code"
    a_context.close()


def test_7_a_phone_that_no_longer_holds_the_key_keeps_nothing_for_the_game(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    a_context, a = scorer(browser, live_server, game)
    a_context.set_offline(True)
    enter_offline(a, 5, "Diamonds", MIZERKA_DEALS[4].tricks)
    # The browser's cookies cleared (or the key handed over for good).
    a_context.clear_cookies()
    # Online, the game page says this phone only watches: what was kept for the game is dropped.
    a_context.set_offline(False)
    a.reload()
    expect(a.locator("body")).to_have_attribute("data-pencil", "0")
    # (A watching phone loads the offline script once the page is idle.)
    dropped = """async () => {
         if (typeof ScorekeeperQueue === 'undefined') return false;
         const kept = await caches.match(location.pathname, {ignoreVary: true});
         const ops = await ScorekeeperQueue.ops(document.body.dataset.game);
         return !!kept && (await kept.text()).includes('data-pencil="0"') && ops.length === 0 &&
           !(await ScorekeeperQueue.readGame(document.body.dataset.game));
       }"""
    until(a, lambda: a.evaluate(dropped) is True, "what was kept for the game is dropped")
    expect(a.locator(".offline-row")).to_have_count(0)
    # The other phone, the scorer's, is untouched: the deal was never sent.
    b_context, b = scorer(browser, live_server, game)
    expect(b.locator("#deal-5")).to_have_count(0)
    assert len(server_deals(live_server, game.id)) == 4
    a_context.close()
    b_context.close()
