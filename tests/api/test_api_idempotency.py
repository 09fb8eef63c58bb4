"""Idempotent deal writes (API.md, "Preconditions and idempotent writes"), through HTTP.

A deal write with an ``Idempotency-Key`` is applied once for the life of the game: the same key
again answers the first answer (status, body, ``Idempotent-Replayed: true``) and changes nothing,
even after the game moved on (the deal undone on another phone); the same key with another
request is ``422 idempotency_key_reused``.  Only changes made keep their key.  The game page's
own routes (``/games/<id>/sync/``) take the key as the API's do.  ``POST .../deals`` honours
``If-Match`` as PUT, PATCH and DELETE do.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from api_support import Api
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.services import Once, Replayed
from tests.helpers import MIZERKA_DEALS, MIZERKA_NAMES, db_snapshot, start_mizerka
from tests.stats.checks import assert_figures_match

GAME = {"ruleset": "mizerka", "players": MIZERKA_NAMES, "first_dealer": "Cid"}
KEY = "deal-5_offline-7f3a"


def deal_body(number: int, *, tricks: bool = True) -> dict[str, Any]:
    """Deal ``number`` of the hand-scored game (tests.helpers), as the API records it."""
    deal = MIZERKA_DEALS[number - 1]
    body: dict[str, Any] = {"number": number, "contract": deal.contract}
    if tricks:
        body["tricks"] = dict(zip(MIZERKA_NAMES, deal.tricks, strict=True))
    return body


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


def game_with(api: Api, deals: int) -> tuple[str, str]:
    """A game of the hand-scored deals, its first ``deals`` recorded; its id and edit key."""
    created = api.create(GAME)
    game_id, key = created["id"], created["edit_key"]
    for number in range(1, deals + 1):
        api.record(game_id, key, deal_body(number))
    return game_id, key


def keyed(
    api: Api, method: str, path: str, body: Any = None, *, key: str | None, idem: str = KEY, **headers: str
) -> Any:
    return api.call(method, path, body, key=key, headers={"Idempotency-Key": idem, **headers})


def etag(api: Api, game_id: str) -> str:
    return str(api.call("GET", f"/games/{game_id}").headers["ETag"])


@contextmanager
def nothing_changes(app: Flask, api: Api, game_id: str) -> Iterator[None]:
    """Every row of every table, and the game's state and ETag, are the same after the block."""
    rows = db_snapshot(app)
    before = api.call("GET", f"/games/{game_id}")
    yield
    after = api.call("GET", f"/games/{game_id}")
    assert after.get_json() == before.get_json()
    assert after.headers["ETag"] == before.headers["ETag"]
    assert db_snapshot(app) == rows


def assert_replay_of(first: Any, again: Any) -> None:
    """``again`` is ``first``'s answer given again: same status and body, marked as a replay."""
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.status_code == first.status_code
    assert again.get_data() == first.get_data()


def deal_numbers(api: Api, game_id: str) -> list[int]:
    return [deal["number"] for deal in api.state(game_id)["deals"]]


# -- the same key again -------------------------------------------------------------------------------


def test_a_repeated_key_answers_the_first_answer_and_changes_nothing(app: Flask, api: Api) -> None:
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201, first.get_json()
    assert first.get_json()["number"] == 5
    with nothing_changes(app, api, game_id):
        again = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
        # The same change with its fields in another order is the same request.
        reordered = dict(reversed(list(deal_body(5).items())))
        third = keyed(api, "POST", f"/games/{game_id}/deals", reordered, key=key)
    assert_replay_of(first, again)
    assert_replay_of(first, third)
    assert deal_numbers(api, game_id) == [1, 2, 3, 4, 5]


def test_a_deal_undone_elsewhere_is_not_recorded_again_by_its_repeated_key(app: Flask, api: Api) -> None:
    """Phone A records deal 5 and loses the answer; phone B undoes deal 5; A sends it again."""
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201, first.get_json()
    assert api.call("DELETE", f"/games/{game_id}/deals/5", key=key).status_code == 204
    with nothing_changes(app, api, game_id):
        again = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert_replay_of(first, again)
    assert deal_numbers(api, game_id) == [1, 2, 3, 4]
    # Phone B's next deal 5 is its own: another key, recorded.
    other = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key, idem="phone-b-1")
    assert other.status_code == 201 and "Idempotent-Replayed" not in other.headers


