"""The web app manifest, in the request's language; the static English one is still served."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import manifest
from tests.helpers import page

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


def test_the_description_is_translated_and_the_static_one_is_its_english(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = client.get("/static/manifest.webmanifest")
    static.close()
    assert static.status_code == 200  # anything that links the old address still finds it
    english = json.loads(STATIC.read_text())["description"]
    with app.test_request_context("/"):
        assert manifest.description() == english  # the msgid and the static file never drift apart
    monkeypatch.setattr(manifest, "gettext", lambda message: f"[pl] {message}")
    served = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))
    assert served["description"] == f"[pl] {english}"
