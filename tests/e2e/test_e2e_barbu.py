"""Barbu at the table by taps, on a phone held in one hand (RULES.md 4.9's deals 1-8, in Polish, at
360x740): the contract (one tap; the declarer's seventh chosen already), the doubles (a tap each, a second
tap on the same pair its redouble, "maximum" a whole row), then the contract's facts (a count's last player
filled in, the Domino's fourth out too), within the tap budgets counted with the contract and Save: one
taker at most 3, the last two at most 4, a count at most 5, no hearts with its ace and trumps with its suit
at most 6, the Domino at most 5, each double or redouble one tap more.  Each step on one screen under the
scoreboard; the preview shows each double's settlement; the scores stored are RULES.md 4.9's; the
obligation said before deal 7."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from e2e_support import ApiGame, LiveServer, new_context, screenshot, shown_totals
from helpers import barbu_example, signed
from test_e2e_taps import (
    PHONE_320,
    PHONE_360,
    Taps,
    nothing_wider_than_the_screen,
    save_button,
    start,
    step_on_one_screen,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

from test_e2e_kierki import PHONE_390

NAMES = ["Ala", "Bartek", "Celina", "Darek"]
THEMES = ("light", "dark")
COUNTED = ("tricks", "hearts", "queens")
TAKERS = ("ace_of_hearts", "king_of_hearts", "penultimate_trick", "last_trick")

# RULES.md 4.9: each deal's contract, facts and doubles as the table taps them ("max": a player's maximum),
# each player's deal score, and the taps the budget allows (RULES.md's budgets, one more per double or
# redouble; the seventh contract is not tapped).
EXAMPLE: list[tuple[dict[str, Any], tuple[int, int, int, int], int]] = [
    (
        {
            "contract": "no-queens",
            "queens": (1, 0, 1, 2),
            "doubles": [("max", "Bartek"), ("Celina", "Ala"), ("Celina", "Ala")],
        },
        (-12, 24, -12, -24),
        5 + 4 + 1,
    ),
    (
        {"contract": "trumps", "trumps": "spades", "tricks": (5, 3, 1, 4), "doubles": [("Darek", "Ala")]},
        (30, 15, 5, 15),
        6 + 1,
    ),
    (
        {
            "contract": "no-hearts",
            "hearts": (2, 6, 0, 5),
            "ace_of_hearts": "Bartek",
            # Celina doubles Bartek; Bartek redoubles (a second tap on the pair, from his side).
            "doubles": [("Celina", "Ala"), ("Celina", "Bartek"), ("Bartek", "Celina")],
        },
        (-8, -48, 36, -10),
        6 + 2 + 1,
    ),
    ({"contract": "no-king-of-hearts", "king_of_hearts": "Darek"}, (0, 0, 0, -20), 3),
    (
        {
            "contract": "domino",
            "places": ("Celina", "Ala", "Darek", "Bartek"),
            "doubles": [("Bartek", "Ala"), ("Bartek", "Ala")],
        },
        (70, -55, 45, 5),
        5 + 2,
    ),
    ({"contract": "no-tricks", "tricks": (4, 2, 3, 4)}, (-8, -4, -6, -8), 5),
    (
        {"penultimate_trick": "Bartek", "last_trick": "Bartek", "doubles": [("Darek", "Bartek")]},
        (0, -60, 0, 30),
        4 + 1 - 1,
    ),
    (
        {
            "contract": "no-tricks",
            "tricks": (3, 1, 5, 4),
            "doubles": [("Celina", "Bartek"), ("Darek", "Bartek"), ("Darek", "Bartek"), ("Ala", "Celina")],
        },
        (-2, 18, -22, -20),
        5 + 3 + 1,
    ),
]
SETTLED = {
    1: "Bartek × Ala: +6 · Bartek × Celina: +6 · Bartek × Darek: +12 · Celina × Ala R: 0",
    3: "Celina × Ala: +4 · Celina × Bartek R: +32",
    5: "Bartek × Ala R: −50",
}


def tap_deal(page: Page, taps: Taps, body: dict[str, Any]) -> None:
    """The deal's doubles and facts by taps, in the order the card asks them."""
    if "trumps" in body:
        taps.tap(page.locator(f'#turn label.taker:has(input[name="trumps"][value="{body["trumps"]}"])'))
    for by, against in body.get("doubles", ()):
        if by == "max":
            taps.tap(page.locator(f'#turn button.pair-all[data-row-all="by-{NAMES.index(against)}"]'))
        else:
            pair = f"{NAMES.index(by)}-{NAMES.index(against)}"
            taps.tap(page.locator(f'#turn label.pair[data-pair="{pair}"]'))
    for field in COUNTED:
        if field in body:
            for seat in range(3):
                taps.tap(
                    page.locator(
                        f'.count-chips[data-for="{field}-{seat}"] button[value="{body[field][seat]}"]'
                    )
                )
            assert page.locator(f"#{field}-3").input_value() == str(body[field][3])
    for field in TAKERS:
        if field in body:
            seat = NAMES.index(body[field])
            taps.tap(page.locator(f'#turn label.taker:has(input[name="{field}"][value="{seat}"])'))
    for place, name in enumerate(body.get("places", ())[:3]):
        taps.tap(
            page.locator(f'#turn label.taker:has(input[name="places-{place}"][value="{NAMES.index(name)}"])')
        )
    if "places" in body:
        last = NAMES.index(body["places"][3])
        assert page.locator(f'#turn input[name="places-3"][value="{last}"]').is_checked()


