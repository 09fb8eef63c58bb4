"""Who holds the pencil: the creator edits, other phones watch, the hand-over link passes it on."""

from __future__ import annotations

from datetime import timedelta
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


def hand_over_link(client: FlaskClient, game_id: str) -> tuple[str, Any]:
    """The scorer taps "Share the pencil" on the game page: the link's one-time code, and the answer."""
    doc = parse_html(page(client, f"/games/{game_id}"))
    form = doc.find("form", action=f"/games/{game_id}/hand-over")
    response = submit(client, form)
    assert response.status_code == 200, response.status_code
    link = parse_html(response.get_data(as_text=True)).find("textarea", id="hand-over-link").text
    prefix = f"http://localhost/games/{game_id}/take#"
    assert link.startswith(prefix), link
    return link[len(prefix) :], response


def take(phone: FlaskClient, game_id: str, code: str) -> Any:
    """A phone opens the hand-over link: its page posts the code from the link's fragment."""
    form = parse_html(page(phone, f"/games/{game_id}/take")).find("form", id="take-form")
    return submit(phone, form, fill={"key": code})


def test_a_hand_over_link_gives_the_pencil_once(
    app: Flask, client: FlaskClient, watcher: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=1)
    doc = parse_html(page(watcher, f"/games/{game_id}/take"))
    assert doc.find("h1").text == "Take the pencil"
    assert "Mizerka: Ann, Bob, Cid." in doc.text
    assert doc.find("form", id="take-form").attrs["action"] == f"/games/{game_id}/take"

    code, shown = hand_over_link(client, game_id)
    assert shown.headers["Cache-Control"] == "no-store"
    shown_doc = parse_html(shown.get_data(as_text=True))
    assert shown_doc.find("h1").text == "Share the pencil"
    assert shown_doc.find("svg")  # the QR code
    assert shown_doc.find("button", cls="primary").text == "Copy"
    assert [button for button in shown_doc.find_all("button") if "data-share-link" in button.attrs]

    response = take(watcher, game_id, code)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert response.headers["Set-Cookie"].startswith("sk_device=")
    doc = parse_html(follow(watcher, response))
    assert doc.find(cls="flashes").text == "This phone can now enter the score."
    declare_form = doc.find("form", cls="declare-form")
    assert submit(watcher, declare_form, declare_form.find("button", value="clubs")).status_code == 303
    # The first phone keeps its pencil too.
    assert parse_html(page(client, f"/games/{game_id}")).find("form", cls="tricks-form")

    # The same link, opened again on a third phone: refused, and said why.
    third = app.test_client()
    before = db_snapshot(app)
    response = take(third, game_id, code)
    assert response.status_code == 403
    assert parse_html(response.get_data(as_text=True)).find(id="error-key").text == (
        "This hand-over link has already been used. Ask the scorer to make a new one."
    )
    assert "sk_device" not in response.headers.get("Set-Cookie", "")
    assert db_snapshot(app) == before
    assert not has_forms(parse_html(page(third, f"/games/{game_id}")))
    # The first phone makes a new one, and it works.
    again, _ = hand_over_link(client, game_id)
    assert again != code
    assert take(third, game_id, again).status_code == 303
    assert parse_html(page(third, f"/games/{game_id}")).find("form", cls="tricks-form")


def test_a_hand_over_link_expires_after_ten_minutes(
    app: Flask, client: FlaskClient, watcher: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.services import keyring

    game_id = start_mizerka(client, deals=1)
    code, _ = hand_over_link(client, game_id)
    made = keyring.now()
    monkeypatch.setattr(keyring, "now", lambda: made + timedelta(minutes=10, seconds=1))
    response = take(watcher, game_id, code)
    assert response.status_code == 403
    assert parse_html(response.get_data(as_text=True)).find(id="error-key").text == (
        "This hand-over link has expired. Ask the scorer to make a new one."
    )
    assert not has_forms(parse_html(page(watcher, f"/games/{game_id}")))
    # Just before its ten minutes are up, a new one still works.
    code, _ = hand_over_link(client, game_id)
    made = keyring.now()
    monkeypatch.setattr(keyring, "now", lambda: made + timedelta(minutes=9, seconds=59))
    assert take(watcher, game_id, code).status_code == 303


def test_only_the_scorer_makes_a_hand_over_link(
    app: Flask, client: FlaskClient, watcher: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=1)
    token = csrf_from(page(watcher, "/games/new"))
    before = db_snapshot(app)
    assert watcher.post(f"/games/{game_id}/hand-over", data={"csrf_token": token}).status_code == 403
    assert client.post(f"/games/{game_id}/hand-over", data={}).status_code == 400  # no CSRF token
    assert db_snapshot(app) == before


@pytest.mark.parametrize("key", ["wrong-key", "", "   "])
def test_the_hand_over_page_refuses_a_wrong_code(
    app: Flask, client: FlaskClient, watcher: FlaskClient, key: str
) -> None:
    game_id = start_mizerka(client, deals=1)
    other_game = start_mizerka(client)
    other_code, _ = hand_over_link(client, other_game)
    form = parse_html(page(watcher, f"/games/{game_id}/take")).find("form", id="take-form")
    old_link_key = edit_key(client, game_id)
    before = db_snapshot(app)
    # The game's own edit key (what the old links carried) and another game's good code are wrong too.
    for attempt in [key, old_link_key, other_code]:
        response = submit(watcher, form, fill={"key": attempt})
        assert response.status_code == 403
        assert "sk_device" not in response.headers.get("Set-Cookie", "")
        doc = parse_html(response.get_data(as_text=True))
        assert doc.find(id="error-key").text == "That hand-over code does not belong to this game."
    assert db_snapshot(app) == before
    assert not has_forms(parse_html(page(watcher, f"/games/{game_id}")))


def test_no_key_or_hand_over_code_appears_in_a_kept_page_or_address(
    client: FlaskClient, watcher: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=1)
    key = edit_key(client, game_id)
    code, _ = hand_over_link(client, game_id)
    device = client.get_cookie("sk_device")
    assert device is not None
    secrets = (key, code, device.value)
    for url in ["/", f"/games/{game_id}", f"/games/{game_id}/scoresheet", f"/games/{game_id}/take"]:
        for phone in (client, watcher):
            html = page(phone, url)
            assert not any(secret in html for secret in secrets), url
    assert not any(secret in text_of(page(client, f"/games/{game_id}/deals/1/edit")) for secret in secrets)
    # The game page offers the hand-over as a form, never as a link or QR code of its own.
    share = parse_html(page(client, f"/games/{game_id}")).find("details", cls="share")
    assert share.find("form", action=f"/games/{game_id}/hand-over")
    assert len(share.find_all("svg")) == 1  # the watch link's QR code alone
    assert "/take" not in page(client, f"/games/{game_id}")
