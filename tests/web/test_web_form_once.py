"""A page form is one change: the Idempotency-Key the server draws into it makes a re-send (a lost
answer, a double tap, the service worker's kept form) the first post again, answered as it was.

Each test posts a deal form as a browser would, lets another phone change the game, then sends the
same form again: nothing changes, and the answer is the first one.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    MIZERKA_DEALS,
    MIZERKA_NAMES,
    Node,
    db_snapshot,
    edit_key,
    follow,
    page,
    parse_html,
    start_mizerka,
    submit,
    text_of,
)

from scorekeeper.services import snapshot


def page_form(client: FlaskClient, game_id: str, cls: str) -> Node:
    doc = parse_html(page(client, f"/games/{game_id}"))
    return doc.find("details", cls="undo").find("form") if cls == "undo" else doc.find("form", cls=cls)


def correct_form(client: FlaskClient, game_id: str, number: int) -> Node:
    return parse_html(page(client, f"/games/{game_id}/deals/{number}/edit")).find(
        "form", **{"data-form": "correct"}
    )


def key_of(form: Node) -> str:
    """The Idempotency-Key the server drew into ``form`` (a hidden field: no script needed)."""
    field = form.first("input", name="idempotency_key")
    assert field is not None, "the form carries no Idempotency-Key"
    assert field.attrs.get("type") == "hidden"
    return str(field.attrs["value"])


def api(client: FlaskClient, method: str, path: str, key: str, body: Any = None) -> Any:
    """Another phone's write: the API with the game's edit key, no cookie of this browser's."""
    other = client.application.test_client()
    return other.open(path, method=method, json=body, headers={"Authorization": f"Bearer {key}"})


def deals_of(app: Flask, game_id: str) -> list[tuple[int, str | None, tuple[int, ...] | None]]:
    with app.app_context():
        return [(deal.number, deal.contract, deal.tricks) for deal in snapshot(game_id).state.deals]


def test_every_deal_form_carries_a_fresh_idempotency_key(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=4)
    doc = parse_html(page(client, f"/games/{game_id}"))
    keys = [
        key_of(doc.find("form", cls="declare-form")),
        key_of(doc.find("details", cls="undo").find("form")),
    ]
    assert all(len(key) == 32 for key in keys) and keys[0] != keys[1]
    assert key_of(page_form(client, game_id, "declare-form")) not in keys, "each page drawn has its own"
    assert len(key_of(correct_form(client, game_id, 2))) == 32


def test_a_declaration_form_sent_again_after_another_phone_undid_its_deal_is_answered_as_the_first_time(
    app: Flask, client: FlaskClient
) -> None:
    """Without the page's script: the browser posts the same form again (the answer was lost)."""
    game_id = start_mizerka(client, deals=4)
    form = page_form(client, game_id, "declare-form")
    diamonds = form.find("button", value="diamonds")
    first = submit(client, form, diamonds)
    assert first.status_code == 303
    assert "Deal 5: Diamonds. Enter the tricks when played." in text_of(follow(client, first))
    # Another phone undoes deal 5.
    gone = api(client, "DELETE", f"/api/v1/games/{game_id}/deals/5", edit_key(client, game_id))
    assert gone.status_code == 204
    before = db_snapshot(app)

    again = submit(client, form, diamonds)

    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert db_snapshot(app) == before, "the form's change was made once: deal 5 stays undone"
    assert [number for number, _, _ in deals_of(app, game_id)] == [1, 2, 3, 4]
    assert "Deal 5: Diamonds. Enter the tricks when played." in text_of(follow(client, again))


def test_the_service_workers_kept_form_sent_by_the_script_under_the_forms_key_changes_nothing(
    app: Flask, client: FlaskClient
) -> None:
    """The form reached the server, its answer was lost, the service worker kept it: the page's
    script sends it under the key the server drew into the form, and the server knows that key."""
    game_id = start_mizerka(client, deals=4)
    form = page_form(client, game_id, "declare-form")
    key = key_of(form)
    assert submit(client, form, form.find("button", value="diamonds")).status_code == 303
    assert (
        api(client, "DELETE", f"/api/v1/games/{game_id}/deals/5", edit_key(client, game_id)).status_code
        == 204
    )
    before = db_snapshot(app)

    kept = client.post(
        f"/games/{game_id}/sync/deals",
        json={"number": 5, "contract": "diamonds"},
        headers={"Idempotency-Key": key, "Sec-Fetch-Site": "same-origin"},
    )

    # Taken by the form: the script says deal 5 was undone on another phone (queue.js settle).
    assert kept.status_code == 422, kept.get_json()
    assert kept.get_json()["error"]["code"] == "idempotency_key_reused"
    assert db_snapshot(app) == before


def test_a_tricks_form_sent_again_after_another_phone_changed_the_deal_keeps_the_other_phones_tricks(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=4)
    key = edit_key(client, game_id)
    assert api(client, "POST", f"/api/v1/games/{game_id}/deals", key, {"number": 5, "contract": "diamonds"})
    form = page_form(client, game_id, "tricks-form")
    counts = dict(zip(("tricks-0", "tricks-1", "tricks-2"), MIZERKA_DEALS[4].tricks, strict=True))
    first = submit(client, form, fill=counts)
    assert first.status_code == 303
    assert "Deal 5 recorded." in text_of(follow(client, first))
    # Another phone undoes deal 5 and declares it again, still waiting for its tricks.
    assert api(client, "DELETE", f"/api/v1/games/{game_id}/deals/5", key).status_code == 204
    assert api(client, "POST", f"/api/v1/games/{game_id}/deals", key, {"number": 5, "contract": "spades"})
    before = db_snapshot(app)

    again = submit(client, form, fill=counts)

    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert db_snapshot(app) == before
    assert deals_of(app, game_id)[4] == (5, "spades", None)
    html = follow(client, again)
    assert "Deal 5 recorded." in text_of(html)


def test_an_undo_form_sent_again_after_another_phone_recorded_the_deal_anew_keeps_it(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=5)
    form = page_form(client, game_id, "undo")
    first = submit(client, form)
    assert first.status_code == 303
    assert "Deal 5 undone." in text_of(follow(client, first))
    deal = MIZERKA_DEALS[4]
    body = {
        "number": 5,
        "contract": deal.contract,
        "tricks": dict(zip(MIZERKA_NAMES, deal.tricks, strict=True)),
    }
    assert (
        api(client, "POST", f"/api/v1/games/{game_id}/deals", edit_key(client, game_id), body).status_code
        == 201
    )
    before = db_snapshot(app)

    again = submit(client, form)

    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert db_snapshot(app) == before, "the deal another phone recorded stays"
    assert "Deal 5 undone." in text_of(follow(client, again))


def test_a_correction_form_sent_again_is_answered_as_the_first_time(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)
    form = correct_form(client, game_id, 2)
    fixed = {"tricks-0": 3, "tricks-1": 5, "tricks-2": 5}
    first = submit(client, form, fill=fixed)
    assert first.status_code == 303
    before = db_snapshot(app)

    again = submit(client, form, fill=fixed)

    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert db_snapshot(app) == before
    assert text_of(follow(client, again)).count("Deal 2 corrected; later totals follow.") == 1
