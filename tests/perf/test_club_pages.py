"""The club's pages (home, rankings, a player's page): a fixed number of statements, whatever the club's size.

Each page is drawn from stored figures in a fixed number of queries.  Every filter and sort
of the rankings is counted, both home lists and their next pages, and a player's page under
every filter; each with a small club and a bigger one, which must cost the same.  Then the
cached copies (``scorekeeper.caching``): served for one statement (their versions), never hiding a
write; and cached only at their canonical addresses.
"""

from __future__ import annotations

import itertools
import re

import pytest
from flask import Flask
from perf_support import StatementCounter, new_game, record
from test_query_budget import BUDGET, PLAYER_PAGE, only_versions, statements_for

from scorekeeper import services, stats
from scorekeeper.extensions import db
from scorekeeper.rules import RULESETS
from tests.helpers import hold_pencil


@pytest.fixture
def counter(app: Flask) -> StatementCounter:
    return StatementCounter(app)


def grow_club(app: Flask, games: int, start: int = 0) -> None:
    """``games`` more games (finished, half-played and new ones), each with two newcomers beside Ann."""
    for i in range(start, start + games):
        new_game(app, (18, 9, 0)[i % 3], players=["Ann", f"S{i}b", f"S{i}c"])


def ann(app: Flask) -> int:
    with app.app_context():
        return services.find_player("Ann").id


def rankings_urls() -> list[str]:
    """The rankings under every ruleset, period, sort column and direction, and a second page."""
    urls = []
    for ruleset, period, sort, direction in itertools.product(
        RULESETS, stats.PERIODS, stats.COLUMNS, ("asc", "desc")
    ):
        urls.append(f"/rankings?game={ruleset}&period={period}&sort={sort}&dir={direction}")
    urls += ["/rankings", "/rankings?page=2", "/rankings?page=99"]
    return urls


def counts_for(
    app: Flask, counter: StatementCounter, urls: list[str], budget: int = BUDGET
) -> dict[str, int]:
    client = app.test_client()
    counts = {}
    for url in urls:
        first = statements_for(counter, client, url)
        again = statements_for(counter, client, url)
        assert len(first) <= budget and len(again) <= budget, (url, first, again)
        counts[url] = len(first)
    return counts


def test_rankings_under_every_filter_and_sort_cost_the_same_whatever_the_club(
    app: Flask, counter: StatementCounter
) -> None:
    app.config["RANKINGS_PER_PAGE"] = 2  # so that the small club already has a second page
    grow_club(app, 3)
    small = counts_for(app, counter, rankings_urls())
    grow_club(app, 9, start=3)
    big = counts_for(app, counter, rankings_urls())
    assert small == big
    # Its versions and the page (and, where the address names no game, the latest finished game's
    # ranking first); a next page (not cached): that look and the page; asked past the last page (an
    # old link): that look, a count and the last page.
    assert {count for url, count in big.items() if "page=" not in url and "game=" in url} == {2}, big
    assert (big["/rankings"], big["/rankings?page=2"], big["/rankings?page=99"]) == (3, 2, 4), big


def test_home_lists_cost_the_same_whatever_the_club(app: Flask, counter: StatementCounter) -> None:
    app.config["HOME_GAMES_PER_LIST"] = 2
    seen: list[dict[str, int]] = []
    made = 0
    for games in (1, 9, 15):
        grow_club(app, games - made, start=made)
        made = games
        client = app.test_client()
        html = client.get("/").get_data(as_text=True)
        urls = ["/", *sorted(set(re.findall(r'href="(/\?(?:playing|finished)_after=[^"]+)"', html)))]
        counts = counts_for(app, counter, urls)
        seen.append({url.split("=")[0]: count for url, count in counts.items()})
    # The home page, drawn to find its links, is cached (its versions); each next page: its list.
    assert seen[-1] == {"/": 1, "/?finished_after": 1, "/?playing_after": 1}, seen
    assert seen[1] == seen[2], seen  # both lists have a next page from 9 games on (3 finished)


def test_a_players_page_under_every_filter_costs_the_same_whatever_the_club(
    app: Flask, counter: StatementCounter
) -> None:
    grow_club(app, 3)
    urls = [
        f"/players/{ann(app)}?game={ruleset}&period={period}"
        for ruleset, period in itertools.product(RULESETS, stats.PERIODS)
    ]
    small = counts_for(app, counter, urls, 1 + PLAYER_PAGE)
    grow_club(app, 9, start=3)
    assert counts_for(app, counter, urls, 1 + PLAYER_PAGE) == small
    # Its versions, then the page; the address names the game: no look for the latest game's ranking.
    assert set(small.values()) == {PLAYER_PAGE}, small


def test_the_clubs_pages_are_cached_and_a_write_shows_at_once(app: Flask, counter: StatementCounter) -> None:
    grow_club(app, 2)
    client = app.test_client()
    urls = ["/", "/rankings", "/rankings?period=30d&sort=win_pct", f"/players/{ann(app)}"]
    for url in urls:
        statements_for(counter, client, url)
        assert only_versions(statements_for(counter, client, url)), url  # cached: its versions alone
    game_id, _key = new_game(app, 18, players=["Ann", "Newcomer", "Other"])
    for url in urls:
        html = client.get(url).get_data(as_text=True)
        assert game_id in html or "Newcomer" in html, url


def test_a_busy_clubs_rankings_stay_cached_while_games_in_progress_are_written(
    app: Flask, counter: StatementCounter
) -> None:
    """A deal in a game in progress changes the home page's list, not the rankings."""
    grow_club(app, 2)
    game_id, _key = new_game(app, 3)
    client = app.test_client()
    statements_for(counter, client, "/rankings")
    statements_for(counter, client, "/")
    for number in range(4, 8):
        record(app, game_id, number)
        assert only_versions(statements_for(counter, client, "/rankings")), number
        assert len(statements_for(counter, client, "/")) == 2, number  # the lists, drawn again
        assert only_versions(statements_for(counter, client, "/")), number


def test_the_home_page_replays_no_game(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    grow_club(app, 4)

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("the home page replayed a game")

    for ruleset in RULESETS.values():
        monkeypatch.setattr(type(ruleset), "replay", no_replay)
        monkeypatch.setattr(type(ruleset), "replay_after", no_replay)
    response = app.test_client().get("/")
    assert response.status_code == 200
    with app.app_context():
        db.session.remove()


def test_a_key_holder_and_a_plain_visitor_never_share_a_cached_players_page(app: Flask) -> None:
    """The rename and merge forms show to whoever holds the keys of all the player's games only."""
    game_id, _key = new_game(app, 18, players=["Ann", "Bob", "Cid"])
    url = f"/players/{ann(app)}"
    visitor, holder = app.test_client(), app.test_client()
    hold_pencil(holder, game_id)
    for _ in range(2):  # the second round would find what the first one cached
        assert 'id="manage-heading"' not in visitor.get(url).get_data(as_text=True)
        assert 'id="manage-heading"' in holder.get(url).get_data(as_text=True)
