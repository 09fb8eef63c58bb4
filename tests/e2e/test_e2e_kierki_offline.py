"""Kierki without the network, as at the table: each deal's facts by taps on the offline card (a count
row per player whose last count fills itself, a player by one tap, the suit then the tricks), kept on
the phone, shown in the log as the table entered them, corrected there, refused at the field when a
person can see it is wrong, and sent once when the network is back; a robber that cannot have
happened is refused by the server when it arrives, shown at that deal, corrected and sent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import LiveServer, kierki_game, new_context, screenshot, shown_totals
from helpers import KIERKI_EXAMPLE, kierki_body, signed
from test_e2e_layout import STEP_IN_VIEW_JS
from test_e2e_offline import kept_for_offline, server_deals
from test_e2e_taps import PHONE_360, Taps

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

NAMES = ["Ala", "Bartek", "Celina", "Darek"]
COUNTED = ("tricks", "hearts", "queens", "kings_jacks")
TAKERS = ("king_of_hearts", "seventh_trick", "last_trick")


def offline_scorer(
    browser: Browser, server: LiveServer, deals: int, language: str = "en"
) -> tuple[BrowserContext, Page, Any]:
    """RULES.md 3.10's game with its first ``deals`` deals stored, open on the scorer's phone, kept
    for offline use, then the network gone."""
    game = kierki_game(server, NAMES, [facts for facts, _ in KIERKI_EXAMPLE[:deals]])
    context = new_context(browser, PHONE_360)
    context.add_cookies([game.cookie(server), {"name": "lang", "value": language, "url": server.origin}])
    page = context.new_page()
    page.goto(server.origin + game.path())
    kept_for_offline(page)
    context.set_offline(True)
    return context, page, game


def card(page: Page) -> Locator:
    return page.locator("#offline-turn")


def tap_facts(taps: Taps, page: Page, facts: dict[str, Any], prefix: str = "offline") -> None:
    """A deal's facts (by seat) tapped on the offline card, in the order it asks them."""
    where = card(page)
    if "trumps" in facts:
        taps.tap(where.locator(f'label.taker:has(input[name="trumps"][value="{facts["trumps"]}"])'))
    for field in COUNTED:
        if field in facts:
            for seat, count in enumerate(facts[field][:-1]):
                taps.tap(
                    where.locator(f'.count-chips[data-for="{prefix}-{field}-{seat}"] button[value="{count}"]')
                )
            # The last count fills itself.
            last = where.locator(f"#{prefix}-{field}-{len(NAMES) - 1}")
            assert last.input_value() == str(facts[field][-1]), field
    for field in TAKERS:
        if field in facts:
            taps.tap(where.locator(f'label.taker:has(input[name="{field}"][value="{facts[field]}"])'))
    for place, seat in enumerate(facts.get("places", ())):
        taps.tap(where.locator(f'label.taker:has(input[name="places-{place}"][value="{seat}"])'))


