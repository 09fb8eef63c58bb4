"""The language switch on a small phone: one header row, a menu that works from the keyboard and by
touch, in both themes, and the page in the language chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from e2e_support import SMALL_PHONE, LiveServer, new_context, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HEADER_JS = """() => {
  const header = document.querySelector('header.site').getBoundingClientRect();
  const items = [...document.querySelectorAll('.languages li > *')].map((e) => e.getBoundingClientRect());
  return {height: header.height, width: document.documentElement.clientWidth,
          scroll: document.documentElement.scrollWidth, items: items.map((r) => [r.height, r.right])};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_switch_fits_opens_from_the_keyboard_and_changes_the_language(
    browser: Browser, live_server: LiveServer, scheme: str
) -> None:
    context = new_context(browser, SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live_server.url + "rankings")
    switch = page.locator("details.languages")
    assert switch.locator("summary .code").inner_text() == "EN"
    assert not switch.evaluate("(d) => d.open")
    before = page.evaluate(HEADER_JS)
    # One row, and nothing sticks out.
    assert before["height"] <= 48 and before["scroll"] == before["width"], before

    # From the keyboard: Tab to the switch, Enter opens it, Escape closes it and gives the focus back.
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('details.languages > summary')"):
            break
    else:
        pytest.fail("the switch is never reached with Tab")
    page.keyboard.press("Enter")
    assert switch.evaluate("(d) => d.open")
    opened = page.evaluate(HEADER_JS)
    for height, right in opened["items"]:
        assert height >= 44 and right <= opened["width"], opened  # tap-sized, and on the screen
    screenshot(page, f"language-menu-{scheme}")
    page.keyboard.press("Escape")
    assert not switch.evaluate("(d) => d.open")
    assert page.evaluate("() => document.activeElement.matches('details.languages > summary')")

    # By touch: a tap elsewhere closes it; choosing Polski comes back to the same page in Polish.
    switch.locator("summary").tap()
    page.locator("main h1").tap(position={"x": 4, "y": 4})  # the heading, left of the menu
    assert not switch.evaluate("(d) => d.open")
    switch.locator("summary").tap()
    with page.expect_navigation(wait_until="load"):
        page.locator('.languages a[hreflang="pl"]').tap()
    assert page.url.endswith("/rankings")
    assert page.locator("html").get_attribute("lang") == "pl"
    assert switch.locator("summary .code").inner_text() == "PL"
    assert page.locator('.languages [aria-current="true"]').get_attribute("lang") == "pl"
    assert errors == []
    context.close()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_watching_phone_s_first_poll_is_answered_not_modified(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    """The page's own tag names its language as the server's does: nothing is sent again for nothing."""
    from e2e_support import PHONE, api_game

    game = api_game(live_server, deals=2)
    context = new_context(browser, PHONE)
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    page = context.new_page()
    page.goto(f"{live_server.origin}/games/{game.id}")
    assert page.locator("html").get_attribute("lang") == language
    # The live update's poll: the page's address with the tag it holds (not the worker's own copy).
    with page.expect_response(
        lambda response: (
            response.url.endswith(f"/games/{game.id}") and "if-none-match" in response.request.headers
        ),
        timeout=15000,
    ) as polled:
        pass
    assert polled.value.request.headers["if-none-match"].endswith(f'-r-{language}"')
    assert polled.value.status == 304, polled.value.status
    context.close()
