"""Which language a request is served in: the switch's cookie, then Accept-Language, then English."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.helpers import page, start_game

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


def html_lang(client: FlaskClient, url: str = "/", **headers: str) -> str:
    body = client.get(url, headers=headers).get_data(as_text=True)
    match = re.search(r'<html lang="([^"]+)"', body)
    assert match, body[:200]
    return match.group(1)


def test_english_without_a_preference(client: FlaskClient) -> None:
    assert html_lang(client) == "en"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("pl-PL,pl;q=0.9,en;q=0.8", "pl"),
        ("it-IT", "it"),
        ("de-DE,it;q=0.5,pl;q=0.4", "it"),
        ("fr-FR,de;q=0.8", "en"),
    ],
)
def test_the_phone_s_languages_are_honoured(client: FlaskClient, header: str, expected: str) -> None:
    assert html_lang(client, **{"Accept-Language": header}) == expected


def test_the_switch_is_remembered_across_pages(client: FlaskClient) -> None:
    response = client.get("/language/pl?next=/rankings")
    assert response.status_code == 303
    assert response.headers["Location"] == "/rankings"
    cookie = response.headers["Set-Cookie"]
    assert "lang=pl" in cookie and "Max-Age=31536000" in cookie and "HttpOnly" in cookie
    # The choice beats the browser's own languages, on every page.
    for url in ("/", "/rankings", "/rules", "/games/new"):
        assert html_lang(client, url, **{"Accept-Language": "it"}) == "pl", url
    client.get("/language/en?next=/")
    assert html_lang(client, **{"Accept-Language": "it"}) == "en"


def test_the_switch_shows_the_current_language_and_links_the_others(client: FlaskClient) -> None:
    body = page(client, "/rules")
    assert '<span aria-current="true" lang="en"' in body
    assert 'href="/language/pl?next=/rules"' in body
    assert 'href="/language/it?next=/rules"' in body


@pytest.mark.parametrize(
    "target", ["https://example.org/", "//example.org/x", "/\\example.org", "javascript:alert(1)", ""]
)
def test_the_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/it", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    "target",
    [
        "/\t/127.0.0.1:5499/phish",  # a browser drops tabs and newlines: //127.0.0.1:5499/phish
        "/\n/127.0.0.1:5499/phish",
        "/\r\n/127.0.0.1:5499/phish",
        "\t//example.org/",
        " //example.org/",  # leading spaces and controls are trimmed
        "\x00//example.org/",
        "/\\example.org",
        "\\/example.org",
        "\\\\example.org",
        "/\t\\example.org",
        "/\x0b/example.org",  # any other control character: a header cannot carry it
        "/\x7f/example.org",
        "/\x85/example.org",
        "/\u202e/gro.elpmaxe",
        "https:/example.org",
        "HTTPS://example.org",
        "java\tscript:alert(1)",
        "data:text/html,hi",
        "example.org",
        "rankings",
    ],
)
def test_anything_a_browser_reads_as_another_place_goes_home(client: FlaskClient, target: str) -> None:
    response = client.get("/language/pl", query_string={"next": target})
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"] == "/"
    assert "lang=pl" in response.headers["Set-Cookie"]


@pytest.mark.parametrize(
    "target",
    ["/rankings?game=misere&period=year", "/games/abc?from=x#top", "/players/3", "/ranking%2F%2Fs", "/a//b"],
)
def test_a_path_on_this_site_is_kept(client: FlaskClient, target: str) -> None:
    response = client.get("/language/pl", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == target


def test_an_unknown_language_is_not_found_and_sets_nothing(client: FlaskClient) -> None:
    response = client.get("/language/de?next=/")
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]
    assert html_lang(client) == "en"


def test_a_game_page_s_tag_names_its_language(client: FlaskClient) -> None:
    """A watching phone that switches language must not be answered 304 with the old page."""
    game_id = start_game(client, ["Ala", "Ola", "Ela"])
    english = client.get(f"/games/{game_id}").headers["ETag"]
    client.get("/language/it?next=/")
    italian = client.get(f"/games/{game_id}", headers={"If-None-Match": english})
    assert italian.status_code == 200
    assert italian.headers["ETag"] != english
    assert "Accept-Language" in italian.headers["Vary"]
