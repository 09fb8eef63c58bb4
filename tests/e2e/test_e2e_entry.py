"""Entering and correcting a deal in the browser: the server's preview as counts are tapped, an error
at the one box that is wrong, Save tapped twice, and two deals swapping their contracts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from e2e_support import PHONE, LiveServer, api_game, new_context, screenshot
from helpers import MIZERKA_DEALS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 780}}


def scorer_page(
    browser: Browser, server: LiveServer, deals: int, declare_next: bool = False
) -> tuple[Page, str]:
    game = api_game(server, deals=deals, declare_next=declare_next)
    context = new_context(browser, PHONE_360)
    context.add_cookies([game.cookie(server)])  # type: ignore[list-item]
    page = context.new_page()
    page.goto(server.origin + game.path())
    return page, game.id


def chip(page: Page, seat: int, count: int) -> object:
    return page.locator(f'.count-chips[data-for="tricks-{seat}"] button[value="{count}"]')


def test_the_preview_shows_each_score_before_saving(browser: Browser, live_server: LiveServer) -> None:
    from playwright.sync_api import expect

    page, _ = scorer_page(browser, live_server, deals=1, declare_next=True)
    second = MIZERKA_DEALS[1]
    chip(page, 0, second.tricks[0]).tap()  # type: ignore[attr-defined]
    assert page.locator('output[data-preview-seat="0"]').inner_text() == "", "no scores before every count"
    chip(page, 1, second.tricks[1]).tap()  # type: ignore[attr-defined]
    for seat in range(3):
        score, total = second.scores[seat], second.totals[seat]
        shown = f"{'+' if score > 0 else '−' if score < 0 else ''}{abs(score)} → "
        shown += f"{'+' if total > 0 else '−' if total < 0 else ''}{abs(total)}"
        expect(page.locator(f'output[data-preview-seat="{seat}"]')).to_have_text(shown)
    screenshot(page, "360-preview")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 2").tap()
    assert page.locator(".flash").first.inner_text().strip().endswith("Deal 2 recorded.")
    page.context.close()


def test_an_error_marks_the_one_box_and_save_tapped_twice_says_recorded_once(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page, game_id = scorer_page(browser, live_server, deals=0, declare_next=True)
    chip(page, 0, 8).tap()  # type: ignore[attr-defined]
    page.locator("#tricks-1").fill("20")
    page.locator("#tricks-2").fill("1")
    # The preview already puts the refusal at Bob's box, and only there.
    expect(page.locator("#tricks-1")).to_have_attribute("aria-invalid", "true")
    assert page.locator("#tricks-0").get_attribute("aria-invalid") is None
    assert page.locator("#tricks-2").get_attribute("aria-invalid") is None
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 1").tap()
    invalid = page.locator(".tricks-form input[aria-invalid=true]")
    assert [invalid.nth(i).get_attribute("id") for i in range(invalid.count())] == ["tricks-1"]
    message = page.locator("#error-tricks")
    assert message.inner_text() == "Bob's tricks must be a whole number from 0 to 13 (got 20)."
    assert "add up to 13" not in page.locator(".tricks-form").inner_text()
    screenshot(page, "360-error-at-one-box")
    # Fixed, and Save tapped twice: both posts leave before the first answer comes back.
    page.locator("#tricks-1").fill("4")
    page.evaluate(
        """async () => {
          const form = document.querySelector('.tricks-form');
          const body = new FormData(form);
          await Promise.all([1, 2].map(() =>
            fetch(form.action, {method: 'POST', body, redirect: 'manual', credentials: 'same-origin'})));
        }"""
    )
    page.goto(live_server.origin + f"/games/{game_id}")  # not a reload: that would post the 422's form again
    flashes = page.locator(".flashes").inner_text()
    assert flashes.count("Deal 1 recorded.") == 1, flashes
    assert "already recorded" not in page.locator("main").inner_text()
    page.context.close()


def test_a_contract_tapped_twice_says_chosen_once_at_the_games_address(
    browser: Browser, live_server: LiveServer
) -> None:
    """The second post of the contract comes after the first stored it: the first one's answer, once."""
    from playwright.sync_api import expect

    page, game_id = scorer_page(browser, live_server, deals=0)
    page.evaluate(
        """async () => {
          const form = document.querySelector('.declare-form');
          const body = new FormData(form);
          body.append('contract', 'hearts');
          await fetch(form.action, {method: 'POST', body, redirect: 'manual', credentials: 'same-origin'});
        }"""
    )
    with page.expect_navigation(wait_until="load"):
        page.locator("button.contract[value='hearts']").tap()
    assert page.url == live_server.origin + f"/games/{game_id}"
    expect(page.locator(".flash")).to_have_count(1)
    assert page.locator(".flash").inner_text() == "Deal 1: Hearts. Enter the tricks when played."
    assert "already recorded" not in page.locator("main").inner_text()
    page.reload()
    expect(page.locator(".tricks-form")).to_be_visible()
    page.context.close()


