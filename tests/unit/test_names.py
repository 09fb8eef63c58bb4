"""The engine's name rules: visibly non-empty, visibly distinct, storable on every database."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    NAME_KEY_LENGTH,
    RuleError,
    emoji_sequences,
    get_ruleset,
    graphemes,
    is_invisible,
    name_key,
    storable_text,
    validate_name,
    validate_note,
)
from scorekeeper.rules.names import EXTENDED_PICTOGRAPHIC, is_pictographic

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
    assert_a_visible_name(name)


def assert_a_visible_name(name: str) -> None:
    """Storable, trimmed, something to see, nothing hidden outside an emoji sequence; a stable key."""
    assert storable_text(name) and name == name.strip()
    in_sequences = {at for start, end in emoji_sequences(name) for at in range(start, end)}
    assert not any(is_invisible(char) and at not in in_sequences for at, char in enumerate(name))
    assert any(unicodedata.category(char)[0] in "LNPS" or is_pictographic(char) for char in name)
    assert len(name_key(name)) <= NAME_KEY_LENGTH
    assert name_key(name) == name_key(name_key(name))  # a key is its own key


# -- emoji (UTS #51 sequences) ----------------------------------------------------------------------

#: Names people type on a phone: each is taken as it is typed (issue 31, point 12).
EMOJI_NAMES = [
    "\u2660\ufe0f Pik",  # ♠️: the variation selector phone keyboards add to ♠ ♥ ♦ ♣
    "\u2665\ufe0f\u2666\ufe0f\u2663\ufe0f",
    "\U0001f469\u200d\U0001f4bb Ada",  # 👩‍💻: a ZWJ sequence
    "\U0001f469\u200d\U0001f469\u200d\U0001f467",  # 👩‍👩‍👧
    "\U0001f44d\U0001f3fd Bo",  # 👍🏽: a skin tone
    "\U0001f9d1\U0001f3fb\u200d\U0001f91d\u200d\U0001f9d1\U0001f3ff",  # skin tones in a ZWJ sequence
    "\U0001f1f5\U0001f1f1 Ola",  # 🇵🇱: a pair of regional indicators
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Ian",  # Scotland: tags
    "#\ufe0f\u20e3 Kim",  # #️⃣: a keycap
    "Team 1\ufe0f\u20e3",
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # 🏳️‍🌈
    "\u2764\ufe0f\u200d\U0001f525 Zoe",  # ❤️‍🔥
    "\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f",  # 👁️‍🗨️
    "\u263a\ufe0e Max",  # ☺︎: text presentation asked for
]

#: A joiner, selector or tag that hides or disguises: alone, leading, trailing, between letters.
HIDING = [
    "\u200d",
    "\ufe0f",
    "\u200dAnn",
    "Ann\u200d",
    "A\u200dnn",
    "Ann\ufe0f",
    "A\ufe0fnn",
    "\ufe0f\U0001f469",  # a selector before the emoji, not after
    "\U0001f469\u200d",  # a joiner with nothing to join
    "\u200d\U0001f469",
    "\U0001f469\u200d Ann",
    "\U0001f469\u200dA",
    "A\u200d\U0001f469",
    "\U0001f469\u200d\u200d\U0001f4bb",
    "\u2660\ufe0f\ufe0f Pik",
    "1\ufe0f Kim",  # a selector on a digit without its keycap draws nothing
    "\U0001f3f4\U000e0067\U000e0062 Ian",  # tags never closed
    "Ann\U000e0067\U000e007f",  # tags after a letter
    "\U000e007f",
    "\U0001f1f5\u200d\U0001f1f1",  # a joiner between two halves of a flag
]


@pytest.mark.parametrize("name", EMOJI_NAMES)
def test_emoji_sequences_are_names(name: str) -> None:
    assert validate_name(name) == name
    assert MIZERKA.validate_players([name, "Bob", "Cid"])[0] == name
    assert_a_visible_name(name)


@pytest.mark.parametrize("name", HIDING)
def test_a_joiner_or_selector_that_hides_is_refused_at_its_seat(name: str) -> None:
    with pytest.raises(RuleError) as refused:
        validate_name(name)
    assert refused.value.code == "invalid_name"
    with pytest.raises(RuleError) as refused:
        MIZERKA.validate_players(["Ann", "Bob", name])
    assert refused.value.code == "invalid_players" and refused.value.params["seat"] == 2


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("\u2660\ufe0f Pik", "\u2660 PIK"),  # a variation selector only picks how ♠ is drawn
        ("\U0001f469\u200d\U0001f4bb ADA", "\U0001f469\u200d\U0001f4bb ada"),
        ("\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f3f3\u200d\U0001f308"),
        ("Team 1\ufe0f\u20e3", "team 1\u20e3"),
    ],
)
def test_names_equal_after_folding_stay_one_name(one: str, other: str) -> None:
    assert name_key(validate_name(one)) == name_key(validate_name(other))
    with pytest.raises(RuleError) as refused:
        MIZERKA.validate_players(["Ann", one, other])
    assert refused.value.params["seat"] == 2


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469\U0001f4bb"),  # 👩‍💻 is not 👩💻
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469"),
        ("\U0001f469\u200d\U0001f469\u200d\U0001f467", "\U0001f469\U0001f469\U0001f467"),
        ("\U0001f44d\U0001f3fd", "\U0001f44d"),  # a skin tone shows
        ("\U0001f1f5\U0001f1f1", "\U0001f1e9\U0001f1ea"),
        (  # Scotland is not England, though both are 🏴 and tags
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
            "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
        ),
    ],
)
def test_an_emoji_sequence_is_not_folded_into_another_name(one: str, other: str) -> None:
    assert name_key(validate_name(one)) != name_key(validate_name(other))
    assert MIZERKA.validate_players([one, other, "Cid"])[:2] == (one, other)


def test_keys_of_names_without_a_joined_emoji_are_as_they_were() -> None:
    """The keys stored before emoji sequences were names: a pictograph folds as it always did."""
    assert name_key("Bob\u203c") == "bob!!"
    assert name_key("\u2122 Kim") == "tm kim"
    assert name_key("\u2660 Pik") == "\u2660 pik"
    assert name_key("A\u200dnn") == "ann"  # a joiner that joins no emoji still folds away


def test_graphemes_keep_an_emoji_and_a_letter_s_accents_whole() -> None:
    assert graphemes("\U0001f469\u200d\U0001f4bb Ada") == ["\U0001f469\u200d\U0001f4bb", " ", "A", "d", "a"]
    assert graphemes("\u2660\ufe0fe\u0301") == ["\u2660\ufe0f", "e\u0301"]
    assert graphemes("\U0001f1f5\U0001f1f1\U0001f1e9\U0001f1ea") == [
        "\U0001f1f5\U0001f1f1",
        "\U0001f1e9\U0001f1ea",
    ]


def test_the_extended_pictographic_table() -> None:
    """Sorted, apart, and right about well-known emoji of every kind (and about what is no pictograph)."""
    for (low, high), (next_low, _) in itertools.pairwise(EXTENDED_PICTOGRAPHIC):
        assert low <= high < next_low - 1
    well_known = "\u00a9\u00ae\u203c\u2122\u231a\u2660\u2663\u2665\u2666\u2764\u2b50"
    for char in well_known + "\U0001f004\U0001f600\U0001f469\U0001f4bb\U0001f3f4\U0001f9d1\U0001fae8":
        assert is_pictographic(char), hex(ord(char))
    for char in "Aa0#*\u00e9\u2212\u20e3\u200d\ufe0f\U0001f1f5\U0001f3fb\U000e0067":
        assert not is_pictographic(char), hex(ord(char))


EMOJI_PARTS = st.sampled_from(
    [
        "\u200d",
        "\ufe0f",
        "\ufe0e",
        "\u20e3",
        "\U000e0067",
        "\U000e007f",
        "\U0001f469",
        "\U0001f4bb",
        "\u2660",
        "\U0001f3fd",
        "\U0001f1f5",
        "\U0001f1f1",
        "1",
        "#",
        "A",
        "b",
        " ",
        "\u0301",
        "\u2122",
    ]
)


@given(st.lists(EMOJI_PARTS, max_size=12).map("".join))
def test_any_mix_of_emoji_parts_is_a_visible_name_or_refused(raw: str) -> None:
    try:
        name = validate_name(raw)
    except RuleError as refused:
        assert refused.code == "invalid_name"
        return
    assert_a_visible_name(name)


@given(st.text(max_size=300))
def test_any_text_is_a_valid_note_or_a_rule_error(raw: str) -> None:
    try:
        note = validate_note(raw, limit=200)
    except RuleError as refused:
        assert refused.code == "invalid_note"
        return
    assert note is None or (storable_text(note) and 0 < len(note) <= 200)
