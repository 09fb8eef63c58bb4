"""The web app manifest, in the request's language; the static English one is still served."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from urllib.parse import urljoin

import pytest
from flask.testing import FlaskClient

from tests.helpers import page, parse_html

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

STATIC = Path(__file__).resolve().parents[2] / "static" / "manifest.webmanifest"


def test_pages_link_the_manifest_of_their_language(client: FlaskClient) -> None:
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page(client, "/")


def test_the_manifest_is_the_static_one_with_the_request_s_language(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": "it"})
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    assert {"Accept-Language", "Cookie"} <= {value.strip() for value in response.headers["Vary"].split(",")}
    served = json.loads(response.get_data(as_text=True))
    original = json.loads(STATIC.read_text())
    assert served["lang"] == "it"
    assert served["name"] == original["name"] == "Scorekeeper"
    assert {k: v for k, v in served.items() if k not in ("lang", "description", "icons")} == {
        k: v for k, v in original.items() if k not in ("lang", "description", "icons")
    }
    # The icons' addresses are absolute (this manifest is not in the static folder), and each is there.
    assert [i["src"] for i in served["icons"]] == ["/static/" + i["src"] for i in original["icons"]]
    for icon in served["icons"]:
        response = client.get(icon["src"])
        response.close()
        assert response.status_code == 200, icon


def test_the_description_names_the_registered_games_in_the_request_s_language(client: FlaskClient) -> None:
    static = client.get("/static/manifest.webmanifest")
    static.close()
    assert static.status_code == 200  # anything that links the old address still finds it
    # The static original names no game (a game is its module alone); the served one lists the
    # registry's games, each by its name in the phone's language, joined as that language joins a list.
    assert (
        json.loads(STATIC.read_text())["description"]
        == "Keeps the score of card games played with a real deck."
    )
    said = {
        language: json.loads(
            client.get("/manifest.webmanifest", headers={"Accept-Language": language}).get_data(as_text=True)
        )["description"]
        for language in ("en", "pl", "it")
    }
    assert said == {
        "en": "Keeps the score of card games played with a real deck: Mizerka, Misère, Kierki and Barbu.",
        "pl": "Zapisuje wyniki gier w prawdziwe karty: Mizerka, Misère, Kierki i Barbu.",
        "it": "Segna i punti dei giochi di carte con un mazzo vero: Mizerka, Misère, Kierki e Barbu.",
    }
    home = client.get("/", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert parse_html(home).find("meta", name="description").attrs["content"] == (
        "Scorekeeper zapisuje wyniki gier w prawdziwe karty: Mizerka, Misère, Kierki i Barbu."
    )


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def fetched(client: FlaskClient, url: str) -> bytes:
    response = client.get(url)
    body = response.get_data()
    response.close()
    assert response.status_code == 200, url
    return body


def test_it_links_what_an_install_needs_svg_and_png_icons_a_theme_colour_and_a_favicon(
    client: FlaskClient,
) -> None:
    """What a phone needs to install the app, as the home page links it (Chromium's own verdict on
    the manifest, and start_url opening the list of games: tests/e2e/test_e2e_at_the_table.py)."""
    head = parse_html(page(client, "/")).find("head")
    favicons = head.find_all("link", rel="icon")
    assert len(favicons) >= 1
    fetched(client, urljoin("/", favicons[0].attrs["href"] or ""))
    touch_icon = head.find("link", rel="apple-touch-icon").attrs["href"] or ""
    assert png_size(fetched(client, urljoin("/", touch_icon))) in ((180, 180), (192, 192))

    manifest_url = urljoin("/", head.find("link", rel="manifest").attrs["href"] or "")
    response = client.get(manifest_url)
    assert response.status_code == 200 and "manifest+json" in response.headers["Content-Type"]
    served = json.loads(response.get_data(as_text=True))
    assert served["name"] == "Scorekeeper" and served["short_name"]
    assert served["display"] == "standalone"
    assert served["theme_color"] and served["background_color"]
    kinds = set()
    for icon in served["icons"]:
        body = fetched(client, urljoin(manifest_url, icon["src"]))
        if icon["type"] == "image/png":
            width, height = png_size(body)
            assert icon["sizes"] == f"{width}x{height}", icon
            kinds.add((width, icon.get("purpose", "any")))
        else:
            assert icon["type"] == "image/svg+xml" and b"<svg" in body
            kinds.add(("svg", icon.get("purpose", "any")))
    assert {("svg", "any"), (192, "any"), (512, "any"), (512, "maskable")} <= kinds
