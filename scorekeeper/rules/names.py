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
"""

from __future__ import annotations

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


def storable_text(text: str) -> bool:
    """Whether both databases store ``text`` alike: no NUL, no lone surrogate (not UTF-8)."""
    return "\x00" not in text and not any(0xD800 <= ord(char) <= 0xDFFF for char in text)


def normalise_text(raw: str) -> str:
    """Free text as stored: trimmed, inner runs of white space folded to one space, Unicode NFC."""
    return unicodedata.normalize("NFC", " ".join(raw.split()))


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """The form in which two names are compared: invisible characters removed, NFKC, case folded.

    Kept for the names last seen (a pure function of the text): a deal's tricks name each
    player, and every write compares those names with the game's.

    Look-alikes that differ only by case, compatibility forms (full-width letters,
    ligatures) or invisible characters get the same key, so they cannot sit at one
    table or be two people.
    """
    # White space first (a tab is a space, not an invisible character), then the invisible ones go.
    visible = "".join(char for char in " ".join(name.split()) if not is_invisible(char))
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())
    return " ".join(folded.split())


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
                {"most": MAX_NAME_LENGTH, "start": name[:12], "length": len(name)},
            )
        raise RuleError(
            code, N_("Names can be at most %(most)d characters."), field, {"most": MAX_NAME_LENGTH}
        )
    if any(is_invisible(char) for char in name):
        raise RuleError(code, N_("Names cannot contain control or invisible formatting characters."), field)
    if not any(unicodedata.category(char).startswith(_VISIBLE_CATEGORIES) for char in name):
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
    Kept for the names last seen, as ``name_key`` is.
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