def test_the_replay_comes_before_if_match_and_the_rules(app: Flask, api: Api) -> None:
    game_id, key = game_with(api, 4)
    tag = etag(api, game_id)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key, **{"If-Match": tag})
    assert first.status_code == 201, first.get_json()
    with nothing_changes(app, api, game_id):
        # The tag is stale now and deal 5 is no longer the next: the answer is still the first.
        again = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key, **{"If-Match": tag})
    assert_replay_of(first, again)


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("PUT", "/deals/2", {"tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}, 200),
        ("PATCH", "/deals", {"deals": [{"number": 1, "tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}]}, 200),
        ("DELETE", "/deals/4", None, 204),
    ],
)
def test_corrections_and_undo_replay_their_first_answer(
    app: Flask, api: Api, method: str, path: str, body: Any, status: int
) -> None:
    game_id, key = game_with(api, 4)
    url = f"/games/{game_id}{path}"
    first = keyed(api, method, url, body, key=key)
    assert first.status_code == status, first.get_json()
    # The game moves on: deal 4 is recorded (again) and deal 2 corrected otherwise.
    if method == "DELETE":
        api.record(game_id, key, deal_body(4))
    api.correct(game_id, key, 2, {"tricks": {"Ann": 0, "Bob": 13, "Cid": 0}})
    state = api.state(game_id)
    with nothing_changes(app, api, game_id):
        again = keyed(api, method, url, body, key=key)
    assert_replay_of(first, again)
    assert api.state(game_id) == state
    assert deal_numbers(api, game_id) == [1, 2, 3, 4]


# -- the same key for another request -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/deals", {**deal_body(5), "tricks": {"Ann": 1, "Bob": 8, "Cid": 4}}),  # another body
        ("PATCH", "/deals", {"deals": [{"number": 5, "contract": "diamonds"}]}),  # another method
        ("PUT", "/deals/5", {"contract": "diamonds"}),  # another method and path
        ("DELETE", "/deals/5", None),
    ],
)
def test_a_key_reused_for_another_request_is_refused(
    app: Flask, api: Api, method: str, path: str, body: Any
) -> None:
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201
    with nothing_changes(app, api, game_id):
        error = api.refused(
            method,
            f"/games/{game_id}{path}",
            body,
            key=key,
            headers={"Idempotency-Key": KEY},
            status=422,
            code="idempotency_key_reused",
            field="Idempotency-Key",
        )
    assert "Idempotency-Key" in error["message"]


def test_a_key_reused_on_another_deal_is_refused(app: Flask, api: Api) -> None:
    game_id, key = game_with(api, 4)
    change = {"tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}
    assert keyed(api, "PUT", f"/games/{game_id}/deals/2", change, key=key).status_code == 200
    with nothing_changes(app, api, game_id):
        api.refused(
            "PUT",
            f"/games/{game_id}/deals/3",
            change,
            key=key,
            headers={"Idempotency-Key": KEY},
            status=422,
            code="idempotency_key_reused",
        )


def test_keys_are_per_game(api: Api) -> None:
    game_a, key_a = game_with(api, 4)
    game_b, key_b = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_a}/deals", deal_body(5), key=key_a)
    other = keyed(api, "POST", f"/games/{game_b}/deals", deal_body(5), key=key_b)
    assert first.status_code == other.status_code == 201
    assert "Idempotent-Replayed" not in other.headers
    assert deal_numbers(api, game_b) == [1, 2, 3, 4, 5]
    assert_replay_of(first, keyed(api, "POST", f"/games/{game_a}/deals", deal_body(5), key=key_a))
    # Keys are compared exactly: another case is another key.
    undo = keyed(api, "DELETE", f"/games/{game_a}/deals/5", key=key_a, idem=KEY.upper())
    assert undo.status_code == 204 and "Idempotent-Replayed" not in undo.headers


# -- what is refused, and what is not kept ------------------------------------------------------------


@pytest.mark.parametrize("bad", ["", "a" * 65, "deal 5", "deal/5", "clé", "a.b", "x,y"])
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/deals", deal_body(5)),
        ("PUT", "/deals/4", {"contract": "mizerka"}),
        ("PATCH", "/deals", {"deals": [{"number": 4, "contract": "mizerka"}]}),
        ("DELETE", "/deals/4", None),
    ],
)
def test_a_malformed_key_is_refused(
    app: Flask, api: Api, bad: str, method: str, path: str, body: Any
) -> None:
    game_id, key = game_with(api, 4)
    with nothing_changes(app, api, game_id):
        api.refused(
            method,
            f"/games/{game_id}{path}",
            body,
            key=key,
            headers={"Idempotency-Key": bad},
            status=400,
            code="bad_idempotency_key",
            field="Idempotency-Key",
        )


