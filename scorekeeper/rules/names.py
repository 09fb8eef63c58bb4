"""Player names and free text: what may be stored, and when two names are the same name.

Pure functions (no web or database imports), used by the rules engine when it
checks a game's seating and by the services for everything else that names a
person (rename, merge, import) or stores free text (a game's note).

Two checks live here:

* ``storable_text``: text both databases accept alike.  PostgreSQL refuses a NUL
  character and text that is not valid UTF-8 (a lone surrogate); SQLite would
  store them.  Every text that can reach the database goes through it, so the
  two backends refuse the same input with the same message.
* ``validate_name``: a name a person can read.  It must be visibly non-empty and
  visibly distinct from every other name: control and formatting characters,
  Unicode's default-ignorable code points (zero-width joiners, variation
  selectors, the combining grapheme joiner...) and characters that render as
  blank (Hangul fillers, the blank Braille pattern) are refused, and two names
  are compared by ``name_key``, which folds case and compatibility forms
  (NFKC), so "Bob", "BOB" and "Ｂｏｂ" are one name.

Emoji are names too ("♠️ Pik", "👩‍💻 Ada", "👩‍👩‍👧", "👍🏽", "🇵🇱", "#️⃣"): a joiner, a
variation selector or a tag is taken where it belongs to an emoji sequence as UTS #51 defines
one (``emoji_sequences``) and refused anywhere else (alone, leading, trailing, between
letters), where it would only hide or disguise.  In the key a ZWJ sequence keeps its joiners
and a tag sequence its tags, so "👩‍💻" is not "👩💻" and one flag is not another; a
variation selector only picks how an emoji is drawn, so "♠️ Pik" and "♠ Pik" are one name.
"""

from __future__ import annotations

import bisect
import functools
import unicodedata

from .refusal import RuleError
from .words import N_

#: The longest name a player may have.
MAX_NAME_LENGTH = 40
#: The longest comparison key the database keeps (``players.name_key``).
NAME_KEY_LENGTH = 160

#: Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 15.1):
#: characters that render as nothing at all when a font has no glyph for them.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, directional marks
    (0x202A, 0x202E),  # bidirectional embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, deprecated format characters
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte-order mark)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned specials
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol formatting
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)

#: Characters that are not default-ignorable but still draw nothing visible.
BLANK_FILLERS = frozenset(
    {
        0x2800,  # Braille pattern blank
        0x1D159,  # musical symbol null notehead
        0x2028,  # line separator
        0x2029,  # paragraph separator
    }
)

