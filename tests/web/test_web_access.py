"""Who holds the pencil: the creator edits, other phones watch, the hand-over link passes it on."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    Node,
    csrf_from,
    db_snapshot,
    edit_key,
    follow,
    page,
    parse_html,
    start_mizerka,
    submit,
    text_of,
)

READ_ONLY = "This phone can watch this game but not change it."


def has_forms(doc: Node) -> bool:
    return bool(doc.find_all("form", method="post"))


@pytest.fixture
def watcher(app: Flask) -> FlaskClient:
    """A second phone: same server, no edit cookie."""
    return app.test_client()


def test_a_watching_phone_sees_the_game_without_forms(client: FlaskClient, watcher: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    html = page(watcher, f"/games/{game_id}")
    doc = parse_html(html)
    assert "Deal 3 of 18" in doc.find("section", aria_label="Running totals").text
    assert doc.find("section", aria_labelledby="turn-heading").find("h1").text == "Cid chooses"
    assert "You are watching. Waiting for the declaration." in doc.text
    assert not has_forms(doc)
    assert "Save" not in doc.text
    assert not [b for b in doc.find_all("button") if b.attrs.get("name") == "contract"]
    assert not doc.first("details", cls="undo")
    assert "Undo" not in doc.text
    assert not doc.first("a", href=f"/games/{game_id}/deals/1/edit")
    assert not doc.first("details", cls="share")
    assert doc.find("tr", id="deal-2")  # the log and totals are there to watch
    assert parse_html(page(watcher, f"/games/{game_id}/scoresheet")).find("table", cls="sheet-log")


def test_the_watcher_sees_a_pending_deal_being_played(client: FlaskClient, watcher: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, form, form.find("button", value="clubs")))
    doc = parse_html(page(watcher, f"/games/{game_id}"))
    assert "You are watching. The cards are being played." in doc.text
    assert not has_forms(doc)


def test_the_creator_sees_the_forms(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    doc = parse_html(page(client, f"/games/{game_id}"))
    assert doc.find("form", cls="declare-form")
    assert doc.find("details", cls="undo")
    assert doc.find("a", href=f"/games/{game_id}/deals/1/edit")
    share = doc.find("details", cls="share")
    assert f"http://localhost/games/{game_id}" in share.text
    assert "You are watching" not in doc.text


def test_every_post_from_a_watcher_is_refused(app: Flask, client: FlaskClient, watcher: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, form, form.find("button", value="spades")))
    token = csrf_from(page(watcher, "/games/new"))  # a valid token of the watcher's own session
    before = db_snapshot(app)
    posts: list[tuple[str, dict[str, Any]]] = [
        (f"/games/{game_id}/deals", {"number": 4, "contract": "clubs"}),
        (f"/games/{game_id}/deals/3/tricks", {"number": 3, "tricks-0": 4, "tricks-1": 2, "tricks-2": 7}),
        (f"/games/{game_id}/undo", {"number": 3, "version": "99"}),
        (
            f"/games/{game_id}/deals/1/edit",
            {"contract": "clubs", "tricks-0": 8, "tricks-1": 4, "tricks-2": 1},
        ),
    ]
    for url, data in posts:
        response = watcher.post(url, data={"csrf_token": token, **data})
        assert response.status_code == 403, url
        doc = parse_html(response.get_data(as_text=True))
        assert doc.find("h1").text == "Read-only"
        assert READ_ONLY in doc.text
        assert "hand-over link" in doc.text
        assert doc.find("header", cls="site")
    assert db_snapshot(app) == before
    assert watcher.get(f"/games/{game_id}/deals/1/edit").status_code == 403


def test_a_cookie_with_a_wrong_key_gives_no_pencil(
    app: Flask, client: FlaskClient, watcher: FlaskClient
) -> None:
    game_id = start_mizerka(client)
    watcher.set_cookie(f"sk_edit_{game_id}", "guessed-key", path=f"/games/{game_id}")
    before = db_snapshot(app)
    assert not has_forms(parse_html(page(watcher, f"/games/{game_id}")))
    token = csrf_from(page(watcher, "/games/new"))
    response = watcher.post(
        f"/games/{game_id}/deals", data={"csrf_token": token, "number": 1, "contract": "hearts"}
    )
    assert response.status_code == 403
    assert db_snapshot(app) == before


def test_the_hand_over_page_gives_the_pencil_for_the_right_key(
    app: Flask, client: FlaskClient, watcher: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=1)
    doc = parse_html(page(watcher, f"/games/{game_id}/take"))
    assert doc.find("h1").text == "Take the pencil"
    assert "Mizerka: Ann, Bob, Cid." in doc.text
    form = doc.find("form", id="take-form")
    assert form.attrs["action"] == f"/games/{game_id}/take"

    response = submit(watcher, form, fill={"key": edit_key(client, game_id)})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert response.headers["Set-Cookie"].startswith(f"sk_edit_{game_id}=")
    doc = parse_html(follow(watcher, response))
    assert doc.find(cls="flashes").text == "This phone can now enter the score."
    declare_form = doc.find("form", cls="declare-form")
    assert submit(watcher, declare_form, declare_form.find("button", value="clubs")).status_code == 303
    # The first phone keeps its pencil too.
    assert parse_html(page(client, f"/games/{game_id}")).find("form", cls="tricks-form")


@pytest.mark.parametrize("key", ["wrong-key", "", "   "])
def test_the_hand_over_page_refuses_a_wrong_key(
    app: Flask, client: FlaskClient, watcher: FlaskClient, key: str
) -> None:
    game_id = start_mizerka(client, deals=1)
    other_game = start_mizerka(client)
    form = parse_html(page(watcher, f"/games/{game_id}/take")).find("form", id="take-form")
    before = db_snapshot(app)
    for attempt in [key, edit_key(client, other_game)]:  # a real key, of another game, is wrong too
        response = submit(watcher, form, fill={"key": attempt})
        assert response.status_code == 403
        assert "Set-Cookie" not in response.headers or "sk_edit_" not in response.headers["Set-Cookie"]
        doc = parse_html(response.get_data(as_text=True))
        assert doc.find(id="error-key").text == "That hand-over code does not belong to this game."
    assert db_snapshot(app) == before
    assert not has_forms(parse_html(page(watcher, f"/games/{game_id}")))


def test_the_edit_key_never_appears_in_a_page_or_address(client: FlaskClient, watcher: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    key = edit_key(client, game_id)
    for url in ["/", f"/games/{game_id}", f"/games/{game_id}/scoresheet", f"/games/{game_id}/take"]:
        assert key not in page(client, url)
        assert key not in page(watcher, url)
    assert key not in text_of(page(client, f"/games/{game_id}/deals/1/edit"))
