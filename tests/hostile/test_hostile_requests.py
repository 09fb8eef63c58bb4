"""Request framing and conditions: over-long bodies however framed, and If-Match per RFC 9110."""

from __future__ import annotations

import http.client
import io
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from tests.helpers import start_mizerka
from tests.hostile.hostile_support import BASE, Unchanged, api_game, assert_api_error, bearer, token

LIMIT = 64 * 1024
DEAL_2 = {"number": 2, "contract": "clubs", "tricks": {"Ann": 2, "Bob": 6, "Cid": 5}}


def over_long(payload: dict[str, Any]) -> bytes:
    """A valid body, then 70 KB of spaces, then junk: cut at the limit it would still parse."""
    return json.dumps(payload).encode() + b" " * (70 * 1024) + b"junk"


def chunked(client: FlaskClient, url: str, body: bytes, content_type: str, **headers: str) -> Any:
    """A POST whose body has no length, as a server hands over a ``Transfer-Encoding: chunked`` one."""
    return client.post(
        url,
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": content_type, **headers},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_an_over_long_chunked_body_is_413_on_the_api(app: Flask, client: FlaskClient) -> None:
    game_id, key = api_game(client, deals=1)
    with Unchanged(app):
        response = chunked(
            client,
            f"{BASE}/games/{game_id}/deals",
            over_long(DEAL_2),
            "application/json",
            Authorization=f"Bearer {key}",
        )
        assert_api_error(response, 413, "too_large")
        response = chunked(
            client, f"{BASE}/games", over_long({"players": ["Ann", "Bob", "Cid"]}), "application/json"
        )
        assert_api_error(response, 413, "too_large")
        response = client.post(
            f"{BASE}/games/{game_id}/deals",
            data=over_long(DEAL_2),
            content_type="application/json",
            headers=bearer(key),
        )
        assert_api_error(response, 413, "too_large")
    # A chunked body within the limit is read whole, as with a length.
    response = chunked(
        client,
        f"{BASE}/games/{game_id}/deals",
        json.dumps(DEAL_2).encode(),
        "application/json",
        Authorization=f"Bearer {key}",
    )
    assert response.status_code == 201, response.get_json()


def test_an_over_long_chunked_form_is_413(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    form = f"csrf_token={token(client)}&number=2&contract=clubs&note=".encode() + b"x" * (70 * 1024)
    with Unchanged(app):
        for url in (f"/games/{game_id}/deals", "/games/new", "/games/import", "/players/merge"):
            response = chunked(client, url, form, "application/x-www-form-urlencoded")
            assert response.status_code == 413, url
            response = client.post(url, data=form, content_type="application/x-www-form-urlencoded")
            assert response.status_code == 413, url


@pytest.fixture
def live(app: Flask) -> Iterator[int]:
    """The app behind Werkzeug's own HTTP server (``make run``), which de-chunks bodies itself."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join()


def test_chunked_over_real_http(app: Flask, client: FlaskClient, live: int) -> None:
    game_id, key = api_game(client, deals=1)

    def send(body: bytes) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", live, timeout=30)
        pieces = iter([body[i : i + 4096] for i in range(0, len(body), 4096)])
        connection.request(
            "POST",
            f"{BASE}/games/{game_id}/deals",
            body=pieces,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
            encode_chunked=True,
        )
        answer = connection.getresponse()
        status, text = answer.status, answer.read()
        connection.close()
        return status, json.loads(text)

    with Unchanged(app):
        status, body = send(over_long(DEAL_2))
        assert status == 413 and body["error"]["code"] == "too_large"
    status, body = send(json.dumps(DEAL_2).encode())
    assert status == 201, body


# -- If-Match ------------------------------------------------------------------------------------------


def test_if_match_holds_when_any_listed_tag_is_current(app: Flask, client: FlaskClient) -> None:
    game_id, key = api_game(client, deals=3)
    for template in ("{now}, {old}", "{old}, {now}", '"x", {now}', "*", '{now}, W/"v1"', "{old},{now}"):
        version = int(client.get(f"{BASE}/games/{game_id}").headers["ETag"].strip('"v'))
        header = template.format(now=f'"v{version}"', old=f'"v{version - 1}"')
        response = client.put(
            f"{BASE}/games/{game_id}/deals/3",
            json={"tricks": {"Ann": 4, "Bob": 9, "Cid": 0}},
            headers={**bearer(key), "If-Match": header},
        )
        assert response.status_code == 200, (header, response.get_json())


def test_if_match_fails_when_no_tag_is_current(app: Flask, client: FlaskClient) -> None:
    game_id, key = api_game(client, deals=3)
    version = int(client.get(f"{BASE}/games/{game_id}").headers["ETag"].strip('"v'))
    with Unchanged(app):
        for header in (
            f'"v{version - 1}", "v{version + 1}"',
            f'W/"v{version}"',  # If-Match compares strongly: a weak tag never matches
            '"v99999999999999999999999"',
            '"", "nonsense"',
            "garbage",
        ):
            for method, url, body in (
                ("PUT", f"{BASE}/games/{game_id}/deals/3", {"tricks": {"Ann": 4, "Bob": 9, "Cid": 0}}),
                ("DELETE", f"{BASE}/games/{game_id}/deals/3", None),
            ):
                response = client.open(
                    url, method=method, json=body, headers={**bearer(key), "If-Match": header}
                )
                assert_api_error(response, 409, "stale")
        response = client.delete(f"{BASE}/games/nosuchgame/deals/3", headers={**bearer(key), "If-Match": "*"})
        assert_api_error(response, 404, "not_found")


# -- imported timestamps ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "created_at",
    ["9999-12-31T23:59:59+00:00", "2999-01-01T00:00:00", "1899-12-31T23:59:59+00:00", "0001-01-01T00:00:00"],
)
def test_imported_timestamps_are_checked_like_played_on(
    app: Flask, client: FlaskClient, created_at: str
) -> None:
    game_id = start_mizerka(client, deals=1)
    export = client.get(f"{BASE}/games/{game_id}/export").get_json()
    bad = {**export, "created_at": created_at}
    with Unchanged(app):
        assert_api_error(client.post(f"{BASE}/games/import", json=bad), 422, "invalid_export")
        response = client.post("/games/import", data={"csrf_token": token(client), "text": json.dumps(bad)})
        assert response.status_code == 422
        assert "created_at" in response.get_data(as_text=True)
    # Today, and a day ahead (time zones), are fine.
    assert client.post(f"{BASE}/games/import", json=export).status_code == 201
