"""Refusals said in the request's language, at the edge (``scorekeeper.messages.say``).

A stand-in Polish catalog (a few messages) replaces the request's catalog and gettext, so these
tests do not depend on the real catalogs' progress: what they check is that the edge translates
the template, puts the params in, says the game's words (contracts) and lists and counts in that
language too, and that the API keeps its codes and statuses whatever the language.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_locale

import scorekeeper.messages as messages
import scorekeeper.web.errors as web_errors
from scorekeeper.errors import about_deal, refusal
from scorekeeper.rules import N_, RuleError, n_
from scorekeeper.rules.misere import MISERE
from scorekeeper.rules.mizerka import MIZERKA
from tests.helpers import csrf_from, page

HAS_PLAYED = N_(
    "%(player)s has already played %(contract)s (deal %(played_in)d), "
    "so cannot choose it again in deal %(deal)d."
)
POLISH = {
    HAS_PLAYED: (
        "W rozdaniu %(deal)d %(player)s nie może znowu wybrać: %(contract)s (już w rozdaniu %(played_in)d)."
    ),
    "Hearts": "Kiery",
    "Blind": "W ciemno",
    "Tricks missing for %(players)s.": "Brak lew dla: %(players)s.",
    "Tricks must add up to %(total)d (got %(got)d).": "Lewy muszą dać razem %(total)d (jest %(got)d).",
    "Deal %(deal)d: %(reason)s": "Rozdanie %(deal)d: %(reason)s",
    "Deal %(deal)d (%(contract)s) needs a bid from every player.": (
        "Rozdanie %(deal)d (%(contract)s): każdy licytuje."
    ),
    "There is no such game.": "Nie ma takiej gry.",
    "That action is not possible at this address.": "Pod tym adresem nie można tego zrobić.",
    "Two players are called %(player)s — names must differ (ignoring case).": "Dwóch graczy to %(player)s.",
}
POLISH_PLURALS = {("a game", "%(num)d games"): ("jedna gra", "%(num)d gry", "%(num)d gier")}


def _polish() -> bool:
    locale = get_locale()
    return locale is not None and locale.language == "pl"


def fake_gettext(string: str, **variables: Any) -> str:
    said = POLISH.get(string, string) if _polish() else string
    return said % variables if variables else said


def fake_ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    forms = POLISH_PLURALS.get((singular, plural)) if _polish() else None
    if forms is None:
        said = singular if num == 1 else plural
    else:
        said = forms[0] if num == 1 else forms[1] if 2 <= num % 10 <= 4 else forms[2]
    return said % {"num": num, **variables}


class PolishCatalog:
    """The request's catalog (``messages.translations``) as the stand-in: Polish where it has one."""

    def ugettext(self, string: str) -> str:
        return fake_gettext(string)

    def upgettext(self, _context: str, string: str) -> str:
        return fake_gettext(string)


