"""Numbers too big for the database: every id, deal number and page from a URL, query or form.

Ids and deal numbers past 2**31-1 (PostgreSQL's ``integer``) are unknown (404),
pages past either end show the nearest page, forged numbers in forms are an
incomplete form (422); never a 500, and nothing changes.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.limits import MAX_DB_INT, query_int
from tests.helpers import parse_html, start_mizerka
from tests.hostile.hostile_support import BASE, Unchanged, api_game, assert_api_error, bearer, token

HUGE = ["99999999999999999999", str(MAX_DB_INT + 1), "9" * 5000, "2147483648"]


@pytest.mark.parametrize("number", HUGE)
def test_huge_ids_in_web_urls_are_404(app: Flask, client: FlaskClient, number: str) -> None:
    game_id = start_mizerka(client, deals=2)
    with Unchanged(app):
        for url in (f"/players/{number}", f"/games/{game_id}/deals/{number}/edit"):
            assert client.get(url).status_code == 404, url
        csrf = token(client)
        for url, data in [
            (f"/players/{number}/rename", {"name": "Zed"}),
            (f"/players/{number}/merge", {"keep": "Ann"}),
            (f"/games/{game_id}/deals/{number}/tricks", {"number": "1", "tricks-0": "1"}),
            (f"/games/{game_id}/deals/{number}/edit", {"contract": "clubs"}),
        ]:
            assert client.post(url, data={"csrf_token": csrf, **data}).status_code == 404, url


@pytest.mark.parametrize("number", HUGE)
def test_huge_deal_numbers_in_api_urls_are_404(app: Flask, client: FlaskClient, number: str) -> None:
    game_id, key = api_game(client, deals=2)
    with Unchanged(app):
        for method in ("PUT", "DELETE"):
            response = client.open(
                f"{BASE}/games/{game_id}/deals/{number}", method=method, json={}, headers=bearer(key)
            )
            assert_api_error(response, 404, "not_found")


def test_a_huge_page_shows_the_last_page(app: Flask, client: FlaskClient) -> None:
    start_mizerka(client, deals=18)  # the rankings list players with a finished game
    for page_arg in (
        "99999999999999999999",
        str(MAX_DB_INT),
        "9" * 5000,
        "-99999999999999999999",
        "x",
        "",
        "1e9",
    ):
        response = client.get(f"/rankings?page={page_arg}")
        assert response.status_code == 200, page_arg
        assert "Ann" in parse_html(response.get_data(as_text=True)).text


@pytest.mark.parametrize("field", ["number", "version"])
@pytest.mark.parametrize("value", ["99999999999999999999", str(MAX_DB_INT + 1), "-1", "9" * 5000])
def test_forged_numbers_in_forms_are_refused(app: Flask, client: FlaskClient, field: str, value: str) -> None:
    game_id = start_mizerka(client, deals=2)
    csrf = token(client)
    posts = {
        "number": [
            (f"/games/{game_id}/deals", {"number": value, "contract": "spades"}),
            (f"/games/{game_id}/deals/3/tricks", {"number": value, "tricks-0": "5"}),
            (f"/games/{game_id}/undo", {"number": value, "version": "2"}),
        ],
        "version": [
            (f"/games/{game_id}/undo", {"number": "2", "version": value}),
            (f"/games/{game_id}/deals/1/edit", {"version": value, "contract": "hearts"}),
        ],
    }[field]
    with Unchanged(app):
        for url, data in posts:
            data.update({f"tricks-{seat}": "5" for seat in range(1, 3)} if "tricks" in url else {})
            response = client.post(url, data={"csrf_token": csrf, **data})
            assert response.status_code in (404, 409, 422), (url, response.status_code)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.text(max_size=30))
def test_query_int_never_fails_and_stays_in_bounds(raw: str) -> None:
    number = query_int({"page": raw}, "page", 1)
    assert 1 <= number <= MAX_DB_INT


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.integers(min_value=-(10**30), max_value=10**30))
def test_any_player_id_or_page_is_a_404_or_a_page(client: FlaskClient, number: int) -> None:
    assert client.get(f"/players/{number}").status_code == 404  # no players exist in this app
    assert client.get(f"/rankings?page={number}").status_code == 200


def test_hostile_query_strings_fall_back_to_defaults(app: Flask, client: FlaskClient) -> None:
    start_mizerka(client, deals=1)
    from scorekeeper.services import find_player

    with app.app_context():
        ann = find_player("Ann").id
    hostile = "game=%00&period=%00&sort=%00&dir=%00&page=%00"
    with Unchanged(app):
        for url in (
            f"/rankings?{hostile}",
            f"/players/{ann}?{hostile}",
            f"/games/new?{hostile}",
            f"/players?{hostile}",
        ):
            assert client.get(url).status_code == 200, url