def test_the_longest_and_shortest_keys_are_taken(api: Api) -> None:
    game_id, key = game_with(api, 4)
    for number, idem in ((4, "A" * 64), (3, "-")):
        url = f"/games/{game_id}/deals/{number}"
        first = keyed(api, "DELETE", url, key=key, idem=idem)
        assert first.status_code == 204
        assert_replay_of(first, keyed(api, "DELETE", url, key=key, idem=idem))
    assert deal_numbers(api, game_id) == [1, 2]


def test_a_refused_write_keeps_no_key(app: Flask, api: Api) -> None:
    """A refusal changes nothing: the same key may come again and is judged afresh."""
    game_id, key = game_with(api, 4)
    url = f"/games/{game_id}/deals"
    tag = etag(api, game_id)
    api.correct(game_id, key, 4, {"tricks": {"Ann": 13, "Bob": 0, "Cid": 0}})
    with nothing_changes(app, api, game_id):
        stale = keyed(api, "POST", url, deal_body(5), key=key, **{"If-Match": tag})
        assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale"
        wrong = keyed(api, "POST", url, deal_body(5), key="not-the-key")
        assert wrong.status_code == 403
        bad = keyed(api, "POST", url, {**deal_body(5), "tricks": {"Ann": 1, "Bob": 1, "Cid": 1}}, key=key)
        assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "tricks_sum"
        late = keyed(api, "POST", url, deal_body(6), key=key)
        assert late.status_code == 409 and late.get_json()["error"]["code"] == "wrong_deal_number"
        assert "Idempotent-Replayed" not in late.headers
    made = keyed(api, "POST", url, deal_body(5), key=key)
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers
    assert deal_numbers(api, game_id) == [1, 2, 3, 4, 5]


def test_a_dry_run_keeps_no_key(app: Flask, api: Api) -> None:
    game_id, key = game_with(api, 4)
    url = f"/games/{game_id}/deals"
    with nothing_changes(app, api, game_id):
        preview = keyed(api, "POST", url + "?dry_run=true", deal_body(5), key=key)
        assert preview.status_code == 200 and "Idempotent-Replayed" not in preview.headers
    first = keyed(api, "POST", url, deal_body(5), key=key)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    # A malformed key is refused in a dry run as the real call would refuse it.
    bad = keyed(api, "POST", url + "?dry_run=true", deal_body(6), key=key, idem="not ok")
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad_idempotency_key"


@pytest.mark.parametrize(
    ("method", "path", "body", "other"),
    [
        ("POST", "/deals", deal_body(5), deal_body(6)),
        (
            "PUT",
            "/deals/2",
            {"tricks": {"Ann": 13, "Bob": 0, "Cid": 0}},
            {"tricks": {"Ann": 0, "Bob": 13, "Cid": 0}},
        ),
        (
            "PATCH",
            "/deals",
            {"deals": [{"number": 1, "tricks": {"Ann": 13, "Bob": 0, "Cid": 0}}]},
            {"deals": [{"number": 1, "tricks": {"Ann": 0, "Bob": 13, "Cid": 0}}]},
        ),
    ],
)
def test_a_dry_run_with_a_used_key_answers_as_the_real_call(
    app: Flask, api: Api, method: str, path: str, body: dict[str, Any], other: dict[str, Any]
) -> None:
    """The key already applied: the same request is the first answer again, another is refused,
    with ``?dry_run=true`` as without it (issue 41, point 12); nothing changes either way."""
    game_id, key = game_with(api, 4)
    url = f"/games/{game_id}{path}"
    first = keyed(api, method, url, body, key=key)
    assert first.status_code in (200, 201), first.get_json()
    with nothing_changes(app, api, game_id):
        answers = {query: keyed(api, method, url + query, body, key=key) for query in ("", "?dry_run=true")}
        refusals = {query: keyed(api, method, url + query, other, key=key) for query in ("", "?dry_run=true")}
    for query, again in answers.items():
        assert again.status_code == first.status_code, query
        assert again.headers.get("Idempotent-Replayed") == "true", query
        assert again.get_data() == first.get_data(), query
    for query, refused in refusals.items():
        assert refused.status_code == 422, query
        assert refused.get_json()["error"]["code"] == "idempotency_key_reused", query


