"""Entering a deal: the server's preview, the error at the one box that is wrong, a double tap,
and the Misère forms (bidding order, "bid", the dealer's forbidden bid)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    follow,
    page,
    parse_html,
    start_game,
    start_mizerka,
    submit,
    text_of,
)

from scorekeeper import services
from scorekeeper.rules import TRICKS_PER_DEAL

MISERE_NAMES = ["Ann", "Bob", "Cid", "Dan"]


def tricks_form(client: FlaskClient, game_id: str) -> Any:
    return parse_html(page(client, f"/games/{game_id}")).find("form", cls="tricks-form")


def preview(client: FlaskClient, game_id: str, number: int, form: str, **fields: Any) -> dict[str, Any]:
    token = csrf_from(page(client, f"/games/{game_id}"))
    response = client.post(
        f"/games/{game_id}/deals/{number}/preview", data={"csrf_token": token, "form": form, **fields}
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


# -- the preview --------------------------------------------------------------------------------


def test_the_preview_scores_the_counts_as_the_save_will(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    second = MIZERKA_DEALS[1]
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    assert submit(client, form, form.find("button", value=second.contract)).status_code == 303
    form = tricks_form(client, game_id)
    assert form.attrs["data-preview"] == f"/games/{game_id}/deals/2/preview"
    before = db_snapshot(app)
    counts = {f"tricks-{seat}": count for seat, count in enumerate(second.tricks)}
    answer = preview(client, game_id, 2, "tricks", **counts)
    assert answer["scores"] == list(second.scores)
    assert answer["totals"] == list(second.totals)
    assert answer["error"] is None
    assert db_snapshot(app) == before, "a preview stores nothing"
    # Saved, the deal has the previewed figures.
    assert submit(client, form, fill=counts).status_code == 303
    with app.app_context():
        assert services.snapshot(game_id).state.deals[1].scores == second.scores


def test_the_preview_says_nothing_until_every_count_is_in(client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    assert (
        submit(
            client,
            parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form"),
            parse_html(page(client, f"/games/{game_id}")).find("button", value="hearts"),
        ).status_code
        == 303
    )
    answer = preview(client, game_id, 1, "tricks", **{"tricks-0": 8, "tricks-1": ""})
    assert answer["scores"] is None and answer["error"] is None


def test_the_preview_puts_a_refusal_at_the_box_that_is_wrong(client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "number": 1, "contract": "hearts"},
    )
    answer = preview(client, game_id, 1, "tricks", **{"tricks-0": 8, "tricks-1": 20, "tricks-2": 1})
    assert answer["scores"] is None
    assert answer["error"]["code"] == "tricks_range"
    assert list(answer["error"]["seats"]) == ["1"]
    assert answer["error"]["seats"]["1"] == "Bob's tricks must be a whole number from 0 to 13 (got 20)."


# -- an error marks only the box that is wrong --------------------------------------------------


def test_a_count_out_of_range_marks_that_box_alone(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "number": 1, "contract": "hearts"},
    )
    form = tricks_form(client, game_id)
    response = submit(client, form, fill={"tricks-0": 8, "tricks-1": 4, "tricks-2": 14})
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True)).find("form", cls="tricks-form")
    marked = [i.attrs["name"] for i in doc.find_all("input") if i.attrs.get("aria-invalid") == "true"]
    assert marked == ["tricks-2"]
    message = doc.find(id="error-tricks")
    assert message.text == "Cid's tricks must be a whole number from 0 to 13 (got 14)."
    assert doc.find("input", name="tricks-2").attrs["aria-describedby"] == "error-tricks"
    # The message sits right under Cid's row, not at the head of the group.
    rows = [node for node in doc.iter() if node.attrs.get("data-seat") or node is message]
    assert rows.index(message) == rows.index(doc.find("div", cls="is-wrong")) + 1


def test_counts_that_do_not_add_up_mark_no_single_box(client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "number": 1, "contract": "hearts"},
    )
    response = submit(
        client, tricks_form(client, game_id), fill={"tricks-0": 8, "tricks-1": 4, "tricks-2": 2}
    )
    doc = parse_html(response.get_data(as_text=True)).find("form", cls="tricks-form")
    assert doc.find(id="error-tricks").text == "Tricks must add up to 13 (got 14)."
    assert not [i for i in doc.find_all("input") if i.attrs.get("aria-invalid")]
    assert doc.find("fieldset").attrs["aria-describedby"] == "error-tricks"


def test_the_hint_never_claims_the_counts_add_up(client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "number": 1, "contract": "hearts"},
    )
    html = page(client, f"/games/{game_id}")
    assert "add up to 13" not in text_of(html)
    assert "13 in all" in tricks_form(client, game_id).find("p", cls="hint").text


# -- a double tap on Save -----------------------------------------------------------------------


def test_save_tapped_twice_stores_once_and_says_recorded_once(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(page(client, f"/games/{game_id}")), "number": 1, "contract": "hearts"},
    )
    client.get(f"/games/{game_id}")  # the declaration's message is read
    form = tricks_form(client, game_id)
    counts = {"tricks-0": 8, "tricks-1": 4, "tricks-2": 1}
    first = submit(client, form, fill=counts)
    assert first.status_code == 303
    before = db_snapshot(app)
    second = submit(client, form, fill=counts)  # the same page's form, posted again
    assert second.status_code == 303
    assert db_snapshot(app) == before
    html = follow(client, second)
    assert "already recorded" not in html
    assert text_of(html).count("Deal 1 recorded.") == 1


def test_a_misere_deal_without_bids_saved_twice_is_recorded_once(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, MISERE_NAMES, first_dealer="0", game="misere")
    with app.app_context():
        for number in range(1, 7):
            services.record_deal(game_id, number=number, bids=[1, 1, 1, 1])
            services.update_deal(game_id, number, tricks=[4, 3, 3, 3])
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    counts = {"tricks-0": 4, "tricks-1": 3, "tricks-2": 3, "tricks-3": 3}
    assert submit(client, form, fill=counts).status_code == 303
    before = db_snapshot(app)
    again = submit(client, form, fill=counts)
    assert again.status_code == 303 and db_snapshot(app) == before
    assert text_of(follow(client, again)).count("Deal 7 recorded.") == 1


# -- Misère -------------------------------------------------------------------------------------


def misere_bidding(client: FlaskClient) -> tuple[str, Any]:
    """A Misère game where Ann deals first: Bob bids first, Ann (the dealer) last."""
    game_id = start_game(client, MISERE_NAMES, first_dealer="0", game="misere")
    return game_id, parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")


def test_the_misere_tricks_form_lists_the_players_in_bidding_order_and_says_bid(client: FlaskClient) -> None:
    game_id, form = misere_bidding(client)
    bids_order = [
        i.attrs["name"] for i in form.find_all("input") if i.attrs.get("name", "").startswith("bids-")
    ]
    assert bids_order == ["bids-1", "bids-2", "bids-3", "bids-0"]
    fill = {"bids-1": 3, "bids-2": 2, "bids-3": 4, "bids-0": 0}
    assert submit(client, form, fill=fill).status_code == 303
    doc = parse_html(page(client, f"/games/{game_id}"))
    tricks = doc.find("form", cls="tricks-form")
    order = [
        i.attrs["name"] for i in tricks.find_all("input") if i.attrs.get("name", "").startswith("tricks-")
    ]
    assert order == ["tricks-1", "tricks-2", "tricks-3", "tricks-0"]
    text = tricks.text
    assert "quota" not in text.lower()
    assert "bid 3" in text and "bid 0" in text
    made = [b.attrs["value"] for b in tricks.find_all("button") if "made-bid" in b.attrs.get("class", "")]
    assert made == ["3", "2", "4", "0"]


def test_the_dealers_forbidden_bid_comes_from_the_engine_once(app: Flask, client: FlaskClient) -> None:
    game_id, form = misere_bidding(client)
    answer = preview(client, game_id, 1, "declare", **{"bids-1": 3, "bids-2": 2, "bids-3": 4})
    with app.app_context():
        game = services.snapshot(game_id)
        forbidden = game.ruleset.dealer_forbidden_bid(game.setup, 1, (0, 3, 2, 4))
    assert forbidden == 4
    assert answer["forbidden"] == {
        "seat": 0,
        "bid": 4,
        "message": "Ann may not bid 4: the bids would add up to 13.",
    }
    # Refused without the script: the message once, at the dealer's box alone.
    response = submit(client, form, fill={"bids-1": 3, "bids-2": 2, "bids-3": 4, "bids-0": 4})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert text_of(html).count("may not bid 4") == 1
    doc = parse_html(html).find("form", cls="declare-form")
    marked = [i.attrs["name"] for i in doc.find_all("input") if i.attrs.get("aria-invalid") == "true"]
    assert marked == ["bids-0"]
    assert doc.find("input", name="bids-0").attrs["data-forbidden"] == "4"


def test_the_eight_deals_are_in_view(client: FlaskClient) -> None:
    game_id, _ = misere_bidding(client)
    schedule = parse_html(page(client, f"/games/{game_id}")).find("ol", cls="schedule")
    items = schedule.find_all("li")
    assert len(items) == 8
    assert items[0].attrs.get("aria-current") == "step"
    assert "Misère" in items[7].text


# -- the fields come from the forms, their limits from the engine --------------------------------


def test_count_inputs_are_the_forms_fields_with_the_engines_bounds(client: FlaskClient) -> None:
    _, form = misere_bidding(client)
    box = form.find("input", name="bids-1")
    assert box.attrs["type"] == "number"
    assert box.attrs["max"] == str(TRICKS_PER_DEAL) and box.attrs["min"] == "0"


# -- swapping two deals' contracts ----------------------------------------------------------------


def test_two_deals_of_one_chooser_swap_contracts_in_one_correction(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=6)  # Bob chose Clubs in deal 2 and Diamonds in deal 5
    doc = parse_html(page(client, f"/games/{game_id}/deals/2/edit"))
    form = doc.find("form", method="post")
    assert form.attrs["data-preview"] == f"/games/{game_id}/deals/2/preview"
    options = [(o.attrs["value"], o.text) for o in form.find("select", name="swap_with").find_all("option")]
    assert options == [("", "No swap"), ("5", "Deal 5: Diamonds")]  # Bob's other deal only
    # Diamonds alone is refused, speaking of the deal being corrected ...
    refused = submit(client, form, fill={"contract": "diamonds"})
    assert refused.status_code == 422
    assert parse_html(refused.get_data(as_text=True)).find(id="error-contract").text == (
        "Deal 2: Bob has already played Diamonds (deal 5)."
    )
    # ... the swap is one correction of both deals, and its preview says what deal 2 will score.
    answer = preview(client, game_id, 2, "correct", **{**_fields(form), "swap_with": "5"})
    assert answer["error"] is None
    response = submit(client, form, fill={"swap_with": "5"})
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    html = follow(client, response)
    assert "Deals 2 and 5 swapped contracts; later totals follow." in text_of(html)
    with app.app_context():
        deals = services.snapshot(game_id).state.deals
        assert (deals[1].contract, deals[4].contract) == ("diamonds", "clubs")
        assert answer["scores"] == list(deals[1].scores or ())
        assert answer["totals"] == list(deals[1].totals or ())


def _fields(form: Any) -> dict[str, str]:
    from helpers import form_fields

    return form_fields(form)


def test_the_tap_targets_are_in_the_page_from_the_start(client: FlaskClient) -> None:
    """Drawn by the server (nothing moves when the script starts); without scripts a style hides them."""
    game_id, form = misere_bidding(client)
    rows = form.find_all("div", cls="count-chips")
    assert [row.attrs["data-for"] for row in rows] == ["bids-1", "bids-2", "bids-3", "bids-0"]
    assert [b.attrs["value"] for b in rows[0].find_all("button")] == [
        str(n) for n in range(TRICKS_PER_DEAL + 1)
    ]
    # One player's open at a time, the first to bid's to begin with (the script moves them on).
    assert ["now" in row.attrs["class"] for row in rows] == [True, False, False, False]
    html = page(client, f"/games/{game_id}")
    noscript = parse_html(html).find("noscript")
    assert noscript.find("link").attrs["href"] == "/static/css/noscript.css"


# -- a chooser's last contract ------------------------------------------------------------------


def test_a_choosers_last_contract_is_chosen_and_its_counts_come_at_once(
    app: Flask, client: FlaskClient
) -> None:
    """Deal 16: Ann has Diamonds left alone; the page asks for the counts, saved with the contract."""
    game_id = start_mizerka(client, deals=15)
    deal = MIZERKA_DEALS[15]
    doc = parse_html(page(client, f"/games/{game_id}"))
    assert doc.first("fieldset", cls="contracts") is None, "no contract to tap"
    assert "Deal 16: Diamonds, chosen by Ann" in doc.find("h1", id="turn-heading").text
    form = doc.find("form", cls="declare-form")
    assert form.find("input", name="contract").attrs["value"] == deal.contract
    assert form.attrs["data-preview"] == f"/games/{game_id}/deals/16/preview"
    # Each seat's quota beside its box, as for a declared deal.
    assert "quota 7" in form.find("fieldset", cls="numbers").text
    counts = {f"tricks-{seat}": count for seat, count in enumerate(deal.tricks)}
    answer = preview(client, game_id, 16, "declare", contract=deal.contract, **counts)
    assert answer["scores"] == list(deal.scores)
    response = submit(client, form, fill=counts)
    assert response.status_code == 303
    with app.app_context():
        stored = services.snapshot(game_id).state.deals[15]
    assert (stored.contract, stored.tricks, stored.totals) == (deal.contract, deal.tricks, deal.totals)
    assert text_of(follow(client, response)).count("Deal 16 recorded.") == 1
    # Tapped twice: the same deal, said once.
    before = db_snapshot(app)
    again = submit(client, form, fill=counts)
    assert again.status_code == 303 and db_snapshot(app) == before
    assert "already recorded" not in follow(client, again)


def test_the_last_deal_by_its_last_contract_ends_the_game(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=17)
    deal = MIZERKA_DEALS[17]
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    counts = {f"tricks-{seat}": count for seat, count in enumerate(deal.tricks)}
    html = follow(client, submit(client, form, fill=counts))
    assert "That was the last deal: the game is over." in text_of(html)
    with app.app_context():
        assert services.snapshot(game_id).state.finished


def test_a_last_contracts_counts_that_do_not_add_up_are_refused_and_kept(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=15)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    before = db_snapshot(app)
    response = submit(client, form, fill={"tricks-0": 5, "tricks-1": 5, "tricks-2": 5})
    assert response.status_code == 422
    assert db_snapshot(app) == before
    again = parse_html(response.get_data(as_text=True)).find("form", cls="declare-form")
    assert again.find("input", name="tricks-0").attrs["value"] == "5"
    assert again.find("input", name="contract").attrs["value"] == "diamonds"


def test_a_bidding_deals_tricks_offer_missed_beside_each_player(client: FlaskClient) -> None:
    """One tap on the player who missed: the others' bids and the rest (the script fills the boxes)."""
    game_id, form = misere_bidding(client)
    assert submit(client, form, fill={"bids-1": 3, "bids-2": 2, "bids-3": 4, "bids-0": 0}).status_code == 303
    tricks = parse_html(page(client, f"/games/{game_id}")).find("form", cls="tricks-form")
    missed = tricks.find_all("button", cls="missed")
    assert [b.attrs["data-target"] for b in missed] == ["tricks-1", "tricks-2", "tricks-3", "tricks-0"]
    # A mark on the player's line; the whole phrase for a screen reader (and under a mouse).
    assert [b.attrs["aria-label"] for b in missed] == [
        f"{name} missed" for name in ("Bob", "Cid", "Dan", "Ann")
    ]
    assert [b.text.strip() for b in missed] == ["✗"] * 4
    # Each beside its player's "made the bid", which carries the bid the script reads, on the line
    # of that player's box (no line of buttons under each player).
    for button in missed:
        row = next(p for p in tricks.find_all("p", cls="made-bid-row") if button in p.children)
        made = row.find("button", cls="made-bid")
        assert made.attrs["data-target"] == button.attrs["data-target"]
        assert made.attrs["aria-label"].endswith(f"made the bid ({made.attrs['value']})")
        line = next(div for div in tricks.find_all("div", cls="number-row") if row in div.children)
        assert line.find("input").attrs["id"] == button.attrs["data-target"]


def test_a_live_update_between_a_save_and_its_redirect_leaves_the_message_to_the_page(
    client: FlaskClient,
) -> None:
    """The page's poll (``X-Scorekeeper-Poll``) draws no flashed message and takes none: the post's
    message and its undo near the top are on the page the redirect opens."""
    from helpers import declare, enter_tricks

    game_id = start_mizerka(client, deals=0)
    declare(client, game_id, 1, MIZERKA_DEALS[0].contract)
    saved = enter_tricks(client, game_id, 1, list(MIZERKA_DEALS[0].tricks))
    assert saved.status_code == 303
    polled = client.get(f"/games/{game_id}", headers={"X-Scorekeeper-Poll": "1"})
    assert polled.status_code == 200
    assert parse_html(polled.get_data(as_text=True)).first(cls="flash") is None
    opened = parse_html(page(client, f"/games/{game_id}"))
    assert [flash.text for flash in opened.find_all(cls="flash")] == ["Deal 1 recorded."]
    assert opened.first(cls="undo-now") is not None