#: Unicode's Extended_Pictographic property (UTS #51, emoji-data.txt): the pictographs that
#: start an emoji sequence, reserved code points for future emoji included.  Ranges as the
#: ``regex`` package 2026.5.9 reads ``\p{Extended_Pictographic}`` from its Unicode data;
#: ``tests/unit/test_names.py`` checks well-known emoji of each kind against it.
EXTENDED_PICTOGRAPHIC: tuple[tuple[int, int], ...] = (
    (0x00A9, 0x00A9),
    (0x00AE, 0x00AE),
    (0x203C, 0x203C),
    (0x2049, 0x2049),
    (0x2122, 0x2122),
    (0x2139, 0x2139),
    (0x2194, 0x2199),
    (0x21A9, 0x21AA),
    (0x231A, 0x231B),
    (0x2328, 0x2328),
    (0x23CF, 0x23CF),
    (0x23E9, 0x23F3),
    (0x23F8, 0x23FA),
    (0x24C2, 0x24C2),
    (0x25AA, 0x25AB),
    (0x25B6, 0x25B6),
    (0x25C0, 0x25C0),
    (0x25FB, 0x25FE),
    (0x2600, 0x2604),
    (0x260E, 0x260E),
    (0x2611, 0x2611),
    (0x2614, 0x2615),
    (0x2618, 0x2618),
    (0x261D, 0x261D),
    (0x2620, 0x2620),
    (0x2622, 0x2623),
    (0x2626, 0x2626),
    (0x262A, 0x262A),
    (0x262E, 0x262F),
    (0x2638, 0x263A),
    (0x2640, 0x2640),
    (0x2642, 0x2642),
    (0x2648, 0x2653),
    (0x265F, 0x2660),
    (0x2663, 0x2663),
    (0x2665, 0x2666),
    (0x2668, 0x2668),
    (0x267B, 0x267B),
    (0x267E, 0x267F),
    (0x2692, 0x2697),
    (0x2699, 0x2699),
    (0x269B, 0x269C),
    (0x26A0, 0x26A1),
    (0x26A7, 0x26A7),
    (0x26AA, 0x26AB),
    (0x26B0, 0x26B1),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26C8, 0x26C8),
    (0x26CE, 0x26CF),
    (0x26D1, 0x26D1),
    (0x26D3, 0x26D4),
    (0x26E9, 0x26EA),
    (0x26F0, 0x26F5),
    (0x26F7, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2702, 0x2702),
    (0x2705, 0x2705),
    (0x2708, 0x270D),
    (0x270F, 0x270F),
    (0x2712, 0x2712),
    (0x2714, 0x2714),
    (0x2716, 0x2716),
    (0x271D, 0x271D),
    (0x2721, 0x2721),
    (0x2728, 0x2728),
    (0x2733, 0x2734),
    (0x2744, 0x2744),
    (0x2747, 0x2747),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2763, 0x2764),
    (0x2795, 0x2797),
    (0x27A1, 0x27A1),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2934, 0x2935),
    (0x2B05, 0x2B07),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3297),
    (0x3299, 0x3299),
    (0x1F004, 0x1F004),
    (0x1F02C, 0x1F02F),
    (0x1F094, 0x1F09F),
    (0x1F0AF, 0x1F0B0),
    (0x1F0C0, 0x1F0C0),
    (0x1F0CF, 0x1F0D0),
    (0x1F0F6, 0x1F0FF),
    (0x1F170, 0x1F171),
    (0x1F17E, 0x1F17F),
    (0x1F18E, 0x1F18E),
    (0x1F191, 0x1F19A),
    (0x1F1AE, 0x1F1E5),
    (0x1F201, 0x1F20F),
    (0x1F21A, 0x1F21A),
    (0x1F22F, 0x1F22F),
    (0x1F232, 0x1F23A),
    (0x1F23C, 0x1F23F),
    (0x1F249, 0x1F25F),
    (0x1F266, 0x1F321),
    (0x1F324, 0x1F393),
    (0x1F396, 0x1F397),
    (0x1F399, 0x1F39B),
    (0x1F39E, 0x1F3F0),
    (0x1F3F3, 0x1F3F5),
    (0x1F3F7, 0x1F3FA),
    (0x1F400, 0x1F4FD),
    (0x1F4FF, 0x1F53D),
    (0x1F549, 0x1F54E),
    (0x1F550, 0x1F567),
    (0x1F56F, 0x1F570),
    (0x1F573, 0x1F57A),
    (0x1F587, 0x1F587),
    (0x1F58A, 0x1F58D),
    (0x1F590, 0x1F590),
    (0x1F595, 0x1F596),
    (0x1F5A4, 0x1F5A5),
    (0x1F5A8, 0x1F5A8),
    (0x1F5B1, 0x1F5B2),
    (0x1F5BC, 0x1F5BC),
    (0x1F5C2, 0x1F5C4),
    (0x1F5D1, 0x1F5D3),
    (0x1F5DC, 0x1F5DE),
    (0x1F5E1, 0x1F5E1),
    (0x1F5E3, 0x1F5E3),
    (0x1F5E8, 0x1F5E8),
    (0x1F5EF, 0x1F5EF),
    (0x1F5F3, 0x1F5F3),
    (0x1F5FA, 0x1F64F),
    (0x1F680, 0x1F6C5),
    (0x1F6CB, 0x1F6D2),
    (0x1F6D5, 0x1F6E5),
    (0x1F6E9, 0x1F6E9),
    (0x1F6EB, 0x1F6F0),
    (0x1F6F3, 0x1F6FF),
    (0x1F7DA, 0x1F7FF),
    (0x1F80C, 0x1F80F),
    (0x1F848, 0x1F84F),
    (0x1F85A, 0x1F85F),
    (0x1F888, 0x1F88F),
    (0x1F8AE, 0x1F8AF),
    (0x1F8BC, 0x1F8BF),
    (0x1F8C2, 0x1F8CF),
    (0x1F8D9, 0x1F8FF),
    (0x1F90C, 0x1F93A),
    (0x1F93C, 0x1F945),
    (0x1F947, 0x1F9FF),
    (0x1FA58, 0x1FA5F),
    (0x1FA6E, 0x1FAFF),
    (0x1FC00, 0x1FFFD),
)
_PICTOGRAPHIC_STARTS = tuple(low for low, _ in EXTENDED_PICTOGRAPHIC)

ZWJ = "\u200d"  # zero-width joiner: joins emoji into one (👩 + 💻 = 👩‍💻)
VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")  # text or emoji presentation of the emoji before
EMOJI_PRESENTATION = "\ufe0f"
KEYCAP = "\u20e3"  # combining enclosing keycap: 1 + U+FE0F + U+20E3 = 1️⃣
KEYCAP_BASES = frozenset("0123456789#*")
TAG_TERM = "\U000e007f"  # cancel tag: ends a tag sequence (🏴 + gbsct + U+E007F = Scotland's flag)