def save(taps: Taps, page: Page, number: int) -> None:
    from playwright.sync_api import expect

    taps.tap(card(page).get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")


def on_one_screen(page: Page, what: str) -> None:
    """Every control of the offline card's step on screen under the scoreboard, as online."""
    place: dict[str, Any] = page.evaluate(STEP_IN_VIEW_JS.replace("#turn form", "#offline-turn form"))
    assert place["controls"] > 0, what
    assert place["outside"] == [], f"{what}: {place}"


def test_kierki_deals_entered_offline_by_taps_reach_the_server_once_as_the_table_played_them(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    context, page, game = offline_scorer(browser, live_server, deals=4)
    expect(page.locator("#offline-status")).to_contain_text("Offline")
    taps = Taps(page)
    per_deal = []
    # Deals 5-7 (the king of hearts, the 7th and last trick, the robber), then the first trump deal's
    # suit saved alone and its tricks after, as online; the second trump deal whole.
    for number in (5, 6, 7):
        facts = KIERKI_EXAMPLE[number - 1][0]
        before = taps.count
        heading = card(page).get_by_role("heading")
        expect(heading).to_contain_text(f"Negative part, {number} of 7")
        if number != 7:
            on_one_screen(page, f"deal {number} offline")
        tap_facts(taps, page, facts)
        save(taps, page, number)
        per_deal.append(taps.count - before)
    assert per_deal == [2, 3, 16]
    expect(page.locator("#offline-deal-5 td.fig").nth(2)).to_have_text("K♥")
    expect(page.locator("#offline-deal-6 td.fig").nth(3)).to_have_text("last")
    expect(page.locator("#offline-deal-7 td.fig").nth(1)).to_contain_text("4 tr 5 ♥ 1 Q 3 K/J K♥")

    eighth, ninth = KIERKI_EXAMPLE[7][0], KIERKI_EXAMPLE[8][0]
    expect(card(page).get_by_role("heading")).to_have_text("Positive part, 1 of 5: Darek names trumps")
    taps.tap(card(page).locator('label.taker:has(input[name="trumps"][value="spades"])'))
    save(taps, page, 8)
    expect(page.locator("#offline-deal-8")).to_contain_text("playing…")
    expect(card(page).get_by_role("heading")).to_have_text("Positive part, 1 of 5: trumps ♠")
    assert card(page).locator('input[name="trumps"]').count() == 0, "the suit is named: the tricks alone"
    before = taps.count
    tap_facts(taps, page, {"tricks": eighth["tricks"]})
    save(taps, page, 8)
    assert taps.count - before == 4
    before = taps.count
    tap_facts(taps, page, ninth)
    on_one_screen(page, "deal 9 offline, everything tapped")
    save(taps, page, 9)
    assert taps.count - before == 5, "a trump deal: the suit, three counts, Save"

    # A slip corrected on the phone: deal 5's king of hearts given to Bartek, then to Celina.
    page.locator("#offline-deal-5").get_by_role("button", name="Correct deal 5").tap()
    editor = card(page)
    expect(editor.get_by_role("heading")).to_have_text("Correct deal 5")
    expect(editor.locator('input[name="king_of_hearts"][value="2"]')).to_be_checked()
    editor.locator('label.taker:has(input[name="king_of_hearts"][value="1"])').tap()
    editor.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#offline-deal-5 td.fig").nth(1)).to_have_text("K♥")

    # Reloaded without the network: everything is still on the phone, the next deal is asked.
    page.reload()
    for number in range(5, 10):
        expect(page.locator(f"#offline-deal-{number}")).to_contain_text("not sent yet")
    expect(card(page).get_by_role("heading")).to_have_text("Positive part, 3 of 5: Bartek names trumps")
    screenshot(page, "360-kierki-offline-kept")
    assert len(server_deals(live_server, game.id)) == 4, "nothing reaches the server while offline"

    context.set_offline(False)
    expect(page.locator("#deal-9")).to_be_visible()
    expect(page.locator(".offline-row")).to_have_count(0)
    deals = server_deals(live_server, game.id)
    assert [deal["number"] for deal in deals] == list(range(1, 10))
    wanted = [facts for facts, _ in KIERKI_EXAMPLE[4:9]]
    wanted[0] = {"king_of_hearts": 1}  # as corrected
    for facts, stored in zip(wanted, deals[4:9], strict=True):
        for field, value in kierki_body(facts, NAMES).items():
            assert stored[field] == value, (stored["number"], field)
    # Deal 5 as corrected: Bartek's -150; the rest as RULES.md 3.10 scores them.
    assert deals[4]["scores"] == {"Ala": 0, "Bartek": -150, "Celina": 0, "Darek": 0}
    for (_, scores), stored in zip(KIERKI_EXAMPLE[5:9], deals[5:9], strict=True):
        assert list(stored["scores"].values()) == list(scores)
    totals = [sum(scores[seat] for _, scores in KIERKI_EXAMPLE[:9]) for seat in range(4)]
    totals[1], totals[2] = totals[1] - 150, totals[2] + 150
    assert [total for _, total in shown_totals(page)] == [signed(total) for total in totals]
    assert page.evaluate("async () => (await ScorekeeperQueue.ops(document.body.dataset.game)).length") == 0
    context.close()


def test_what_a_person_can_see_is_wrong_is_said_at_the_field_offline(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    context, page, _ = offline_scorer(browser, live_server, deals=1, language="pl")
    where = card(page)
    expect(where.get_by_role("heading")).to_have_text("Rozgrywka, 2 z 7: Bez kierów")
    # Hearts that do not add up to 13: typed, the last box too.
    for seat, count in enumerate((4, 0, 7, 1)):
        where.locator(f"#offline-hearts-{seat}").fill(str(count))
    where.get_by_role("button", name="Zapisz rozdanie 2").tap()
    error = where.locator("fieldset[data-kind=hearts] .offline-error")
    expect(error).to_have_text("Wzięte kiery: razem musi być 13.")
    where.locator("#offline-hearts-3").fill("2")
    where.get_by_role("button", name="Zapisz rozdanie 2").tap()
    expect(page.locator("#offline-deal-2")).to_contain_text("7 ♥")
    # Deals 3 and 4 as played; then the king of hearts with nobody tapped.
    taps = Taps(page)
    for number in (3, 4):
        tap_facts(taps, page, KIERKI_EXAMPLE[number - 1][0])
        taps.tap(where.get_by_role("button", name=f"Zapisz rozdanie {number}"))
        expect(page.locator(f"#offline-deal-{number}")).to_be_visible()
    where.get_by_role("button", name="Zapisz rozdanie 5").tap()
    expect(where.locator("fieldset[data-field=king_of_hearts] .offline-error")).to_have_text(
        "Należy wskazać, kto to ma."
    )
    assert page.locator("#offline-deal-5").count() == 0, "nothing kept"
    context.close()


def test_a_robber_the_server_refuses_is_shown_at_its_deal_corrected_and_sent(
    browser: Browser, live_server: LiveServer
) -> None:
    """R2 needs every count of the deal: a king of hearts given to a player with no heart adds up
    on the phone and is refused when it arrives, with the engine's reason, at that deal; corrected
    there, it is sent, and nothing of the refused version is stored."""
    from playwright.sync_api import expect

    context, page, game = offline_scorer(browser, live_server, deals=6)
    taps = Taps(page)
    robber = {**KIERKI_EXAMPLE[6][0], "king_of_hearts": 2}  # Celina, who took no heart
    tap_facts(taps, page, robber)
    save(taps, page, 7)
    context.set_offline(False)
    panel = page.locator("#offline-turn .offline-conflict")
    expect(panel).to_contain_text("Deal 7 was not accepted: Celina took the king of hearts")
    assert len(server_deals(live_server, game.id)) == 6, "the refused robber is not stored"
    panel.get_by_role("button", name="Correct deal 7").tap()
    editor = card(page)
    expect(editor.get_by_role("heading")).to_have_text("Correct deal 7")
    # Everything as entered, the king of hearts to tap again.
    expect(editor.locator("#offline-fix-hearts-1")).to_have_value("5")
    expect(editor.locator('input[name="seventh_trick"][value="0"]')).to_be_checked()
    editor.locator('label.taker:has(input[name="king_of_hearts"][value="1"])').tap()
    editor.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#deal-7")).to_be_visible()
    expect(page.locator(".offline-row")).to_have_count(0)
    stored = server_deals(live_server, game.id)[6]
    assert stored["king_of_hearts"] == "Bartek"
    assert list(stored["scores"].values()) == list(KIERKI_EXAMPLE[6][1])
    assert page.locator("section.scoreboard .total-sum").inner_text().strip() == "· Sum \u22122,600"
    context.close()