@pytest.fixture(autouse=True)
def polish(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(messages, "translations", PolishCatalog)
    monkeypatch.setattr(messages, "ngettext", fake_ngettext)
    monkeypatch.setattr(web_errors, "gettext", fake_gettext)
    yield


# -- the edge renderer ---------------------------------------------------------------------------


def contract_used() -> RuleError:
    with pytest.raises(RuleError) as refused:
        setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Cid")  # Ann chooses in deals 1, 4, 7...
        MIZERKA.replay(
            setup,
            [
                MIZERKA.parse_deal(setup, number, contract="hearts", tricks=[7, 5, 1])
                for number in (1, 2, 3, 4)
            ],
        )
    return refused.value


def test_the_engine_speaks_english_with_its_template_and_params() -> None:
    refused = contract_used()
    assert refused.code == "contract_used"
    assert refused.template == HAS_PLAYED
    assert refused.params["player"] == "Ann" and refused.params["contract"].id == "hearts"
    assert refused.message == "Ann has already played Hearts (deal 1), so cannot choose it again in deal 4."
    assert str(refused) == refused.message


def test_say_translates_the_template_and_the_contract_it_names(app: Flask) -> None:
    refused = contract_used()
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert messages.say(refused) == "W rozdaniu 4 Ann nie może znowu wybrać: Kiery (już w rozdaniu 1)."
    with app.test_request_context():
        assert messages.say(refused) == refused.message


def test_say_lists_names_and_counts_as_the_language_does(app: Flask) -> None:
    missing = RuleError(
        "tricks_players", "Tricks missing for %(players)s.", "tricks", {"players": ("Ann", "Bob", "Cid")}
    )
    shared = refusal(
        "players_share_game", "Together in %(games)s.", "keep", games=n_("a game", "%(num)d games", 5)
    )
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert messages.say(missing) == "Brak lew dla: Ann, Bob i Cid."
        assert messages.say(shared) == "Together in 5 gier."
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert messages.say(missing) == "Tricks missing for Ann, Bob and Cid." == missing.message
        assert messages.say(shared) == "Together in 5 games." == shared.message
    assert (
        refusal("players_share_game", "In %(games)s.", games=n_("a game", "%(num)d games", 1)).message
        == "In a game."
    )


def test_a_refusal_said_of_a_deal_is_said_whole_in_the_language(app: Flask) -> None:
    setup = MISERE.make_setup(["Ann", "Bob", "Cid", "Dee"], "Ann")
    with pytest.raises(RuleError) as refused:
        MISERE.parse_deal(setup, 6, bids=None)
    about = about_deal(6, refused.value)
    assert about.code == "bids_required" and about.field == "bids"
    assert about.message == "Deal 6: Deal 6 (Blind) needs a bid from every player."
    assert about_deal(6, about) is about  # said of the same deal once
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert messages.say(about) == "Rozdanie 6: Rozdanie 6 (W ciemno): każdy licytuje."


def test_term_says_a_contract_in_the_language(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert messages.term(MIZERKA.contract("hearts")) == "Kiery"
        assert messages.term("Hearts") == "Kiery"
        assert messages.term(MIZERKA.contract("spades")) == "Spades"  # not in the stand-in catalog


def test_a_value_with_a_percent_sign_is_said_as_it_is(app: Flask) -> None:
    refused = RuleError(
        "unknown_player", N_("%(player)s is not playing in this game."), "player", {"player": "100%"}
    )
    assert refused.message == "100% is not playing in this game."
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert messages.say(refused) == "100% is not playing in this game."


# -- the API -----------------------------------------------------------------------------------------

GAME = {"ruleset": "mizerka", "players": ["Ann", "Bob", "Cid"], "first_dealer": "Cid"}


def _game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    created = client.post("/api/v1/games", json=GAME).get_json()
    return created["id"], {"Authorization": f"Bearer {created['edit_key']}"}


def _requests(client: FlaskClient) -> list[tuple[str, str, dict[str, Any]]]:
    game_id, auth = _game(client)
    client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"contract": "hearts", "tricks": {"Ann": 7, "Bob": 5, "Cid": 1}},
        headers=auth,
    )
    for _ in range(2):
        client.post(
            f"/api/v1/games/{game_id}/deals",
            json={"contract": "clubs", "tricks": {"Ann": 1, "Bob": 7, "Cid": 5}},
            headers=auth,
        )
    deals = f"/api/v1/games/{game_id}/deals"
    return [
        (
            "POST",
            deals,
            {"json": {"contract": "hearts", "tricks": {"Ann": 7, "Bob": 5, "Cid": 1}}, "headers": auth},
        ),
        (
            "POST",
            deals,
            {"json": {"contract": "spades", "tricks": {"Ann": 7, "Bob": 5, "Cid": 0}}, "headers": auth},
        ),
        ("POST", deals, {"json": {"contract": "spades"}}),
        ("POST", deals, {"data": "nope", "headers": auth}),
        ("DELETE", f"{deals}/1", {"headers": auth}),
        ("GET", "/api/v1/games/nosuchgame", {}),
        ("GET", "/api/v1/no/such/path", {}),
        ("DELETE", "/api/v1/rulesets", {}),
        ("POST", "/api/v1/games", {"json": {**GAME, "players": ["Ann", "ann", "Cid"]}}),
    ]


