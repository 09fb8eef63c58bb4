"""Names of 40 characters and the largest totals, on 320, 360 and 390 px phones and a phone held sideways
(740x360), in both themes, in English, Polish and Italian, and on paper: no page wider than the screen, no
element past its right edge, no text clipped, every name and total whole, no word broken where the page
has room for it. Every kind of page: home, new game (both games), both games in progress (choosing,
bidding, entering the counts, correcting a deal, right after a rematch with its message) and finished,
the sheets, rankings, the players and a player, the rules and the import page.

The games are seeded through the API. The rules cap a Misère game's total at ±910 (worked out from the
engine's scores below; the seeded games reach +910 and −910), so no game can show four digits; the
rankings and the player page add games up, and eleven such games give them real totals of ±10010. The
pages are also measured with the shown totals replaced by +9,999 and −9,999.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from babel.numbers import format_decimal
from e2e_support import (
    KIERKI_LONG_NAMES,
    KIERKI_WIDEST,
    OUTPUT,
    PHONE,
    ApiGame,
    Games,
    LiveServer,
    in_both_themes,
    kierki_game,
    new_context,
    screenshot,
)
from test_e2e_layout import OVERFLOW_JS
from test_e2e_print import PRINTABLE_PX, _pixels, poppler

from scorekeeper.rules.misere import BIDDING_DEALS, CIAPA_CIAPA, bid_score, trick_score

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# Phones upright (tall enough that a short page does not hide a problem below the fold) and sideways.
VIEWPORTS = {"320": (320, 800), "360": (360, 800), "390": (390, 800), "740x360": (740, 360)}
LANGUAGES = ["en", "pl", "it"]
PAPER = ["A4", "Letter"]

# Four names of exactly 40 characters: with spaces (they wrap between words), with letters beyond
# ASCII and a long word, and one word of 40 letters that no line can break but the narrowest.
MISERE_NAMES = [
    "Giulia Francesca Maria Rossi-Bianchi Sal",
    "Grzegorz Brzęczyszczykiewicz z Chrząszcz",
    "Anna-Karin Lindqvist Åkesson Östberg Nyb",
    "Wolfeschlegelsteinhausenbergerdorffvoral",
]
# The finished Misère games seeded: each reaches the largest and the smallest total a game can have,
# so the rankings and the player page add them up past four digits.
MISERE_GAMES = 11
MIZERKA_NAMES = MISERE_NAMES[1:]
assert all(len(name) == 40 for name in MISERE_NAMES), [len(name) for name in MISERE_NAMES]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def grouped(value: int) -> str:
    """A figure as an English page writes it from 1000 up: "+10,010"."""
    return f"+{value:,}" if value > 0 else f"\u2212{-value:,}"


def seed_misere(server: LiveServer) -> dict[str, Any]:
    """Seat 0 makes a bid of 13 in every bidding deal, seat 1 misses one; then 13 tricks each in 7, 8."""
    created = server.api(
        "POST",
        "/api/v1/games",
        {"ruleset": "misere", "players": MISERE_NAMES, "first_dealer": MISERE_NAMES[0]},
    )
    game_id, key = created["id"], created["edit_key"]
    names = MISERE_NAMES
    for number in range(1, 7):
        bids = dict(zip(names, (13, 13, 0, 0), strict=True))
        server.api("POST", f"/api/v1/games/{game_id}/deals", {"number": number, "bids": bids}, key)
        tricks = dict(zip(names, (13, 0, 0, 0), strict=True))
        server.api("PUT", f"/api/v1/games/{game_id}/deals/{number}", {"tricks": tricks}, key)
    for number, tricks in ((7, (13, 0, 0, 0)), (8, (0, 13, 0, 0))):
        body = {"number": number, "tricks": dict(zip(names, tricks, strict=True))}
        server.api("POST", f"/api/v1/games/{game_id}/deals", body, key)
    return server.api("GET", f"/api/v1/games/{game_id}") | {"edit_key": key}


def seed_mizerka(server: LiveServer, deals: int = 18, declare: bool = False) -> dict[str, Any]:
    """A Mizerka game of three long names (every contract once per chooser), ``deals`` of it played;
    with ``declare`` the next deal's contract is chosen (its counts are to be entered)."""
    names = MIZERKA_NAMES
    created = server.api("POST", "/api/v1/games", {"players": names, "first_dealer": names[2]})
    game_id, key = created["id"], created["edit_key"]
    contracts = ["hearts", "clubs", "mizerka", "spades", "diamonds", "no-trumps"]
    for number in range(1, deals + 1 + int(declare)):
        contract = contracts[(number - 1) // 3]
        body: dict[str, Any] = {"number": number, "contract": contract}
        if number <= deals:
            body["tricks"] = dict(zip(names, (7, 5, 1), strict=True))
        server.api("POST", f"/api/v1/games/{game_id}/deals", body, key)
    return server.api("GET", f"/api/v1/games/{game_id}") | {"edit_key": key}


def seed_misere_in_progress(server: LiveServer, bid: bool) -> dict[str, Any]:
    """Two Misère deals played; the third waits for its bids, or (``bid``) for its tricks."""
    names = MISERE_NAMES
    created = server.api(
        "POST", "/api/v1/games", {"ruleset": "misere", "players": names, "first_dealer": names[0]}
    )
    game_id, key = created["id"], created["edit_key"]
    for number in range(1, 3 + int(bid)):
        bids = dict(zip(names, (13, 13, 0, 0), strict=True))
        server.api("POST", f"/api/v1/games/{game_id}/deals", {"number": number, "bids": bids}, key)
        if number < 3:
            tricks = dict(zip(names, (13, 0, 0, 0), strict=True))
            server.api("PUT", f"/api/v1/games/{game_id}/deals/{number}", {"tricks": tricks}, key)
    return server.api("GET", f"/api/v1/games/{game_id}") | {"edit_key": key}


# Once per run's server, as the server is (session): a module's fixture is built again whenever
# a parallel worker's tests of this file are interleaved with another file's, and the players
# would then have twice the games their totals are checked against.
@pytest.fixture(scope="session")
def seeded(live_server: LiveServer) -> dict[str, dict[str, Any]]:
    misere = [seed_misere(live_server) for _ in range(MISERE_GAMES)]
    return {
        "misere": misere[-1],
        "mizerka": seed_mizerka(live_server),
        "misere-bidding": seed_misere_in_progress(live_server, bid=False),
        "misere-tricks": seed_misere_in_progress(live_server, bid=True),
        "mizerka-choosing": seed_mizerka(live_server, deals=4),
        "mizerka-tricks": seed_mizerka(live_server, deals=4, declare=True),
    }


def pencil_cookies(server: LiveServer, seeded: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The scorer's edit cookie for every seeded game, as the phone that created them holds it."""
    return [
        {
            "name": f"sk_edit_{game['id']}",
            "value": game["edit_key"],
            "url": f"{server.origin}/games/{game['id']}",
        }
        for game in seeded.values()
    ]


def misere_extremes() -> tuple[int, int]:
    """The highest and lowest total a Misère game can reach, from the engine's own scores."""
    counts = range(14)
    bidding = [bid_score(bid, tricks) for bid in counts for tricks in counts]
    ciapa = [trick_score(CIAPA_CIAPA, tricks) for tricks in counts]
    misere = [trick_score("misere", tricks) for tricks in counts]
    deals = [bidding] * BIDDING_DEALS + [ciapa, misere]
    return sum(max(scores) for scores in deals), sum(min(scores) for scores in deals)


def test_the_seeded_totals_are_the_largest_the_rules_allow(seeded: dict[str, dict[str, Any]]) -> None:
    highest, lowest = misere_extremes()
    assert (highest, lowest) == (910, -910)
    totals = seeded["misere"]["totals"]
    assert [totals[name] for name in MISERE_NAMES] == [highest, lowest, 300, 300]


# Text cut by its box: a box that hides what overflows it (or ends it with an ellipsis) and is
# narrower than its content; and text drawn past the right edge of the screen. The one exception: a
# name on the sticky scoreboard, whose column ends a long one in "…" (the whole name is in the page, read
# out, and written whole on the card below: test_the_scoreboard_is_one_strip below).
CLIPPED_JS = """() => {
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (!e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    if (e.closest('.skip, .visually-hidden, svg, .table-wrap, .scoreboard .who')) continue;
    const style = getComputedStyle(e);
    if (e.clientWidth <= 1 && style.clipPath !== 'none') continue;  // hidden from sight, read aloud
    const hides = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
    if (hides && e.scrollWidth > e.clientWidth + 1 && e.innerText.trim()) {
      const text = e.innerText.trim().slice(0, 50);
      out.push(`${e.tagName.toLowerCase()}.${e.className} "${text}" ${e.scrollWidth}>${e.clientWidth}`);
    }
  }
  return out.slice(0, 10);
}"""

# Words broken across two lines though the page's column has room for them on one: only a word about as
# wide as the whole column (the 40-letter name on the narrowest phones) may be broken.
BROKEN_WORDS_JS = """() => {
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  const room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - 2 * 16;  // a card's padding and border
  const clipped = (e) => {
    for (; e && e !== main; e = e.parentElement) if (getComputedStyle(e).clipPath !== 'none') return true;
    return false;
  };
  const out = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    if (parent.closest('.visually-hidden, title, desc')) continue;
    if (clipped(parent)) continue;  // hidden from sight, read aloud
    for (const match of node.data.matchAll(/[^\\s\\-\\u2010\\u00ad\\/·=]+/gu)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const width = rects.reduce((sum, r) => sum + r.width, 0);
      if (lines.size > 1 && width < 0.9 * room) {
        const where = `${parent.tagName.toLowerCase()}.${parent.className}`;
        out.push(`${where} "${match[0]}" ${Math.round(width)}<${Math.round(room)}`);
      }
    }
  }
  return out.slice(0, 10);
}"""

# What the charts show in sight: the text drawn in each SVG (not its title or description, which only
# a screen reader reads) and the text of the figure around it.
CHART_TEXT_JS = """() => [...document.querySelectorAll('figure.chart-figure')].map((figure) => ({
  drawn: [...figure.querySelectorAll('svg text')].map((t) => t.textContent),
  around: figure.innerText,
}))"""

# The widest totals ever drawn (grouped, as an English page writes them), put in place of the played ones.
WIDEST_JS = """() => {
  let i = 0;
  for (const e of document.querySelectorAll('.points, .total-cell, td.num.strong')) {
    e.textContent = i++ % 2 ? '\\u22129,999' : '+9,999';
  }
}"""


def page_paths(seeded: dict[str, dict[str, Any]], player_id: int, chooser_id: int) -> dict[str, str]:
    misere, mizerka = seeded["misere"]["id"], seeded["mizerka"]["id"]
    return {
        "misere-game": f"/games/{misere}",
        "misere-sheet": f"/games/{misere}/scoresheet",
        "mizerka-game": f"/games/{mizerka}",
        "mizerka-sheet": f"/games/{mizerka}/scoresheet",
        "misere-bidding": f"/games/{seeded['misere-bidding']['id']}",
        "misere-tricks": f"/games/{seeded['misere-tricks']['id']}",
        "misere-sheet-in-progress": f"/games/{seeded['misere-tricks']['id']}/scoresheet",
        "misere-correct": f"/games/{seeded['misere-bidding']['id']}/deals/1/edit",
        "mizerka-choosing": f"/games/{seeded['mizerka-choosing']['id']}",
        "mizerka-tricks": f"/games/{seeded['mizerka-tricks']['id']}",
        "mizerka-sheet-in-progress": f"/games/{seeded['mizerka-tricks']['id']}/scoresheet",
        "mizerka-correct": f"/games/{seeded['mizerka-choosing']['id']}/deals/2/edit",
        "home": "/",
        "new-game": "/games/new?game=misere",  # the recent players offered as buttons
        "new-game-mizerka": "/games/new?game=mizerka",
        "players": "/players",
        "rankings": "/rankings?game=misere",
        "player": f"/players/{player_id}?game=misere",
        "player-mizerka": f"/players/{chooser_id}?game=mizerka",  # the contracts each chose
        "rules": "/rules",
        "import": "/games/import",
    }


def problems_on(page: Page) -> list[str]:
    found: list[str] = []
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow["page"] > 0 or overflow["elements"]:
        found.append(f"wider than the screen by {overflow['page']}px: {overflow['elements']}")
    found += [f"clipped: {item}" for item in page.evaluate(CLIPPED_JS)]
    found += [f"broken inside a word: {item}" for item in page.evaluate(BROKEN_WORDS_JS)]
    return found


def chart_problems(page: Page, totals: dict[str, int]) -> list[str]:
    """Every name and total whole in sight at each chart, nothing shortened."""
    found = []
    for chart in page.evaluate(CHART_TEXT_JS):
        drawn, around = chart["drawn"], " ".join(chart["around"].split())
        found += [f"chart label shortened: {text!r}" for text in drawn if "\u2026" in text or "..." in text]
        shown = around + " " + " ".join(drawn)
        found += [f"chart: {name} not whole" for name in totals if name not in shown]
        found += [
            f"chart: {name}'s {signed(t)} not shown" for name, t in totals.items() if signed(t) not in shown
        ]
    return found


def number(value: int, language: str) -> str:
    """A signed figure as the page writes it in ``language`` ("+10,010", "+10 010", "+10.010")."""
    figure = format_decimal(abs(value), locale=language)
    return f"+{figure}" if value > 0 else f"\u2212{figure}" if value < 0 else figure


# The words of the pages' own buttons, by language (to find the rematch button).
REMATCH = {"en": "Rematch", "pl": "Rewanż", "it": "Rivincita"}


@pytest.mark.parametrize(("viewport", "language", "theme"), in_both_themes(VIEWPORTS, LANGUAGES))
def test_long_names_and_big_totals_fit_every_phone(
    viewport: str,
    theme: str,
    language: str,
    browser: Browser,
    live_server: LiveServer,
    seeded: dict[str, dict[str, Any]],
) -> None:
    width, height = VIEWPORTS[viewport]
    device = {**PHONE, "viewport": {"width": width, "height": height}, "device_scale_factor": 2}
    context = new_context(browser, device, color_scheme=theme)
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    context.add_cookies(pencil_cookies(live_server, seeded))  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(live_server.origin + "/rankings?game=misere")
    player_link = page.get_by_role("link", name=MISERE_NAMES[0]).first
    player_id = int(re.search(r"/players/(\d+)", player_link.get_attribute("href") or "").group(1))  # type: ignore[union-attr]
    page.goto(live_server.origin + "/rankings?game=mizerka")
    chooser_link = page.get_by_role("link", name=MIZERKA_NAMES[0]).first
    chooser_id = int(re.search(r"/players/(\d+)", chooser_link.get_attribute("href") or "").group(1))  # type: ignore[union-attr]
    problems: dict[str, list[str]] = {}
    shots = language == "en" or viewport in ("320", "740x360")
    for name, path in page_paths(seeded, player_id, chooser_id).items():
        response = page.goto(live_server.origin + path)
        assert response is not None and response.status == 200, (path, response and response.status)
        found = problems_on(page)
        text = page.locator("main").inner_text()
        names = MISERE_NAMES if name.startswith(("misere", "rankings", "player", "home")) else MIZERKA_NAMES
        whole = [n for n in names if n.split()[0] in text and n not in " ".join(text.split())]
        if name.startswith(("misere-", "mizerka-")):
            found += [f"name not whole on the page: {n}" for n in whole]
        if name in ("misere-game", "misere-sheet"):
            for total in (910, -910, 300):
                if signed(total) not in text:
                    found.append(f"total {signed(total)} not shown whole")
        if name in ("misere-game", "misere-sheet", "mizerka-game", "mizerka-sheet"):
            found += chart_problems(page, seeded[name.split("-")[0]]["totals"])
        if name in ("rankings", "player"):
            for total in (MISERE_GAMES * 910, -MISERE_GAMES * 910)[: 2 if name == "rankings" else 1]:
                if number(total, language) not in text:
                    found.append(f"total {number(total, language)} over {MISERE_GAMES} games not shown whole")
        if shots:
            screenshot(page, f"long-{viewport}-{theme}-{language}-{name}")
        page.evaluate(WIDEST_JS)
        found += [f"with ±9999: {item}" for item in problems_on(page)]
        if found:
            problems[name] = found
    # Right after a rematch: its message names who deals first (a 40-letter word among them).
    page.goto(live_server.origin + f"/games/{seeded['misere']['id']}")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name=REMATCH[language]).click()
    assert page.locator(".flash").count() == 1
    found = problems_on(page)
    if found:
        problems["rematch-flash"] = found
    if shots:
        screenshot(page, f"long-{viewport}-{theme}-{language}-rematch-flash")
    context.close()
    assert problems == {}, "\n".join(f"{name}: {p}" for name, found in problems.items() for p in found)


@pytest.fixture(scope="module")
def printed(
    browser: Browser, live_server: LiveServer, seeded: dict[str, dict[str, Any]]
) -> dict[tuple[str, str], Path]:
    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, PHONE)
    page = context.new_page()
    files = {}
    for game in ("misere", "mizerka", "misere-tricks", "mizerka-tricks"):
        page.goto(live_server.origin + f"/games/{seeded[game]['id']}/scoresheet")
        page.emulate_media(media="print")
        for paper in PAPER:
            path = folder / f"long-{game}-{paper}.pdf"
            page.pdf(path=str(path), format=paper, print_background=True)
            files[(game, paper)] = path
    context.close()
    return files


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("game", ["misere", "mizerka"])
def test_both_sheets_print_on_one_page_with_every_name_and_total(
    game: str, paper: str, printed: dict[tuple[str, str], Path], seeded: dict[str, dict[str, Any]]
) -> None:
    path = printed[(game, paper)]
    info = poppler("pdfinfo", str(path)).decode()
    assert re.search(r"^Pages:\s+1$", info, re.MULTILINE), info
    text = " ".join(poppler("pdftotext", str(path), "-").decode().split())
    assert "\u2026" not in text, "something is shortened on the sheet"
    state = seeded[game]
    for name in state["totals"]:
        assert name in text, f"{name!r} is not whole on the {paper} sheet"
    for deal in state["deals"]:
        for name, total in deal["totals"].items():
            assert signed(total) in text, (deal["number"], name, total)
    for name, total in state["totals"].items():
        assert signed(total) in text, (name, total)


