"""What the browser tests share: devices, the live server's handle, games made through the API, helpers."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from helpers import MIZERKA_DEALS, MIZERKA_FIRST_DEALER, MIZERKA_NAMES, kierki_body, kierki_everything, signed

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
SCREENS = OUTPUT / "screens"

# Without the background-networking flags Chromium keeps calling home, and this sandbox has no network.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
SMALL_PHONE: dict[str, Any] = {**PHONE, "viewport": {"width": 320, "height": 568}, "device_scale_factor": 2}
TABLET: dict[str, Any] = {**PHONE, "viewport": {"width": 768, "height": 1024}, "device_scale_factor": 2}


def in_both_themes(*dimensions: Any) -> list[tuple[Any, ...]]:
    """Every combination of ``dimensions`` (phones, languages...), each with one theme, light and dark
    in turn: for the tests that measure a layout, which the dark theme leaves as it is (it changes
    colours only: tests/web/test_web_themes.py).  Both themes are still drawn and screenshotted
    across the combinations; the tests that look at colours run in each theme whole."""
    combinations = list(itertools.product(*dimensions))
    return [(*combination, ("light", "dark")[index % 2]) for index, combination in enumerate(combinations)]


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def find_chromium() -> str | None:
    """Debian's Chromium: the only browser these tests use (Playwright's own are never downloaded)."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def new_context(browser: Browser, device: dict[str, Any], **options: Any) -> BrowserContext:
    context = browser.new_context(**device, **options)
    context.set_default_timeout(10_000)
    return context


#: Pictures of key screens, for people to look at (test-output/screens/): `make screens` takes them
#: (SCREENSHOTS=1) as it runs the browser tests.  They assert nothing, and drawing a whole tall page
#: at twice its size takes up to half a second, so `make test` leaves them out.
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")


def screenshot(page: Page | Locator, name: str) -> None:
    """Keep a picture of a key screen (the whole page) or of one element under test-output/screens/,
    when pictures are asked for (``SCREENSHOTS``)."""
    if not SCREENSHOTS:
        return
    from playwright.sync_api import Page

    SCREENS.mkdir(parents=True, exist_ok=True)
    path = str(SCREENS / f"{name}.png")
    if isinstance(page, Page):
        page.screenshot(path=path, full_page=True)
    else:
        page.screenshot(path=path)


def tap_and_load(page: Page, target: Locator) -> None:
    """Tap something that submits a form or follows a link, and wait for the page it leads to."""
    with page.expect_navigation(wait_until="load"):
        target.tap()


def shown_totals(page: Page) -> list[tuple[str, str]]:
    """The sticky scoreboard as read on screen: (name, signed total) per seat."""
    items = page.locator("section.scoreboard li.total")
    return [
        (
            items.nth(i).locator(".who").inner_text().strip(),
            items.nth(i).locator(".points").inner_text().strip(),
        )
        for i in range(items.count())
    ]


def expected_totals(totals: tuple[int, ...] | list[int]) -> list[tuple[str, str]]:
    return [(name, signed(total)) for name, total in zip(MIZERKA_NAMES, totals, strict=True)]


