"""Every statistic of the hand-scored season (tests/stats/dataset.py) against values worked out by hand."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import stats
from scorekeeper.extensions import db
from scorekeeper.models import Player
from tests.helpers import parse_html
from tests.stats.checks import assert_totals_match
from tests.stats.dataset import TODAY

MIZERKA = stats.Filters("mizerka/standard/3", "all")


def player_id(name: str) -> int:
    return int(db.session.execute(select(Player.id).where(Player.name == name)).scalar_one())


def table(rankings: stats.Rankings) -> list[tuple[Any, ...]]:
    return [
        (r.name, r.games, r.wins, r.win_pct, r.deals, r.deal_wins, r.deal_pct, r.points, r.average, r.best)
        for r in rankings.rows
    ]


# Worked out by hand from the season's description (tests/stats/dataset.py):
#   Ann  G1 +2 won, G2 +1 won (tie), G4 0 won (three-way tie), G5 -1, G7 0; G6 unfinished.
#        Deals 5 x 18 + 4 = 94; won 18 + 17 + 16 + 17 + 17 + 3 = 88 (94%).
#   Bob  G1 -1, G2 +1 won (tie), G3 0, G5 +2 won; G6 unfinished.  4 games: no won % yet.
#        Deals 4 x 18 + 4 = 76; won 16 + 17 + 16 + 17 + 4 = 70 (92.1% -> 92%).
#   Cid  G1 -1, G3 +3 won, G4 0 won, G5 -1, G7 -1.  Deals 90; won 16 + 17 + 17 + 16 + 17 = 83 (92%).
#   Dan  G2 -2, G3 -3, G4 0 won, G7 +1 won.  Deals 72; won 16 + 15 + 17 + 18 = 66 (91.7% -> 92%).
#   Eve  only the unfinished G6: no finished game, so not ranked (her 4 deals count on her page).
ALL_TIME = [
    ("Ann", 5, 3, 60, 94, 88, 94, 2, Decimal("0.4"), 2),
    ("Bob", 4, 2, None, 76, 70, 92, 2, Decimal("0.5"), 2),
    ("Cid", 5, 2, 40, 90, 83, 92, 0, Decimal("0.0"), 3),
    ("Dan", 4, 2, None, 72, 66, 92, -4, Decimal("-1.0"), 1),
]


def test_rankings_all_time_sorted_by_games_won(season_app: Flask) -> None:
    # Wins 3, 2, 2, 2; the three on 2 wins in order of points (+2, 0, -4); Eve finished no game.
    assert table(stats.rankings(MIZERKA, TODAY)) == ALL_TIME


def test_percentages_need_five_games_or_deals(season_app: Flask) -> None:
    rows = {r.name: r for r in stats.rankings(MIZERKA, TODAY).rows}
    assert (rows["Ann"].games, rows["Ann"].win_pct) == (5, 60)  # the fifth game shows it
    assert (rows["Bob"].games, rows["Bob"].win_pct) == (4, None)
    assert "Eve" not in rows  # no finished game: not ranked
    assert stats.percent(1, 4) is None
    assert stats.percent(1, 5) == 20
    assert stats.percent(7, 8) == 88  # 87.5 rounds half up


@pytest.mark.parametrize(
    ("sort", "descending", "order"),
    [
        ("win_pct", True, ["Ann", "Cid", "Bob", "Dan"]),  # 60%, 40%, then no % yet, by name
        ("win_pct", False, ["Cid", "Ann", "Bob", "Dan"]),
        ("points", True, ["Ann", "Bob", "Cid", "Dan"]),  # +2 +2 (more wins first) 0 -4
        ("average", True, ["Bob", "Ann", "Cid", "Dan"]),  # 0.5 0.4 0.0 -1.0, none
        ("best", True, ["Cid", "Ann", "Bob", "Dan"]),  # +3 +2 +2 +1, none
        ("deals", True, ["Ann", "Cid", "Bob", "Dan"]),
        # 88/94, then three shown as 92%: Cid 83/90 = 92.2, Bob 70/76 = 92.1, Dan 66/72 = 91.7.
        ("deal_pct", True, ["Ann", "Cid", "Bob", "Dan"]),
        ("name", False, ["Ann", "Bob", "Cid", "Dan"]),
        ("name", True, ["Dan", "Cid", "Bob", "Ann"]),
        ("games", True, ["Ann", "Cid", "Bob", "Dan"]),
    ],
)
def test_rankings_sort_by_any_column(
    season_app: Flask, sort: str, descending: bool, order: list[str]
) -> None:
    assert [r.name for r in stats.rankings(MIZERKA, TODAY, sort, descending).rows] == order


@pytest.mark.parametrize("descending", [True, False])
@pytest.mark.parametrize("sort", list(stats.COLUMNS))
def test_stored_totals_rank_like_the_sums_of_every_game(
    season_app: Flask, sort: str, descending: bool
) -> None:
    """The rankings read the stored sums (all time, this year), page by page from an index (by
    name: the players' names first): the same pages as summing every game of the period."""
    for ranking in ("mizerka/standard/3", "misere/standard/4"):
        for period in ("all", "year", "30d"):
            filters = stats.Filters(ranking, period)
            for page in (1, 2, 3):
                kept, summed = (
                    stats.rankings(filters, TODAY, sort, descending, page, per_page=2, stored=stored)
                    for stored in (True, False)
                )
                assert (table(kept), kept.page, kept.pages, kept.count) == (
                    table(summed),
                    summed.page,
                    summed.pages,
                    summed.count,
                )
    assert_totals_match()


def test_rankings_come_a_page_at_a_time(season: Any, season_app: Flask) -> None:
    pages = [stats.rankings(MIZERKA, TODAY, page=n, per_page=2) for n in (1, 2, 3, 9)]
    assert [[r.name for r in p.rows] for p in pages] == [
        ["Ann", "Bob"],
        ["Cid", "Dan"],
        ["Cid", "Dan"],
        ["Cid", "Dan"],
    ]
    assert [(p.page, p.pages, p.count, p.first) for p in pages] == [
        (1, 2, 4, 1),
        (2, 2, 4, 3),
        (2, 2, 4, 3),
        (2, 2, 4, 3),
    ]
    app, _ids = season
    app.config["RANKINGS_PER_PAGE"] = 2
    try:
        doc = parse_html(app.test_client().get("/rankings?page=2&sort=name&dir=desc").get_data(as_text=True))
    finally:
        del app.config["RANKINGS_PER_PAGE"]
    assert [
        row.find("th").text for row in doc.find("table", cls="rankings").find("tbody").find_all("tr")
    ] == [
        "Bob",
        "Ann",
    ]
    pager = doc.find("nav", cls="pager")
    assert pager.find("span").text == "Players 3–4 of 4"
    assert pager.find("a", rel="prev").attrs["href"] == "/rankings?game=mizerka&sort=name&dir=desc&page=1"
    assert pager.first("a", rel="next") is None


def test_this_year_leaves_out_last_december(season_app: Flask) -> None:
    # Without G1 (2025-12-20).  Ann: G2 +1 won, G4 0 won, G5 -1, G7 0; deals 4 x 18 + 4 = 76, won
    # 17+16+17+17+3 = 70.  Cid: G3 +3 won, G4 0 won, G5 -1, G7 -1 (average 0.25 rounds up to 0.3);
    # won 17+17+16+17 = 67 of 72.  Bob: G2 +1 won, G3 0, G5 +2 won; won 17+16+17+4 = 54 of 58.
    # Eve finished no game (not ranked); the others have 2 wins: more points first (Bob +3, Cid +1,
    # Ann 0, Dan -4).
    rows = table(stats.rankings(stats.Filters("mizerka/standard/3", "year"), TODAY))
    assert rows == [
        ("Bob", 3, 2, None, 58, 54, 93, 3, Decimal("1.0"), 2),
        ("Cid", 4, 2, None, 72, 67, 93, 1, Decimal("0.3"), 3),
        ("Ann", 4, 2, None, 76, 70, 92, 0, Decimal("0.0"), 1),
        ("Dan", 4, 2, None, 72, 66, 92, -4, Decimal("-1.0"), 1),
    ]


def test_last_30_days_counts_from_the_2nd_of_march(season_app: Flask) -> None:
    assert stats.Filters("mizerka/standard/3", "30d").since(TODAY) == date(2026, 3, 2)
    assert stats.Filters("mizerka/standard/3", "year").since(TODAY) == date(2026, 1, 1)
    assert stats.Filters("mizerka/standard/3", "all").since(TODAY) is None
    # G3, G4, G5, G6, G7 (G2 on 10 January is out).  Dan: G3 -3, G4 0 won, G7 +1 won; won 15+17+18 = 50
    # of 54.  Bob: G3 0, G5 +2 won, G6; won 16+17+4 = 37 of 40 (92.5% rounds up).  Ann: G4 0 won, G5 -1,
    # G7 0, G6; won 16+17+17+3 = 53 of 58.
    rows = table(stats.rankings(stats.Filters("mizerka/standard/3", "30d"), TODAY))
    assert rows == [
        ("Cid", 4, 2, None, 72, 67, 93, 1, Decimal("0.3"), 3),
        ("Dan", 3, 2, None, 54, 50, 93, -2, Decimal("-0.7"), 1),
        ("Bob", 2, 1, None, 40, 37, 93, 2, Decimal("1.0"), 2),
        ("Ann", 3, 1, None, 58, 53, 91, -1, Decimal("-0.3"), 0),
    ]
    # On 3 April the window starts on 5 March (G3 still in); on 4 April G3 is out: Bob keeps G5 and G6.
    on_3_april = table(stats.rankings(stats.Filters("mizerka/standard/3", "30d"), date(2026, 4, 3)))
    assert ("Bob", 2, 1, None, 40, 37, 93, 2, Decimal("1.0"), 2) in on_3_april
    on_4_april = table(stats.rankings(stats.Filters("mizerka/standard/3", "30d"), date(2026, 4, 4)))
    assert ("Bob", 1, 1, None, 22, 21, 95, 2, Decimal("2.0"), 2) in on_4_april


def test_misere_is_ranked_on_its_own(season_app: Flask) -> None:
    # M1: totals Ann 70, Bob 50, Cid 180, Dan 180 (Cid and Dan tie: both win).  Deals won: 1-6 the
    # three who made their bid (+30), 7 Ann (+130), 8 everyone but Bob (0 beats -130).
    rows = table(stats.rankings(stats.Filters("misere/standard/4", "all"), TODAY))
    assert rows == [
        ("Cid", 1, 1, None, 8, 7, 88, 180, Decimal("180.0"), 180),
        ("Dan", 1, 1, None, 8, 7, 88, 180, Decimal("180.0"), 180),
        ("Ann", 1, 0, None, 8, 2, 25, 70, Decimal("70.0"), 70),
        ("Bob", 1, 0, None, 8, 6, 75, 50, Decimal("50.0"), 50),
    ]


def test_ann_per_contract(season_app: Flask) -> None:
    ann = db.session.get(Player, player_id("Ann"))
    figures = stats.player_stats(ann.id, MIZERKA, TODAY)
    assert figures.as_chooser and figures.picks == 6
    # Ann chooses in G1, G2, G4, G7 in the usual order, in G5 in reverse, in G6 clubs once (deal 3).
    # Every choice scored 0 except her Mizerka in G5 (-2: quota 1, took 3).
    by_contract = {
        c.contract: (c.times, c.by_pick, c.points, c.average, c.made, c.made_of, c.made_pct)
        for c in figures.contracts
    }
    assert by_contract == {
        "clubs": (6, (5, 0, 0, 0, 0, 1), 0, Decimal("0.00"), 6, 6, 100),
        "diamonds": (5, (0, 4, 0, 0, 1, 0), 0, Decimal("0.00"), 5, 5, 100),
        "hearts": (5, (0, 0, 4, 1, 0, 0), 0, Decimal("0.00"), 5, 5, 100),
        "spades": (5, (0, 0, 1, 4, 0, 0), 0, Decimal("0.00"), 5, 5, 100),
        "no-trumps": (5, (0, 1, 0, 0, 4, 0), 0, Decimal("0.00"), 5, 5, 100),
        "mizerka": (5, (1, 0, 0, 0, 0, 4), -2, Decimal("-0.40"), 4, 5, 80),
    }
    assert figures.contracts[0].average_pick == Decimal("1.8")  # (5 x 1st + 1 x 6th) / 6
    assert (
        figures.best_contract is not None and figures.best_contract.contract == "clubs"
    )  # 0.00, chosen most
    assert figures.worst_contract is not None and figures.worst_contract.contract == "mizerka"
    assert figures.made_apart is not None and (figures.made_apart.made, figures.made_apart.made_of) == (4, 5)


def test_choosers_who_missed_their_quota(season_app: Flask) -> None:
    # Dan sits in seat 2 of G2, G3, G4 and G7, so he chooses in deals 2, 5, 8, 11, 14, 17: clubs to
    # mizerka, 24 choices.  He missed his quota with clubs and diamonds in G2 and hearts and spades in G3
    # (-1 each), made clubs with one over in G4 (+1); every other choice scored 0.
    dan = db.session.get(Player, player_id("Dan"))
    contracts = {c.contract: c for c in stats.player_stats(dan.id, MIZERKA, TODAY).contracts}
    assert (contracts["clubs"].times, contracts["clubs"].points, contracts["clubs"].made) == (4, 0, 3)
    assert (contracts["diamonds"].points, contracts["diamonds"].made) == (-1, 3)
    assert (contracts["hearts"].points, contracts["hearts"].made) == (-1, 3)
    assert (contracts["spades"].points, contracts["spades"].made) == (-1, 3)
    assert sum(c.times for c in contracts.values()) == 24


def test_head_to_head(season_app: Flask) -> None:
    ann = db.session.get(Player, player_id("Ann"))
    rows = [
        (h.name, h.games, h.ahead, h.behind, h.level)
        for h in stats.player_stats(ann.id, MIZERKA, TODAY).head_to_head
    ]
    # Cid: G1 ahead (+2/-1), G4 level, G5 level (-1/-1), G7 ahead (0/-1).
    # Bob: G1 ahead, G2 level (+1/+1), G5 behind (-1/+2).  Dan: G2 ahead, G4 level, G7 behind (0/+1).
    # Eve shared only the unfinished G6.
    assert rows == [("Cid", 4, 2, 0, 2), ("Bob", 3, 1, 1, 1), ("Dan", 3, 1, 1, 1)]


def test_record_recent_games_series_and_best_game(season: Any, season_app: Flask) -> None:
    _app, ids = season
    ann = db.session.get(Player, player_id("Ann"))
    figures = stats.player_stats(ann.id, MIZERKA, TODAY)
    record = figures.record
    assert (record.games, record.wins, record.deals, record.deal_wins, record.points) == (5, 3, 94, 88, 2)
    assert [(g.game_id, g.others, g.finished, g.total, g.rank) for g in figures.recent] == [
        (ids["G7"], ("Cid", "Dan"), True, 0, 2),
        (ids["G6"], ("Bob", "Eve"), False, 0, 2),
        (ids["G5"], ("Bob", "Cid"), True, -1, 2),
        (ids["G4"], ("Cid", "Dan"), True, 0, 1),
        (ids["G2"], ("Bob", "Dan"), True, 1, 1),
        (ids["G1"], ("Bob", "Cid"), True, 2, 1),
    ]
    assert figures.recent[2].note == "Friday at Bob's"
    assert [(g.played_on, g.total) for g in figures.series] == [
        (date(2025, 12, 20), 2),
        (date(2026, 1, 10), 1),
        (date(2026, 3, 20), 0),
        (date(2026, 3, 28), -1),
        (date(2026, 3, 30), 0),
    ]
    assert figures.best_game is not None and (figures.best_game.game_id, figures.best_game.total) == (
        ids["G1"],
        2,
    )


def test_misere_player_page_figures_per_deal(season_app: Flask) -> None:
    bob = db.session.get(Player, player_id("Bob"))
    figures = stats.player_stats(bob.id, stats.Filters("misere/standard/4", "all"), TODAY)
    assert not figures.as_chooser
    by_deal = {c.contract: (c.times, c.points, c.made, c.made_of) for c in figures.contracts}
    assert by_deal["hearts"] == (1, 30, 1, 1)
    assert by_deal["ciapa-ciapa"] == (1, 0, 0, 0)
    assert by_deal["misere"] == (1, -130, 0, 0)
    assert [(h.name, h.games, h.ahead, h.behind, h.level) for h in figures.head_to_head] == [
        ("Ann", 1, 0, 1, 0),
        ("Cid", 1, 0, 1, 0),
        ("Dan", 1, 0, 1, 0),
    ]


def test_people_list(season_app: Flask) -> None:
    # Games sat in, finished or not, any game; most recent date.
    assert [(p.name, p.games, p.last_played) for p in stats.people()] == [
        ("Ann", 7, date(2026, 3, 30)),
        ("Bob", 6, date(2026, 3, 29)),
        ("Cid", 6, date(2026, 3, 30)),
        ("Dan", 5, date(2026, 3, 30)),
        ("Eve", 1, date(2026, 3, 29)),
    ]


# -- the pages show the same figures --------------------------------------------------------------


def cells(html: str) -> list[list[str]]:
    doc = parse_html(html)
    rankings = doc.find("table", cls="rankings")
    return [
        [cell.text for cell in row.find_all() if cell.tag in ("th", "td")] for row in rankings.find_all("tr")
    ]


def season_ratings() -> dict[str, str]:
    """The Mizerka ratings of the season as the rankings show them, rated by openskill itself from the
    places worked out above, in the order the games finished (G1, G2, G3, G4, G5, G7; G6 never did)."""
    model = PlackettLuce()
    places = [
        {"Ann": 1, "Bob": 2, "Cid": 2},  # G1: +2, -1, -1
        {"Ann": 1, "Bob": 1, "Dan": 3},  # G2: +1, +1, -2
        {"Bob": 2, "Cid": 1, "Dan": 3},  # G3: 0, +3, -3
        {"Ann": 1, "Cid": 1, "Dan": 1},  # G4: all on 0
        {"Ann": 2, "Bob": 1, "Cid": 2},  # G5: -1, +2, -1
        {"Ann": 2, "Cid": 3, "Dan": 1},  # G7: 0, -1, +1
    ]
    found: dict[str, Any] = {}
    games = dict.fromkeys(("Ann", "Bob", "Cid", "Dan"), 0)
    for game in places:
        names = list(game)
        after = model.rate(
            [[found.get(name) or model.rating()] for name in names], ranks=[game[n] for n in names]
        )
        for name, team in zip(names, after, strict=True):
            found[name], games[name] = team[0], games[name] + 1
    shown = {}
    for name, rating in found.items():
        value = Decimal(rating.mu - 3 * rating.sigma).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        sign = "−" if value < 0 else ""
        shown[name] = f"{sign}{abs(value)} ({games[name]} games)"
    return shown


def test_rankings_page(season: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _ids = season
    monkeypatch.setattr("scorekeeper.web.people.routes.today", lambda: TODAY)
    client = app.test_client()
    rows = cells(client.get("/rankings").get_data(as_text=True))
    assert rows[0] == [
        "Player",
        "Games",
        "Won ▾",
        "Won %",
        "Deals",
        "Deals won",
        "Deals won %",
        "Points",
        "Per game",
        "Best game",
        "Rating",
    ]
    rated = season_ratings()
    assert rows[1:] == [
        ["Ann", "5", "3", "60%", "94", "88", "94%", "+2", "+0.4", "+2", rated["Ann"]],
        ["Bob", "4", "2", "–", "76", "70", "92%", "+2", "+0.5", "+2", rated["Bob"]],
        ["Cid", "5", "2", "40%", "90", "83", "92%", "0", "0", "+3", rated["Cid"]],
        ["Dan", "4", "2", "–", "72", "66", "92%", "−4", "−1.0", "+1", rated["Dan"]],
    ]
    by_points = cells(client.get("/rankings?sort=points&dir=asc&period=30d").get_data(as_text=True))
    assert [row[0] for row in by_points[1:]] == ["Dan", "Ann", "Cid", "Bob"]  # -2 -1 +1 +2
    misere = cells(client.get("/rankings?game=misere").get_data(as_text=True))
    assert [row[0] for row in misere[1:]] == ["Cid", "Dan", "Ann", "Bob"]
    # Unknown filters fall back to the defaults instead of failing.
    assert client.get("/rankings?game=poker&period=ever&sort=bogus&dir=up&page=x").status_code == 200


def test_player_page(season: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app, ids = season
    monkeypatch.setattr("scorekeeper.web.people.routes.today", lambda: TODAY)
    client = app.test_client()
    with app.app_context():
        ann = player_id("Ann")
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    doc = parse_html(html)
    figures = {
        node.find("dt").text: node.find("dd").text for node in doc.find("dl", cls="figures").find_all("div")
    }
    assert figures == {
        "Games": "5",
        "Won": "3 (60%)",
        "Deals": "94",
        "Deals won": "88 (94%)",
        "Points": "+2",
        "Per game": "+0.4",
        "Best game": "+2 20 Dec 2025",
        "Rating": season_ratings()["Ann"],
    }
    assert doc.find("a", href=f"/games/{ids['G1']}").text == "+2"
    facts = doc.find("ul", cls="facts").text
    assert "Best contract: Clubs (0 a deal)" in facts
    assert "Worst contract: Mizerka (−0.4 a deal)" in facts
    assert "Mizerka made: 4 of 5 (80%)" in facts
    h2h = [
        [c.text for c in row.find_all() if c.tag in ("th", "td")]
        for row in doc.find("table", cls="head-to-head").find_all("tr")
    ]
    assert h2h[1:] == [["Cid", "4", "2", "0", "2"], ["Bob", "3", "1", "1", "1"], ["Dan", "3", "1", "1", "1"]]
    chart = doc.find("svg", cls="chart")
    assert chart.find("title").text == "Points per game, Ann"
    assert len(chart.find_all("circle")) == 5
    assert client.get("/players/999999").status_code == 404
