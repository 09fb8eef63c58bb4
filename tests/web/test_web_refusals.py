"""Every bad input is refused with its message on the page, and the database does not change."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    follow,
    page,
    parse_html,
    start_mizerka,
    submit,
    text_of,
)

from scorekeeper import services


def post_declaration(client: FlaskClient, game_id: str, number: Any, contract: Any) -> Any:
    token = csrf_from(page(client, "/games/new"))
    return client.post(
        f"/games/{game_id}/deals", data={"csrf_token": token, "number": number, "contract": contract}
    )


def post_tricks(client: FlaskClient, game_id: str, number: int, tricks: dict[str, Any]) -> Any:
    token = csrf_from(page(client, "/games/new"))
    return client.post(
        f"/games/{game_id}/deals/{number}/tricks", data={"csrf_token": token, "number": number, **tricks}
    )


def refused(app: Flask, before: dict[str, Any], response: Any, status: int, message: str) -> Any:
    """The answer has ``status`` and shows ``message``, and nothing in the database moved."""
    html = response.get_data(as_text=True)
    assert response.status_code == status, html[:3000]
    assert message in text_of(html), text_of(html)
    assert db_snapshot(app) == before
    return parse_html(html)


# -- the declaration --------------------------------------------------------------------------


def test_a_contract_the_chooser_already_used_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)  # deal 4: Ann chooses again; she played Hearts in deal 1
    before = db_snapshot(app)
    message = "Ann has already played Hearts (deal 1), so cannot choose it again in deal 4."
    doc = refused(app, before, post_declaration(client, game_id, 4, "hearts"), 422, message)
    # The message sits at the contract buttons, which still offer only what is left.
    fieldset = doc.find("fieldset", cls="contracts")
    assert fieldset.find(id="error-contract").text == message
    offered = [b.attrs["value"] for b in fieldset.find_all("button") if b.attrs.get("name") == "contract"]
    assert offered == ["clubs", "diamonds", "spades", "no-trumps", "mizerka"]


def test_another_players_contract_is_no_obstacle(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)  # Ann played Hearts; Bob may still choose it
    assert post_declaration(client, game_id, 2, "hearts").status_code == 303


@pytest.mark.parametrize(
    ("contract", "message"),
    [
        (
            "trumps",
            "There is no contract called trumps; choose one of clubs, diamonds, hearts, spades, "
            "no-trumps, mizerka.",
        ),
        ("Hearts", "There is no contract called Hearts;"),
        ("", "Choose a contract."),
        (None, "Choose a contract."),
    ],
    ids=["unknown", "wrong-case", "empty", "absent"],
)
def test_an_unknown_contract_is_refused(app: Flask, client: FlaskClient, contract: Any, message: str) -> None:
    game_id = start_mizerka(client)
    before = db_snapshot(app)
    token = csrf_from(page(client, f"/games/{game_id}"))
    data = {"csrf_token": token, "number": 1}
    if contract is not None:
        data["contract"] = contract
    refused(app, before, client.post(f"/games/{game_id}/deals", data=data), 422, message)


@pytest.mark.parametrize("number", ["", "one", None])
def test_a_declaration_without_a_deal_number_is_refused(app: Flask, client: FlaskClient, number: Any) -> None:
    game_id = start_mizerka(client)
    before = db_snapshot(app)
    data = {"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "contract": "hearts"}
    if number is not None:
        data["number"] = number
    refused(app, before, client.post(f"/games/{game_id}/deals", data=data), 422, "The form was incomplete")


def test_a_double_tap_on_a_contract_is_the_success_said_once(app: Flask, client: FlaskClient) -> None:
    """The second post asks for what the game has (deal 1: Hearts): the first one's answer, once."""
    game_id = start_mizerka(client)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    button = form.find("button", value="hearts")
    assert submit(client, form, button).status_code == 303
    before = db_snapshot(app)
    second = submit(client, form, button)
    assert second.status_code == 303
    assert second.headers["Location"].endswith(f"/games/{game_id}")
    assert db_snapshot(app) == before
    html = follow(client, second)
    assert "already recorded" not in html
    assert text_of(html).count("Deal 1: Hearts. Enter the tricks when played.") == 1
    doc = parse_html(html)
    assert doc.first(id="error-number") is None
    assert doc.find("form", cls="tricks-form").attrs["action"] == f"/games/{game_id}/deals/1/tricks"