def is_pictographic(char: str) -> bool:
    """Whether ``char`` is Extended_Pictographic (an emoji, or a code point reserved for one)."""
    point = ord(char)
    at = bisect.bisect_right(_PICTOGRAPHIC_STARTS, point) - 1
    return at >= 0 and point <= EXTENDED_PICTOGRAPHIC[at][1]


def _is_regional_indicator(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _is_emoji_modifier(char: str) -> bool:
    return 0x1F3FB <= ord(char) <= 0x1F3FF  # the five skin tones


def _is_tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007E


def _element_end(text: str, start: int) -> int | None:
    """Where the emoji element at ``start`` ends (UTS #51 ``zwj_element``), or None if none starts there.

    An element is a pair of regional indicators (a flag), a keycap (0-9 # * with U+FE0F U+20E3),
    or a pictograph with at most one modification: a variation selector, a skin tone, or tags
    closed by the cancel tag.
    """
    char, end = text[start], len(text)
    if _is_regional_indicator(char):
        return start + 2 if start + 1 < end and _is_regional_indicator(text[start + 1]) else None
    if char in KEYCAP_BASES:
        for tail in (EMOJI_PRESENTATION + KEYCAP, KEYCAP):
            if text.startswith(tail, start + 1):
                return start + 1 + len(tail)
        return None
    if not is_pictographic(char):
        return None
    after = start + 1
    if after < end and (text[after] in VARIATION_SELECTORS or _is_emoji_modifier(text[after])):
        return after + 1
    tags = after
    while tags < end and _is_tag(text[tags]):
        tags += 1
    if tags > after and tags < end and text[tags] == TAG_TERM:
        return tags + 1
    return after


def emoji_sequences(text: str) -> list[tuple[int, int]]:
    """The emoji sequences of ``text``, as (start, end) slices: elements joined by ZWJ (UTS #51).

    A joiner counts only between two elements: one that leads, trails or sits beside a letter
    belongs to no sequence.
    """
    found: list[tuple[int, int]] = []
    at = 0
    while at < len(text):
        end = _element_end(text, at)
        if end is None:
            at += 1
            continue
        start = at
        while end + 1 < len(text) and text[end] == ZWJ:
            joined = _element_end(text, end + 1)
            if joined is None:
                break
            end = joined
        found.append((start, end))
        at = end
    return found


def _in_sequences(text: str) -> set[int]:
    """The positions of ``text`` that belong to an emoji sequence."""
    return {at for start, end in emoji_sequences(text) for at in range(start, end)}


def graphemes(text: str) -> list[str]:
    """``text`` as the characters a reader sees: an emoji sequence is one, a letter keeps its accents.

    For cutting a name short (marks, a long name's first letters) without splitting an emoji.
    """
    starts = dict(emoji_sequences(text))
    parts: list[str] = []
    at = 0
    while at < len(text):
        end = starts.get(at, at + 1)
        while end < len(text) and end not in starts and unicodedata.category(text[end]).startswith("M"):
            end += 1
        parts.append(text[at:end])
        at = end
    return parts


#: General categories never allowed in a name or a note: controls, formats, surrogates,
#: private use and unassigned code points (they can disguise text or render unpredictably).
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: A name needs at least one character of these categories: a letter, number, punctuation or symbol.
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def is_default_ignorable(char: str) -> bool:
    """Whether ``char`` is a Unicode default-ignorable code point."""
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def is_invisible(char: str) -> bool:
    """Whether ``char`` draws nothing (or may disguise the text around it) when a name is shown."""
    return (
        is_default_ignorable(char)
        or ord(char) in BLANK_FILLERS
        or unicodedata.category(char) in _HIDDEN_CATEGORIES
    )


def _shows(char: str) -> bool:
    """Whether ``char`` draws something: a letter, number, punctuation, symbol or pictograph."""
    return unicodedata.category(char).startswith(_VISIBLE_CATEGORIES) or is_pictographic(char)


def storable_text(text: str) -> bool:
    """Whether both databases store ``text`` alike: no NUL, no lone surrogate (not UTF-8)."""
    return "\x00" not in text and not any(0xD800 <= ord(char) <= 0xDFFF for char in text)


def normalise_text(raw: str) -> str:
    """Free text as stored: trimmed, inner runs of white space folded to one space, Unicode NFC."""
    return unicodedata.normalize("NFC", " ".join(raw.split()))


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """The form in which two names are compared: invisible characters removed, NFKC, case folded.

    Cached for the names last seen (a pure function of the text): a deal's tricks name each
    player, and every write compares those names with the game's.

    Look-alikes that differ only by case, compatibility forms (full-width letters,
    ligatures) or invisible characters get the same key, so they cannot sit at one
    table or be two people.  An emoji sequence keeps its joiners and tags (``emoji_sequences``):
    "👩‍💻" and "👩💻" are not drawn alike.
    """
    # White space first (a tab is a space, not an invisible character).
    spaced = " ".join(name.split())
    parts: list[str] = []
    done = 0
    for start, end in emoji_sequences(spaced):
        sequence = spaced[start:end]
        if any(char == ZWJ or _is_tag(char) for char in sequence):
            # Joined or tagged: left as it is drawn, but for its variation selectors.
            drawn = "".join(char for char in sequence if char not in VARIATION_SELECTORS)
            parts += [_folded(spaced[done:start]), drawn]
            done = end
    parts.append(_folded(spaced[done:]))
    return " ".join("".join(parts).split())


def _folded(text: str) -> str:
    """``text`` without its invisible characters, NFKC, case folded (``name_key`` of plain text)."""
    visible = "".join(char for char in text if not is_invisible(char))
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())


