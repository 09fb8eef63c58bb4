"""Kierki at the table by taps, on a phone held in one hand (RULES.md 3.10's worked example; a 3-player
game): every deal's facts by taps, no keyboard, within its tap budget (a negative deal in at most 5,
a trump deal in 5: the suit, three counts, Save; the Fan Tan in 3; the robber in at most 16), each
deal's preview what the game then holds, the totals and their sum (-2600 after the negative part,
0 at the end), each step but the robber's on one 360x740 screen under the scoreboard; a robber that
cannot have happened refused at the king of hearts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from e2e_support import LiveServer, new_context, screenshot, shown_totals
from helpers import kierki_games, signed
from test_e2e_taps import (
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
    assert page.locator("section.scoreboard .total-sum").inner_text().strip() == "· Suma \u22122600"
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
