"""Keys in a real browser: a phone keeps the pencil of every game it scored, and hands it over once.

Chromium keeps about 180 cookies a site: with a cookie (two, in fact) per game, a phone that
scored 100 games had lost the pencil of the first ones, and its Cookie header grew with every
game.  The games a phone holds now live on the server behind one device cookie.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from conftest import running_server
from e2e_support import PHONE, ApiGame, LiveServer, api_game, new_context, tap_and_load

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

GAMES = 300
#: Names no other browser test gives: these people sat in this phone's games only.
PLAYERS = ["Oona Ring", "Pavel Ring", "Quinn Ring"]
#: A Cookie header that holds a session and a device cookie, whatever the number of games.
SMALL_COOKIE_HEADER = 400

# Creates GAMES games through the new-game form's own post, one after the other, as the phone
# would (its cookies, its redirects); answers each game's address.
CREATE_GAMES = """async ({count, token, names}) => {
  const made = [];
  for (let i = 0; i < count; i += 1) {
    const form = new FormData();
    form.append('csrf_token', token);
    form.append('first_dealer', '0');
    names.forEach((name, seat) => form.append(`players-${seat}`, name));
    const response = await fetch('/games/new', { method: 'POST', body: form, credentials: 'same-origin' });
    if (!response.ok || !response.redirected) throw new Error(`game ${i + 1}: ${response.status}`);
    made.push(new URL(response.url).pathname);
  }
  return made;
}"""


def holds_pencil(page: Page) -> bool:
    """Whether the game page on screen is the scorer's (a form to declare the next deal)."""
    return page.locator("form.declare-form").count() == 1 and page.locator(".readonly").count() == 0


def cookie_headers(page: Page) -> list[str]:
    """The Cookie header of every request the page sends from now on, as Chromium sent it."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.all_headers().get("cookie", "")))
    return seen


def test_a_phone_keeps_the_pencil_of_300_games(browser: Browser, live_server: LiveServer) -> None:
    context = new_context(browser, PHONE)
    page = context.new_page()
    page.goto(live_server.origin + "/games/new")
    token = page.locator("input[name=csrf_token]").first.input_value()
    made: list[str] = page.evaluate(CREATE_GAMES, {"count": GAMES, "token": token, "names": PLAYERS})
    assert len(set(made)) == GAMES

    sent = cookie_headers(page)
    for number in (1, 2, 100, 181, 250, GAMES):
        page.goto(live_server.origin + made[number - 1])
        assert holds_pencil(page), f"game {number} opens read-only"
    assert sent and max(len(header) for header in sent) < SMALL_COOKIE_HEADER, max(sent, key=len)
    names = sorted(cookie["name"] for cookie in context.cookies())
    assert names == ["scorekeeper_session", "sk_device"], names
    # The people pages read the same keyring: Oona sat in these 300 games only, so this phone may rename her.
    page.goto(live_server.origin + "/players")
    tap_and_load(page, page.get_by_role("link", name=PLAYERS[0]).first)
    assert page.locator("form[action$='/rename']").count() == 1
    context.close()


def test_old_per_game_cookies_are_taken_over(browser: Browser, live_server: LiveServer) -> None:
    """A phone from before the keyring: each game's cookie becomes a grant once the phone has shown
    it back with the device cookie it was given, and is then expired on both its paths."""
    games = [api_game(live_server) for _ in range(3)]
    context = new_context(browser, PHONE)
    host = urlsplit(live_server.origin).hostname or ""
    context.add_cookies(
        [  # as the old pages set them: the game's own path, and the people pages
            {
                "name": f"sk_edit_{game.id}",
                "value": game.key,
                "domain": host,
                "path": path,
                "httpOnly": True,
                "sameSite": "Lax",
            }
            for game in games[:2]
            for path in (game.path(), "/players")
        ]
    )
    page = context.new_page()
    sent = cookie_headers(page)
    page.goto(live_server.origin + games[0].path())
    assert holds_pencil(page)
    assert "sk_edit_" in sent[0]  # the old cookie came with the first visit
    # That visit was let in on it and given the device cookie; the next, showing both, takes it over.
    page.goto(live_server.origin + games[0].path())
    assert holds_pencil(page)
    left = {(cookie["name"], cookie["path"]) for cookie in context.cookies()}
    assert ("sk_device", "/") in left
    assert not [name for name, path in left if name == f"sk_edit_{games[0].id}"], left
    page.goto(live_server.origin + "/players")  # carries the second game's people cookie
    page.goto(live_server.origin + games[1].path())
    assert holds_pencil(page)
    page.goto(live_server.origin + games[2].path())
    assert not holds_pencil(page)  # no cookie of it: watched only
    assert not [cookie for cookie in context.cookies() if cookie["name"].startswith("sk_edit_")]
    assert "sk_edit_" not in sent[-1]
    context.close()


def scorer_of(browser: Browser, server: LiveServer, game: ApiGame) -> BrowserContext:
    context = new_context(browser, PHONE)
    context.add_cookies([game.cookie(server)])  # type: ignore[list-item]
    return context


def make_hand_over_link(page: Page, server: LiveServer, game: ApiGame) -> str:
    """On the scorer's game page: Share, then "Share the pencil"; the link as the page shows it."""
    page.goto(server.origin + game.path())
    page.locator("details.share summary").click()
    tap_and_load(page, page.get_by_role("button", name="Share the pencil"))
    assert page.get_by_role("heading", name="Share the pencil").is_visible()
    assert page.locator("svg").count() >= 1  # the QR code
    link = page.locator("#hand-over-link").input_value()
    assert link.startswith(f"{server.origin}{game.path('/take')}#"), link
    return link


