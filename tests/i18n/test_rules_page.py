"""The rules page in English, Polish and Italian: each in its own words (docs/glossary.md), all
with the same figures, and those figures the ones the rules engine computes."""

from __future__ import annotations

import itertools
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import TRICKS_PER_DEAL, get_ruleset
from scorekeeper.rules.misere import CONTRACTS as MISERE_DEALS
from scorekeeper.rules.misere import STANDARD, VARIANT, Misere, bid_score, trick_score
from scorekeeper.rules.mizerka import DEALER, FOREHAND, MIDDLEHAND, deal_score, quota
from tests.helpers import Node, page, parse_html

pytestmark = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

LANGUAGES = ("en", "pl", "it")
TRANSLATED = ("pl", "it")
SECTIONS = ("mizerka", "misere")

#: A figure as the page writes it: an optional sign (typographic minus or plus) and digits.
FIGURE = re.compile(r"[+−-]?\d+")

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
    """The figures of a text in order, a hyphen read as the minus sign."""
    return [figure.replace("-", "−") for figure in FIGURE.findall(text)]


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
    leaks = [word for word in FOREIGN[language] if has_words(article.text, word)]
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
    # The game page links to /rules#mizerka and /rules#misere.
    for section_id in SECTIONS:
        section = article.find("section", id=section_id)
        heading = section.find("h2", id=section.attrs["aria-labelledby"] or "")
        assert heading.text
    levels = [int(node.tag[1]) for node in article.iter() if re.fullmatch(r"h[1-6]", node.tag)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(after <= before + 1 for before, after in itertools.pairwise(levels)), levels
    tables = article.find_all("table")
    assert len(tables) == 2
    for table in tables:
        assert all(cell.attrs.get("scope") == "col" for cell in table.find("thead").find_all("th"))
        assert all(cell.attrs.get("scope") == "row" for cell in table.find("tbody").find_all("th"))


# -- the figures -------------------------------------------------------------------------------


def test_the_english_figures_are_the_rules_engine_s(client: FlaskClient) -> None:
    _, article = rules_article(client, "en")
    mizerka, misere = (article.find("section", id=section_id) for section_id in SECTIONS)

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
    mizerka, misere = (article.find("section", id=section_id) for section_id in SECTIONS)

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
