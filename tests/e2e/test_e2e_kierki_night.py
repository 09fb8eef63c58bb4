"""A whole club night of Kierki in browsers (issue 46, CLUB.md): a director on a phone makes a two-round
night of the shortest preset that seats both sizes ("no-robber": 10 deals at 4, 9 at 3; "short" seats
fours only), 13 players check in on their own phones by the check-in link, each round seats a table of
4 and three of 3 (13 = 4 + 3 + 3 + 3, no one sitting out), each table's scorer takes the pencil from
its scoring link on another phone and plays the whole game by taps, the projector shows the night's
standings, which this test works out from the totals the tables' pages show by CLUB.md's "Night
points" (placement points, margins, the tie rules), and the round's table cards print: the cards on
one page, the standings on the next.

On PostgreSQL as well when TEST_DATABASE_URL is set: the night then runs on a server of its own on
that database (the other browser tests stay on SQLite)."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest
from conftest import running_server
from e2e_support import OUTPUT, PHONE, LiveServer, new_context, screenshot, tap_and_load
from helpers import kierki_body, signed
from test_e2e_kierki import tap_deal
from test_e2e_taps import Taps, save_button

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PROJECTOR: dict[str, Any] = {"viewport": {"width": 1920, "height": 1080}}
FIRST_NAMES = [
    "Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek", "Grażyna",
    "Henryk", "Iga", "Janusz", "Kasia", "Leszek", "Małgorzata Wiśniewska-Zielińska",
]  # fmt: skip

# RULES.md 3.6, the full game's values by table size (penalties subtracted, trump tricks added).
TRICK = {4: 20, 3: 15}
KING_OF_HEARTS = {4: 150, 3: 140}
SEVENTH_OR_LAST = {4: 75, 3: 70}
HEART, QUEEN, KING_OR_JACK, TRUMP_TRICK = 20, 60, 30, 25
TRICKS_A_DEAL = {4: 13, 3: 17}
SUITS = ("spades", "hearts", "clubs", "diamonds")
# Each count's spread over the seats, turned round from table to table (sums: the deck's 13 hearts,
# 4 queens, 8 kings and jacks; 13 or 17 tricks).
SPREAD = {
    4: {"tricks": (1, 3, 4, 5), "hearts": (0, 2, 4, 7), "queens": (0, 1, 1, 2), "kings_jacks": (1, 2, 2, 3)},
    3: {"tricks": (3, 6, 8), "hearts": (1, 4, 8), "queens": (0, 1, 3), "kings_jacks": (1, 3, 4)},
}


@pytest.fixture(scope="module")
def night_server(live_server: LiveServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The run's server on SQLite, or one of its own on TEST_DATABASE_URL's PostgreSQL when set."""
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if not url.startswith("postgresql"):
        yield live_server
        return
    with running_server(tmp_path_factory.mktemp("night-pg"), DATABASE_URL=url) as server:
        yield server


def turned(spread: tuple[int, ...], by: int) -> tuple[int, ...]:
    return tuple(spread[(seat + by) % len(spread)] for seat in range(len(spread)))


def table_deals(seats: int, variant: int) -> list[dict[str, Any]]:
    """The "no-robber" game's deals (six negative deals, then a trump deal per player), facts by seat;
    ``variant`` turns the spreads round and moves the trump tricks, so that tables end differently."""
    spread = SPREAD[seats]
    deals: list[dict[str, Any]] = [
        {"tricks": turned(spread["tricks"], variant)},
        {"hearts": turned(spread["hearts"], variant + 1)},
        {"queens": turned(spread["queens"], variant + 2)},
        {"kings_jacks": turned(spread["kings_jacks"], variant + 3)},
        {"king_of_hearts": (variant + 1) % seats},
        {"seventh_trick": variant % seats, "last_trick": (variant + 2) % seats},
    ]
    for deal in range(seats):
        first, second = (variant + deal) % 6 + 2, 5 - deal
        rest = TRICKS_A_DEAL[seats] - first - second
        tricks = (first, second, rest) if seats == 3 else (first, second, 2, rest - 2)
        deals.append({"trumps": SUITS[(variant + deal) % 4], "tricks": turned(tricks, deal)})
    return deals


