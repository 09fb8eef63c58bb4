"""A hostile client of the JSON API, as a hypothesis state machine.

Each example creates a game and then sends up to ``stateful_step_count``
requests: valid deals and corrections, and every kind of bad one (unknown
contracts, tricks out of range or not adding up, wrong names and types,
wrong deal numbers, bad JSON, unknown fields, wrong keys, stale If-Match).
After every request:

- no answer is a server error, and every answer is what the OpenAPI document says;
- the shadow (``fuzz_shadow``) predicted whether it would be accepted, and it was exactly then;
- a refused request left every row of every table as it was;
- the replayed state is the shadow's, deal by deal, and keeps the rules' invariants:
  zero-sum Mizerka deals, each contract once per chooser, the dealer rotation, at most all deals.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_support import Api
from flask import Flask
from fuzz_shadow import (
    MISERE_DEALS,
    MIZERKA_CONTRACTS,
    NAME_POOL,
    REFUSED,
    UNKNOWN_CONTRACTS,
    Shadow,
    per_player_input,
    wrong_tricks,
)
from fuzz_support import MACHINE_SETTINGS, count, empty_database, snapshot
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from werkzeug.test import TestResponse

pytestmark = pytest.mark.slow

BAD_BODIES = [
    ("application/json", b""),
    ("application/json", b"{"),
    ("application/json", b'{"contract": "hearts",}'),
    ("application/json", b"[]"),
    ("application/json", b"null"),
    ("application/json", b'"hearts"'),
    ("application/json", b'{"contract": "\xff"}'),
    ("application/json", b"[" * 5000),
    ("application/json", b'{"number": ' + b"9" * 5000 + b"}"),
    ("text/plain", b'{"contract": "hearts"}'),
    ("application/x-www-form-urlencoded", b"contract=hearts"),
    (None, b'{"contract": "hearts"}'),
]
UNKNOWN_FIELDS = [{"dealer": "Ann"}, {"Contract": "hearts"}, {"number": 1, "score": 3}, {"": 0}]


class ApiGame(RuleBasedStateMachine):
    """One game driven through /api/v1 by a client that makes every mistake it can."""

    app: Flask

    def __init__(self) -> None:
        super().__init__()
        empty_database(self.app)
        self.api = Api(self.app.test_client())
        self.shadow: Shadow | None = None
        self.game_id = ""
        self.key = ""
        self.etag = "v0"
        count(self.app, "api examples")

    # -- the call and its checks -----------------------------------------------------------------

    def write(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        accept: bool,
        status: int | None = None,
        key: str | None = "",
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> TestResponse:
        """Make a write the shadow expects to be accepted (or not) and check what it did.

        The database is compared only around writes the shadow expects refused: a refusal
        it did not expect fails the step anyway.
        """
        before = None if accept else snapshot(self.app)
        response = self.api.call(
            method,
            f"/games/{self.game_id}{path}",
            body,
            key=self.key if key == "" else key,
            headers=headers,
            **kwargs,
        )
        assert response.status_code < 500, response.get_data(as_text=True)
        if status is not None:
            assert response.status_code == status, (response.status_code, response.get_json())
        count(self.app, "api requests")
        assert (response.status_code < 400) == accept, (method, path, body, response.get_json())
        if response.status_code >= 400:
            assert snapshot(self.app) == before, f"{method} {path} was refused but changed the database"
            count(self.app, "api refused")
        return response

    @property
    def game(self) -> Shadow:
        assert self.shadow is not None
        return self.shadow

    def if_match(self, data: st.DataObject) -> tuple[dict[str, str], bool]:
        """Sometimes an If-Match header: the current ETag, a stale one, or junk; and whether it holds."""
        version = int(self.etag.strip('W/"v'))
        choice = data.draw(st.sampled_from(["none", "none", "current", "stale", "star", "junk"]))
        if choice == "current":
            return {"If-Match": f'"{self.etag}"'}, True
        if choice == "stale":
            return {"If-Match": f'"v{version + data.draw(st.sampled_from([-1, 1, 7]))}"'}, False
        if choice == "star":
            return {"If-Match": "*"}, True
        if choice == "junk":
            return {
                "If-Match": data.draw(st.sampled_from(['"x"', '"v-1"', '"v99999999999999999999"']))
            }, False
        return {}, True

    # -- rules -----------------------------------------------------------------------------------

    @initialize(data=st.data())
    def create(self, data: st.DataObject) -> None:
        ruleset = data.draw(st.sampled_from(["mizerka", "misere"]), label="ruleset")
        size = 3 if ruleset == "mizerka" else 4
        names = data.draw(st.permutations(NAME_POOL).map(lambda names: list(names[:size])), label="players")
        first = data.draw(st.integers(0, size - 1), label="first dealer")
        scoring = data.draw(st.sampled_from(["standard", "variant"])) if ruleset == "misere" else "standard"
        self.shadow = Shadow(ruleset, names, first, scoring)
        # Start anywhere in the game, so that the hostile steps meet the late game and its end too:
        # a game with deals already played comes in through the import (one request, every deal replayed).
        played = data.draw(st.integers(0, self.shadow.deal_count), label="deals played before")
        if played:
            response = self.api.call("POST", "/games/import", self.shadow.play_export(data.draw, played))
            assert response.status_code == 201, response.get_json()
            created = response.get_json()
        else:
            body: dict[str, Any] = {
                "ruleset": ruleset,
                "players": names,
                "first_dealer": names[first].upper(),
            }
            if ruleset == "misere":
                body["options"] = {"scoring": scoring}
            created = self.api.create(body)
        self.game_id, self.key = created["id"], created["edit_key"]

    def valid_deal(self, data: st.DataObject, *, with_tricks: bool | None = None) -> dict[str, Any]:
        if with_tricks is None:
            with_tricks = data.draw(st.sampled_from([True, True, True, False]), label="with tricks")
        send_number = data.draw(st.booleans(), label="send number")
        return self.game.valid_body(data.draw, with_tricks=with_tricks, send_number=send_number)

    def record(self, body: Any, **kwargs: Any) -> None:
        predicted = self.game.predict_record(body)
        self.write("POST", "/deals", body, accept=predicted is not REFUSED, **kwargs)
        if predicted is not REFUSED:
            self.game.deals.append(predicted)

    @precondition(lambda self: not self.game.finished and not self.game.pending)
    @rule(data=st.data())
    def record_valid_deal(self, data: st.DataObject) -> None:
        self.record(self.valid_deal(data), status=201)

    @precondition(lambda self: not self.game.finished and not self.game.pending)
    @rule(data=st.data(), deals=st.integers(1, 3))
    def play_several_deals(self, data: st.DataObject, deals: int) -> None:
        """Several whole deals in a row, so that examples reach the late game and its end."""
        for _ in range(deals):
            if self.game.finished:
                break
            self.record(self.valid_deal(data, with_tricks=True), status=201)

    @rule(data=st.data())
    def record_hostile_deal(self, data: st.DataObject) -> None:
        game = self.game
        number = game.next_number
        body: dict[str, Any] = {}
        number_choice = data.draw(
            st.sampled_from(["absent", "null", "next", "previous", "later", "text", "float", "bool", "huge"])
        )
        numbers = {
            "null": None,
            "next": number,
            "previous": number - 1,
            "later": number + 1,
            "text": str(number),
            "float": float(number),
            "bool": True,
            "huge": 10**30,
        }
        if number_choice in numbers:
            body["number"] = numbers[number_choice]
        contracts = [
            *MIZERKA_CONTRACTS,
            *MISERE_DEALS,
            *UNKNOWN_CONTRACTS,
            None,
            3,
            ["hearts"],
            {"id": "hearts"},
        ]
        contract = data.draw(st.sampled_from(["omit", "omit", *contracts]))
        if contract != "omit":
            body["contract"] = contract
        bids_number = min(number, game.deal_count)
        if data.draw(st.booleans()):
            good_bids = (
                game.valid_bids(data.draw, bids_number) if game.ruleset == "misere" else (1,) * game.size
            )
            body["bids"] = data.draw(st.one_of(st.none(), per_player_input(game, good_bids)))
        tricks_kind = data.draw(st.sampled_from(["omit", "null", "good", "good", "wrong sum"]))
        if tricks_kind == "null":
            body["tricks"] = None
        elif tricks_kind == "good":
            body["tricks"] = data.draw(per_player_input(game, game.valid_tricks(data.draw)))
        elif tricks_kind == "wrong sum":
            body["tricks"] = game.by_name(data.draw(wrong_tricks(game)))
        self.record(body)

    @precondition(lambda self: self.game.pending)
    @rule(data=st.data())
    def complete_pending_deal(self, data: st.DataObject) -> None:
        game = self.game
        number = len(game.deals)
        good = game.valid_tricks(data.draw)
        tricks = data.draw(st.one_of(st.just(game.by_name(good)), per_player_input(game, good)))
        self.correct(number, {"tricks": tricks}, {})

    def correct(self, number: int, body: Any, headers: dict[str, str], version_holds: bool = True) -> None:
        predicted = self.game.predict_correct(number, body)
        accept = predicted is not REFUSED and version_holds
        response = self.write("PUT", f"/deals/{number}", body, accept=accept, headers=headers)
        if accept:
            assert response.status_code == 200
            self.game.deals[number - 1] = predicted

    @precondition(lambda self: bool(self.game.deals))
    @rule(data=st.data())
    def correct_deal(self, data: st.DataObject) -> None:
        game = self.game
        count = len(game.deals)
        number = data.draw(
            st.one_of(st.integers(1, count), st.sampled_from([0, count + 1, 99])), label="number"
        )
        in_game = min(max(number, 1), count)
        body: dict[str, Any] = {}
        if data.draw(st.booleans(), label="change contract"):
            contracts = [
                *MIZERKA_CONTRACTS,
                MISERE_DEALS[min(in_game, 8) - 1],
                None,
                "",
                *UNKNOWN_CONTRACTS[:3],
            ]
            body["contract"] = data.draw(st.sampled_from(contracts))
        if data.draw(st.booleans(), label="change bids"):
            good_bids = game.valid_bids(data.draw, in_game) if game.ruleset == "misere" else (2,) * game.size
            body["bids"] = data.draw(st.one_of(st.none(), per_player_input(game, good_bids)))
        tricks_kind = data.draw(st.sampled_from(["omit", "null", "good", "good", "wrong sum"]))
        if tricks_kind == "null":
            body["tricks"] = None
        elif tricks_kind == "good":
            body["tricks"] = data.draw(per_player_input(game, game.valid_tricks(data.draw)))
        elif tricks_kind == "wrong sum":
            body["tricks"] = game.by_name(data.draw(wrong_tricks(game)))
        headers, holds = self.if_match(data)
        self.correct(number, body, headers, holds)

    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        count = len(self.game.deals)
        number = data.draw(st.sampled_from([count, count, count - 1, 1, count + 1]), label="number")
        headers, holds = self.if_match(data)
        accept = self.game.predict_undo(number) and holds
        if number < 0:
            accept = False
        response = self.write("DELETE", f"/deals/{number}", accept=accept, headers=headers)
        if accept:
            assert response.status_code == 204
            self.game.deals.pop()

    @rule(data=st.data(), bad=st.sampled_from(BAD_BODIES))
    def bad_json(self, data: st.DataObject, bad: tuple[str | None, bytes]) -> None:
        content_type, raw = bad
        path = data.draw(st.sampled_from(["/deals", "/deals/1", f"/deals/{len(self.game.deals) + 3}"]))
        method = "POST" if path == "/deals" else "PUT"
        self.write(method, path, accept=False, status=400, data=raw, content_type=content_type)

    @rule(data=st.data(), fields=st.sampled_from(UNKNOWN_FIELDS))
    def unknown_fields(self, data: st.DataObject, fields: dict[str, Any]) -> None:
        path = data.draw(st.sampled_from(["/deals", "/deals/1"]))
        method = "POST" if path == "/deals" else "PUT"
        body = {"contract": "hearts", **fields}
        self.write(method, path, body, accept=False, status=422)

    @rule(data=st.data())
    def wrong_key(self, data: st.DataObject) -> None:
        key = self.key
        header = data.draw(
            st.sampled_from(
                [
                    None,
                    "",
                    "Bearer",
                    "Bearer nope",
                    f"Basic {key}",
                    f"Bearer {key[:-1]}",
                    f"Bearer {key}x",
                    key,
                ]
            )
        )
        headers = {} if header is None else {"Authorization": header}
        status = 401 if header in (None, "", "Bearer", key) or header.startswith("Basic") else 403
        count = len(self.game.deals)
        method, path, body = data.draw(
            st.sampled_from(
                [
                    ("POST", "/deals", {"contract": "hearts"}),
                    ("PUT", f"/deals/{max(count, 1)}", {"tricks": None}),
                    ("DELETE", f"/deals/{max(count, 1)}", None),
                ]
            )
        )
        self.write(method, path, body, accept=False, status=status, key=None, headers=headers)

    @rule(data=st.data())
    def unknown_game(self, data: st.DataObject) -> None:
        other = data.draw(st.sampled_from(["AAAAAAAAAAA", self.game_id[:-1], self.game_id + "x", "x" * 25]))
        method, path, body = data.draw(
            st.sampled_from(
                [
                    ("GET", "", None),
                    ("GET", "/export", None),
                    ("POST", "/deals", {"contract": "hearts"}),
                    ("PUT", "/deals/1", {"tricks": None}),
                    ("DELETE", "/deals/1", None),
                ]
            )
        )
        before = snapshot(self.app)
        response = self.api.call(method, f"/games/{other}{path}", body, key=self.key)
        assert response.status_code == 404, response.get_json()
        assert snapshot(self.app) == before

    # -- after every step --------------------------------------------------------------------------

    @invariant()
    def replayed_state_is_the_shadow(self) -> None:
        if self.shadow is None:
            return
        count(self.app, "api steps")
        game = self.shadow
        # Not checked against the document here (that is slow): teardown checks the last state.
        response = self.api.client.get(f"/api/v1/games/{self.game_id}")
        assert response.status_code == 200
        self.etag = response.headers["ETag"].strip('"')
        state = response.get_json()
        assert state["players"] == game.players
        assert state["first_dealer"] == game.players[game.first_dealer]
        assert state["status"] == ("finished" if game.finished else "in_progress")
        fields = ("number", "dealer", "chooser", "contract", "bids", "tricks", "scores", "totals")
        assert [{f: deal[f] for f in fields} for deal in state["deals"]] == game.expected_deals()
        assert state["totals"] == game.totals()

        deals = state["deals"]
        assert len(deals) <= game.deal_count
        first = state["players"].index(state["first_dealer"])
        chosen: set[tuple[str, str]] = set()
        running = dict.fromkeys(game.players, 0)
        for k, deal in enumerate(deals, start=1):
            assert deal["dealer"] == game.players[(first + k - 1) % game.size], "dealer rotation"
            if deal["tricks"] is None:
                assert k == len(deals), "only the last deal may be pending"
                continue
            assert sum(deal["tricks"].values()) == 13
            if game.ruleset == "mizerka":
                assert sum(deal["scores"].values()) == 0, f"deal {k} is not zero-sum"
                assert (deal["chooser"], deal["contract"]) not in chosen, "a contract chosen twice"
                chosen.add((deal["chooser"], deal["contract"]))
            running = {name: running[name] + deal["scores"][name] for name in game.players}
            assert deal["totals"] == running
        if state["status"] == "finished":
            assert len(deals) == game.deal_count and state["next_deal"] is None

    def teardown(self) -> None:
        if self.shadow is not None:
            state = self.api.call("GET", f"/games/{self.game_id}").get_json()
            # Nothing lost, whatever state the game was left in: its export imports as the same game.
            export = self.api.call("GET", f"/games/{self.game_id}/export").get_json()
            assert [(d["contract"], d["bids"], d["tricks"]) for d in export["deals"]] == [
                (d["contract"], d["bids"], d["tricks"]) for d in self.shadow.expected_deals()
            ]
            response = self.api.call("POST", "/games/import", export)
            assert response.status_code == 201, response.get_json()
            copy = response.get_json()
            assert {**copy, "id": None, "edit_key": None} == {**state, "id": None, "edit_key": None}
            count(self.app, "api deals at the end", len(self.shadow.deals))
            count(self.app, "api games finished", int(self.shadow.finished))


def test_api_survives_a_hostile_client(app: Flask) -> None:
    from hypothesis.stateful import run_state_machine_as_test

    machine = type("ApiGameOnThisBackend", (ApiGame,), {"app": app})
    run_state_machine_as_test(machine, settings=MACHINE_SETTINGS)