def validate_name(raw: object, *, in_game: bool = False) -> str:
    """A person's name as stored (trimmed, white space folded, NFC), or a ``RuleError`` saying why not.

    On its own (naming or renaming a person) a bad name is refused with ``invalid_name``;
    ``in_game`` words the refusal for a game's list of players (``invalid_players``).
    """
    code, field = ("invalid_players", "players") if in_game else ("invalid_name", "name")
    if not isinstance(raw, str):
        raise RuleError(
            code, N_("Each player's name must be text.") if in_game else N_("The name must be text."), field
        )
    if not storable_text(raw):
        raise RuleError(code, N_("Names cannot contain control or invisible formatting characters."), field)
    name = normalise_text(raw)
    if not name:
        raise RuleError(
            code, N_("Every player needs a name.") if in_game else N_("A player needs a name."), field
        )
    if len(name) > MAX_NAME_LENGTH:
        if in_game:
            raise RuleError(
                code,
                N_("Names can be at most %(most)d characters (%(start)s… has %(length)d)."),
                field,
                {"most": MAX_NAME_LENGTH, "start": "".join(graphemes(name)[:12]), "length": len(name)},
            )
        raise RuleError(
            code, N_("Names can be at most %(most)d characters."), field, {"most": MAX_NAME_LENGTH}
        )
    if any(is_invisible(char) for char in name):
        joined = _in_sequences(name)
        if any(is_invisible(char) and at not in joined for at, char in enumerate(name)):
            raise RuleError(
                code, N_("Names cannot contain control or invisible formatting characters."), field
            )
    if not any(_shows(char) for char in name):
        raise RuleError(code, N_("A name needs at least one letter, number or sign that shows."), field)
    if len(name_key(name)) > NAME_KEY_LENGTH:
        raise RuleError(
            code, N_("That name is too long once written out in full; choose a shorter one."), field
        )
    return name


@functools.lru_cache(maxsize=4096)
def _key_of_a_name(text: str) -> str | None:
    try:
        return name_key(validate_name(text))
    except RuleError:
        return None


def player_key(raw: object) -> str | None:
    """The ``name_key`` of ``raw`` when it is a name ``validate_name`` would store, else None.

    Whatever names a player in a request (the first dealer, the names that key tricks and bids)
    is matched by this key, so a name the rules would refuse to store never names anyone:
    "Ann\u0000" or "Ann\u200b" is not Ann, although ``name_key`` drops what hides in it.
    Cached for the names last seen, as ``name_key`` is.
    """
    return _key_of_a_name(raw) if isinstance(raw, str) else None


def validate_note(raw: object, *, limit: int, field: str = "note") -> str | None:
    """An optional free-text note as stored (blank is none), or a ``RuleError`` (``invalid_note``)."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise RuleError("invalid_note", N_("The note must be text."), field)
    if not storable_text(raw):
        raise RuleError("invalid_note", N_("The note cannot contain control characters."), field)
    text = normalise_text(raw)
    if len(text) > limit:
        raise RuleError(
            "invalid_note", N_("The note can be at most %(most)d characters."), field, {"most": limit}
        )
    if any(unicodedata.category(char) in _HIDDEN_CATEGORIES for char in text):
        raise RuleError("invalid_note", N_("The note cannot contain control characters."), field)
    return text or None


def normalise_name(raw: object) -> str:
    """A player's name as stored: trimmed, inner runs of white space folded, Unicode NFC.

    NFC makes "José" typed as e + combining accent the same name as the precomposed one.
    """
    if not isinstance(raw, str):
        raise RuleError("invalid_players", N_("Each player's name must be text."), "players")
    return normalise_text(raw)


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds control, format, surrogate, private-use or unassigned characters."""
    # Bidi overrides and other format characters can disguise a name on the sheet.
    return any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in text)
