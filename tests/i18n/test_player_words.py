"""The words the table reads about its players: Polish that fits every player, Italian that says when.

- no Polish text calls a player by a masculine noun or participle ("Rozdający", "Rozgrywający",
  "wybierającego", "Rywal", "wpisany"…): roles are verbs ("Rozdaje") or name no one's gender;
- the player to the dealer's right is said as such, not a bare "Po prawej": in the roles line "siedzi po
  prawej od osoby rozdającej", on the scoreboard's badge "Druga ręka" (the hand that plays second to
  the first trick: one line at 320 px, and a hand has no gender);
- who deals first is asked as a question, the player page says who sat at the table in a phrase;
- the Polish rules page speaks of people ("osoba rozdająca", "każda osoba"), never of "gracz" or
  "rozgrywający";
- Italian: the dealer "chiama per ultimo" (bids last), not "chiama dopo".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from tests.helpers import page, parse_html, play, start_game

CATALOGS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"

#: Masculine forms that would describe a player (a role noun, a participle, a masculine pronoun).
MASCULINE = re.compile(
    r"\b(?:rozdający|rozdającego|rozdającym|rozgrywający|rozgrywającego|rozgrywającym|wybierający|"
    r"wybierającego|rywal|rywala|wpisany|zalogowany|jego stronę|jako administrator)\b",
    re.IGNORECASE,
)


def catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as po_file:
        return read_po(po_file, locale=language)


def polish(message_id: str) -> str:
    message = catalog("pl").get(message_id)
    assert message is not None, message_id
    return str(message.string)


def test_no_polish_text_gives_a_player_a_gender() -> None:
    gendered = []
    for message in catalog("pl"):
        strings = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        gendered += [(message.id, s) for s in strings if s and MASCULINE.search(str(s))]
    assert not gendered, gendered


@pytest.mark.parametrize(
    ("message_id", "expected"),
    [
        ("Dealer", "Rozdaje"),
        ("Forehand", "Wybiera"),
        ("Middlehand", "Druga ręka"),
        ("%(player)s is middlehand", "%(player)s: druga ręka"),
        ("First dealer", "Kto rozdaje pierwszy"),
        ("Draw at random", "Los wybierze"),
        ("with %(players)s", "Przy stole także: %(players)s"),
    ],
)
def test_the_polish_roles_and_phrases(message_id: str, expected: str) -> None:
    assert polish(message_id) == expected


def test_the_italian_dealer_bids_last() -> None:
    message = catalog("it").get("bids last")
    assert message is not None and message.string == "chiama per ultimo"


def test_the_polish_table_reads_verbs_beside_the_names(client: FlaskClient) -> None:
    client.get("/language/pl?next=/")
    game_id = start_game(client, ["Zosia", "Grażyna", "Ala"], first_dealer="0")
    board = parse_html(page(client, f"/games/{game_id}")).find(cls="scoreboard")
    roles = [node.text for node in board.find_all(cls="role")]
    assert roles == ["Rozdaje", "Wybiera", "Druga ręka"]
    new_game = parse_html(page(client, "/games/new?game=mizerka"))
    assert "Kto rozdaje pierwszy" in new_game.text and "Los wybierze" in new_game.text


def test_the_polish_player_page_says_who_sat_at_the_table(client: FlaskClient) -> None:
    client.get("/language/pl?next=/")
    game_id = start_game(client, ["Zosia", "Grażyna", "Ala"], first_dealer="0")
    play(client, game_id, [("clubs", [4, 5, 4])])
    body = page(client, "/players")
    link = re.search(r'href="(/players/[^"]+)"[^>]*>Zosia<', body)
    assert link, "Zosia has a page"
    text = parse_html(page(client, link.group(1))).text
    assert "Przy stole także: Grażyna · Ala" in text or "Przy stole także: Ala · Grażyna" in text
    assert "z: " not in text


def test_the_polish_rules_page_speaks_of_people_not_of_men(client: FlaskClient) -> None:
    client.get("/language/pl?next=/rules")
    text = " ".join(parse_html(page(client, "/rules")).find("article", cls="rules").text.split())
    assert not MASCULINE.findall(text), MASCULINE.findall(text)
    generic = re.findall(r"\b(?:gracz\w*|pierwszy|drugi|ostatni|wziął|mu)\b", text, re.IGNORECASE)
    assert not generic, generic
    for phrase in ("wybiera kontrakt", "druga ręka", "osoba rozdająca", "każda osoba"):
        assert phrase in text, phrase