def deal_scores(seats: int, facts: dict[str, Any]) -> tuple[int, ...]:
    """RULES.md 3.6-3.7 by hand: what each seat scores in a deal of these facts."""
    if "trumps" in facts:
        return tuple(TRUMP_TRICK * tricks for tricks in facts["tricks"])
    each = {"tricks": TRICK[seats], "hearts": HEART, "queens": QUEEN, "kings_jacks": KING_OR_JACK}
    for fact, value in each.items():
        if fact in facts:
            return tuple(-value * count for count in facts[fact])
    if "king_of_hearts" in facts:
        return tuple(-KING_OF_HEARTS[seats] * (seat == facts["king_of_hearts"]) for seat in range(seats))
    taken = [(seat == facts["seventh_trick"]) + (seat == facts["last_trick"]) for seat in range(seats)]
    return tuple(-SEVENTH_OR_LAST[seats] * count for count in taken)


def margin_text(margin: Fraction) -> str:
    shown = f"{float(margin):.2f}"
    return "+" + shown if margin > 0 else ("\u2212" + shown[1:] if margin < 0 else "0.00")


class Night:
    """What the test saw: each table's players in seat order and its final totals; CLUB.md's points."""

    def __init__(self, names: list[str]) -> None:
        self.names = names  # in check-in order (the order the app gives its people's ids)
        self.tables: list[tuple[list[str], list[int]]] = []

    @staticmethod
    def placement(totals: list[int]) -> list[int]:
        """+1 for each opponent finishing below, −1 for each above (higher Kierki totals rank first)."""
        return [sum((own > other) - (own < other) for other in totals) for own in totals]

    @staticmethod
    def margins(totals: list[int]) -> list[Fraction]:
        spread = max(totals) - min(totals)
        mean = Fraction(sum(totals), len(totals))
        return [(total - mean) / spread if spread else Fraction(0) for total in totals]

    def rows(self) -> list[str]:
        """The standings as the projector lists them: rank, name, points, margin (one string each)."""
        points = dict.fromkeys(self.names, 0)
        margin = dict.fromkeys(self.names, Fraction(0))
        for seats, totals in self.tables:
            for name, got, edge in zip(seats, self.placement(totals), self.margins(totals), strict=True):
                points[name] += got
                margin[name] += edge

        def met(group: list[str]) -> dict[str, int]:
            """Placement points each took at the tables where another of the group sat."""
            taken = dict.fromkeys(group, 0)
            for seats, totals in self.tables:
                if sum(name in group for name in seats) > 1:
                    for name, got in zip(seats, self.placement(totals), strict=True):
                        if name in group:
                            taken[name] += got
            return taken

        order = sorted(self.names, key=lambda name: (-points[name], -margin[name], self.names.index(name)))
        rows: list[str] = []
        keys: list[tuple[int, Fraction, int]] = []
        while order:
            group = [
                name for name in order if (points[name], margin[name]) == (points[order[0]], margin[order[0]])
            ]
            taken = met(group) if len(group) > 1 else {group[0]: 0}
            for name in sorted(group, key=lambda name: (-taken[name], self.names.index(name))):
                key = (points[name], margin[name], taken[name])
                rank = len(rows) + 1 if not keys or keys[-1] != key else int(rows[-1].split("\t")[0])
                keys.append(key)
                rows.append(f"{rank}\t{name}\t{signed(points[name])}\t{margin_text(margin[name])}")
                order.remove(name)
        return rows


def play_table(page: Page, seats: list[str], variant: int) -> list[int]:
    """The table's whole game by taps on its scorer's phone; the totals its scoreboard shows."""
    deals = table_deals(len(seats), variant)
    taps = Taps(page)
    expected = [0] * len(seats)
    for number, facts in enumerate(deals, start=1):
        assert int(page.locator("#turn form input[name=number]").input_value()) == number
        tap_deal(page, taps, kierki_body(facts, seats), seats)
        taps.tap(save_button(page), navigates=True)
        expected = [t + s for t, s in zip(expected, deal_scores(len(seats), facts), strict=True)]
    shown = page.locator("section.scoreboard li.total .points").all_inner_texts()
    assert shown == [signed(total) for total in expected]
    assert (
        page.locator("section.scoreboard .total-sum").inner_text().strip() == f"· Sum {signed(sum(expected))}"
    )
    return [int(points.replace("\u2212", "-")) for points in shown]


