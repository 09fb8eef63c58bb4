"""Kierki at the table by taps, on a phone held in one hand (RULES.md 3.10's worked example; a 3-player
game): every deal's facts by taps, no keyboard, within its tap budget (a negative deal in at most 5,
a trump deal in 5: the suit, three counts, Save; the Fan Tan in 3; the robber in at most 16), each
deal's preview what the game then holds, the totals and their sum (-2600 after the negative part,
0 at the end), each step but the robber's on one 360x740 screen under the scoreboard; a robber that
cannot have happened refused at the king of hearts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import PHONE, ApiGame, LiveServer, in_both_themes, new_context, screenshot, shown_totals
from helpers import kierki_games, signed
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

KIERKI = kierki_games()
PHONE_390 = {**PHONE, "viewport": {"width": 390, "height": 844}}
COUNTED = ("tricks", "hearts", "queens", "kings_jacks")
TAKERS = ("king_of_hearts", "seventh_trick", "last_trick")


def tap_deal(page: Page, taps: Taps, body: dict[str, Any], names: list[str]) -> None:
    """The deal's facts by taps in the order the card asks them; the last count of each fills itself."""
    if "trumps" in body:
        taps.tap(page.locator(f'#turn label.taker:has(input[name="trumps"][value="{body["trumps"]}"])'))
    for field in COUNTED:
        if field in body:
            for seat, name in enumerate(names[:-1]):
                taps.tap(
                    page.locator(
                        f'.count-chips[data-for="{field}-{seat}"] button[value="{body[field][name]}"]'
                    )
                )
            assert page.locator(f"#{field}-{len(names) - 1}").input_value() == str(body[field][names[-1]])
    for field in TAKERS:
        if field in body:
            taps.tap(
                page.locator(
                    f'#turn label.taker:has(input[name="{field}"][value="{names.index(body[field])}"])'
                )
            )
    for place, name in enumerate(body.get("places", ())):
        taps.tap(
            page.locator(f'#turn label.taker:has(input[name="places-{place}"][value="{names.index(name)}"])')
        )


def play(
    page: Page,
    names: list[str],
    deals: list[tuple[dict[str, Any], tuple[int, ...]]],
    one_screen: bool,
    running: tuple[int, ...] | None = None,
    shots: dict[int, str] | None = None,
) -> list[int]:
    """Every deal by taps; returns the taps each took.  Checks the preview and the totals after each."""
    from playwright.sync_api import expect

    taps = Taps(page)
    totals = list(running or [0] * len(names))
    per_deal = []
    for body, scores in deals:
        before = taps.count
        number = int(page.locator("#turn form input[name=number]").input_value())
        robber = "king_of_hearts" in body and "tricks" in body
        if one_screen and not robber:
            step_on_one_screen(page, f"deal {number}: the card as it opens")
        assert page.evaluate("() => document.activeElement.tagName") != "INPUT", "no keyboard on a phone"
        tap_deal(page, taps, body, names)
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        expected = [
            f"{signed(score)} \u2192 {signed(total)}" for score, total in zip(scores, totals, strict=True)
        ]
        expect(page.locator("#turn .deal-preview output")).to_have_text(expected)
        if one_screen and not robber:
            step_on_one_screen(page, f"deal {number}: everything tapped, its scores shown, Save")
        elif not one_screen:
            nothing_wider_than_the_screen(page, f"deal {number}")
        if shots and number in shots:
            screenshot(page, shots[number])  # the whole page: last, as it scrolls
        taps.tap(save_button(page), navigates=True)
        assert [total for _, total in shown_totals(page)] == [signed(total) for total in totals], number
        per_deal.append(taps.count - before)
    return per_deal


def test_the_worked_example_by_taps_in_polish(browser: Browser, live_server: LiveServer) -> None:
    context = new_context(browser, PHONE_360)
    page = context.new_page()
    start(page, live_server, "kierki", KIERKI.FOUR, 0, "pl")
    assert page.locator("#turn-heading").inner_text() == "Rozgrywka, 1 z 7: Bez lew"
    deals = KIERKI.EXAMPLE
    shots = {2: "360-kierki-hearts-pl", 6: "360-kierki-seventh-last-pl", 7: "360-kierki-robber-pl"}
    per_deal = play(page, KIERKI.FOUR, deals[:7], one_screen=True, shots=shots)
    assert page.locator("section.scoreboard .total-sum").inner_text().strip() == "· Suma \u22122\u00a0600"
    assert page.locator("#turn-heading").inner_text() == "Odgrywka, 1 z 5: Darek wybiera atut"
    assert "Darek wybiera atut" in page.locator("#turn .roles").inner_text()
    shots = {8: "360-kierki-trumps-pl", 12: "360-kierki-fan-tan-pl"}
    per_deal += play(
        page, KIERKI.FOUR, deals[7:], one_screen=True, running=(-505, -805, -480, -810), shots=shots
    )
    # A negative deal in at most 5 taps (a count: 3 and Save; the king of hearts: 2; the 7th and last: 3),
    # the robber in 16, a trump deal in 5, the Fan Tan in 3.
    assert per_deal == [4, 4, 4, 4, 2, 3, 16, 5, 5, 5, 5, 3], per_deal
    assert shown_totals(page) == [
        ("Ala", "+295"),
        ("Bartek", "\u2212430"),
        ("Celina", "+620"),
        ("Darek", "\u2212485"),
    ]
    assert page.locator("section.scoreboard .total-sum").inner_text().strip() == "· Suma 0"
    context.close()