# The deal table's box in print, against the page's printable width (the sheet laid out for paper).
TABLE_BOX_JS = """() => {
  const r = document.querySelector('table.sheet-log').getBoundingClientRect();
  return {left: r.left, right: r.right, width: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("paper", PAPER)
@pytest.mark.parametrize("game", ["misere", "mizerka", "misere-tricks", "mizerka-tricks"])
def test_every_sheet_draws_its_deal_table_whole_inside_the_page(
    game: str, paper: str, printed: dict[tuple[str, str], Path], seeded: dict[str, dict[str, Any]]
) -> None:
    """Every name and total on paper (an unfinished game's too), and the deal table's outer border drawn:
    rendered, its rightmost dark column is a rule from the table's top to its bottom, inside the margin."""
    path = printed[(game, paper)]
    text = " ".join(poppler("pdftotext", str(path), "-").decode().split())
    state = seeded[game]
    for name in state["players"]:
        assert name in text, f"{name!r} is not whole on the {paper} sheet"
    for name, total in state["totals"].items():
        assert signed(total) in text, (name, total)
    dpi = 100
    ppm = poppler("pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(path))
    width, height, rgb = _pixels(ppm)
    (OUTPUT / "pdf" / f"long-{game}-{paper}.ppm").write_bytes(ppm)
    margin = round(10 / 25.4 * dpi)  # @page margin: 10 mm
    dark = [[rgb[(y * width + x) * 3] < 110 for x in range(width)] for y in range(height)]
    rightmost = max(x for x in range(width) if any(dark[y][x] for y in range(height)))
    assert rightmost < width - margin + 2, f"ink past the printable area: column {rightmost} of {width}"
    # The table: the rows the rightmost ruling runs through, top to bottom, unbroken.
    column = [dark[y][rightmost] or dark[y][rightmost - 1] for y in range(height)]
    run = longest = 0
    for inked in column:
        run = run + 1 if inked else 0
        longest = max(longest, run)
    rows = (
        len(state["deals"])
        if game in ("misere", "mizerka")
        else {"misere": 8, "mizerka": 18}[game.split("-")[0]]
    )
    assert longest >= rows * 5 / 25.4 * dpi, f"the table's right border is not drawn whole ({longest}px)"


# -- the deal log's type on paper: as large as the page holds, in the middle of each cell ----------------

# Each row's words (a dealer's, a chooser's name or mark, the contract) and each player's name over their
# columns, laid out as on paper: the smallest type of its text in points, and how far (CSS px) the
# middle of that text lies from the middle of its cell.
SHEET_TYPE_JS = """() => {
  const cells = document.querySelectorAll(
    'table.sheet-log tbody tr:not(.blank) > td:not(.num), table.sheet-log thead th.name-col');
  const out = [];
  for (const cell of cells) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let size = Infinity, top = Infinity, bottom = -Infinity, words = '';
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.data.trim() || text.parentElement.closest('.visually-hidden')) continue;
      size = Math.min(size, parseFloat(getComputedStyle(text.parentElement).fontSize) * 0.75);
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const r of range.getClientRects()) {
        top = Math.min(top, r.top);
        bottom = Math.max(bottom, r.bottom);
      }
      words += text.data.trim() + ' ';
    }
    if (!words) continue;
    const box = cell.getBoundingClientRect();
    const offset = cell.closest('thead') ? 0 : (top + bottom) / 2 - (box.top + box.bottom) / 2;
    out.push({words: words.trim(), size, offset});
  }
  return out;
}"""

# Four names that fit the sheet's dealer column (the Italian table of the first point).
ITALIAN_NAMES = ["Massimiliano", "Maria Antonietta", "Bartolomeo", "Gianfranco"]


@pytest.fixture(scope="module")
def italian_misere(live_server: LiveServer) -> str:
    """A finished Misère game of four ordinary Italian names (its id): bids made and missed."""
    names = ITALIAN_NAMES
    body = {"ruleset": "misere", "players": names, "first_dealer": names[0]}
    created = live_server.api("POST", "/api/v1/games", body)
    game_id, key = created["id"], created["edit_key"]
    for number in range(1, 7):
        bids = dict(zip(names, (3, 4, 2, 5), strict=True))
        live_server.api("POST", f"/api/v1/games/{game_id}/deals", {"number": number, "bids": bids}, key)
        tricks = dict(zip(names, (3, 4, 1, 5), strict=True))
        live_server.api("PUT", f"/api/v1/games/{game_id}/deals/{number}", {"tricks": tricks}, key)
    for number in (7, 8):
        body = {"number": number, "tricks": dict(zip(names, (3, 4, 1, 5), strict=True))}
        live_server.api("POST", f"/api/v1/games/{game_id}/deals", body, key)
    return str(game_id)


@pytest.mark.parametrize("paper", PAPER)
def test_the_deal_log_is_printed_large_and_centred_on_one_page(
    paper: str,
    browser: Browser,
    live_server: LiveServer,
    seeded: dict[str, dict[str, Any]],
    games: Games,
    italian_misere: str,
) -> None:
    """Mizerka's and Misère's printed deal log: every name, mark and contract at 9 pt or more (6.5 pt
    before), in the middle of its cell's height (at its top before), and the sheet still one page, in
    each language: three and four names of 40 characters (by their marks), a game still played, and
    ordinary names written whole (Ann, Bob, Cid; the Italian table)."""
    sheets = {
        "misere": seeded["misere"]["id"],
        "mizerka": seeded["mizerka"]["id"],
        "misere-tricks": seeded["misere-tricks"]["id"],
        "mizerka-short-names": games.finished.id,
        "misere-italian-names": italian_misere,
    }
    folder = OUTPUT / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for language in LANGUAGES:
        context = new_context(browser, {"viewport": {"width": PRINTABLE_PX[paper], "height": 1000}})
        context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
        page = context.new_page()
        page.emulate_media(media="print")
        for name, game_id in sheets.items():
            page.goto(live_server.origin + f"/games/{game_id}/scoresheet")
            cells = page.evaluate(SHEET_TYPE_JS)
            if name == "misere-italian-names":  # each dealer by name, whole (not by a mark)
                dealers = page.locator("table.sheet-log tbody tr > td:nth-child(2)").all_inner_texts()
                assert [" ".join(d.split()) for d in dealers] == ITALIAN_NAMES * 2, dealers
            assert len(cells) >= 8, (name, cells)
            where = f"{name} in {language} on {paper}"
            problems += [f"{where}: {c['words']!r} at {c['size']} pt" for c in cells if c["size"] < 9]
            problems += [
                f"{where}: {c['words']!r} {c['offset']:+.1f}px off" for c in cells if abs(c["offset"]) > 1
            ]
            path = folder / f"type-{name}-{language}-{paper}.pdf"
            page.pdf(path=str(path), format=paper, print_background=True)
            info = poppler("pdfinfo", str(path)).decode()
            if not re.search(r"^Pages:\s+1$", info, re.MULTILINE):
                problems.append(f"{where}: more than one page")
        context.close()
    assert problems == [], "\n".join(problems[:30])


# -- the sticky scoreboard: one strip, at most a fifth of the screen upright and a third sideways -------

# Every step of both games, and both finished with the largest totals (40-character names, one a word).
BOARD_GAMES = ["mizerka-choosing", "mizerka-tricks", "mizerka", "misere-bidding", "misere-tricks", "misere"]
BOARD_SIZES = {"320x640": (320, 640), "360x740": (360, 740), "390x844": (390, 844), "740x360": (740, 360)}

# The scoreboard's box, and each seat's name as the page holds it (what a screen reader reads) beside
# what the strip has room to show of it.
BOARD_JS = """() => {
  const board = document.querySelector('section.scoreboard');
  const names = [...board.querySelectorAll('li.total .label')].map((e) => ({
    text: e.querySelector('.who').textContent.trim(),
    lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))}));
  const r = board.getBoundingClientRect();
  return {height: r.height, left: r.left, right: r.right, names, width: innerWidth, screen: innerHeight};
}"""


@pytest.mark.parametrize(("size", "language", "theme"), in_both_themes(BOARD_SIZES, LANGUAGES))
def test_the_scoreboard_is_one_strip(
    size: str,
    theme: str,
    language: str,
    browser: Browser,
    live_server: LiveServer,
    seeded: dict[str, dict[str, Any]],
) -> None:
    """At most a fifth of the screen's height upright (360x740: 148 px; 320x640: 128 px), a third
    sideways (740x360: 120 px), whatever the names, totals, theme and language: a column per player, at
    most two lines per mark and name (a long one's start cut with "…" before its end, whole in the page for
    a screen reader), nothing off the edge."""
    width, height = BOARD_SIZES[size]
    share = 1 / 3 if width > height else 1 / 5
    device = {**PHONE, "viewport": {"width": width, "height": height}, "device_scale_factor": 1}
    context = new_context(browser, device, color_scheme=theme)
    context.add_cookies([{"name": "lang", "value": language, "url": live_server.origin}])
    context.add_cookies(pencil_cookies(live_server, seeded))  # type: ignore[arg-type]
    page = context.new_page()
    problems: list[str] = []
    games = {name: seeded[name] for name in BOARD_GAMES}
    for name, game in games.items():
        page.goto(live_server.origin + f"/games/{game['id']}")
        board: dict[str, Any] = page.evaluate(BOARD_JS)
        if board["height"] > share * height:
            problems.append(f"{name}: the scoreboard is {board['height']:.0f}px of {height}")
        if [n["text"] for n in board["names"]] != list(game["players"]):
            problems.append(f"{name}: names on the scoreboard {[n['text'] for n in board['names']]}")
        problems += [f"{name}: {n['text']} on {n['lines']} lines" for n in board["names"] if n["lines"] > 2]
        overflow = page.evaluate(OVERFLOW_JS)
        if overflow["page"] > 0 or overflow["elements"]:
            problems.append(f"{name}: wider than the screen: {overflow}")
        if language == "pl" or size in ("320x640", "740x360"):
            screenshot(page, f"board-{size}-{theme}-{language}-{name}")
    context.close()
    assert problems == [], "\n".join(problems)


# -- every link and button of a game page takes a tap anywhere on it ------------------------------------

# What a finger aims at in the page's main (links, buttons, fields, summaries, a player's or a suit's
# button), with every <details> panel opened: at nine points of each box it draws (each line of a link
# that wraps), what the browser finds under the finger is the element itself or inside it (a radio
# button's label counts as the radio), never a neighbour painted over it.
COVERED_JS = """() => {
  document.querySelectorAll('main details').forEach((d) => { d.open = true; });
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label.taker';
  const out = [];
  for (const e of document.querySelectorAll(`main :is(${sel})`)) {
    if (!e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    e.scrollIntoView({block: 'center', inline: 'nearest'});
    const mine = (hit) => hit && (e.contains(hit) || [...(e.labels || [])].some((l) => l.contains(hit)));
    const name = (x) => (x ? `${x.tagName.toLowerCase()}.${x.className}` : '-');
    for (const r of e.getClientRects()) {
      if (r.width < 2 || r.height < 2) continue;  // hidden from sight, read aloud
      const missed = [];
      for (const fx of [0.2, 0.5, 0.8]) for (const fy of [0.2, 0.5, 0.8]) {
        const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
        if (!mine(hit)) missed.push(`(${fx}, ${fy}) ${name(hit)}`);
      }
      if (missed.length) {
        const text = (e.innerText || e.getAttribute('aria-label') || e.value || '').trim().slice(0, 30);
        out.push(`${name(e)} "${text}" under ${missed.slice(0, 3).join(', ')}`);
      }
    }
  }
  return out;
}"""

# Each phone width in another language: longer words wrap the deal's line and the export links elsewhere.
TAP_WIDTHS = {320: "pl", 360: "it", 390: "en"}


@pytest.fixture(scope="module")
def kierki_robbed(live_server: LiveServer) -> ApiGame:
    """A Kierki game of the four 40-character names, its negative part played up to the robber."""
    return kierki_game(live_server, KIERKI_LONG_NAMES, KIERKI_WIDEST[:7], preset="no-fan-tan")


@pytest.mark.parametrize("width", TAP_WIDTHS)
def test_every_link_and_button_of_a_game_page_takes_a_tap_anywhere_on_it(
    width: int,
    browser: Browser,
    live_server: LiveServer,
    seeded: dict[str, dict[str, Any]],
    kierki_robbed: ApiGame,
) -> None:
    """The Correct link beside a deal's line that wraps (40-character names) is not half covered by
    that line, nor the buttons above the export links by those links' tap areas, in any of the games:
    finished, entering the tricks, and Kierki up to the robber, the scorer's pencil on the phone."""
    device = {**PHONE, "viewport": {"width": width, "height": 800}, "device_scale_factor": 1}
    context = new_context(browser, device)
    context.add_cookies([{"name": "lang", "value": TAP_WIDTHS[width], "url": live_server.origin}])
    context.add_cookies([*pencil_cookies(live_server, seeded), kierki_robbed.cookie(live_server)])  # type: ignore[list-item]
    page = context.new_page()
    problems = []
    paths = [f"/games/{seeded[name]['id']}" for name in ("misere", "misere-tricks", "mizerka-tricks")]
    for path in [*paths, kierki_robbed.path()]:
        page.goto(live_server.origin + path)
        assert page.locator("main a.fix").count() >= 3, path
        problems += [f"{path}: {item}" for item in page.evaluate(COVERED_JS)]
    context.close()
    assert problems == [], "\n".join(problems)
