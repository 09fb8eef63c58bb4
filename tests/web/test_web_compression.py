"""Text responses travel gzipped when the client accepts it; nothing else changes about them."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from flask.testing import FlaskClient
from helpers import start_mizerka

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def fetch(client: FlaskClient, url: str, **headers: str) -> Any:
    """GET ``url``, its body read and the response closed (a static file is streamed from disk)."""
    with client.get(url, headers=headers) as response:
        response.get_data()
        return response


def test_pages_and_static_text_are_gzipped_for_a_browser(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=6)
    for url in (f"/games/{game_id}", "/static/css/app.css", "/static/js/app.js", "/rules"):
        plain = fetch(client, url)
        packed = fetch(client, url, **GZIP)
        assert plain.status_code == packed.status_code == 200, url
        assert "Content-Encoding" not in plain.headers, url
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in packed.headers["Vary"], url
        assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data) / 2, url
        if url.startswith("/static/"):
            assert gzip.decompress(packed.data) == plain.data, url
            assert "Accept-Ranges" not in packed.headers
        else:
            assert b"<!doctype html>" in gzip.decompress(packed.data)


def test_the_live_page_keeps_its_etag_and_its_304(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    first = fetch(client, f"/games/{game_id}", **GZIP)
    assert first.headers["Content-Encoding"] == "gzip" and first.headers["ETag"]
    again = fetch(client, f"/games/{game_id}", **GZIP, **{"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and "Content-Encoding" not in again.headers


def test_small_binary_and_partial_responses_stay_as_they_are(client: FlaskClient) -> None:
    png = fetch(client, "/static/icons/icon-192.png", **GZIP)
    assert png.status_code == 200 and "Content-Encoding" not in png.headers
    health = fetch(client, "/healthz", **GZIP)
    assert health.data == b"ok\n" and "Content-Encoding" not in health.headers
    ranged = fetch(client, "/static/css/app.css", **GZIP, Range="bytes=0-99")
    assert ranged.status_code == 206 and len(ranged.data) == 100 and "Content-Encoding" not in ranged.headers


# -- each encoding its own, and only when taken (issue 41, point 13) ------------------------------------


def urls(client: FlaskClient) -> list[str]:
    """A game page (its live updates too), the API's game, a stylesheet and a script."""
    game_id = start_mizerka(client, deals=3)
    return [f"/games/{game_id}", f"/api/v1/games/{game_id}", "/static/css/app.css", "/static/js/app.js"]


@pytest.mark.parametrize(
    "accepted",
    [
        "gzip;q=0",
        "gzip;q=0, deflate",
        "deflate, gzip;q=0, br",
        "*;q=0",
        "identity;q=1, *;q=0",
        "*;q=0.5, gzip;q=0",
        "gzip;q=0.5, identity",
        "",
        "br",
    ],
)
def test_gzip_not_taken_is_not_sent(client: FlaskClient, accepted: str) -> None:
    for url in urls(client):
        response = fetch(client, url, **{"Accept-Encoding": accepted})
        assert response.status_code == 200, url
        assert "Content-Encoding" not in response.headers, (url, accepted)
        assert "Accept-Encoding" in response.headers["Vary"], url


@pytest.mark.parametrize(
    "accepted", ["gzip", "*", "identity;q=0, gzip", "gzip;q=0.5, identity;q=0.5", "GZip;q=1"]
)
def test_gzip_taken_is_sent(client: FlaskClient, accepted: str) -> None:
    for url in urls(client):
        assert fetch(client, url, **{"Accept-Encoding": accepted}).headers["Content-Encoding"] == "gzip", url


def test_each_encoding_has_its_own_etag_and_each_gets_its_304(client: FlaskClient) -> None:
    for url in urls(client):
        plain = fetch(client, url)
        packed = fetch(client, url, **GZIP)
        tag = plain.headers["ETag"]
        assert tag.startswith('"') and packed.headers["ETag"] == tag[:-1] + ':gzip"', url
        # Each copy revalidates with its own tag, and the 304 names the copy held.
        again = fetch(client, url, **GZIP, **{"If-None-Match": packed.headers["ETag"]})
        assert (again.status_code, again.headers["ETag"]) == (304, packed.headers["ETag"]), url
        again = fetch(client, url, **{"If-None-Match": tag})
        assert (again.status_code, again.headers["ETag"]) == (304, tag), url
        # The gzipped copy's tag does not stand for the plain body.
        plain_again = fetch(client, url, **{"If-None-Match": packed.headers["ETag"]})
        assert plain_again.status_code == 200 and "Content-Encoding" not in plain_again.headers, url
        if url.startswith("/static/"):  # a scorer's page has a new form token each time
            assert plain_again.data == plain.data, url


def test_a_range_is_of_the_plain_copy_and_if_range_tells_them_apart(client: FlaskClient) -> None:
    url = "/static/css/app.css"
    plain = fetch(client, url)
    packed = fetch(client, url, **GZIP)
    # A range of the plain body, named as such, whatever the client takes.
    part = fetch(client, url, **GZIP, Range="bytes=0-99", **{"If-Range": plain.headers["ETag"]})
    assert part.status_code == 206 and "Content-Encoding" not in part.headers
    assert part.headers["ETag"] == plain.headers["ETag"] and part.data == plain.data[:100]
    assert "Accept-Encoding" in part.headers["Vary"]
    # A client holding part of the gzipped copy asks for the rest: it gets that copy whole.
    whole = fetch(client, url, **GZIP, Range="bytes=100-", **{"If-Range": packed.headers["ETag"]})
    assert whole.status_code == 200 and whole.headers["Content-Encoding"] == "gzip"
    assert whole.headers["ETag"] == packed.headers["ETag"] and gzip.decompress(whole.data) == plain.data


def test_live_updates_and_if_match_take_the_gzipped_copy_s_tag(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)
    poll = {**GZIP, "X-Scorekeeper-Poll": "1"}
    page = fetch(client, f"/games/{game_id}", **poll)
    assert page.headers["Content-Encoding"] == "gzip"
    held = page.headers["ETag"]
    assert fetch(client, f"/games/{game_id}", **poll, **{"If-None-Match": held}).status_code == 304
    state = fetch(client, f"/api/v1/games/{game_id}", **GZIP)
    sync = {
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/json",
        "If-Match": state.headers["ETag"],
    }
    undone = client.delete(f"/games/{game_id}/sync/deals/3", headers=sync)
    assert undone.status_code == 204, undone.get_data(as_text=True)
    moved = fetch(client, f"/games/{game_id}", **poll, **{"If-None-Match": held})
    assert moved.status_code == 200 and moved.headers["ETag"] not in (held, "")
    stale = client.delete(f"/games/{game_id}/sync/deals/2", headers=sync)
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale"
