"""A hostile scorer at the web forms, as a hypothesis state machine (CSRF tokens included).

Each example starts a game through the new-game form, then posts the game
page's forms with whatever a thumb, a stale tab or a crafted request can put
in them: declarations with used or unknown contracts and wrong deal numbers,
bids and tricks typed as text ("4", " 5 ", "+3", "٣", "x", "4.0", "", "-1",
"14"), undo and correct with current, stale or junk versions, posts without
a CSRF token, and posts from a phone without the edit key.  After every post:

- no answer is a server error, and the page it leads to renders;
- the shadow (``fuzz_shadow``) predicted whether it would be accepted (303), and it was exactly then;
- a refusal left every row of every table as it was;
- the replayed state (through the JSON API) is the shadow's, deal by deal.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from fuzz_shadow import (
    FORM_NUMBERS,
    MIZERKA_CONTRACTS,
    NAME_POOL,
    REFUSED,
    UNKNOWN_CONTRACTS,
    Shadow,
    form_number,
)
from fuzz_support import MACHINE_SETTINGS, count, empty_database, snapshot
from helpers import csrf_from, page, start_game
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

pytestmark = pytest.mark.slow

#: A page is dearer than a JSON answer (templates, the share panel): fewer examples than the API machine.
WEB_SETTINGS = settings(MACHINE_SETTINGS, max_examples=20)


def parse_int(text: str | None) -> tuple[bool, int | None]:
    """What a hidden IntegerField makes of ``text``: (valid?, value); absent is valid and None."""
    if text is None:
        return True, None
    try:
        return True, int(text)
    except ValueError:
        return False, None


class WebGame(RuleBasedStateMachine):
    """One game driven through its pages by a scorer who gets everything wrong sometimes."""

    app: Flask

    def __init__(self) -> None:
        super().__init__()
        empty_database(self.app)
        self.client = self.app.test_client()
        self.shadow: Shadow | None = None
        self.game_id = ""
        self.token = ""
        self.version = 0
        self.page_shown = False
        """Whether the last answer was the game's page (a refusal re-renders it): no need to GET it."""
        count(self.app, "web examples")

    @property
    def game(self) -> Shadow:
        assert self.shadow is not None
        return self.shadow

    # -- the post and its checks -----------------------------------------------------------------------

    def post(self, path: str, data: dict[str, Any], *, accept: bool, client: Any = None) -> int:
        """Post a form the shadow expects to be accepted (or not); check the answer and the database."""
        before = None if accept else snapshot(self.app)  # an unexpected refusal fails the step anyway
        response = (client or self.client).post(f"/games/{self.game_id}{path}", data=data)
        status = response.status_code
        count(self.app, "web requests")
        assert status < 500, response.get_data(as_text=True)[:2000]
        assert (status == 303) == accept, (path, data, status, response.get_data(as_text=True)[:3000])
        shown = path in ("/deals", "/undo") or path.endswith("/tricks")  # these refusals re-render it
        self.page_shown = status in (409, 422) and shown
        if status >= 400:
            count(self.app, "web refused")
            assert snapshot(self.app) == before, (
                f"POST {path} was refused ({status}) but changed the database"
            )
        assert status in (303, 400, 403, 404, 409, 422), status
        return status

    def texts(self, data: st.DataObject, good: tuple[int, ...]) -> list[str]:
        """Per-player text boxes: ``good`` as typed, sometimes with one box spoiled or left blank."""
        texts = [data.draw(st.sampled_from([str(v), f" {v} ", f"+{v}", f"0{v}"])) for v in good]
        if data.draw(st.integers(0, 3)) == 0:
            texts[data.draw(st.integers(0, len(texts) - 1))] = data.draw(st.sampled_from(FORM_NUMBERS))
        return texts

    def per_player(self, texts: list[str]) -> dict[str, Any] | None:
        """What the form layer hands the service (None when a box is blank: refused before it)."""
        values = [form_number(text) for text in texts]
        if any(value is None for value in values):
            return None
        return dict(zip(self.game.players, values, strict=True))

    def number_text(self, data: st.DataObject, number: int) -> str | None:
        return data.draw(
            st.sampled_from(
                [str(number)] * 4 + [None, "", "x", str(number - 1), str(number + 1), f" {number} ", "2.0"]
            ),
            label="number field",
        )

    # -- rules -------------------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        ruleset = data.draw(st.sampled_from(["mizerka", "misere"]), label="ruleset")
        size = 3 if ruleset == "mizerka" else 4
        names = data.draw(st.permutations(NAME_POOL).map(lambda names: list(names[:size])), label="players")
        first = data.draw(st.integers(0, size - 1), label="first dealer")
        scoring = data.draw(st.sampled_from(["standard", "variant"])) if ruleset == "misere" else "standard"
        self.shadow = Shadow(ruleset, names, first, scoring)
        # Start anywhere in the game: a game with deals already played comes in through the import page.
        played = data.draw(st.integers(0, self.shadow.deal_count), label="deals played before")
        if played:
            export = json.dumps(self.shadow.play_export(data.draw, played))
            token = csrf_from(page(self.client, "/games/import"))
            response = self.client.post("/games/import", data={"csrf_token": token, "text": export})
            assert response.status_code == 303, response.get_data(as_text=True)
            self.game_id = response.headers["Location"].rsplit("/", 1)[1]
        else:
            self.game_id = start_game(
                self.client, names, first_dealer=str(first), game=ruleset, scoring=scoring
            )
        self.token = csrf_from(page(self.client, f"/games/{self.game_id}"))

    def declare_form(self, data: st.DataObject, valid: bool) -> tuple[dict[str, Any], Any]:
        """The declare form's fields, and what the service is asked to record (REFUSED if never asked)."""
        game = self.game
        number = game.next_number
        raw_number = str(number) if valid else self.number_text(data, number)
        form: dict[str, Any] = {"csrf_token": self.token}
        if raw_number is not None:
            form["number"] = raw_number
        ok, given = parse_int(raw_number)
        body: Any = {"number": given}
        if game.ruleset == "mizerka":
            chooser = game.chooser(number)
            assert chooser is not None
            remaining = game.remaining(chooser) or ["hearts"]
            choices = remaining if valid else [*remaining, *MIZERKA_CONTRACTS, *UNKNOWN_CONTRACTS[:4], None]
            contract = data.draw(st.sampled_from(choices), label="contract")
            if contract is not None:
                form["contract"] = contract
            body["contract"] = contract or None
        elif given is not None and 1 <= given <= 6:
            bids = game.valid_bids(data.draw, min(given, 8))
            texts = [str(b) for b in bids] if valid else self.texts(data, bids)
            form.update({f"bids-{seat}": text for seat, text in enumerate(texts)})
            body["bids"] = self.per_player(texts)
            if body["bids"] is None:
                body = REFUSED
        else:
            tricks = game.valid_tricks(data.draw)
            texts = [str(t) for t in tricks] if valid else self.texts(data, tricks)
            form.update({f"tricks-{seat}": text for seat, text in enumerate(texts)})
            body["tricks"] = self.per_player(texts)
            if body["tricks"] is None:
                body = REFUSED
        if not ok or given is None:
            body = REFUSED
        return form, body

    def declare(self, data: st.DataObject, valid: bool) -> None:
        form, body = self.declare_form(data, valid)
        predicted = REFUSED if body is REFUSED else self.game.predict_record(body)
        self.post("/deals", form, accept=predicted is not REFUSED)
        if predicted is not REFUSED:
            self.game.deals.append(predicted)

    @precondition(lambda self: not self.game.finished and not self.game.pending)
    @rule(data=st.data())
    def declare_valid(self, data: st.DataObject) -> None:
        self.declare(data, valid=True)

    @precondition(lambda self: not self.game.finished and not self.game.pending)
    @rule(data=st.data(), deals=st.integers(1, 3))
    def play_several_deals(self, data: st.DataObject, deals: int) -> None:
        """Whole deals through the forms (declare, then tricks), so examples reach the late game."""
        for _ in range(deals):
            if self.game.finished:
                break
            self.declare(data, valid=True)
            if self.game.pending:
                self.tricks(data, valid=True)

    @rule(data=st.data())
    def declare_anything(self, data: st.DataObject) -> None:
        if self.game.finished and self.game.ruleset == "misere":
            return  # no next deal to build a form for; the API machine covers posts after the end
        self.declare(data, valid=False)

    def tricks(self, data: st.DataObject, valid: bool) -> None:
        game = self.game
        pending = len(game.deals) if game.pending else None
        if valid and pending is not None:
            number, raw_number = pending, str(pending)
        else:
            number = data.draw(st.sampled_from([pending or 1, len(game.deals), len(game.deals) + 1, 0]))
            raw_number = self.number_text(data, number)
        good = game.valid_tricks(data.draw)
        texts = [str(t) for t in good] if valid else self.texts(data, good)
        form: dict[str, Any] = {"csrf_token": self.token, **{f"tricks-{i}": t for i, t in enumerate(texts)}}
        if raw_number is not None:
            form["number"] = raw_number
        ok, given = parse_int(raw_number)
        tricks = self.per_player(texts)
        predicted = REFUSED
        exists = 1 <= number <= len(game.deals)
        if ok and given == number and tricks is not None and exists and game.deals[number - 1].tricks is None:
            predicted = game.predict_correct(number, {"tricks": tricks})
        self.post(f"/deals/{number}/tricks", form, accept=predicted is not REFUSED)
        if predicted is not REFUSED:
            game.deals[number - 1] = predicted

    @precondition(lambda self: self.game.pending)
    @rule(data=st.data())
    def enter_tricks_valid(self, data: st.DataObject) -> None:
        self.tricks(data, valid=True)

    @rule(data=st.data())
    def enter_tricks_anything(self, data: st.DataObject) -> None:
        self.tricks(data, valid=False)

    def version_text(self, data: st.DataObject) -> str | None:
        return data.draw(
            st.sampled_from(
                [str(self.version)] * 3 + [None, str(self.version - 1), str(self.version + 2), "x", ""]
            ),
            label="version field",
        )

    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        count = len(self.game.deals)
        number = data.draw(st.sampled_from([count, count, count - 1, count + 1]))
        raw_number = data.draw(st.sampled_from([str(number), str(number), None, "x"]))
        raw_version = self.version_text(data)
        form = {"csrf_token": self.token}
        form.update(
            {
                key: value
                for key, value in (("number", raw_number), ("version", raw_version))
                if value is not None
            }
        )
        number_ok, given = parse_int(raw_number)
        version_ok, version = parse_int(raw_version)
        accept = (
            number_ok
            and version_ok
            and given is not None
            and self.game.predict_undo(given)
            and version in (None, self.version)
        )
        self.post("/undo", form, accept=accept)
        if accept:
            self.game.deals.pop()

    @precondition(lambda self: bool(self.game.deals))
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        game = self.game
        count = len(game.deals)
        number = data.draw(st.one_of(st.integers(1, count), st.just(count + 1)), label="deal")
        raw_version = self.version_text(data)
        form: dict[str, Any] = {"csrf_token": self.token}
        if raw_version is not None:
            form["version"] = raw_version
        version_ok, version = parse_int(raw_version)
        body: Any = {}
        in_game = min(number, count)
        if game.ruleset == "mizerka":
            contract = data.draw(
                st.sampled_from([game.deals[in_game - 1].contract, *MIZERKA_CONTRACTS, "", "x"])
            )
            form["contract"] = contract
            body["contract"] = contract or None
        if game.bids_in(in_game):
            bids = game.valid_bids(data.draw, in_game)
            texts = self.texts(data, bids)
            form.update({f"bids-{seat}": text for seat, text in enumerate(texts)})
            body["bids"] = self.per_player(texts)
            if body["bids"] is None:
                body = REFUSED
        tricks_texts = (
            [""] * game.size
            if data.draw(st.integers(0, 4)) == 0
            else self.texts(data, game.valid_tricks(data.draw))
        )
        form.update({f"tricks-{seat}": text for seat, text in enumerate(tricks_texts)})
        if body is not REFUSED and (
            game.deals[in_game - 1].tricks is not None or any(t.strip() for t in tricks_texts)
        ):
            body["tricks"] = self.per_player(tricks_texts)
            if body["tricks"] is None:
                body = REFUSED
        predicted = REFUSED
        if number <= count and version_ok and version in (None, self.version) and body is not REFUSED:
            predicted = game.predict_correct(number, body)
        status = self.post(f"/deals/{number}/edit", form, accept=predicted is not REFUSED)
        if number > count:
            assert status == 404
        if predicted is not REFUSED:
            game.deals[number - 1] = predicted

    @rule(data=st.data())
    def open_correct_page(self, data: st.DataObject) -> None:
        number = data.draw(st.integers(0, len(self.game.deals) + 1))
        response = self.client.get(f"/games/{self.game_id}/deals/{number}/edit")
        exists = 1 <= number <= len(self.game.deals)
        assert response.status_code == (200 if exists else 404)

    @rule(data=st.data())
    def forged_post(self, data: st.DataObject) -> None:
        """No CSRF token, or someone else's: refused with 400 whatever the form says."""
        token = data.draw(st.sampled_from([None, "", "forged", self.token[:-2]]))
        path = data.draw(
            st.sampled_from(["/deals", f"/deals/{max(len(self.game.deals), 1)}/tricks", "/undo"])
        )
        count = len(self.game.deals)
        form: dict[str, Any] = {"number": str(count if path == "/undo" else count + 1), "contract": "hearts"}
        form.update({f"tricks-{seat}": "13" if seat == 0 else "0" for seat in range(self.game.size)})
        if token is not None:
            form["csrf_token"] = token
        assert self.post(path, form, accept=False) == 400

    @rule(data=st.data())
    def watcher_post(self, data: st.DataObject) -> None:
        """A phone without the edit key: 403, even with a form that would be valid."""
        watcher = self.app.test_client()
        assert watcher.get(f"/games/{self.game_id}").status_code == 200  # the read-only page
        token = csrf_from(page(watcher, "/games/import"))
        count = len(self.game.deals)
        path = data.draw(st.sampled_from(["/deals", "/undo", f"/deals/{max(count, 1)}/tricks"]))
        form = {
            "csrf_token": token,
            "number": str(count if path == "/undo" else count + 1),
            "contract": "hearts",
        }
        assert self.post(path, form, accept=False, client=watcher) == 403

    # -- after every step ---------------------------------------------------------------------------

    @invariant()
    def pages_render_and_state_is_the_shadow(self) -> None:
        if self.shadow is None:
            return
        count(self.app, "web steps")
        if not self.page_shown:
            response = self.client.get(f"/games/{self.game_id}")
            assert response.status_code == 200
        self.page_shown = False
        state_response = self.client.get(f"/api/v1/games/{self.game_id}")
        self.version = int(state_response.headers["ETag"].strip('"v'))
        state = state_response.get_json()
        fields = ("number", "dealer", "chooser", "contract", "bids", "tricks", "scores", "totals")
        assert [{f: deal[f] for f in fields} for deal in state["deals"]] == self.game.expected_deals()
        assert state["totals"] == self.game.totals()
        assert state["status"] == ("finished" if self.game.finished else "in_progress")

    def teardown(self) -> None:
        if self.shadow is not None:
            count(self.app, "web deals at the end", len(self.shadow.deals))
            count(self.app, "web games finished", int(self.shadow.finished))
            assert self.client.get(f"/games/{self.game_id}/scoresheet").status_code == 200
            # The exports of whatever state the game was left in: the facts, and a CSV row per deal.
            export = self.client.get(f"/games/{self.game_id}/export.json").get_json()
            assert [(d["contract"], d["bids"], d["tricks"]) for d in export["deals"]] == [
                (d["contract"], d["bids"], d["tricks"]) for d in self.shadow.expected_deals()
            ]
            rows = self.client.get(f"/games/{self.game_id}/export.csv").get_data().decode("utf-8-sig")
            assert (
                len(rows.split("\r\n")) == len(self.shadow.deals) + 2
            )  # a header, the deals, a last newline


def test_pages_survive_a_hostile_scorer(app: Flask) -> None:
    from hypothesis.stateful import run_state_machine_as_test

    machine = type("WebGameOnThisBackend", (WebGame,), {"app": app})
    run_state_machine_as_test(machine, settings=WEB_SETTINGS)
