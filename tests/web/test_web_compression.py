"""Text responses travel gzipped when the client accepts it; nothing else changes about them."""

from __future__ import annotations

import gzip
from typing import Any

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