def test_the_worked_example_by_taps_in_polish(browser: Browser, live_server: LiveServer) -> None:
    from playwright.sync_api import expect

    context = new_context(browser, PHONE_360)
    page = context.new_page()
    start(page, live_server, "barbu", NAMES, 0, "pl")
    game_id = page.url.rstrip("/").split("#")[0].rsplit("/", 1)[-1]
    taps = Taps(page)
    totals = [0, 0, 0, 0]
    per_deal = []
    for number, (body, scores, budget) in enumerate(EXAMPLE, start=1):
        before = taps.count
        if "contract" in body:
            step_on_one_screen(page, f"deal {number}: the contracts")
            taps.tap(page.locator(f'#turn button.contract[value="{body["contract"]}"]'), navigates=True)
        else:  # the declarer's seventh contract is chosen already
            assert page.locator("#turn button.contract").count() == 0
            expect(page.locator("#turn [data-reminder]")).to_have_text(
                ["Darek: jeszcze jedna kontra dla Ala."]
            )
        assert page.evaluate("() => document.activeElement.tagName") != "INPUT", "no keyboard on a phone"
        step_on_one_screen(page, f"deal {number}: the card as it opens")
        tap_deal(page, taps, body)
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        expected = [
            f"{signed(score)} \u2192 {signed(total)}" for score, total in zip(scores, totals, strict=True)
        ]
        expect(page.locator("#turn .deal-preview output")).to_have_text(expected)
        if number in SETTLED:
            expect(page.locator("#turn [data-preview-pairs]")).to_have_text(SETTLED[number])
        step_on_one_screen(page, f"deal {number}: everything tapped, its scores shown, Save")
        if number in (1, 3, 5):
            screenshot(page, f"360-barbu-deal-{number}-pl")
        taps.tap(save_button(page), navigates=True)
        assert [total for _, total in shown_totals(page)] == [signed(total) for total in totals], number
        per_deal.append(taps.count - before)
        assert per_deal[-1] <= budget, (number, per_deal[-1], budget)
    assert per_deal == [8, 7, 9, 3, 7, 5, 4, 9], per_deal
    state = live_server.api("GET", f"/api/v1/games/{game_id}")
    stored = [[deal["scores"][name] for name in NAMES] for deal in state["deals"]]
    assert stored == [list(scores) for _, scores, _ in EXAMPLE]
    assert state["deals"][0]["doubles"] == [
        {"by": "Bartek", "against": "Ala", "redoubled": False},
        {"by": "Bartek", "against": "Celina", "redoubled": False},
        {"by": "Bartek", "against": "Darek", "redoubled": False},
        {"by": "Celina", "against": "Ala", "redoubled": True},
    ]
    assert state["totals"] == dict(zip(NAMES, [70, -110, 46, -32], strict=True))
    context.close()


