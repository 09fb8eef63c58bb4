"""SQL statements per request: at most ``BUDGET`` for any page or API read (``PLAYER_PAGE`` for a
player's page), whatever the size of the game or the club.

Each statement the app sends through SQLAlchemy is counted with a
``before_cursor_execute`` listener for the span of one request.  A page that
lazily loads a relationship per deal, per seat or per game would show up here
as a count that grows with the number of deals or games, or goes over the budget.

Both the first view of a game (load, replay, render) and the next one (for a watcher, the
page cached for that version of the game, see ``scorekeeper.caching``; for the scorer, rendered
again) are counted.  Not counted: the connection pool's liveness ping
(``pool_pre_ping``) and the SQLite PRAGMAs run once per new connection, which
bypass the statement events.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from perf_support import StatementCounter, new_game, with_pencil

from scorekeeper import services

BUDGET = 4
#: A player's page: the ranking of their latest game (where the page opens), the player with their
#: record, contracts, head-to-head, recent games, the chart's games, the best game.
PLAYER_PAGE = 7
#: A club page's versions (``scorekeeper.caching``): the one statement its cached copy costs, read
#: from the database so that a copy never outlives a write, whatever happened to the cache.
VERSIONS = "SELECT page_versions.name, sum(page_versions.version)"


def only_versions(statements: list[str]) -> bool:
    """Whether a club page was served from its cached copy: its versions read, nothing else."""
    return len(statements) == 1 and statements[0].startswith(VERSIONS)


def statements_for(
    counter: StatementCounter, client: FlaskClient, url: str, *, status: int = 200, **kwargs: Any
) -> list[str]:
    with counter.counting() as statements:
        response = client.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code)
    return list(statements)


def assert_within_budget(counts: dict[str, list[str]], budget: int = BUDGET) -> None:
    over = {label: statements for label, statements in counts.items() if len(statements) > budget}
    assert not over, f"over the budget of {budget} statements per request: {over}"


@pytest.fixture
def counter(app: Flask) -> StatementCounter:
    return StatementCounter(app)


@pytest.mark.parametrize("view", ["game page (watcher)", "game page (scorer)", "scoresheet", "API game"])
def test_game_reads_are_within_budget_and_constant_in_deals(
    app: Flask, counter: StatementCounter, view: str
) -> None:
    counts: dict[str, list[str]] = {}
    for deals in (0, 9, 18):
        game_id, key = new_game(app, deals)
        client = app.test_client()
        if view == "game page (scorer)":
            with_pencil(client, game_id, key)
        url = {
            "game page (watcher)": f"/games/{game_id}",
            "game page (scorer)": f"/games/{game_id}",
            "scoresheet": f"/games/{game_id}/scoresheet",
            "API game": f"/api/v1/games/{game_id}",
        }[view]
        # The first view loads and renders the game; the next one finds it cached (not the scorer's).
        counts[f"{view}, {deals} deals, first view"] = statements_for(counter, client, url)
        counts[f"{view}, {deals} deals, again"] = statements_for(counter, client, url)
    assert_within_budget(counts)
    for visit in ("first view", "again"):
        assert len({len(s) for label, s in counts.items() if label.endswith(visit)}) == 1, counts


def test_not_modified_answers_are_within_budget(app: Flask, counter: StatementCounter) -> None:
    game_id, key = new_game(app, 18)
    watcher = app.test_client()
    scorer = with_pencil(app.test_client(), game_id, key)
    counts: dict[str, list[str]] = {}
    for label, client, url in (
        ("web 304 (watcher)", watcher, f"/games/{game_id}"),
        ("web 304 (scorer)", scorer, f"/games/{game_id}"),
        ("API 304", watcher, f"/api/v1/games/{game_id}"),
    ):
        etag = client.get(url).headers["ETag"]
        counts[label] = statements_for(counter, client, url, status=304, headers={"If-None-Match": etag})
    assert_within_budget(counts)
    # The point of the 304: one cheap query instead of loading and replaying the game.
    assert all(len(statements) == 1 for statements in counts.values()), counts


def test_health_check_is_one_query(app: Flask, counter: StatementCounter) -> None:
    client = app.test_client()
    assert len(statements_for(counter, client, "/healthz")) == 1


def test_home_page_is_within_budget_and_constant_in_games(app: Flask, counter: StatementCounter) -> None:
    client = app.test_client()
    counts: dict[str, list[str]] = {}
    made = 0
    for games in (1, 3, 12):
        while made < games:
            new_game(app, (0, 18, 9)[made % 3], players=[f"P{made}a", f"P{made}b", f"P{made}c"])
            made += 1
        # Drawn (the new games changed its lists), then cached: its versions alone.
        counts[f"home, {games} games"] = statements_for(counter, client, "/")
        assert only_versions(statements_for(counter, client, "/"))
    assert_within_budget(counts)
    assert len({len(statements) for statements in counts.values()}) == 1, counts


def test_other_reads_are_within_budget(app: Flask, counter: StatementCounter) -> None:
    """The remaining read-only pages and API calls, with a few games and players stored."""
    for i in range(3):
        game_id, _key = new_game(app, 18 if i else 9, players=[f"Q{i}a", f"Q{i}b", "Ann"])
    client = app.test_client()
    urls = [
        "/games/new",
        "/rules",
        f"/games/{game_id}/take",
        "/rankings",
        "/players",
        "/api/v1/rulesets",
        f"/api/v1/games/{game_id}/export",
    ]
    counts = {}
    for url in urls:
        statements_for(counter, client, url)
        counts[url] = statements_for(counter, client, url)
    assert_within_budget(counts)


def player_page_counts(app: Flask, counter: StatementCounter) -> dict[str, list[str]]:
    """Statements for one player's page with 1, 3 and 6 games stored (finished and not)."""
    client = app.test_client()
    counts: dict[str, list[str]] = {}
    made = 0
    for games in (1, 3, 6):
        while made < games:
            new_game(app, (18, 9, 18)[made % 3], players=["Ann", f"R{made}b", f"R{made}c"])
            made += 1
        with app.app_context():
            url = f"/players/{services.find_player('Ann').id}"
        # Drawn (Ann's new games changed it), then cached: its versions alone.
        counts[f"player page, {games} games"] = statements_for(counter, client, url)
        assert only_versions(statements_for(counter, client, url))
    return counts


