"""This phone's games, first on the home page: the shared page is the same for every phone, and
each phone fills in its own games (those its keyring holds and those it opened) on the phone."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from e2e_support import PHONE, LiveServer, api_game, new_context, screenshot, tap_and_load

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SMALL: dict[str, object] = {**PHONE, "viewport": {"width": 360, "height": 740}}
SHARED = "main section:not(#this-phone)"  # the club's list, the same on every phone


def create_by_form(page: Page, server: LiveServer, names: list[str]) -> str:
    page.goto(server.origin + "/games/new")
    for seat, name in enumerate(names):
        page.locator(f"#players-{seat}").fill(name)
    tap_and_load(page, page.locator("main button.primary[type=submit]"))
    assert "/games/" in page.url, page.url
    return page.url.rsplit("/", 1)[1]


def listed(page: Page, where: str) -> list[str]:
    links = page.locator(f"{where} a.game-item")
    return [str(links.nth(i).get_attribute("href")) for i in range(links.count())]


def mine_shown(page: Page, count: int) -> list[str]:
    """The home page's "This phone's games", once the script filled them in."""
    page.locator("#this-phone a.game-item").nth(count - 1).wait_for()
    return listed(page, "#this-phone")


def test_each_phone_sees_its_own_games_first_and_the_same_list_below(
    browser: Browser, live_server: LiveServer
) -> None:
    tag = secrets.token_hex(2)
    watched = api_game(live_server)  # another table's game, which phone A only watches
    phone_a = new_context(browser, SMALL, color_scheme="light")
    phone_b = new_context(browser, SMALL, color_scheme="dark", locale="pl-PL")
    a, b = phone_a.new_page(), phone_b.new_page()
    own_a = create_by_form(a, live_server, [f"Ala{tag}", "Bea", "Cel"])
    a.goto(live_server.origin + watched.path())
    assert a.locator("body").get_attribute("data-pencil") == "0"  # watching, no pencil
    own_b = create_by_form(b, live_server, [f"Zoe{tag}", "Yan", "Xia"])

    a.goto(live_server.origin + "/")
    assert mine_shown(a, 2) == [f"/games/{own_a}", watched.path()]  # in progress, newest first
    heading = a.locator("#this-phone h2")
    assert heading.inner_text() == "This phone's games"
    first, second = a.locator("#this-phone a.game-item").all()
    assert first.locator(".game-players").inner_text() == f"Ala{tag} · Bea · Cel"
    assert "Pencil here" in first.inner_text() and "Deal 1/18" in first.inner_text()
    assert "Pencil here" not in second.inner_text()
    # First on the page: above the shared list, which lists everyone's games as before.
    assert heading.bounding_box()["y"] < a.locator("#playing-heading").bounding_box()["y"]  # type: ignore[index]
    assert a.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(a, "this-phone-home-360-light")
    a.emulate_media(color_scheme="dark")
    screenshot(a, "this-phone-home-360-dark")

    b.goto(live_server.origin + "/")
    assert mine_shown(b, 1) == [f"/games/{own_b}"]
    assert b.locator("#this-phone h2").inner_text() == "Partie na tym telefonie"
    assert "Ołówek tutaj" in b.locator("#this-phone a.game-item").inner_text()
    assert b.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(b, "this-phone-home-360-dark-pl")

    shared_a, shared_b = (
        listed(a, "main section:not(#this-phone)"),
        listed(b, "main section:not(#this-phone)"),
    )
    assert shared_a == shared_b
    assert {f"/games/{own_a}", f"/games/{own_b}", watched.path()} <= set(shared_a)
    phone_a.close()
    phone_b.close()


def test_without_script_the_home_page_is_the_shared_list_alone(
    browser: Browser, live_server: LiveServer
) -> None:
    phone = new_context(browser, SMALL, java_script_enabled=False)
    page = phone.new_page()
    create_by_form(page, live_server, ["Ann", "Bob", "Cid"])
    page.goto(live_server.origin + "/")
    assert page.locator("#this-phone").is_hidden()
    assert listed(page, SHARED)
    phone.close()