def barbu_game(server: LiveServer, deals: int) -> ApiGame:
    """A Barbu game made through the API with RULES.md 4.9's first ``deals`` recorded."""
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "barbu", "players": NAMES, "first_dealer": "Ala"}
    )
    game = ApiGame(created["id"], created["edit_key"])
    contracts = ["no-queens", "trumps", "no-hearts", "no-king-of-hearts", "domino", "no-tricks"]
    bodies = [
        {"queens": dict(zip(NAMES, (1, 0, 1, 2), strict=True))},
        {"trumps": "spades", "tricks": dict(zip(NAMES, (5, 3, 1, 4), strict=True))},
        {"hearts": dict(zip(NAMES, (2, 6, 0, 5), strict=True)), "ace_of_hearts": "Bartek"},
        {"king_of_hearts": "Darek"},
        {"places": ["Celina", "Ala", "Darek", "Bartek"]},
        {"tricks": dict(zip(NAMES, (4, 2, 3, 4), strict=True))},
    ]
    for number, (contract, body) in enumerate(zip(contracts[:deals], bodies, strict=False), start=1):
        server.api(
            "POST",
            f"/api/v1/games/{game.id}/deals",
            {"number": number, "contract": contract, **body},
            game.key,
        )
    return game


def test_the_card_with_doubles_fits_every_phone(browser: Browser, live_server: LiveServer) -> None:
    """A negative contract's nine doubles and a count, a positive one's three and its suit and counts: nothing
    wider than 320, 360 or 390 px, at 360x740 on one screen; in both themes."""
    game = barbu_game(live_server, 2)
    for device, scheme in [
        (device, scheme) for device in (PHONE_320, PHONE_360, PHONE_390) for scheme in THEMES
    ]:
        width = device["viewport"]["width"]
        context = new_context(browser, device, color_scheme=scheme)
        context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
        page = context.new_page()
        for contract in ("no-hearts", "domino"):
            page.goto(live_server.origin + game.path(f"?contract={contract}"))
            # Celina doubles Ala and Bartek, who redoubles (in the Domino, Bartek and Darek double Ala).
            pairs = ["2-0", "2-1", "1-2"] if contract == "no-hearts" else ["1-0", "3-0"]
            for pair in pairs:
                page.locator(f'#turn label.pair[data-pair="{pair}"]').tap()
            nothing_wider_than_the_screen(page, f"{width}px, {contract}")
            if width == 360:
                step_on_one_screen(page, f"{contract}, doubles tapped")
            screenshot(page.locator("#turn"), f"{width}-barbu-{contract}-doubles-{scheme}")
        context.close()


def test_a_doubled_deal_entered_offline_reaches_the_server_with_its_doubles(
    browser: Browser, live_server: LiveServer
) -> None:
    """RULES.md 4.9's deal 3 on the offline card: the contract tapped, then the doubles (Celina doubles Ala
    and Bartek, Bartek redoubles) and the hearts, kept on the phone, sent when the network is back; the
    server checks it and stores it with its doubles."""
    from playwright.sync_api import expect
    from test_e2e_offline import kept_for_offline, server_deals

    game = barbu_game(live_server, 2)
    context = new_context(browser, PHONE_360)
    context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    page.goto(live_server.origin + game.path())
    kept_for_offline(page)
    context.set_offline(True)
    offline = page.locator("#offline-turn")
    expect(page.locator("#offline-status")).to_contain_text("Offline")
    taps = Taps(page)
    taps.tap(offline.locator('button.contract[value="no-hearts"]'))
    expect(offline.get_by_role("heading")).to_have_text("Deal 3: No hearts, chosen by Ala")
    assert offline.locator("label.pair").count() == 9, "the doubles a negative contract allows"
    for pair in ("2-0", "2-1", "1-2"):
        taps.tap(offline.locator(f'label.pair[data-pair="{pair}"]'))
    for seat, count in enumerate((2, 6, 0)):
        taps.tap(offline.locator(f'.count-chips[data-for="offline-hearts-{seat}"] button[value="{count}"]'))
    assert offline.locator("#offline-hearts-3").input_value() == "5"
    taps.tap(offline.locator('label.taker:has(input[name="ace_of_hearts"][value="1"])'))
    screenshot(page, "360-barbu-offline-doubles")
    taps.tap(offline.get_by_role("button", name="Save deal 3"))
    expect(page.locator("#offline-deal-3")).to_contain_text("not sent yet")
    assert taps.count == 1 + 3 + 3 + 1 + 1, "as online: the contract, the doubles, the hearts, the ace, Save"
    assert len(server_deals(live_server, game.id)) == 2, "nothing reaches the server while offline"
    context.set_offline(False)
    expect(page.locator("#deal-3")).to_be_visible()
    third = server_deals(live_server, game.id)[2]
    assert third["doubles"] == [
        {"by": "Celina", "against": "Ala", "redoubled": False},
        {"by": "Celina", "against": "Bartek", "redoubled": True},
    ]
    assert [third["scores"][name] for name in NAMES] == [-8, -48, 36, -10]
    context.close()