def test_player_page_is_constant_in_games(app: Flask, counter: StatementCounter) -> None:
    counts = player_page_counts(app, counter)
    assert {len(statements) for statements in counts.values()} == {1 + PLAYER_PAGE}, counts


def test_a_keyring_costs_the_same_whatever_the_number_of_games_it_holds(
    app: Flask, counter: StatementCounter
) -> None:
    """The game page, its 304 and Ann's page (with the rename form: the keyring holds every game
    she sat in) read the keyring in statements that do not grow with the games the phone holds."""
    phone = app.test_client()
    counts: dict[str, list[str]] = {}
    made: list[str] = []
    for games in (1, 5, 20):
        while len(made) < games:
            game_id, _key = new_game(app, 1, players=["Ann", f"K{len(made)}b", f"K{len(made)}c"])
            with_pencil(phone, game_id, _key)
            made.append(game_id)
        with app.app_context():
            ann = f"/players/{services.find_player('Ann').id}"
        first = f"/games/{made[0]}"
        for label, url in ((f"game page, holding {games}", first), (f"Ann's page, holding {games}", ann)):
            statements_for(counter, phone, url)
            counts[label] = statements_for(counter, phone, url)
        assert 'id="manage-heading"' in phone.get(ann).get_data(as_text=True)
        etag = phone.get(first).headers["ETag"]
        counts[f"game 304, holding {games}"] = statements_for(
            counter, phone, first, status=304, headers={"If-None-Match": etag}
        )
    assert_within_budget({label: s for label, s in counts.items() if not label.startswith("Ann's page")})
    # Her page, and the keyring's games in one more statement.
    ann_counts = {len(s) for label, s in counts.items() if label.startswith("Ann's page")}
    assert ann_counts == {PLAYER_PAGE + 1}, counts
    for kind in ("game page", "game 304"):
        assert len({len(s) for label, s in counts.items() if label.startswith(kind)}) == 1, counts
    assert all(len(s) == 1 for label, s in counts.items() if label.startswith("game 304")), counts