def test_a_refused_save_reloads_as_the_game_page(browser: Browser, live_server: LiveServer) -> None:
    from playwright.sync_api import expect

    page, game_id = scorer_page(browser, live_server, deals=0, declare_next=True)
    for seat, count in enumerate((5, 5, 5)):
        page.locator(f"#tricks-{seat}").fill(str(count))
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#error-tricks")).to_be_visible()
    # Drawn at the post's address, the page takes the game's: reloading is the game, not a 405.
    assert page.url == live_server.origin + f"/games/{game_id}"
    response = page.reload()
    assert response is not None and response.status == 200
    expect(page.locator(".tricks-form")).to_be_visible()
    page.context.close()


def test_right_after_save_the_undo_is_within_reach_for_eight_seconds(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    game = api_game(live_server, deals=0, declare_next=True)
    context = new_context(browser, PHONE_360)
    context.add_cookies([game.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    page.clock.install()
    page.goto(live_server.origin + game.path())
    first = MIZERKA_DEALS[0]
    chip(page, 0, first.tricks[0]).tap()  # type: ignore[attr-defined]
    chip(page, 1, first.tricks[1]).tap()  # type: ignore[attr-defined]
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 1").tap()
    box = page.locator(".undo-now")
    expect(box).to_be_visible()
    expect(box).to_be_in_viewport()
    screenshot(page, "360-undo-after-save")
    page.clock.fast_forward(7000)
    expect(box).to_be_visible()
    page.clock.fast_forward(1500)
    expect(box).to_have_count(0)
    # The undo below the log stays, as always.
    expect(page.locator("#live details.undo")).to_have_count(1)
    context.close()


def test_the_undo_after_save_asks_first_and_undoes(browser: Browser, live_server: LiveServer) -> None:
    from playwright.sync_api import expect

    page, game_id = scorer_page(browser, live_server, deals=0, declare_next=True)
    first = MIZERKA_DEALS[0]
    chip(page, 0, first.tricks[0]).tap()  # type: ignore[attr-defined]
    chip(page, 1, first.tricks[1]).tap()  # type: ignore[attr-defined]
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 1").tap()
    box = page.locator(".undo-now")
    box.locator("summary").tap()
    with page.expect_navigation(wait_until="load"):
        box.get_by_role("button", name="Yes, undo deal 1").tap()
    expect(page.locator(".flash")).to_have_text("Deal 1 undone.")
    assert live_server.api("GET", f"/api/v1/games/{game_id}")["deals"] == []
    page.context.close()


def test_two_deals_swap_their_contracts_from_the_correction_page(
    browser: Browser, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page, game_id = scorer_page(browser, live_server, deals=6)  # Bob: Clubs in deal 2, Diamonds in 5
    page.goto(live_server.origin + f"/games/{game_id}/deals/2/edit")
    page.get_by_label("Or swap contracts with another of Bob's deals").select_option("5")
    page.locator("#tricks-0").fill(str(MIZERKA_DEALS[1].tricks[0]))  # an input event: the preview runs
    expect(page.locator('output[data-preview-seat="1"]')).not_to_have_text("")
    screenshot(page, "360-swap")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save the correction").tap()
    assert "Deals 2 and 5 swapped contracts" in page.locator(".flashes").inner_text()
    assert page.locator("#deal-2 .contract-name").inner_text() == "Diamonds"
    assert page.locator("#deal-5 .contract-name").inner_text() == "Clubs"
    page.context.close()