# Each name on a doubles tap and the "maximum" tap as drawn: whether its text is wider or taller than the
# tap's room for it (cut short), and the text itself.
TAP_TEXTS_JS = """() => [...document.querySelectorAll('#turn .pair .who, #turn .pair-all')]
  .filter((e) => e.checkVisibility())
  .map((e) => ({text: e.textContent.trim(), cut: e.scrollWidth > e.clientWidth + 0.5
    || getComputedStyle(e).textOverflow === 'ellipsis'}))"""


def test_every_name_on_the_doubles_taps_is_whole(browser: Browser, live_server: LiveServer) -> None:
    """At 320, 360 and 390 px, in Polish, English and Italian, every player's name on a doubles tap is
    drawn whole (a name too long for its tap goes on two lines, never cut short), and so is "maximum"."""
    game = barbu_game(live_server, 2)
    maximum = {"pl": "Maks", "en": "Max", "it": "Max"}
    for device in (PHONE_320, PHONE_360, PHONE_390):
        width = device["viewport"]["width"]
        for language in ("pl", "en", "it"):
            context = new_context(browser, device)
            context.add_cookies(
                [game.cookie(live_server), {"name": "lang", "value": language, "url": live_server.origin}]
            )  # type: ignore[list-item]
            page = context.new_page()
            page.goto(live_server.origin + game.path("?contract=no-hearts"))
            taps = page.evaluate(TAP_TEXTS_JS)
            where = f"{width}px, {language}"
            assert [tap["text"] for tap in taps] == [
                "Ala",
                "Celina",
                "Darek",
                maximum[language],
                "Ala",
                "Bartek",
                "Darek",
                maximum[language],
                "Ala",
                "Bartek",
                "Celina",
                maximum[language],
            ], where
            assert [tap["text"] for tap in taps if tap["cut"]] == [], where
            if width == 360:
                step_on_one_screen(page, where)
            screenshot(page.locator("#turn"), f"{width}-barbu-doubles-names-{language}")
            context.close()


def test_the_offline_card_says_who_still_owes_the_declarer_a_double(
    browser: Browser, live_server: LiveServer
) -> None:
    """RULES.md 4.9 offline from deal 6: Darek doubled Ala once (deal 2), so before her seventh deal the
    offline card says he still owes her one double, as the online card does, counting the deals kept on
    the phone (a double of Ala in deal 6 would have met it); never blocking the save."""
    from playwright.sync_api import expect
    from test_e2e_offline import kept_for_offline

    created = live_server.api(
        "POST", "/api/v1/games", {"ruleset": "barbu", "players": NAMES, "first_dealer": "Ala"}
    )
    game = ApiGame(created["id"], created["edit_key"])
    bodies = barbu_example()[:5]  # RULES.md 4.9, deals 1-5
    for number, body in enumerate(bodies, start=1):
        live_server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": number, **body}, game.key)
    context = new_context(browser, PHONE_360)
    context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    page.goto(live_server.origin + game.path())
    kept_for_offline(page)
    context.set_offline(True)
    offline = page.locator("#offline-turn")
    expect(page.locator("#offline-status")).to_contain_text("Offline")
    # Deal 6: nobody owes Ala anything yet (Darek has two deals for his one double).
    expect(offline.locator("p[data-reminder]")).to_have_count(0)
    offline.locator('button.contract[value="no-tricks"]').click()
    expect(offline.get_by_role("heading")).to_have_text("Deal 6: No tricks, chosen by Ala")
    expect(offline.locator("p[data-reminder]")).to_have_count(0)
    for seat, count in enumerate((4, 2, 3)):
        offline.locator(f'.count-chips[data-for="offline-tricks-{seat}"] button[value="{count}"]').click()
    offline.get_by_role("button", name="Save deal 6").click()
    # Deal 7, Ala's last contract chosen already: the line over the doubles, as online.
    expect(offline.get_by_role("heading")).to_have_text("Deal 7: No last two, chosen by Ala")
    expect(offline.locator("fieldset.pairs p[data-reminder]")).to_have_text(
        ["Darek still owes Ala one double."]
    )
    screenshot(page, "360-barbu-offline-obligation")
    if os.environ.get("KEEP_SHOT"):
        page.screenshot(path=os.environ["KEEP_SHOT"], full_page=True)
    context.close()