@pytest.mark.parametrize(("auth", "status", "code"), [(None, 401, "auth_required"), ("nope", 403, "bad_key")])
def test_a_kept_answer_is_given_only_with_the_edit_key(
    app: Flask, api: Api, auth: str | None, status: int, code: str
) -> None:
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201
    with nothing_changes(app, api, game_id):
        for method, path, body in (
            ("POST", "/deals", deal_body(5)),
            ("POST", "/deals", deal_body(6)),
            ("DELETE", "/deals/5", None),
        ):
            answer = keyed(api, method, f"/games/{game_id}{path}", body, key=auth)
            assert answer.status_code == status, answer.get_json()
            assert answer.get_json()["error"]["code"] == code
            assert "Idempotent-Replayed" not in answer.headers
            assert b'"scores"' not in answer.get_data()
        assert_replay_of(first, keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key))


def test_the_key_goes_with_the_change_and_the_game(app: Flask, api: Api) -> None:
    """One row per key made, in the game's name; deleting the game deletes its keys."""
    game_id, key = game_with(api, 4)
    assert keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key).status_code == 201
    assert keyed(api, "DELETE", f"/games/{game_id}/deals/5", key=key, idem="undo-5").status_code == 204
    rows = db_snapshot(app)["idempotency_keys"]
    assert sorted((row[0], row[1], row[3]) for row in rows) == [(game_id, KEY, 201), (game_id, "undo-5", 204)]
    with app.app_context():
        db.session.execute(db.text("DELETE FROM games WHERE id = :id"), {"id": game_id})
        db.session.commit()
        db.session.remove()
    assert db_snapshot(app)["idempotency_keys"] == []


def test_a_key_keeps_its_answer_in_little_room(app: Flask, api: Api) -> None:
    """300 PATCHes that change nothing, each with a new key (issue 41, point 6): every key is
    kept, each in well under a kilobyte though its answer is the whole state of a finished game
    (kilobytes of JSON), and each key still gets its first answer again, byte for byte."""
    game_id, key = game_with(api, len(MIZERKA_DEALS))
    url = f"/games/{game_id}/deals"
    same = {"deals": [{"number": 1, "contract": MIZERKA_DEALS[0].contract}]}
    firsts = [keyed(api, "PATCH", url, same, key=key, idem=f"no-op-{n}") for n in range(300)]
    assert {first.status_code for first in firsts} == {200}
    assert len(firsts[0].get_data()) > 5000
    rows = db_snapshot(app)["idempotency_keys"]
    assert len(rows) == 300
    stored = [sum(len(value) for value in row if isinstance(value, (str, bytes))) for row in rows]
    assert max(stored) < 1024, max(stored)
    for n in (0, 150, 299):
        assert_replay_of(firsts[n], keyed(api, "PATCH", url, same, key=key, idem=f"no-op-{n}"))


# -- If-Match on a new deal (issue 31, point 7) -------------------------------------------------------


