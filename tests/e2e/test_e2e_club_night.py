"""A club night in browsers: a director on a phone, players checking in on theirs, a table's scorer
taking the pencil from the scoring link, and the projector following on its own (CLUB.md "Screens")."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING

from e2e_support import PHONE, LiveServer, new_context, screenshot, tap_and_load

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SMALL: dict[str, object] = {**PHONE, "viewport": {"width": 360, "height": 740}}
PROJECTOR: dict[str, object] = {"viewport": {"width": 1920, "height": 1080}}


def test_a_director_seats_two_rounds_and_the_projector_follows(
    browser: Browser, live_server: LiveServer
) -> None:
    tag = secrets.token_hex(2)
    names = [f"{name}{tag}" for name in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")]
    director = new_context(browser, SMALL, color_scheme="light").new_page()
    director.goto(live_server.origin + "/nights/new")
    director.locator("#name").fill(f"Thursday {tag}")
    director.locator("#game").select_option("misere:standard")
    director.locator("#rounds").fill("2")
    tap_and_load(director, director.locator("main button.primary[type=submit]"))
    night_path = "/nights/" + director.url.rsplit("/nights/", 1)[1]
    for name in names:
        director.locator("#name").fill(name)
        tap_and_load(director, director.locator("form.add-player button[type=submit]"))
    # A ninth player checks in on their own phone, by the check-in link.
    player = new_context(browser, SMALL, color_scheme="dark").new_page()
    player.goto(live_server.origin + night_path + "/check-in")
    player.locator("#name").fill(f"Ivy{tag}")
    tap_and_load(player, player.locator("form.add-player button[type=submit]"))
    assert "You are checked in." in player.inner_text("main")
    screenshot(player, "club-night-player-before-round")

    director.reload()
    assert director.locator("ol.night-players > li").count() == 9
    tap_and_load(director, director.get_by_role("button", name="Seat round 1"))
    assert "0 pairs have met before at these tables." in director.inner_text("#next")
    tap_and_load(director, director.get_by_role("button", name="Start round 1"))
    assert director.locator("#round li.night-table").count() == 2
    screenshot(director, "club-night-director")

    # The projector: both tables with a first dealer each, nine in the standings, no scrolling.
    projector = new_context(browser, PROJECTOR, color_scheme="dark").new_page()
    projector.goto(live_server.origin + night_path + "/screen")
    assert projector.locator("li.screen-table").count() == 2
    assert projector.locator("li.screen-table li.dealer").count() == 2
    assert projector.locator(".screen-standings li").count() == 9
    assert projector.evaluate("document.documentElement.scrollHeight") <= 1080
    screenshot(projector, "club-night-projector")

    # Table 1's scorer opens its scoring link: the pencil is theirs; a second phone is refused.
    director.locator("#round details.table-link").first.locator("summary").tap()
    link = director.locator("#round details.table-link").first.locator("figcaption a").get_attribute("href")
    assert link is not None and "/take#" in link
    scorer = new_context(browser, SMALL, color_scheme="light").new_page()
    scorer.goto(link)
    scorer.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert scorer.locator("body").get_attribute("data-pencil") == "1"
    late = new_context(browser, SMALL, color_scheme="light").new_page()
    late.goto(link)
    assert "already been used" in late.locator("#error-key").inner_text()

    # The director closes both tables unfinished and starts round 2; the projector follows by itself.
    for _ in range(2):
        tap_and_load(director, director.get_by_role("button", name="Close unfinished").first)
    tap_and_load(director, director.get_by_role("button", name="Start round 2"))
    projector.locator(".screen-round", has_text="Round 2").wait_for(timeout=12_000)
    assert projector.locator("li.screen-table").count() == 2
    # The player's phone: their table and seat this round.
    player.goto(live_server.origin + night_path + "/me")
    tap_and_load(player, player.get_by_role("link", name=f"Ivy{tag}"))
    text = player.inner_text("main")
    assert "Round 2" in text and ("Table" in text or "sit this round out" in text)
    # Paper: the round's table cards, one per table, then the standings on a page of their own.
    cards = new_context(browser, SMALL, color_scheme="light").new_page()
    cards.goto(live_server.origin + night_path + "/cards")
    cards.emulate_media(media="print")
    assert cards.locator("section.table-card").count() == 2
    assert not cards.locator("header.site").is_visible()
    first_card = cards.locator("section.table-card").first.inner_text()
    assert "Round 2 · Table 1" in first_card and "deals first" in first_card
    assert cards.locator(".standings-sheet").evaluate("e => getComputedStyle(e).breakBefore") == "page"
    screenshot(cards, "club-night-table-cards-print")