@dataclass(frozen=True)
class LiveServer:
    url: str

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")

    def api(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        """One JSON API call; the answer's body decoded."""
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.origin + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
        return json.loads(raw) if raw else None


@dataclass(frozen=True)
class ApiGame:
    id: str
    key: str

    def path(self, suffix: str = "") -> str:
        return f"/games/{self.id}{suffix}"

    def cookie(self, server: LiveServer) -> dict[str, Any]:
        """The scorer's edit cookie, as the page sets it on the phone that created the game."""
        return {
            "name": f"sk_edit_{self.id}",
            "value": self.key,
            "url": f"{server.origin}/games/{self.id}",
            "httpOnly": True,
            "sameSite": "Lax",
        }


def api_game(server: LiveServer, deals: int = 0, declare_next: bool = False) -> ApiGame:
    """The hand-scored game of tests/helpers.py with its first ``deals`` deals recorded through the API."""
    names = list(MIZERKA_NAMES)
    first = names[int(MIZERKA_FIRST_DEALER)]
    created = server.api("POST", "/api/v1/games", {"players": names, "first_dealer": first})
    game = ApiGame(created["id"], created["edit_key"])
    for deal in MIZERKA_DEALS[:deals]:
        body = {
            "number": deal.number,
            "contract": deal.contract,
            "tricks": dict(zip(names, deal.tricks, strict=True)),
        }
        server.api("POST", f"/api/v1/games/{game.id}/deals", body, game.key)
    if declare_next and deals < len(MIZERKA_DEALS):
        deal = MIZERKA_DEALS[deals]
        server.api(
            "POST",
            f"/api/v1/games/{game.id}/deals",
            {"number": deal.number, "contract": deal.contract},
            game.key,
        )
    return game


# -- every page and state a person meets, for the layout and accessibility checks -------------------------


@dataclass(frozen=True)
class Games:
    """Games in the states the pages show, made once per run through the API."""

    fresh: ApiGame
    declaring: ApiGame
    tricks: ApiGame
    finished: ApiGame

    def all(self) -> list[ApiGame]:
        return [self.fresh, self.declaring, self.tricks, self.finished]


def make_games(server: LiveServer) -> Games:
    return Games(
        fresh=api_game(server),
        declaring=api_game(server, deals=4),
        tricks=api_game(server, deals=4, declare_next=True),
        finished=api_game(server, deals=18),
    )


def scorer_context(
    browser: Browser, device: dict[str, Any], server: LiveServer, games: Games, **options: Any
) -> BrowserContext:
    """A phone holding the pencil (the edit cookie) for every game in ``games``."""
    context = new_context(browser, device, **options)
    context.add_cookies([game.cookie(server) for game in games.all()])  # type: ignore[list-item]
    return context


def _refused_tricks(page: Page, server: LiveServer, games: Games) -> None:
    page.goto(server.origin + games.tricks.path())
    page.fill("#tricks-0", "9")
    page.fill("#tricks-1", "9")
    page.fill("#tricks-2", "9")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Save deal 5").click()
    assert page.get_by_role("alert").count() == 1


def _refused_new_game(page: Page, server: LiveServer, games: Games) -> None:
    page.goto(server.origin + "/games/new")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Start the game").click()
    assert page.get_by_role("alert").count() >= 1


def _open_details(page: Page, server: LiveServer, games: Games, path: str) -> None:
    page.goto(server.origin + path)
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def _watching(page: Page, server: LiveServer, games: Games) -> None:
    page.context.clear_cookies()
    try:
        page.goto(server.origin + games.declaring.path())
        assert page.locator(".readonly").count() == 1
    finally:
        page.context.add_cookies([game.cookie(server) for game in games.all()])  # type: ignore[list-item]


def _a_player(page: Page, server: LiveServer, games: Games) -> None:
    page.goto(server.origin + "/players")
    href = page.locator("main a[href^='/players/']").first.get_attribute("href")
    assert href, "the players page links to each player"
    page.goto(server.origin + href)


def _hand_over_link(page: Page, server: LiveServer, games: Games) -> None:
    page.goto(server.origin + games.declaring.path())
    page.locator("details.share summary").click()
    tap_and_load(page, page.get_by_role("button", name="Share the pencil"))


def _goto(path_of: Any) -> Any:
    def show(page: Page, server: LiveServer, games: Games) -> None:
        response = page.goto(server.origin + path_of(games))
        assert response is not None and response.status in (200, 404), response

    return show


# name -> how to get there (a phone holding the pencil for every game in `games`)
STATES: dict[str, Any] = {
    "home": _goto(lambda games: "/"),
    "new-game": _goto(lambda games: "/games/new"),
    "new-game-misere": _goto(lambda games: "/games/new?game=misere"),
    "new-game-error": _refused_new_game,
    "first-deal": _goto(lambda games: games.fresh.path()),
    "declaring": _goto(lambda games: games.declaring.path()),
    "entering-tricks": _goto(lambda games: games.tricks.path()),
    "error-shown": _refused_tricks,
    "undo-and-share-open": lambda page, server, games: _open_details(
        page, server, games, games.declaring.path()
    ),
    "correct-deal": _goto(lambda games: games.declaring.path("/deals/2/edit")),
    "finished": _goto(lambda games: games.finished.path()),
    "scoresheet": _goto(lambda games: games.finished.path("/scoresheet")),
    "scoresheet-in-progress": _goto(lambda games: games.declaring.path("/scoresheet")),
    "watch-view": _watching,
    "rules": _goto(lambda games: "/rules"),
    "hand-over": _goto(lambda games: games.declaring.path("/take")),
    "hand-over-link": _hand_over_link,
    "import": _goto(lambda games: "/games/import"),
    "rankings": _goto(lambda games: "/rankings"),
    "players": _goto(lambda games: "/players"),
    "player": _a_player,
    "not-found": _goto(lambda games: "/games/no-such-game"),
}


# -- Kierki, made through the API (its pages show and print it; RULES.md 3.12) ------------------------

# Four names of 40 characters (tests/e2e/test_e2e_long_names.py's): with spaces, letters beyond ASCII,
# and one word of 40 letters.
KIERKI_LONG_NAMES = [
    "Giulia Francesca Maria Rossi-Bianchi Sal",
    "Grzegorz Brzęczyszczykiewicz z Chrząszcz",
    "Anna-Karin Lindqvist Åkesson Östberg Nyb",
    "Wolfeschlegelsteinhausenbergerdorffvoral",
]
# A `no-fan-tan` game of 15 deals: the last seat takes everything in the negative part (−2,600 after
# deal 7) and one trick of the eight trump deals: −2,575 at the end; the others +850, +850, +875.
KIERKI_TRUMPS = [
    ("spades", (13, 0, 0, 0)),
    ("hearts", (0, 13, 0, 0)),
    ("clubs", (0, 0, 13, 0)),
    ("diamonds", (4, 4, 5, 0)),
    ("spades", (4, 4, 4, 1)),
    ("hearts", (13, 0, 0, 0)),
    ("clubs", (0, 13, 0, 0)),
    ("diamonds", (0, 0, 13, 0)),
]
KIERKI_WIDEST = [
    *kierki_everything(3),
    *({"trumps": suit, "tricks": tricks} for suit, tricks in KIERKI_TRUMPS),
]
KIERKI_WIDEST_TOTALS = (850, 850, 875, -2575)


def kierki_game(
    server: LiveServer,
    names: list[str],
    deals: list[dict[str, Any]],
    preset: str = "standard",
    first: str | None = None,
    then: dict[str, Any] | None = None,
) -> ApiGame:
    """A Kierki game with ``deals`` recorded (facts by seat, tests/helpers.py), then the body ``then``."""
    body = {
        "ruleset": "kierki",
        "players": names,
        "first_dealer": first or names[0],
        "options": {"preset": preset},
    }
    created = server.api("POST", "/api/v1/games", body)
    game = ApiGame(created["id"], created["edit_key"])
    for number, facts in enumerate(deals, start=1):
        server.api("POST", f"/api/v1/games/{game.id}/deals", kierki_body(facts, names, number), game.key)
    if then is not None:
        server.api("POST", f"/api/v1/games/{game.id}/deals", then, game.key)
    return game