def test_a_repeated_contract_for_an_older_deal_never_reaches_the_newer_one(
    app: Flask, client: FlaskClient
) -> None:
    """Deal 1's Hearts posted again once deal 2 is next: nothing stored, deal 2 still to choose."""
    game_id = start_mizerka(client)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    button = form.find("button", value="hearts")
    follow(client, submit(client, form, button))
    assert post_tricks(client, game_id, 1, {"tricks-0": 8, "tricks-1": 4, "tricks-2": 1}).status_code == 303
    before = db_snapshot(app)
    again = submit(client, form, button)
    assert again.status_code == 303 and db_snapshot(app) == before
    assert parse_html(follow(client, again)).find("form", cls="declare-form") is not None


@pytest.mark.parametrize("path", ["deals", "deals/1/tricks", "undo", "rematch", "hand-over"])
def test_a_write_address_reloaded_goes_to_the_game_page(client: FlaskClient, path: str) -> None:
    """A refused post draws the page at the post's address; reloading it is the game, not a 405."""
    game_id = start_mizerka(client)
    response = client.get(f"/games/{game_id}/{path}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{game_id}")


def test_a_declaration_that_lost_the_race_shows_the_game_as_it_now_is(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone records deal 1 between this page's read and its write: the page says so.

    The write re-reads the game once it finds it changed and refuses; the page under the
    message is drawn from the game as it now is, not from the read the write began with.
    """
    game_id = start_mizerka(client)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    real_record_deal = services.record_deal

    def other_phone_first(*args: Any, **kwargs: Any) -> Any:
        real_record_deal(game_id, number=1, contract="clubs")  # committed: the race is lost
        return real_record_deal(*args, **kwargs)

    monkeypatch.setattr(services, "record_deal", other_phone_first)
    response = submit(client, form, form.find("button", value="hearts"))
    monkeypatch.undo()
    html = response.get_data(as_text=True)
    assert response.status_code == 409, html[:3000]
    assert "Deal 1 is already recorded; enter its tricks when played." in text_of(html)
    doc = parse_html(html)
    assert doc.find("form", cls="tricks-form").attrs["action"] == f"/games/{game_id}/deals/1/tricks"
    assert "Clubs" in doc.find("h1", id="turn-heading").text


def test_a_stale_declaration_form_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    stale = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    response = submit(client, stale, stale.find("button", value="hearts"))
    follow(client, response)
    assert post_tricks(client, game_id, 1, {"tricks-0": 8, "tricks-1": 4, "tricks-2": 1}).status_code == 303
    before = db_snapshot(app)
    refused(
        app,
        before,
        submit(client, stale, stale.find("button", value="clubs")),
        409,
        "Deal 1 is already recorded; the next deal is 2.",
    )


def test_a_declaration_for_a_deal_far_ahead_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    before = db_snapshot(app)
    refused(app, before, post_declaration(client, game_id, 5, "clubs"), 409, "The next deal is 2, not 5.")


def test_a_new_declaration_while_a_deal_waits_for_tricks_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    assert post_declaration(client, game_id, 1, "hearts").status_code == 303
    before = db_snapshot(app)
    refused(
        app,
        before,
        post_declaration(client, game_id, 2, "clubs"),
        409,
        "Deal 1 has no tricks yet; enter them before the next deal.",
    )


def test_a_deal_after_the_end_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=18)
    before = db_snapshot(app)
    message = "The game is over: all 18 deals are recorded."
    refused(app, before, post_declaration(client, game_id, 19, "clubs"), 409, message)
    refused(app, before, post_declaration(client, game_id, 18, "hearts"), 409, message)


# -- the tricks -------------------------------------------------------------------------------


RANGE = "must be a whole number from 0 to 13"


@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        pytest.param(
            {"tricks-0": 4, "tricks-1": 4, "tricks-2": 4}, "Tricks must add up to 13 (got 12).", id="sum-12"
        ),
        pytest.param(
            {"tricks-0": 8, "tricks-1": 4, "tricks-2": 2}, "Tricks must add up to 13 (got 14).", id="sum-14"
        ),
        pytest.param(
            {"tricks-0": 14, "tricks-1": 0, "tricks-2": 0}, f"Ann's tricks {RANGE} (got 14).", id="over"
        ),
        pytest.param(
            {"tricks-0": 7, "tricks-1": -1, "tricks-2": 7}, f"Bob's tricks {RANGE} (got -1).", id="neg"
        ),
        pytest.param(
            {"tricks-0": 8, "tricks-1": 4, "tricks-2": "one"}, f"Cid's tricks {RANGE} (got 'one').", id="word"
        ),
        pytest.param(
            {"tricks-0": 8, "tricks-1": "4.0", "tricks-2": 1}, f"Bob's tricks {RANGE} (got '4.0').", id="dec"
        ),
        pytest.param({"tricks-0": "", "tricks-1": 4, "tricks-2": 1}, "Enter the tricks for Ann.", id="empty"),
        pytest.param({"tricks-0": 8, "tricks-2": 5}, "Enter the tricks for Bob.", id="absent-middle"),
        pytest.param({"tricks-1": 6, "tricks-2": 7}, "Enter the tricks for Ann.", id="absent-first"),
        pytest.param({}, "Enter the tricks for Ann, Bob, Cid.", id="none"),
    ],
)
def test_bad_tricks_are_refused(
    app: Flask, client: FlaskClient, tricks: dict[str, Any], message: str
) -> None:
    game_id = start_mizerka(client)
    assert post_declaration(client, game_id, 1, "hearts").status_code == 303
    before = db_snapshot(app)
    doc = refused(app, before, post_tricks(client, game_id, 1, tricks), 422, message)
    # The message is at the tricks, the typed counts come back, and the deal still waits.
    form = doc.find("form", cls="tricks-form")
    assert form.find(id="error-tricks").text == message
    for seat in range(3):
        typed = tricks.get(f"tricks-{seat}", "")
        assert form.find("input", name=f"tricks-{seat}").attrs["value"] == str(typed)


def test_other_tricks_posted_after_a_refresh_are_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    assert post_declaration(client, game_id, 1, "hearts").status_code == 303
    tricks = {"tricks-0": 8, "tricks-1": 4, "tricks-2": 1}
    assert post_tricks(client, game_id, 1, tricks).status_code == 303
    before = db_snapshot(app)
    message = "Deal 1's tricks are already recorded; use Correct to change them."
    # With other counts: a refresh never rewrites a recorded deal.
    refused(
        app,
        before,
        post_tricks(client, game_id, 1, {"tricks-0": 9, "tricks-1": 3, "tricks-2": 1}),
        409,
        message,
    )


def test_tricks_for_a_deal_not_yet_declared_are_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    before = db_snapshot(app)
    refused(
        app, before, post_tricks(client, game_id, 2, {"tricks-0": 2, "tricks-1": 6, "tricks-2": 5}), 404, ""
    )


def test_tricks_whose_form_number_disagrees_with_the_address_are_refused(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client)
    assert post_declaration(client, game_id, 1, "hearts").status_code == 303
    before = db_snapshot(app)
    token = csrf_from(page(client, f"/games/{game_id}"))
    data = {"csrf_token": token, "number": 2, "tricks-0": 8, "tricks-1": 4, "tricks-2": 1}
    refused(
        app,
        before,
        client.post(f"/games/{game_id}/deals/1/tricks", data=data),
        422,
        "The form was incomplete",
    )


# -- CSRF and unknown games -------------------------------------------------------------------

CSRF_MESSAGE = "This form had expired or was sent from elsewhere, so nothing was saved."


@pytest.mark.parametrize("token", [None, "not-a-token", "ImFiYyI.ZZZZZZ.wrongsignature"])
def test_posts_without_a_valid_csrf_token_are_refused(
    app: Flask, client: FlaskClient, token: str | None
) -> None:
    game_id = start_mizerka(client, deals=1)
    assert post_declaration(client, game_id, 2, "clubs").status_code == 303
    before = db_snapshot(app)
    base = {} if token is None else {"csrf_token": token}
    posts = [
        ("/games/new", {"players-0": "Dan", "players-1": "Eve", "players-2": "Fay", "first_dealer": "0"}),
        (f"/games/{game_id}/deals", {"number": 3, "contract": "mizerka"}),
        (f"/games/{game_id}/deals/2/tricks", {"number": 2, "tricks-0": 2, "tricks-1": 6, "tricks-2": 5}),
        (f"/games/{game_id}/undo", {"number": 2}),
        (
            f"/games/{game_id}/deals/1/edit",
            {"contract": "clubs", "tricks-0": 8, "tricks-1": 4, "tricks-2": 1},
        ),
        (f"/games/{game_id}/take", {"key": "anything"}),
    ]
    for url, data in posts:
        doc = refused(app, before, client.post(url, data={**base, **data}), 400, CSRF_MESSAGE)
        assert doc.find("h1").text == "Form expired"
        assert doc.find("header", cls="site"), "the error page keeps the site's header"


def test_a_token_from_another_browser_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    other = app.test_client()
    foreign = csrf_from(page(other, "/games/new"))
    before = db_snapshot(app)
    response = client.post(
        f"/games/{game_id}/deals", data={"csrf_token": foreign, "number": 1, "contract": "hearts"}
    )
    refused(app, before, response, 400, CSRF_MESSAGE)


@pytest.mark.parametrize(
    "url", ["/games/no-such-game", "/games/no-such-game/scoresheet", "/games/" + "x" * 30, "/games/a%00b"]
)
def test_an_unknown_game_is_a_404_page_in_the_site_style(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    doc = parse_html(response.get_data(as_text=True))
    assert doc.find("header", cls="site").find("a", cls="brand")
    assert doc.find("section", cls="error-page").find(cls="status-code").text == "404"
    assert "There is nothing at this address." in doc.text
    assert doc.find("a", cls="button", href="/").text == "Back to your games"


def test_posts_to_an_unknown_game_are_404(app: Flask, client: FlaskClient) -> None:
    token = csrf_from(page(client, "/games/new"))
    before = db_snapshot(app)
    for url in ["/games/nope/deals", "/games/nope/deals/1/tricks", "/games/nope/undo", "/games/nope/take"]:
        response = client.post(url, data={"csrf_token": token, "number": 1, "contract": "hearts", "key": "k"})
        refused(app, before, response, 404, "There is nothing at this address.")


def test_unknown_deals_are_404(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    assert client.get(f"/games/{game_id}/deals/2/edit").status_code == 404
    assert client.get(f"/games/{game_id}/deals/0/edit").status_code == 404
    assert client.get(f"/games/{game_id}/deals/-1/edit").status_code == 404


def test_every_successful_post_answers_303_to_the_game_page(client: FlaskClient) -> None:
    """Post/Redirect/Get: new game, declaration, tricks, correction, undo, hand-over."""
    game_id = start_mizerka(client)
    game_url = f"/games/{game_id}"
    token = csrf_from(page(client, game_url))
    deal = MIZERKA_DEALS[0]
    answers = [
        client.post(f"{game_url}/deals", data={"csrf_token": token, "number": 1, "contract": deal.contract}),
        client.post(
            f"{game_url}/deals/1/tricks",
            data={"csrf_token": token, "number": 1, **{f"tricks-{s}": t for s, t in enumerate(deal.tricks)}},
        ),
    ]
    version = (
        parse_html(page(client, game_url))
        .find("form", action=f"{game_url}/undo")
        .find("input", name="version")
    )
    answers.append(
        client.post(
            f"{game_url}/deals/1/edit",
            data={
                "csrf_token": token,
                "version": version.attrs["value"],
                "contract": "hearts",
                "tricks-0": 7,
                "tricks-1": 5,
                "tricks-2": 1,
            },
        )
    )
    undo_form = parse_html(page(client, game_url)).find("form", action=f"{game_url}/undo")
    answers.append(submit(client, undo_form))
    for response in answers:
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        assert response.headers["Location"].split("#")[0] == game_url