def open_link(browser: Browser, link: str) -> tuple[BrowserContext, Page]:
    """Another phone opens the link (scanned, or pasted): its page posts the code for it."""
    context = new_context(browser, PHONE)
    page = context.new_page()
    with page.expect_navigation(wait_until="load"):
        page.goto(link)
    return context, page


def test_a_hand_over_link_works_once(browser: Browser, live_server: LiveServer) -> None:
    game = api_game(live_server, deals=2)
    scorer = scorer_of(browser, live_server, game)
    from playwright.sync_api import expect

    scorer.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.origin)
    page = scorer.new_page()
    link = make_hand_over_link(page, live_server, game)
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("#hand-over-said")).to_have_text("Link copied: send it to the next scorer only.")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    # The game page the phone keeps carries neither the code nor a link to take the pencil.
    code = link.split("#", 1)[1]
    kept = page.request.get(live_server.origin + game.path()).text()
    assert code not in kept and "/take" not in kept

    second, taking = open_link(browser, link)
    assert taking.url == live_server.origin + game.path()
    assert "This phone can now enter the score." in taking.locator(".flashes").inner_text()
    assert holds_pencil(taking)

    third, refused = open_link(browser, link)
    assert refused.url.startswith(live_server.origin + game.path("/take"))
    assert refused.locator("#error-key").inner_text() == (
        "This hand-over link has already been used. Ask the scorer to make a new one."
    )
    refused.goto(live_server.origin + game.path())
    assert not holds_pencil(refused)

    # The first phone still holds the pencil, and makes a new link: the third phone takes it.
    again = make_hand_over_link(page, live_server, game)
    assert again != link
    with refused.expect_navigation(wait_until="load"):
        refused.goto(again)
    assert holds_pencil(refused)
    for context in (scorer, second, third):
        context.close()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose hand-over links expire as soon as they are made."""
    with running_server(tmp_path_factory.mktemp("e2e-expiry"), SCOREKEEPER_HAND_OVER_SECONDS="0") as server:
        yield server


def test_an_expired_hand_over_link_is_refused(browser: Browser, quick_server: LiveServer) -> None:
    game = api_game(quick_server, deals=1)
    scorer = scorer_of(browser, quick_server, game)
    link = make_hand_over_link(scorer.new_page(), quick_server, game)
    phone, page = open_link(browser, link)
    assert page.locator("#error-key").inner_text() == (
        "This hand-over link has expired. Ask the scorer to make a new one."
    )
    page.goto(quick_server.origin + game.path())
    assert not holds_pencil(page)
    for context in (scorer, phone):
        context.close()