def round_tables(director: Page) -> list[tuple[list[str], str]]:
    """The round in progress on the director's page: each table's seats in order and first dealer."""
    tables = []
    for table in director.locator("#round li.night-table").all():
        seats = table.locator(".seats li .who").all_text_contents()
        tables.append((seats, table.locator(".seats li.dealer .who").text_content() or ""))
    return tables


def play_round(browser: Browser, director: Page, night: Night, number: int) -> list[tuple[list[str], str]]:
    """The director starts the round; every table's scorer takes the pencil and plays the game out."""
    tap_and_load(director, director.get_by_role("button", name=f"Start round {number}"))
    tables = round_tables(director)
    assert sorted(len(seats) for seats, _ in tables) == [3, 3, 3, 4], tables
    assert sorted(name for seats, _ in tables for name in seats) == sorted(night.names)
    links = [
        director.locator("#round details.table-link").nth(i).locator("figcaption a").get_attribute("href")
        for i in range(len(tables))
    ]
    for index, ((seats, _dealer), link) in enumerate(zip(tables, links, strict=True)):
        assert link is not None and "/take#" in link
        scorer = new_context(browser, PHONE).new_page()
        scorer.goto(link)
        scorer.wait_for_url(re.compile(r"/games/[^/#]+$"))
        assert scorer.locator("body").get_attribute("data-pencil") == "1"
        assert scorer.locator("section.scoreboard li.total .who").all_text_contents() == seats
        night.tables.append((seats, play_table(scorer, seats, variant=4 * (number - 1) + index)))
        scorer.context.close()
    director.reload()
    assert director.locator("#round li.night-table .state").all_inner_texts() == ["finished"] * 4
    return tables


def expect_standings(projector: Page, night: Night) -> None:
    """The projector (which draws itself again every 5 s) lists the standings worked out by hand."""
    from playwright.sync_api import expect

    rows = [row.replace("\t", "") for row in night.rows()]
    expect(projector.locator(".screen-standings li")).to_have_text(rows, timeout=20_000)
    assert projector.evaluate("document.documentElement.scrollHeight") <= 1080
    # The screen never scrolls (it hides what overflows): the last line is on it, and nothing is cut.
    last = projector.locator(".screen-standings li").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= 1080
    cut = projector.locator(".screen-standings .who").evaluate_all(
        "l => l.filter(e => e.scrollWidth > e.clientWidth).length"
    )
    assert cut == 0


