"""The new-game form on small phones: the Misère's scorings and Kierki's presets, each with the line
saying what it changes, and Kierki's fourth seat, within the screen at 320, 360 and 390 px, in both
themes and every language; and the rules page's Kierki section at the same widths."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from conftest import running_server
from e2e_support import PHONE, LiveServer, in_both_themes, new_context, screenshot
from test_e2e_layout import check_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser

WIDTHS = (320, 360, 390)

# Whatever the form's card holds is drawn inside it (a tab or a choice running past its edge would
# not be off the screen, yet out of its box).
OUTSIDE_THE_CARD_JS = """() => {
  const card = document.querySelector('main .card').getBoundingClientRect();
  const out = [];
  for (const e of document.querySelectorAll('main .card *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !e.checkVisibility()) continue;
    if (r.left < card.left - 0.5 || r.right > card.right + 0.5) {
      out.push(`${e.tagName.toLowerCase()}.${e.className} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
  }
  return out.slice(0, 8);
}"""
LANGUAGES = ("en", "pl", "it")


@pytest.fixture(scope="module")
def kierki_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory.mktemp("e2e-kierki")) as server:
        yield server


@pytest.mark.parametrize(("width", "scheme"), in_both_themes(WIDTHS))
def test_the_house_rules_fit_a_small_phone(
    browser: Browser, kierki_server: LiveServer, width: int, scheme: str
) -> None:
    device = {**PHONE, "viewport": {"width": width, "height": 740}, "device_scale_factor": 2}
    context = new_context(browser, device, color_scheme=scheme)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    for language in LANGUAGES:
        page.goto(kierki_server.url + f"language/{language}?next=/")
        for game, option, count in (("misere", "scoring", 2), ("kierki", "preset", 4)):
            page.goto(kierki_server.url + f"games/new?game={game}")
            choices = page.locator(f"input[name={option}]")
            assert choices.count() == count
            summaries = page.locator(f"label.choice:has(input[name={option}]) .summary")
            assert summaries.count() == count and all(text.strip() for text in summaries.all_inner_texts())
            if game == "kierki":
                assert page.locator("input[name=players-3]").is_visible()
            found = check_page(page) + page.evaluate(OUTSIDE_THE_CARD_JS)
            if found:
                problems[f"{language} {game}"] = found
            if language != "en" or width == 320:
                screenshot(page, f"new-game-{game}-{language}-{width}-{scheme}")
    context.close()
    assert problems == {}, "\n".join(f"{name}: {p}" for name, found in problems.items() for p in found)


def test_a_three_player_kierki_game_starts_from_the_form(browser: Browser, kierki_server: LiveServer) -> None:
    """Three names, seat 4 left empty, a preset tapped: the game starts with them."""
    context = new_context(browser, {**PHONE, "viewport": {"width": 320, "height": 740}})
    page = context.new_page()
    page.goto(kierki_server.url + "games/new?game=kierki")
    for seat, name in enumerate(["Ala", "Bartek", "Celina"]):
        page.fill(f"#players-{seat}", name)
    page.locator("label.choice:has(input[value=no-robber])").tap()
    page.locator("label.choice:has(input[name=first_dealer][value='1'])").tap()
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Start the game").tap()
    assert "/games/" in page.url and not page.url.endswith("/new")
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    state = kierki_server.api("GET", f"/api/v1/games/{game_id}")
    assert state["players"] == ["Ala", "Bartek", "Celina"]
    assert state["options"] == {"preset": "no-robber"}
    assert state["first_dealer"] == "Bartek"
    context.close()


@pytest.mark.parametrize(("width", "scheme"), in_both_themes(WIDTHS))
def test_the_rules_page_with_kierki_fits_a_small_phone(
    browser: Browser, live_server: LiveServer, width: int, scheme: str
) -> None:
    """Kierki's section (its table of values above all) in every language, the themes in turn."""
    problems: dict[str, list[str]] = {}
    device = {**PHONE, "viewport": {"width": width, "height": 740}, "device_scale_factor": 2}
    context = new_context(browser, device, color_scheme=scheme)
    page = context.new_page()
    for language in LANGUAGES:
        page.goto(live_server.url + f"language/{language}?next=/rules")
        assert page.locator("#kierki table").is_visible()
        found = check_page(page)
        if found:
            problems[f"{language} {scheme}"] = found
        if width in (320, 360):  # light and dark
            screenshot(page.locator("#kierki"), f"rules-kierki-{language}-{scheme}")
    context.close()
    assert problems == {}, "\n".join(f"{name}: {p}" for name, found in problems.items() for p in found)