def test_the_api_answers_the_same_codes_and_statuses_in_any_language(client: FlaskClient) -> None:
    seen = set()
    for method, path, kwargs in _requests(client):
        english = client.open(path, method=method, **kwargs)
        headers = {**kwargs.get("headers", {}), "Accept-Language": "pl-PL,pl;q=0.9"}
        polish = client.open(path, method=method, **{**kwargs, "headers": headers})
        assert english.status_code == polish.status_code >= 400, (method, path)
        english_error, polish_error = english.get_json()["error"], polish.get_json()["error"]
        assert english_error["code"] == polish_error["code"], (method, path)
        assert english_error["field"] == polish_error["field"], (method, path)
        seen.add(
            (english.status_code, english_error["code"], english_error["message"], polish_error["message"])
        )
    codes = {code for _, code, _, _ in seen}
    assert {"contract_used", "tricks_sum", "auth_required", "bad_json", "not_last_deal", "not_found"} <= codes
    assert {"method_not_allowed", "invalid_players"} <= codes
    said = {english: polish for _, _, english, polish in seen}
    assert said["There is no such game."] == "Nie ma takiej gry."
    assert said["Ann has already played Hearts (deal 1), so cannot choose it again in deal 4."] == (
        "W rozdaniu 4 Ann nie może znowu wybrać: Kiery (już w rozdaniu 1)."
    )
    assert said["Tricks must add up to 13 (got 12)."] == "Lewy muszą dać razem 13 (jest 12)."
    assert said["That action is not possible at this address."] == "Pod tym adresem nie można tego zrobić."


def test_the_api_ignores_the_switch_s_cookie(client: FlaskClient) -> None:
    client.get("/language/pl?next=/")
    for path in ("/api/v1/games/nosuchgame", "/api/v1/no/such/path"):
        body = client.get(path).get_json()
        assert body["error"]["code"] == "not_found"
        assert "Nie ma" not in body["error"]["message"]


# -- the pages -----------------------------------------------------------------------------------------


def test_a_page_shows_the_engine_s_refusal_in_the_language(client: FlaskClient) -> None:
    client.get("/language/pl?next=/")
    html = page(client, "/games/new")
    data = {
        "csrf_token": csrf_from(html),
        "first_dealer": "0",
        "players-0": "Ann",
        "players-1": "ANN",
        "players-2": "Cid",
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert "Dwóch graczy to ANN." in response.get_data(as_text=True)


# -- the engine stays pure -------------------------------------------------------------------------------


def test_the_rules_import_nothing_but_the_standard_library_and_each_other() -> None:
    rules = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"
    outside = []
    for module in sorted(rules.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(), str(module))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    continue  # a module of the rules package
                names = [("." * node.level) + (node.module or "")]
            else:
                continue
            outside += [
                f"{module.name}: {name}"
                for name in names
                if name.startswith(".") or name.split(".")[0] not in sys.stdlib_module_names
            ]
    assert outside == []
    assert "flask_babel" not in sys.stdlib_module_names  # the check can fail


# -- numbers and the CSV export ----------------------------------------------------------------------------


def test_signed_figures_follow_the_language(app: Flask) -> None:
    from decimal import Decimal

    from scorekeeper.charts import signed

    assert (signed(1234), signed(-3), signed(0), signed(Decimal("2.0"))) == ("+1234", "−3", "0", "+2.0")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert (signed(1234), signed(-1234), signed(Decimal("1.5")), signed(7)) == (
            "+1,234",
            "−1,234",
            "+1.5",
            "+7",
        )
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert (signed(-1234), signed(Decimal("2.0")), signed(-12)) == ("−1\xa0234", "+2,0", "−12")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert signed(Decimal("-1234.5")) == "−1.234,5"


def test_the_csv_header_is_in_the_language_the_json_export_is_not(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorekeeper.web.transfer.routes as transfer_routes

    polish = {"deal": "rozdanie", "%(player)s tricks": "%(player)s lewy", "Hearts": "Kiery"}

    def fake(string: str, **variables: Any) -> str:
        said = polish.get(string, string) if _polish() else string
        return said % variables if variables else said

    monkeypatch.setattr(transfer_routes, "gettext", fake)
    game_id, auth = _game(client)
    client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"contract": "hearts", "tricks": {"Ann": 7, "Bob": 5, "Cid": 1}},
        headers=auth,
    )
    english = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True).splitlines()
    assert english[0].startswith("\ufeffdeal,dealer,chooser,contract,Ann tricks,")
    assert ",Hearts," in english[1]
    client.get("/language/pl?next=/")
    polish_rows = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True).splitlines()
    assert polish_rows[0].startswith("\ufeffrozdanie,dealer,chooser,contract,Ann lewy,")
    assert ",Kiery," in polish_rows[1]
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["deals"][0]["contract"] == "hearts"