def kierki_game(server: LiveServer, names: list[str], first: str, deals: list[Any]) -> ApiGame:
    """A Kierki game made through the API with ``deals`` (bodies by name) recorded."""
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "kierki", "players": names, "first_dealer": first}
    )
    game = ApiGame(created["id"], created["edit_key"])
    for number, (body, _scores) in enumerate(deals, start=1):
        server.api("POST", f"/api/v1/games/{game.id}/deals", {"number": number, **body}, game.key)
    return game


def scorer_page(
    browser: Browser, server: LiveServer, game: ApiGame, device: dict[str, Any], **options: Any
) -> Page:
    context = new_context(browser, device, **options)
    context.add_cookies([game.cookie(server)])  # type: ignore[list-item]
    page = context.new_page()
    page.goto(server.origin + game.path())
    return page


def test_a_three_player_game_by_taps_in_italian_on_the_smallest_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    """17 tricks a deal: two counts and Save; the robber in 12 taps; nothing wider than 320 px."""
    game = kierki_game(live_server, KIERKI.THREE, "Bartek", [])
    page = scorer_page(browser, live_server, game, PHONE_320)
    page.context.add_cookies([{"name": "lang", "value": "it", "url": live_server.origin}])
    page.reload()
    assert page.locator("#turn-heading").inner_text() == "Parte negativa, 1 di 7: Niente prese"
    assert page.locator('.count-chips[data-for="tricks-0"] button').count() == 18  # 0-17
    per_deal = play(page, KIERKI.THREE, KIERKI.STANDARD_3, one_screen=False)
    assert per_deal == [3, 3, 3, 3, 2, 3, 12, 4, 4, 4, 3], per_deal
    assert [total for _, total in shown_totals(page)] == ["\u2212360", "+495", "\u2212135"]
    assert page.locator("section.scoreboard .total-sum").inner_text().strip() == "· Somma 0"
    page.context.close()


def test_a_robber_that_cannot_have_happened_is_refused_at_the_king_of_hearts(
    browser: Browser, live_server: LiveServer
) -> None:
    """R2: the king of hearts' taker has no heart. Said at that field before Save (the server's preview),
    and again by the page the Save answers with, nothing stored."""
    from playwright.sync_api import expect

    game = kierki_game(live_server, KIERKI.FOUR, "Ala", KIERKI.EXAMPLE[:6])
    page = scorer_page(browser, live_server, game, PHONE_360)
    tap_deal(page, Taps(page), KIERKI.KH_NO_HEART, KIERKI.FOUR)
    said = "Celina took the king of hearts but no heart: the king of hearts is also a heart and a king."
    note = page.locator('#turn fieldset[data-field="king_of_hearts"] [data-preview-note]')
    expect(note).to_have_text(said)
    expect(page.locator("#turn .deal-preview")).not_to_have_class("is-shown")
    with page.expect_navigation(wait_until="load"):
        save_button(page).tap()
    error = page.locator('#turn fieldset[data-field="king_of_hearts"] #error-king_of_hearts')
    expect(error).to_have_text(said)
    expect(error).to_be_in_viewport()
    # What was tapped stays: the king of hearts is put right with one tap, and the deal saved.
    assert page.locator("#hearts-1").input_value() == "5"
    screenshot(page, "360-kierki-robber-refused")
    page.locator('#turn label.taker:has(input[name="king_of_hearts"][value="1"])').tap()
    expect(page.locator("#turn .deal-preview output").first).to_have_text("\u2212235 \u2192 \u2212505")
    with page.expect_navigation(wait_until="load"):
        save_button(page).tap()
    assert [total for _, total in shown_totals(page)] == ["\u2212505", "\u2212805", "\u2212480", "\u2212810"]
    assert len(live_server.api("GET", f"/api/v1/games/{game.id}")["deals"]) == 7
    page.context.close()


def test_every_kierki_deal_fits_the_phone(browser: Browser, live_server: LiveServer) -> None:
    """Each deal's entry as it opens: nothing wider than 320, 360 or 390 px; at 360x740 every step but
    the robber's on one screen under the scoreboard (a pending trump deal's tricks too).  Each phone
    in one theme, the two in turn (the dark theme changes colours only)."""
    games = [kierki_game(live_server, KIERKI.FOUR, "Ala", KIERKI.EXAMPLE[:done]) for done in range(12)]
    pending = kierki_game(live_server, KIERKI.FOUR, "Ala", KIERKI.EXAMPLE[:7])
    live_server.api(
        "POST", f"/api/v1/games/{pending.id}/deals", {"number": 8, "trumps": "hearts"}, pending.key
    )
    for device, scheme in in_both_themes((PHONE_320, PHONE_360, PHONE_390)):
        width = device["viewport"]["width"]
        context = new_context(browser, device, color_scheme=scheme)
        context.add_cookies([game.cookie(live_server) for game in [*games, pending]])  # type: ignore[misc]
        page = context.new_page()
        for number, game in [*enumerate(games, start=1), (8, pending)]:
            page.goto(live_server.origin + game.path())
            nothing_wider_than_the_screen(page, f"{width}px, deal {number}")
            if width == 360 and number != 7:
                step_on_one_screen(page, f"deal {number}")
            if (width, number) in ((360, 7), (360, 8), (360, 12), (320, 8)):
                screenshot(
                    page, f"{width}-kierki-deal-{number}{'-pending' if game is pending else ''}-{scheme}"
                )
        context.close()