@pytest.mark.parametrize("off_by", [-1, 1])
def test_a_new_deal_with_another_version_in_if_match_is_stale(app: Flask, api: Api, off_by: int) -> None:
    game_id, key = game_with(api, 4)
    version = int(etag(api, game_id).strip('"').removeprefix("v"))
    with nothing_changes(app, api, game_id):
        api.refused(
            "POST",
            f"/games/{game_id}/deals",
            deal_body(5),
            key=key,
            headers={"If-Match": f'"v{version + off_by}"'},
            status=409,
            code="stale",
        )
        api.refused(
            "POST",
            f"/games/{game_id}/deals",
            deal_body(5),
            key=key,
            headers={"If-Match": f'W/"v{version}"'},  # a weak tag never matches
            status=409,
            code="stale",
        )
    answer = api.call(
        "POST", f"/games/{game_id}/deals", deal_body(5), key=key, headers={"If-Match": f'"v{version}"'}
    )
    assert answer.status_code == 201
    answer = api.call("POST", f"/games/{game_id}/deals", deal_body(6), key=key, headers={"If-Match": "*"})
    assert answer.status_code == 201
    assert deal_numbers(api, game_id) == [1, 2, 3, 4, 5, 6]


# -- the game page's own routes -----------------------------------------------------------------------


def sync(client: FlaskClient, method: str, path: str, body: Any = None, **headers: str) -> Any:
    return client.open(path, method=method, json=body, headers=headers)


def test_the_pages_routes_take_the_key_as_the_api_does(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=4)
    url = f"/games/{game_id}/sync/deals"
    first = sync(
        client, "POST", url, deal_body(5), **{"Idempotency-Key": KEY, "Sec-Fetch-Site": "same-origin"}
    )
    assert first.status_code == 201, first.get_json()
    assert sync(client, "DELETE", f"{url}/5").status_code == 204  # another phone's undo
    with nothing_changes(app, Api(client), game_id):
        again = sync(client, "POST", url, deal_body(5), **{"Idempotency-Key": KEY})
        reused = sync(client, "PUT", f"{url}/4", {"contract": "mizerka"}, **{"Idempotency-Key": KEY})
        bad = sync(client, "DELETE", f"{url}/4", **{"Idempotency-Key": "no good"})
        stranger = sync(app.test_client(), "POST", url, deal_body(5), **{"Idempotency-Key": KEY})
        # The API's route and the page's are the same request: the key names it on either.
        key = client.get_cookie(f"sk_edit_{game_id}", path=f"/games/{game_id}")
        through_api = (
            keyed(Api(app.test_client()), "POST", f"/games/{game_id}/deals", deal_body(5), key=key.value)
            if key is not None
            else None
        )
    assert_replay_of(first, again)
    assert reused.status_code == 422 and reused.get_json()["error"]["code"] == "idempotency_key_reused"
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad_idempotency_key"
    assert stranger.status_code == 401 and "Idempotent-Replayed" not in stranger.headers
    if through_api is not None:
        assert_replay_of(first, through_api)
    undo = sync(client, "DELETE", f"{url}/4", **{"Idempotency-Key": "undo-4"})
    assert undo.status_code == 204
    assert_replay_of(undo, sync(client, "DELETE", f"{url}/4", **{"Idempotency-Key": "undo-4"}))
    with app.app_context():
        assert len(services.snapshot(game_id).state.deals) == 3


@pytest.mark.parametrize("off_by", [-1, 1])
def test_a_new_deal_through_the_page_with_another_version_is_stale(
    app: Flask, client: FlaskClient, off_by: int
) -> None:
    game_id = start_mizerka(client, deals=4)
    with app.app_context():
        version = services.snapshot(game_id).version
    url = f"/games/{game_id}/sync/deals"
    stale = sync(client, "POST", url, deal_body(5), **{"If-Match": f'"v{version + off_by}"'})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale"
    assert sync(client, "POST", url, deal_body(5), **{"If-Match": f'"v{version}"'}).status_code == 201
    with app.app_context():
        assert len(services.snapshot(game_id).state.deals) == 5


# -- two requests with one key at the same moment -----------------------------------------------------


def answer_of_record(written: Any) -> tuple[int, str]:
    from scorekeeper.api.routes import json_body
    from scorekeeper.api.serialize import deal_body as serialised

    return 201, json_body(serialised(written.setup, written.deal))


def raced_once(game_id: str, body: dict[str, Any]) -> Once:
    """The key of the second tab's request, as its view made it before the first tab's committed."""
    raw = json.dumps(body).encode()
    return Once(game_id, KEY, services.fingerprint("POST", "deals", raw), answer_of_record)


