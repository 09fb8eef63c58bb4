"""The offline entry card is the online one: the same elements, classes and words, for the same deal.

The page drawn by the server for deal N (declaring it, then entering its tricks) is compared with
the card the script puts together offline for deal N, from the page's templates: in Mizerka (the
contract buttons, then the tricks with each seat's quota) and in Misère (the bids, then the
tricks with each seat's bid and its "made the bid" button).  Only what the page itself adds
online is left out: the form's hidden fields, the score preview, the share button, hidden parts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import PHONE, LiveServer, api_game, new_context
from helpers import MIZERKA_DEALS
from test_e2e_offline import kept_for_offline, scorer
from test_e2e_offline_integrity import MISERE_NAMES, misere_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# The card as a tree of (tag, classes, own words, a few attributes, children).
SHAPE = """(card) => {
  const left = 'input[type=hidden], output.deal-score, .share-button, p.preview-note';
  const own = ['offline-card', 'offline-form', 'tricks-form', 'declare-form', 'offline-undo'];
  const kept = ['type', 'name', 'value', 'role', 'aria-current', 'aria-label', 'aria-pressed', 'disabled',
                'autofocus', 'data-what', 'data-seat'];
  const walk = (e) => {
    if (e.hidden || e.matches(left)) return null;
    const words = Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ')
      .replace(/\\s+/g, ' ').trim();
    const classes = Array.from(e.classList).filter((c) => !own.includes(c)).sort().join(' ');
    const attrs = kept.filter((a) => e.hasAttribute(a)).map((a) => `${a}=${e.getAttribute(a)}`).join(' ');
    return [e.tagName.toLowerCase(), classes, words, attrs, Array.from(e.children).map(walk).filter(Boolean)];
  };
  return walk(card);
}"""


def online_card(page: Page) -> Any:
    return page.locator("#live section.turn:not(.offline-card)").evaluate(SHAPE)


def offline_card(page: Page) -> Any:
    return page.locator("#offline-turn").evaluate(SHAPE)


def watching_scorer(browser: Browser, server: LiveServer, game: Any) -> Page:
    """Another phone holding the game's key, online: the card as the server draws it."""
    context = new_context(browser, PHONE)
    context.add_cookies([game.cookie(server)])
    page = context.new_page()
    page.goto(server.origin + game.path())
    return page


def test_the_offline_mizerka_card_is_the_online_one_declaring_and_entering_the_tricks(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4)
    context, page = scorer(browser, live_server, game)
    declaring = online_card(page)
    assert "contracts" in str(declaring)
    undo = page.locator("#live details.undo:not(.offline-undo)").evaluate(SHAPE)
    context.set_offline(True)
    expect(page.locator("#offline-turn")).to_be_visible()
    assert offline_card(page) == declaring
    # The undo of deal 4, asked as online.
    assert page.locator("#live details.offline-undo").evaluate(SHAPE) == undo

    # Deal 5 declared on this phone, offline: its tricks, each seat's quota beside its box.
    page.locator("#offline-turn").get_by_role("button", name="Diamonds", exact=True).tap()
    expect(page.locator("#offline-turn form")).to_have_attribute("data-step", "tricks")
    kept_pending = offline_card(page)
    live_server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": 5, "contract": "diamonds"}, game.key)
    other = watching_scorer(browser, live_server, game)
    pending = online_card(other)
    assert "quota" in str(pending)
    assert kept_pending == pending
    other.context.close()
    context.close()


def test_the_offline_card_of_a_last_contract_is_the_online_one_and_keeps_it_with_the_tricks(
    browser: Browser, live_server: LiveServer
) -> None:
    """Deal 16: Ann's last contract (Diamonds) is chosen; offline too the card asks for the counts."""
    from playwright.sync_api import expect

    game = api_game(live_server, deals=15)
    context, page = scorer(browser, live_server, game)
    online = online_card(page)
    assert "quota 7" in str(online) and "contracts" not in str(online)
    context.set_offline(True)
    expect(page.locator("#offline-turn")).to_be_visible()
    assert offline_card(page) == online
    card = page.locator("#offline-turn")
    for seat, count in enumerate(MIZERKA_DEALS[15].tricks[:2]):
        card.locator(f'.count-chips[data-for="offline-tricks-{seat}"] button[value="{count}"]').tap()
    card.get_by_role("button", name="Save deal 16").tap()
    expect(page.locator("#offline-deal-16")).to_contain_text("not sent yet")
    context.set_offline(False)
    expect(page.locator("#deal-16")).to_be_visible()
    deal = live_server.api("GET", f"/api/v1/games/{game.id}")["deals"][15]
    assert deal["contract"] == "diamonds"
    assert list(deal["tricks"].values()) == list(MIZERKA_DEALS[15].tricks)
    context.close()


def test_the_offline_misere_card_is_the_online_one_bidding_and_entering_the_tricks(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = misere_game(live_server)
    context, page = scorer(browser, live_server, game)
    bidding = online_card(page)
    assert "Bids, in bidding order" in str(bidding)
    context.set_offline(True)
    expect(page.locator("#offline-turn")).to_be_visible()
    assert offline_card(page) == bidding

    bids = (3, 4, 2, 3)
    card = page.locator("#offline-turn")
    for seat, bid in enumerate(bids):
        card.locator(f"#offline-bids-{seat}").fill(str(bid))
    card.get_by_role("button", name="Save the bids").tap()
    expect(page.locator("#offline-turn form")).to_have_attribute("data-step", "tricks")
    kept_pending = offline_card(page)
    body = {"number": 1, "bids": dict(zip(MISERE_NAMES, bids, strict=True))}
    live_server.api("POST", f"/api/v1/games/{game.id}/deals", body, game.key)
    other = watching_scorer(browser, live_server, game)
    pending = online_card(other)
    assert "made the bid (4)" in str(pending)
    assert kept_pending == pending
    # Offline too, one tap on the player who missed: the others' bids, and the rest for them.
    card.locator('button.missed[data-target="offline-tricks-0"]').tap()
    filled = [card.locator(f"#offline-tricks-{seat}").input_value() for seat in range(4)]
    assert filled == ["4", "4", "2", "3"]
    other.context.close()
    context.close()


def test_a_page_opened_offline_draws_a_declared_deals_tricks_as_online(
    browser: Browser, live_server: LiveServer
) -> None:
    """The server's pending deal, shown by the kept page offline: the quotas as the page drew them."""
    from playwright.sync_api import expect

    game = api_game(live_server, deals=4, declare_next=True)
    context, page = scorer(browser, live_server, game)
    pending = online_card(page)
    context.set_offline(True)
    page.reload()
    kept_for_offline(page)
    expect(page.locator("#offline-turn")).to_be_visible()
    assert offline_card(page) == pending
    context.close()