def test_a_whole_kierki_night_in_the_browser(browser: Browser, night_server: LiveServer) -> None:
    tag = secrets.token_hex(2)
    night = Night([f"{name} {tag}" for name in FIRST_NAMES])
    director = new_context(browser, PHONE, color_scheme="light").new_page()
    director.goto(night_server.origin + "/nights/new")
    director.locator("#name").fill(f"Kierki Friday {tag}")
    director.locator("#game").select_option("kierki:no-robber")
    director.locator("#rounds").fill("2")
    tap_and_load(director, director.locator("main button.primary[type=submit]"))
    assert "Kierki · No robber · tables of 3 / 4" in director.locator(".night-head .lead").inner_text()
    night_path = "/nights/" + director.url.rsplit("/nights/", 1)[1]
    check_in = director.locator("#players .check-in-code figcaption a").get_attribute("href")
    assert check_in == night_server.origin + night_path + "/check-in"

    # Each player checks in on their own phone, by the link the projector's QR code holds.
    projector = new_context(browser, PROJECTOR, color_scheme="dark").new_page()
    projector.goto(night_server.origin + night_path + "/screen")
    player_pages: dict[str, str] = {}
    for name in night.names:
        phone = new_context(browser, PHONE).new_page()
        phone.goto(check_in)
        phone.locator("#name").fill(name)
        tap_and_load(phone, phone.locator("form.add-player button[type=submit]"))
        assert "You are checked in." in phone.inner_text("main")
        assert phone.locator("h1").inner_text() == name
        player_pages[name] = phone.url
        phone.context.close()
    director.reload()
    assert director.locator("ol.night-players > li .who").all_text_contents() == night.names
    projector.reload()
    assert projector.locator(".screen-here").inner_text() == "13 players here"

    # Round 1: a table of 4 and three of 3, every game played out by taps on the tables' phones.
    tap_and_load(director, director.get_by_role("button", name="Seat round 1"))
    first = play_round(browser, director, night, 1)
    assert projector.locator("li.screen-table").count() == 4
    expect_standings(projector, night)
    # Round 2 was planned with round 1 (Mix, two rounds): the projector shows it about to start.
    projector.locator(".screen-round", has_text="Round 2 / 2 · about to start").wait_for()
    met = {frozenset((a, b)) for seats, _ in first for a in seats for b in seats if a != b}
    upcoming = [
        [who.text_content() for who in table.locator(".seats li .who").all()]
        for table in director.locator("#next li.night-table").all()
    ]
    assert [
        table.locator(".seats li").all_text_contents() for table in projector.locator("li.screen-table").all()
    ] == upcoming
    repeats = len({frozenset((a, b)) for seats in upcoming for a in seats for b in seats if a != b} & met)
    pairs = "pair has" if repeats == 1 else "pairs have"
    assert f"{repeats} {pairs} met before at these tables." in director.inner_text("#next")
    assert sorted(map(sorted, upcoming)) != sorted(sorted(seats) for seats, _ in first)
    second = play_round(browser, director, night, 2)
    assert [seats for seats, _ in second] == upcoming
    projector.locator(".screen-round", has_text="Round 2 / 2").wait_for(timeout=20_000)
    expect_standings(projector, night)
    assert projector.locator("li.screen-table .state").all_inner_texts() == ["finished"] * 4
    screenshot(projector, "kierki-night-projector")

    # A player's phone: their table and seat this round (the longest name: the one cut first).
    name = night.names[-1]
    table_number, (seats, dealer) = next((i, t) for i, t in enumerate(second, start=1) if name in t[0])
    phone = new_context(browser, PHONE, color_scheme="dark").new_page()
    phone.goto(player_pages[name])
    assert phone.locator(".big-line").inner_text() == f"Round 2 · Table {table_number}"
    assert phone.locator(".your-table .lead").inner_text().startswith(f"Seat {seats.index(name) + 1}")
    assert phone.locator(".your-table .seats li .who").all_inner_texts() == seats
    screenshot(phone, "kierki-night-player-phone")
    phone.context.close()

    # Paper: round 2's table cards printed by Chromium, all four on one page, the standings on the next.
    cards = new_context(browser, PHONE).new_page()
    cards.goto(night_server.origin + night_path + "/cards")
    OUTPUT.mkdir(exist_ok=True)
    pdf = OUTPUT / "kierki-night-cards.pdf"
    cards.pdf(path=str(pdf), format="A4", print_background=True)
    cards.context.close()
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+2$", info, re.M), info

    def page_text(number: int) -> str:
        command = ["pdftotext", "-f", str(number), "-l", str(number), "-layout", str(pdf), "-"]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    printed = page_text(1)
    assert printed.count(f"Kierki Friday {tag}") == 4
    lines = [line.strip() for line in printed.splitlines() if line.strip()]
    for number, (seats, dealer) in enumerate(second, start=1):
        at = lines.index(f"Round 2 · Table {number}")
        listed = [re.sub(r"\s+", " ", line) for line in lines[at + 1 : at + 1 + len(seats)]]
        dealing = {who: " — deals first" if who == dealer else "" for who in seats}
        assert listed == [f"{seat}. {who}{dealing[who]}" for seat, who in enumerate(seats, start=1)], lines
    standings = page_text(2)
    assert f"Kierki Friday {tag} · Standings" in standings
    assert all(name in standings for name in night.names)
    director.context.close()
    projector.context.close()