@pytest.mark.parametrize("if_match", [False, True])
def test_two_tabs_sending_one_key_apply_it_once(app: Flask, api: Api, if_match: bool) -> None:
    """Tab 2 had its key checked before tab 1's write committed: once it holds the game, it finds
    the key tab 1 kept (before If-Match is judged) and answers tab 1's answer."""
    game_id, key = game_with(api, 4)
    with app.app_context():
        seen = services.authorised_game(game_id, key)  # tab 2 has read the game
        db.session.remove()
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)  # tab 1
    assert first.status_code == 201
    rows = db_snapshot(app)
    with app.app_context():
        with pytest.raises(Replayed) as replayed:
            services.record_deal(
                game_id,
                number=5,
                contract=MIZERKA_DEALS[4].contract,
                tricks=list(MIZERKA_DEALS[4].tricks),
                expected_version=seen.version if if_match else None,
                key_hash=seen.edit_key_hash,
                once=raced_once(game_id, deal_body(5)),
            )
        db.session.remove()
    assert (replayed.value.status, replayed.value.body) == (201, first.get_data(as_text=True))
    assert db_snapshot(app) == rows
    assert deal_numbers(api, game_id) == [1, 2, 3, 4, 5]


def test_a_key_the_database_refuses_twice_is_a_replay(app: Flask, api: Api) -> None:
    """Deal 6 sent with deal 5's key and body fingerprint: the key's answer, not a new deal."""
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201
    rows = db_snapshot(app)
    # Deal 6 with deal 5's key: the write would record deal 6 if the key's row went in.
    with app.app_context():
        with pytest.raises(Replayed) as replayed:
            services.record_deal(
                game_id,
                contract=MIZERKA_DEALS[5].contract,
                tricks=list(MIZERKA_DEALS[5].tricks),
                once=raced_once(game_id, deal_body(5)),
            )
        db.session.remove()
    assert (replayed.value.status, replayed.value.body) == (201, first.get_data(as_text=True))
    assert db_snapshot(app) == rows
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()


def test_a_kept_answer_is_never_given_for_an_edit_key_the_game_no_longer_has(app: Flask, api: Api) -> None:
    """This worker keeps the game as its last write left it (with the key hash of then); the key's
    look-up reads the game's row too, so an old edit key gets no kept answer."""
    game_id, key = game_with(api, 4)
    first = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
    assert first.status_code == 201
    with app.app_context():
        db.session.execute(
            db.text("UPDATE games SET edit_key_hash = :hash WHERE id = :id"),
            {"hash": services.hash_key("the-new-key"), "id": game_id},
        )
        db.session.commit()
        db.session.remove()
    with nothing_changes(app, api, game_id):
        old = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key=key)
        assert old.status_code == 403 and old.get_json()["error"]["code"] == "bad_key"
        assert "Idempotent-Replayed" not in old.headers
        again = keyed(api, "POST", f"/games/{game_id}/deals", deal_body(5), key="the-new-key")
    assert_replay_of(first, again)


def test_the_page_corrects_several_deals_at_once_as_the_api_does(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=4)
    url = f"/games/{game_id}/sync/deals"
    swap = {"deals": [{"number": 3, "contract": "clubs"}, {"number": 2, "contract": "mizerka"}]}
    headers = {"Idempotency-Key": "swap-2-3", "Sec-Fetch-Site": "same-origin"}
    first = sync(client, "PATCH", url, swap, **headers)
    assert first.status_code == 200, first.get_json()
    assert [deal["contract"] for deal in first.get_json()["deals"][1:3]] == ["mizerka", "clubs"]
    back = {"deals": [{"number": 3, "contract": "mizerka"}, {"number": 2, "contract": "clubs"}]}
    assert sync(client, "PATCH", url, back).status_code == 200  # another phone swaps them back
    with nothing_changes(app, Api(client), game_id):
        assert_replay_of(first, sync(client, "PATCH", url, swap, **headers))
        assert sync(app.test_client(), "PATCH", url, swap, **headers).status_code == 401
    with app.app_context():
        assert [deal.contract for deal in services.snapshot(game_id).state.deals[1:3]] == ["clubs", "mizerka"]
