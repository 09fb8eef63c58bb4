"""The rules page in English, Polish and Italian: each in its own words (docs/glossary.md), all
with the same figures, and those figures the ones the rules engine computes."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext

from scorekeeper.messages import translate
from scorekeeper.rules import TRICKS_PER_DEAL, barbu, get_ruleset
from scorekeeper.rules.kierki import (
    FAN_TAN,
    KIERKI,
    NEGATIVE_DEALS,
    ROBBER,
    TRICKS_BY_PLAYERS,
    TRUMPS,
    deal_amount,
)
from scorekeeper.rules.kierki import PRESETS as KIERKI_PRESETS
from scorekeeper.rules.misere import CONTRACTS as MISERE_DEALS
from scorekeeper.rules.misere import STANDARD, VARIANT, Misere, bid_score, trick_score
from scorekeeper.rules.mizerka import DEALER, FOREHAND, MIDDLEHAND, deal_score, quota
from tests.helpers import Node, page, parse_html

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

LANGUAGES = ("en", "pl", "it")
TRANSLATED = ("pl", "it")
SECTIONS = ("mizerka", "misere", "kierki", "barbu")

#: A figure as the page writes it: an optional sign (typographic minus or plus) and digits, the
#: thousands grouped as Babel groups them in the page's language (2,600; 2 600; 2.600; the page's
#: no-break space is a space once the text is read).
FIGURE = re.compile(r"[+−-]?\d{1,3}(?:[,. ]\d{3})+(?!\d)|[+−-]?\d+")

#: Each language's own game terms (docs/glossary.md), found in the rules article, any case.
TERMS = {
    "en": (
        "Mizerka",
        "No trumps",
        "forehand",
        "middlehand",
        "dealer",
        "quota",
        "tricks",
        "Blind",
        "Ciapa-ciapa",
    ),
    "pl": (
        "Mizerka",
        "bez atu",
        "kiery",
        "trefl",
        "karo",
        "pik",
        "wybiera",
        "druga ręka",
        "osoba rozdająca",
        "plan",
        "lew",
        "rozdań",
        "w ciemno",
        "ciapa ciapa",
        "deklaracja",
        "ex aequo",
    ),
    "it": (
        "Mizerka",
        "senza briscola",
        "briscola",
        "cuori",
        "quadri",
        "fiori",
        "picche",
        "primo di mano",
        "secondo di mano",
        "mazziere",
        "obiettivo",
        "prese",
        "smazzate",
        "al buio",
        "ciapa ciapa",
        "chiamata",
        "sballa",
        "a pari merito",
    ),
}

#: The Misère deals in order, as each language names them (RULES.md section 2; seed 004 for Italian).
DEAL_NAMES = {
    "en": tuple(contract.label for contract in MISERE_DEALS),
    "pl": ("kier", "karo", "trefl", "pik", "bez atu", "w ciemno", "ciapa ciapa", "misère"),
    "it": ("cuori", "quadri", "fiori", "picche", "senza briscola", "al buio", "ciapa ciapa", "misère"),
}

#: Words that give away an untranslated (or wrongly translated) passage, as whole words.
FOREIGN = {
    "pl": (
        "forehand", "middlehand", "dealer", "trumps", "no trumps", "trick", "tricks", "deal", "deals",
        "bid", "bids", "quota", "hearts", "spades", "clubs", "diamonds", "blind", "rules at hand",
        "scores", "the", "and",
        "briscola", "mazziere", "smazzata", "smazzate", "prese", "chiamata", "cuori", "picche", "il", "e",
    ),
    "it": (
        "forehand", "middlehand", "dealer", "trumps", "no trumps", "trick", "tricks", "deal", "deals",
        "bid", "bids", "quota", "hearts", "spades", "clubs", "diamonds", "blind", "rules at hand",
        "scores", "the", "and",
        "atu", "rozdający", "rozgrywający", "lew", "lewy", "rozdanie", "kier", "trefl", "pik", "karo", "w",
    ),
}  # fmt: skip


def rules_article(client: FlaskClient, language: str) -> tuple[Node, Node]:
    """The whole page and its rules article, served in ``language`` (the switch's cookie)."""
    client.get(f"/language/{language}?next=/rules")
    root = parse_html(page(client, "/rules"))
    return root, root.find("article", cls="rules")


def figures(text: str) -> list[str]:
    """The figures of a text in order, a hyphen read as the minus sign, without thousands separators."""
    return [re.sub(r"[,. ]", "", figure.replace("-", "−")) for figure in FIGURE.findall(text)]


def own_text(node: Node, language: str) -> str:
    """The text of ``node`` in ``language``: a word marked as another language's (``lang``) left out."""
    parts: list[str] = []

    def walk(parent: Node) -> None:
        for child in parent.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.attrs.get("lang") in (None, language):
                walk(child)

    walk(node)
    return " ".join("".join(parts).split())


def table_figures(table: Node) -> list[list[list[str]]]:
    """Per body row, per data cell: the figures it shows."""
    return [[figures(cell.text) for cell in row.find_all("td")] for row in table.find("tbody").find_all("tr")]


def prose_figures(section: Node) -> set[str]:
    """The figures of a section's headings, paragraphs and lists (its tables aside)."""
    return {
        figure
        for node in section.iter()
        if node.tag in ("h2", "h3", "p", "li")
        for figure in figures(node.text)
    }


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def has_words(text: str, words: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(words.casefold())}(?!\w)", text.casefold()) is not None


# -- each language ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_in_the_chosen_language(client: FlaskClient, language: str) -> None:
    root, article = rules_article(client, language)
    assert root.find("html").attrs["lang"] == language
    missing = [term for term in TERMS[language] if not has_words(article.text, term)]
    assert not missing, f"{language}: the glossary's terms {missing} are not on the page"


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_word_of_another_language_is_left(client: FlaskClient, language: str) -> None:
    _, article = rules_article(client, language)
    text = own_text(article, language)
    leaks = [word for word in FOREIGN[language] if has_words(text, word)]
    assert not leaks, f"{language}: {leaks} on the page"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_misere_deals_come_in_the_rules_order(client: FlaskClient, language: str) -> None:
    _, article = rules_article(client, language)
    items = article.find("section", id="misere").find("ol", cls="deals").find_all("li")
    named = [item.find("strong").text.casefold() for item in items]
    assert named == [name.casefold() for name in DEAL_NAMES[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_structure_links_and_screen_readers_rely_on(client: FlaskClient, language: str) -> None:
    _, article = rules_article(client, language)
    # The game page links to /rules#mizerka, /rules#misere and /rules#kierki.
    for section_id in SECTIONS:
        section = article.find("section", id=section_id)
        heading = section.find("h2", id=section.attrs["aria-labelledby"] or "")
        assert heading.text
    levels = [int(node.tag[1]) for node in article.iter() if re.fullmatch(r"h[1-6]", node.tag)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(after <= before + 1 for before, after in itertools.pairwise(levels)), levels
    tables = article.find_all("table")
    assert len(tables) == len(SECTIONS)
    for table in tables:
        assert all(cell.attrs.get("scope") == "col" for cell in table.find("thead").find_all("th"))
        assert all(cell.attrs.get("scope") == "row" for cell in table.find("tbody").find_all("th"))


# -- the figures -------------------------------------------------------------------------------


def test_the_english_figures_are_the_rules_engine_s(client: FlaskClient) -> None:
    _, article = rules_article(client, "en")
    mizerka, misere = (article.find("section", id=section_id) for section_id in ("mizerka", "misere"))

    for section, ruleset_id in ((mizerka, "mizerka"), (misere, "misere")):
        ruleset = get_ruleset(ruleset_id)
        intro = section.find("p").text
        for words in (
            f"{ruleset.player_count} players",
            f"{TRICKS_PER_DEAL} tricks",
            f"{ruleset.deal_count} deals",
        ):
            assert words in intro, (words, intro)

    quotas = [
        [[str(quota(role, "hearts"))], [str(quota(role, "mizerka"))]]
        for role in (FOREHAND, MIDDLEHAND, DEALER)
    ]
    assert all(quota(role, "no-trumps") == quota(role, "spades") for role in (FOREHAND, MIDDLEHAND, DEALER))
    assert table_figures(mizerka.find("table")) == quotas

    # Each cell's formula holds for every bid and every number of tricks.
    per_trick_made = bid_score(1, 1)
    per_trick_missed = -bid_score(1, 2)
    variant_base = bid_score(1, 1, VARIANT) - 1
    for bid in range(TRICKS_PER_DEAL + 1):
        for tricks in range(TRICKS_PER_DEAL + 1):
            if bid == tricks and bid > 0:
                assert bid_score(bid, tricks) == per_trick_made * bid
                assert bid_score(bid, tricks, VARIANT) == variant_base + bid
            elif bid != tricks:
                assert bid_score(bid, tricks) == -per_trick_missed * abs(tricks - bid)
                assert bid_score(bid, tricks, VARIANT) == tricks
        for scoring in (STANDARD, VARIANT):
            assert trick_score("ciapa-ciapa", bid, scoring) == trick_score("ciapa-ciapa", 1, scoring) * bid
            assert trick_score("misere", bid, scoring) == trick_score("misere", 1, scoring) * bid
    scores = [
        [[signed(per_trick_made)], [str(variant_base)]],
        [[signed(bid_score(0, 0))], [signed(bid_score(0, 0, VARIANT))]],
        [[signed(-per_trick_missed)], []],
        [[signed(trick_score("ciapa-ciapa", 1))], [signed(trick_score("ciapa-ciapa", 1, VARIANT))]],
        [[signed(trick_score("misere", 1))], [signed(trick_score("misere", 1, VARIANT))]],
    ]
    assert table_figures(misere.find("table")) == scores


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worked_examples_are_what_the_app_computes(client: FlaskClient, language: str) -> None:
    """RULES.md's examples: Mizerka deal 1 (C deals, A chooses Hearts), Misère deal 1 (P deals)."""
    _, article = rules_article(client, language)
    mizerka, misere = (article.find("section", id=section_id) for section_id in ("mizerka", "misere"))

    expected: list[str] = []
    total = 0
    for role, tricks in ((FOREHAND, 5), (MIDDLEHAND, 4), (DEALER, 4)):
        score = deal_score("hearts", tricks, quota(role, "hearts"))
        expected += [str(tricks), str(quota(role, "hearts")), signed(score)]
        total += score
    assert figures(mizerka.find("p", cls="example").text) == [*expected, signed(total)]

    bids, tricks = (3, 0, 5), (3, 1, 5, 4)
    forbidden = Misere.forbidden_bid(bids)
    assert forbidden is not None
    dealer_bid = 4
    assert dealer_bid != forbidden and sum(tricks) == TRICKS_PER_DEAL
    points = [bid_score(bid, taken) for bid, taken in zip((*bids, dealer_bid), tricks, strict=True)]
    assert figures(misere.find("p", cls="example").text) == [
        "1",
        *map(str, bids),
        str(forbidden),
        *map(str, (*bids, forbidden)),
        str(TRICKS_PER_DEAL),
        str(dealer_bid),
        *map(str, tricks),
        *map(signed, points),
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_translations_show_the_english_figures(client: FlaskClient, language: str) -> None:
    _, english = rules_article(client, "en")
    _, translated = rules_article(client, language)
    for section_id in SECTIONS:
        ours, theirs = english.find("section", id=section_id), translated.find("section", id=section_id)
        assert table_figures(theirs.find("table")) == table_figures(ours.find("table")), section_id
        assert prose_figures(theirs) == prose_figures(ours), section_id


# -- Kierki ------------------------------------------------------------------------------------------

#: Kierki's words in each language (docs/glossary.md), found in its section, any case.
KIERKI_TERMS = {
    "en": (
        "negative part", "positive part", "two of clubs", "clockwise", "dealer", "names trumps", "No tricks",
        "No hearts", "No queens", "No kings or jacks", "No king of hearts", "No seventh or last trick",
        "Robber", "Trumps", "Fan Tan", "Short (4 players)", "adds up to 0", "scoresheet",
    ),
    "pl": (
        "rozgrywka", "odgrywka", "dwójkę trefl", "osoba rozdająca", "wybiera atu", "bez lew", "bez kierów",
        "bez dam", "bez panów", "bez króla kier", "siódma i ostatnia", "rozbójnik", "loteryjka", "atu",
        "kierki krótkie", "lew", "rozdań", "zapis", "ex aequo",
    ),
    "it": (
        "parte negativa", "parte positiva", "due di fiori", "senso orario", "mazziere", "sceglie la briscola",
        "Niente prese", "Niente cuori", "Niente donne", "Niente re né fanti", "Niente re di cuori",
        "Niente settima né ultima presa", "Brigante", "Lotteria", "Corta (4 giocatori)", "prese",
        "smazzate", "foglio dei punti", "a pari merito",
    ),
}  # fmt: skip

#: The Polish names English and Italian give beside their own (marked ``lang="pl"``).
POLISH_NAMES = (
    "rozgrywka", "odgrywka", "atu", "bez lew", "bez kierów", "bez dam", "bez panów", "bez króla kier",
    "siódma i ostatnia", "rozbójnik", "loteryjka",
)  # fmt: skip


def kierki_section(client: FlaskClient, language: str) -> Node:
    return rules_article(client, language)[1].find("section", id="kierki")


def said(app: Flask, language: str, message: str) -> str:
    """``message`` (a message id of the app) as the app says it in ``language``."""
    with app.test_request_context(), force_locale(language):
        return gettext(message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_kierki_is_explained_in_the_table_s_words(client: FlaskClient, language: str) -> None:
    section = kierki_section(client, language)
    text = own_text(section, language)
    missing = [term for term in KIERKI_TERMS[language] if not has_words(text, term)]
    assert not missing, f"{language}: {missing} are not in the Kierki section"
    if language != "pl":
        polish = " ".join(node.text for node in section.iter() if node.attrs.get("lang") == "pl")
        assert [name for name in POLISH_NAMES if not has_words(polish, name)] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_kierki_s_deals_are_the_app_s_in_the_standard_order(
    app: Flask, client: FlaskClient, language: str
) -> None:
    items = kierki_section(client, language).find("ol", cls="deals").find_all("li")
    named = [item.find("strong").text for item in items]
    order = list(dict.fromkeys(KIERKI_PRESETS[0].order(4)))
    assert named == [said(app, language, KIERKI.contract(contract).label) for contract in order]


def test_kierki_s_points_are_the_rules_engine_s(client: FlaskClient) -> None:
    """Every value of RULES.md 3.6: the full game with 4 players and with 3, and the short game."""
    table = kierki_section(client, "en").find("table")
    columns = [
        KIERKI_PRESETS[0].values_for(4),
        KIERKI_PRESETS[0].values_for(3),
        next(preset for preset in KIERKI_PRESETS if preset.id == "short").values_for(4),
    ]
    assert all(
        preset.values_for(count) == columns[count == 3] for preset in KIERKI_PRESETS[1:3] for count in (4, 3)
    )

    def row(value: Any) -> list[list[str]]:
        return [[signed(value(values))] if value(values) else [] for values in columns]

    assert table_figures(table) == [
        row(lambda values: -values.trick),
        row(lambda values: -values.heart),
        row(lambda values: -values.queen),
        row(lambda values: -values.king_jack),
        row(lambda values: -values.king_of_hearts),
        row(lambda values: -values.seventh_last),
        row(lambda values: values.trump_trick),
        row(lambda values: values.fan_tan[0]),
        row(lambda values: values.fan_tan[1]),
    ]


def test_kierki_s_values_in_polish(client: FlaskClient) -> None:
    """As a Polish table reads them: the robber, the Fan Tan, the king of hearts and the two tricks."""
    section = kierki_section(client, "pl")
    rows = {row.find("th").text: [cell.text for cell in row.find_all("td")] for row in section.find_all("tr")}
    assert rows["króla kier"] == ["−150", "−140", "−16"]
    assert rows["siódmą lewę, ostatnią lewę (każdą)"] == ["−75", "−70", "−9"]
    assert rows["lewę w odgrywce"] == ["+25", "+25", "+10"]
    assert rows["loteryjkę: pierwsze miejsce"] == ["+800", "+790", "–"]
    assert "Rozbójnik" in section.find("ol", cls="deals").text
    assert "Loteryjka" in section.find("ol", cls="deals").text


@pytest.mark.parametrize("language", LANGUAGES)
def test_kierki_s_house_rules_have_the_engine_s_deals(app: Flask, client: FlaskClient, language: str) -> None:
    items = kierki_section(client, language).find("ul", cls="presets").find_all("li")
    assert len(items) == len(KIERKI_PRESETS)
    for item, preset in zip(items, KIERKI_PRESETS, strict=True):
        # The preset's name as the form offers it (the Polish page says "for 4 people" in its own words).
        assert said(app, language, preset.label).startswith(item.find("strong").text)
        deals = {str(len(preset.order(count))) for count in KIERKI.seat_counts if preset.plays_with(count)}
        assert deals <= set(figures(item.text)), (preset.id, item.text)


def test_kierki_adds_up_to_zero_as_the_page_says(client: FlaskClient) -> None:
    """RULES.md 3.7: each part's worth, for every preset and player count, from the engine's amounts."""
    prose = prose_figures(kierki_section(client, "en"))
    for preset in KIERKI_PRESETS:
        for count in KIERKI.seat_counts:
            if not preset.plays_with(count):
                continue
            values, tricks = preset.values_for(count), TRICKS_BY_PLAYERS[count]
            amounts = [deal_amount(values, tricks, contract) for contract in preset.order(count)]
            negative = sum(amount for amount in amounts if amount < 0)
            assert sum(amounts) == 0, (preset.id, count)
            if preset.id in ("standard", "short"):
                assert {signed(negative), signed(-negative)} <= prose, (preset.id, count)
    standard = KIERKI_PRESETS[0].values_for(4)
    parts = [-deal_amount(standard, 13, contract) for contract in (*NEGATIVE_DEALS, ROBBER)]
    parts += [deal_amount(standard, 13, TRUMPS) * 4, deal_amount(standard, 13, FAN_TAN)]
    assert {str(part) for part in parts} <= prose


# -- Barbu -------------------------------------------------------------------------------------------


def barbu_section(client: FlaskClient, language: str) -> Node:
    return rules_article(client, language)[1].find("section", id="barbu")


def said_in_context(app: Flask, language: str, message: str) -> str:
    """``message`` as the app says it in ``language``, in its own context where it has one (Barbu's
    Trumps is not Kierki's)."""
    with app.test_request_context(), force_locale(language):
        return translate(message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_barbu_s_contracts_are_the_engine_s_in_its_order_and_words(
    app: Flask, client: FlaskClient, language: str
) -> None:
    rows = barbu_section(client, language).find("table").find("tbody").find_all("tr")
    named = [row.find("th").text for row in rows]
    assert named == [said_in_context(app, language, contract.label) for contract in barbu.CONTRACTS]
    if language == "pl":
        assert named[5] == "Atu"  # RULES.md 4.3: not Kierki's "Odgrywka"


def test_barbu_s_values_are_the_rules_engine_s(client: FlaskClient) -> None:
    """RULES.md 4.3: each contract's value for each card or trick, and its deal's total, per preset."""
    table = barbu_section(client, "en").find("table")
    standard = barbu.PRESETS_BY_ID["standard"]
    each = [
        [signed(-barbu.TRICK)],
        [signed(-barbu.HEART), signed(-barbu.ACE_OF_HEARTS)],
        [signed(-barbu.QUEEN)],
        [signed(-barbu.KING_OF_HEARTS)],
        ["12", signed(-barbu.PENULTIMATE_TRICK), "13", signed(-barbu.LAST_TRICK)],
        [signed(barbu.TRUMP_TRICK)],
        [signed(value) for value in standard.domino],
    ]
    totals = [[signed(barbu.contract_total(contract, standard))] for contract in barbu.CONTRACT_IDS]
    assert table_figures(table) == [[one, total] for one, total in zip(each, totals, strict=True)]
    # Each declarer's seven add up to 0 in every preset, as the page says (−130 and +130).
    for preset in barbu.PRESETS:
        assert sum(barbu.contract_total(contract, preset) for contract in barbu.CONTRACT_IDS) == 0
    negative = sum(barbu.contract_total(c, standard) for c in barbu.CONTRACT_IDS if c not in barbu.POSITIVE)
    assert {signed(negative), signed(-negative)} <= prose_figures(barbu_section(client, "en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_barbu_s_example_is_what_the_engine_computes(client: FlaskClient, language: str) -> None:
    """RULES.md 4.6's example (4.9, deal 3): contract points, the two settlements, the deal scores."""
    facts = {"hearts": (2, 6, 0, 5), "ace_of_hearts": 1}
    points = barbu.contract_points(barbu.NO_HEARTS, facts, barbu.PRESETS_BY_ID["standard"])
    doubles = (barbu.Double(2, 0), barbu.Double(2, 1, redoubled=True))
    scores = barbu.deal_scores(points, doubles)
    example = figures(barbu_section(client, language).find("p", cls="example").text)
    against_bartek = doubles[1].settled(points)
    assert example == [
        *(str(facts["hearts"][seat]) for seat in range(2)),
        *(str(facts["hearts"][seat]) for seat in (3,)),
        *map(signed, points),
        str(doubles[0].settled(points)),
        "2",
        str(against_bartek // 2),
        str(against_bartek),
        *map(signed, scores),
        signed(sum(scores)),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_barbu_s_house_rules_are_the_engine_s(app: Flask, client: FlaskClient, language: str) -> None:
    items = barbu_section(client, language).find("ul", cls="presets").find_all("li")
    assert [item.find("strong").text for item in items] == [
        said(app, language, preset.label) for preset in barbu.PRESETS
    ]
    domino_10 = barbu.PRESETS_BY_ID["domino-10"].domino
    assert [signed(value) for value in domino_10] == figures(items[2].text.split(":", 1)[1])
