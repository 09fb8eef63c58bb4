"""Every rule refusal a page's form can meet, in Polish and Italian: said at the input it concerns.

Each refusal is posted through the real forms (new game, contract, bids, tricks, correction) by a
phone whose language switch is set (the ``lang`` cookie).  The answer has the refusal's status, the
message at the input it concerns is the catalog's translation with the values put in (the player's
name, the contract in that language), it is not the English one, and nothing is stored.

The expected sentences are read from the ``.po`` catalogs themselves, not from the app, so a
refusal said in English, said from a stale catalog or put at the wrong input fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import COOKIE
from scorekeeper.rules import TRICKS_PER_DEAL
from scorekeeper.rules.names import MAX_NAME_LENGTH
from tests.helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    follow,
    page,
    parse_html,
    play,
    start_game,
    submit,
)

LANGUAGES = ["pl", "it"]
CATALOGS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"

# Names a Polish or Italian table would write, letters outside ASCII included.
MIZERKA_PLAYERS = ["Grzegorz", "Łucja", "Niccolò"]  # Niccolò (seat 2) deals first: Grzegorz chooses 1, 4...
MISERE_PLAYERS = ["Żaneta", "Bartłomiej", "Gianluca", "Carla"]  # Żaneta deals first, bids last


@cache
def catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as po_file:
        return read_po(po_file, locale=language)


def translated(language: str, message_id: str) -> str:
    """``message_id``'s translation in ``language``'s catalog (it must have one)."""
    message = catalog(language).get(message_id)
    assert message is not None, f"{language}: the catalog lacks {message_id!r}"
    assert message.string and not message.fuzzy, f"{language}: {message_id!r} is not translated"
    return str(message.string)


@dataclass
class Expected:
    """A refusal as the catalog says it: its English message id and the values put in."""

    template: str
    params: dict[str, Any] = field(default_factory=dict)
    terms: dict[str, str] = field(default_factory=dict)
    """Values that are words of the game (a contract's English label), said in the language too."""
    player: str | None = None
    """The player the message speaks of, whose name it must contain."""

    def english(self) -> str:
        return self.template % {**self.params, **self.terms}

    def said(self, language: str) -> str:
        terms = {name: translated(language, label) for name, label in self.terms.items()}
        return translated(language, self.template) % {**self.params, **terms}


@dataclass
class Refused:
    """A refused post: the answer, the database just before it, where the message must be, what it says."""

    response: Any
    before: dict[str, list[tuple[Any, ...]]]
    status: int
    error_id: str
    expected: Expected
    input_name: str | None = None
    """The input the message concerns, marked invalid and described by it (a player's box)."""


def _post(client: FlaskClient, url: str, data: dict[str, Any]) -> Any:
    token = csrf_from(page(client, "/games/new"))
    return client.post(url, data={"csrf_token": token, **data})


def _mizerka(client: FlaskClient, deals: int = 0) -> str:
    game_id = start_game(client, MIZERKA_PLAYERS, first_dealer="2")
    play(client, game_id, [(deal.contract, list(deal.tricks)) for deal in MIZERKA_DEALS[:deals]])
    return game_id


def _declared(app: Flask, client: FlaskClient) -> str:
    """A Mizerka game whose first deal (Hearts, chosen by Grzegorz) waits for its tricks."""
    game_id = _mizerka(client)
    assert _post(client, f"/games/{game_id}/deals", {"number": 1, "contract": "hearts"}).status_code == 303
    return game_id


def _misere(client: FlaskClient) -> str:
    return start_game(client, MISERE_PLAYERS, first_dealer="0", game="misere")


def _bids(app: Flask, client: FlaskClient, bids: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    game_id = _misere(client)
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    before = db_snapshot(app)
    return submit(client, form, fill=bids), before


def _tricks(app: Flask, client: FlaskClient, tricks: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    game_id = _declared(app, client)
    before = db_snapshot(app)
    return _post(client, f"/games/{game_id}/deals/1/tricks", {"number": 1, **tricks}), before


def _new_game(app: Flask, client: FlaskClient, names: list[str]) -> tuple[Any, dict[str, Any]]:
    data = {"first_dealer": "0", **{f"players-{seat}": name for seat, name in enumerate(names)}}
    before = db_snapshot(app)
    return _post(client, "/games/new", data), before


# -- the refusals, each as a page's form meets it ------------------------------------------------


def contract_used(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client, deals=3)  # Grzegorz chose Hearts in deal 1 and chooses again in deal 4
    before = db_snapshot(app)
    response = _post(client, f"/games/{game_id}/deals", {"number": 4, "contract": "hearts"})
    expected = Expected(
        "%(player)s has already played %(contract)s (deal %(played_in)d), "
        "so cannot choose it again in deal %(deal)d.",
        {"player": "Grzegorz", "played_in": 1, "deal": 4},
        {"contract": "Hearts"},
        player="Grzegorz",
    )
    return Refused(response, before, 422, "error-contract", expected)


def unknown_contract(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client)
    before = db_snapshot(app)
    response = _post(client, f"/games/{game_id}/deals", {"number": 1, "contract": "trumps"})
    expected = Expected(
        "There is no contract called %(given)s; choose one of %(choices)s.",
        {"given": "trumps", "choices": "clubs, diamonds, hearts, spades, no-trumps, mizerka"},
    )
    return Refused(response, before, 422, "error-contract", expected)


def no_contract(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client)
    before = db_snapshot(app)
    response = _post(client, f"/games/{game_id}/deals", {"number": 1, "contract": ""})
    return Refused(response, before, 422, "error-contract", Expected("Choose a contract."))


def tricks_sum(app: Flask, client: FlaskClient) -> Refused:
    response, before = _tricks(app, client, {"tricks-0": 4, "tricks-1": 4, "tricks-2": 4})
    expected = Expected(
        "Tricks must add up to %(total)d (got %(got)d).", {"total": TRICKS_PER_DEAL, "got": 12}
    )
    return Refused(response, before, 422, "error-tricks", expected)


def tricks_range(app: Flask, client: FlaskClient) -> Refused:
    response, before = _tricks(app, client, {"tricks-0": 7, "tricks-1": 14, "tricks-2": 0})
    expected = Expected(
        "%(player)s's tricks must be a whole number from 0 to %(most)d (got %(value)s).",
        {"player": "Łucja", "most": TRICKS_PER_DEAL, "value": 14},
        player="Łucja",
    )
    return Refused(response, before, 422, "error-tricks", expected, input_name="tricks-1")


def tricks_missing(app: Flask, client: FlaskClient) -> Refused:
    response, before = _tricks(app, client, {"tricks-0": 8, "tricks-1": 4, "tricks-2": ""})
    expected = Expected("Enter the tricks for %(players)s.", {"players": "Niccolò"}, player="Niccolò")
    return Refused(response, before, 422, "error-tricks", expected, input_name="tricks-2")


def hook_rule(app: Flask, client: FlaskClient) -> Refused:
    # Bartłomiej, Gianluca and Carla bid 3 + 2 + 4: Żaneta, the dealer, may not bid 4.
    response, before = _bids(app, client, {"bids-1": 3, "bids-2": 2, "bids-3": 4, "bids-0": 4})
    expected = Expected(
        "%(player)s deals and bids last: %(player)s may not bid %(bid)d, "
        "because the bids would add up to %(total)d.",
        {"player": "Żaneta", "bid": 4, "total": TRICKS_PER_DEAL},
        player="Żaneta",
    )
    return Refused(response, before, 422, "error-bids", expected, input_name="bids-0")


def bids_missing(app: Flask, client: FlaskClient) -> Refused:
    response, before = _bids(app, client, {"bids-1": 3, "bids-2": "", "bids-3": 4, "bids-0": 0})
    expected = Expected("Enter the bids for %(players)s.", {"players": "Gianluca"}, player="Gianluca")
    return Refused(response, before, 422, "error-bids", expected, input_name="bids-2")


def bid_range(app: Flask, client: FlaskClient) -> Refused:
    response, before = _bids(app, client, {"bids-1": 3, "bids-2": 2, "bids-3": 14, "bids-0": 0})
    expected = Expected(
        "%(player)s's bid must be a whole number from 0 to %(most)d (got %(value)s).",
        {"player": "Carla", "most": TRICKS_PER_DEAL, "value": 14},
        player="Carla",
    )
    return Refused(response, before, 422, "error-bids", expected, input_name="bids-3")


def deal_number_ahead(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client, deals=1)
    before = db_snapshot(app)
    response = _post(client, f"/games/{game_id}/deals", {"number": 5, "contract": "clubs"})
    expected = Expected("The next deal is %(next)d, not %(deal)d.", {"next": 2, "deal": 5})
    return Refused(response, before, 409, "error-number", expected)


def stale_declaration(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client)
    stale = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, stale, stale.find("button", value="hearts")))
    tricks = {f"tricks-{seat}": count for seat, count in enumerate(MIZERKA_DEALS[0].tricks)}
    assert _post(client, f"/games/{game_id}/deals/1/tricks", {"number": 1, **tricks}).status_code == 303
    before = db_snapshot(app)
    response = submit(client, stale, stale.find("button", value="clubs"))
    expected = Expected(
        "Deal %(deal)d is already recorded; the next deal is %(next)d.", {"deal": 1, "next": 2}
    )
    return Refused(response, before, 409, "error-number", expected)


def correction_contract_used(app: Flask, client: FlaskClient) -> Refused:
    game_id = _mizerka(client, deals=6)  # Łucja chose Clubs in deal 2 and Diamonds in deal 5
    form = parse_html(page(client, f"/games/{game_id}/deals/2/edit")).find("form", method="post")
    before = db_snapshot(app)
    response = submit(client, form, fill={"contract": "diamonds"})
    expected = Expected(
        "Deal %(deal)d: %(player)s has already played %(contract)s (deal %(played_in)d).",
        {"deal": 2, "player": "Łucja", "played_in": 5},
        {"contract": "Diamonds"},
        player="Łucja",
    )
    return Refused(response, before, 422, "error-contract", expected)


def names_duplicate(app: Flask, client: FlaskClient) -> Refused:
    response, before = _new_game(app, client, ["Łucja", "ŁUCJA", "Niccolò"])
    expected = Expected(
        "Two players are called %(player)s — names must differ (ignoring case).",
        {"player": "ŁUCJA"},
        player="ŁUCJA",
    )
    return Refused(response, before, 422, "error-players", expected)


def names_too_long(app: Flask, client: FlaskClient) -> Refused:
    long_name = "Bartłomiej " + "Brzęczyszczykiewicz" * 2  # 49 characters
    response, before = _new_game(app, client, ["Łucja", long_name, "Niccolò"])
    expected = Expected(
        "Names can be at most %(most)d characters (%(start)s… has %(length)d).",
        {"most": MAX_NAME_LENGTH, "start": long_name[:12], "length": len(long_name)},
        player=long_name[:12],
    )
    return Refused(response, before, 422, "error-players", expected)


def names_invisible(app: Flask, client: FlaskClient) -> Refused:
    response, before = _new_game(app, client, ["Łucja", "Nic\u200bcolò", "Grzegorz"])
    expected = Expected("Names cannot contain control or invisible formatting characters.")
    return Refused(response, before, 422, "error-players", expected)


def names_missing(app: Flask, client: FlaskClient) -> Refused:
    response, before = _new_game(app, client, ["Łucja", "   ", "Grzegorz"])
    return Refused(response, before, 422, "error-players", Expected("Every player needs a name."))


CASES: list[Callable[[Flask, FlaskClient], Refused]] = [
    contract_used,
    unknown_contract,
    no_contract,
    tricks_sum,
    tricks_range,
    tricks_missing,
    hook_rule,
    bids_missing,
    bid_range,
    deal_number_ahead,
    stale_declaration,
    correction_contract_used,
    names_duplicate,
    names_too_long,
    names_invisible,
    names_missing,
]


@pytest.mark.parametrize("case", CASES, ids=[case.__name__ for case in CASES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_is_said_in_the_phone_s_language_at_its_input(
    app: Flask, client: FlaskClient, language: str, case: Callable[[Flask, FlaskClient], Refused]
) -> None:
    client.set_cookie(COOKIE, language)
    refused = case(app, client)
    html = refused.response.get_data(as_text=True)
    assert refused.response.status_code == refused.status, html[:3000]
    expected = refused.expected
    message = expected.said(language)
    assert message != expected.english(), f"{language}: the catalog says {expected.template!r} in English"
    if expected.player is not None:
        assert expected.player in message, f"{language}: the message lost the player's name: {message!r}"
    doc = parse_html(html)
    assert doc.find("html").attrs.get("lang") == language
    assert doc.find(id=refused.error_id).text == message
    assert expected.english() not in doc.text
    if refused.input_name is not None:
        box = doc.find("input", name=refused.input_name)
        assert box.attrs.get("aria-invalid") == "true"
        assert box.attrs.get("aria-describedby") == refused.error_id
    assert db_snapshot(app) == refused.before, "a refused post stored something"


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_blank_counts_are_named_in_the_language_each_at_its_box(
    app: Flask, client: FlaskClient, language: str
) -> None:
    """Two counts left blank: the first box says the group's message naming both, the second its own."""
    client.set_cookie(COOKIE, language)
    response, before = _tricks(app, client, {"tricks-0": "", "tricks-1": 4, "tricks-2": ""})
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    message = translated(language, "Enter the tricks for %(players)s.") % {"players": "Grzegorz, Niccolò"}
    assert doc.find(id="error-tricks").text == message
    # The second blank box has its own message, naming its player.
    second = translated(language, "%(player)s: enter the tricks.") % {"player": "Niccolò"}
    assert doc.find(id="error-tricks-2").text == second
    assert db_snapshot(app) == before
