"""The engine's name rules: visibly non-empty, visibly distinct, storable on every database."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    NAME_KEY_LENGTH,
    RuleError,
    get_ruleset,
    is_invisible,
    name_key,
    storable_text,
    validate_name,
    validate_note,
)

MIZERKA = get_ruleset("mizerka")

INVISIBLE = [
    "\u034f",  # combining grapheme joiner
    "\ufe0f",  # variation selector 16
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\u180e",  # Mongolian vowel separator
    "\ufeff",  # byte-order mark
    "\U000e0020",  # tag space
    "\U000e0100",  # variation selector 17
    "\u202e",  # right-to-left override
]
BLANK = ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\U0001d159"]


@pytest.mark.parametrize("char", INVISIBLE + BLANK)
def test_invisible_and_blank_characters_are_refused(char: str) -> None:
    assert is_invisible(char)
    for name in (char, "Bob" + char, char * 5, "B" + char + "ob"):
        with pytest.raises(RuleError) as refused:
            validate_name(name)
        assert refused.value.code == "invalid_name"
        with pytest.raises(RuleError) as refused:
            MIZERKA.validate_players(["Ann", name, "Cid"])
        assert refused.value.code == "invalid_players"


@pytest.mark.parametrize("text", ["\x00", "A\x00", "A\ud800", "\udfff"])
def test_text_no_database_stores_alike_is_refused(text: str) -> None:
    assert not storable_text(text)
    with pytest.raises(RuleError):
        validate_name(text)
    with pytest.raises(RuleError) as refused:
        validate_note(text, limit=200)
    assert refused.value.code == "invalid_note"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Bob", "BOB"),
        ("Bob", "Ｂｏｂ"),  # full-width
        ("ﬁona", "Fiona"),  # ligature
        ("Straße", "STRASSE"),
        ("Bob", "Bob\u034f"),
        ("Bob", "B\u200bob"),
        ("Ann Lee", "Ann\tLee"),
        ("José", "Jose\u0301"),  # composed and decomposed
    ],
)
def test_look_alikes_have_one_key(first: str, second: str) -> None:
    assert name_key(first) == name_key(second)


def test_look_alikes_cannot_share_a_table() -> None:
    with pytest.raises(RuleError) as refused:
        MIZERKA.validate_players(["Bob", "Ｂｏｂ", "Cid"])
    assert refused.value.code == "invalid_players"
    setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "ｂｏｂ")
    assert setup.first_dealer == 1


def test_a_name_needs_something_that_shows() -> None:
    for name in ("\u0301", "\u0301\u0302"):
        with pytest.raises(RuleError):
            validate_name(name)
    assert validate_name("  Ann   Lee ") == "Ann Lee"
    assert validate_name("Zoë") == "Zoë"
    assert validate_name("李") == "李"
    assert validate_name("O'Brien-Smith") == "O'Brien-Smith"


def test_a_name_whose_key_outgrows_the_column_is_refused() -> None:
    # U+FDFA is one character that NFKC writes out as eighteen.
    with pytest.raises(RuleError):
        validate_name("\ufdfa" * 10)
    assert len(name_key(validate_name("\ufdfa" * 2))) <= NAME_KEY_LENGTH


@given(st.text(max_size=50))
def test_any_text_is_a_valid_name_or_a_rule_error(raw: str) -> None:
    try:
        name = validate_name(raw)
    except RuleError as refused:
        assert refused.code == "invalid_name"
        return
    assert storable_text(name) and name == name.strip()
    assert not any(is_invisible(char) for char in name)
    assert any(unicodedata.category(char)[0] in "LNPS" for char in name)
    assert len(name_key(name)) <= NAME_KEY_LENGTH
    assert name_key(name) == name_key(name_key(name))  # a key is its own key


@given(st.text(max_size=300))
def test_any_text_is_a_valid_note_or_a_rule_error(raw: str) -> None:
    try:
        note = validate_note(raw, limit=200)
    except RuleError as refused:
        assert refused.code == "invalid_note"
        return
    assert note is None or (storable_text(note) and 0 < len(note) <= 200)
