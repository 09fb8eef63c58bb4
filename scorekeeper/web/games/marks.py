"""Short marks the pages draw in narrow places: a role's label, a player's mark (initials) where a
name does not fit a column, a contract's mark (a suit, two or three letters)."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext

from ...rules import RULESETS, graphemes

#: A role's label (a message id), by role, as the games declare them (``Ruleset.role_labels``); a
#: player without a role has none.
ROLE_LABELS = {role: label for ruleset in RULESETS.values() for role, label in ruleset.role_labels.items()}


def role_label(role: str) -> str:
    """A role as the page names it, in the request's language."""
    label = ROLE_LABELS.get(role, role)
    return str(gettext(label)) if label else ""


# A name fits a phone's log column (a quarter of a 320 px screen) in a few lines without a word broken:
# no word longer than this, and not longer than that in all.
COLUMN_WORD = 10
COLUMN_NAME = 30


def fits_a_column(name: str) -> bool:
    return len(name) <= COLUMN_NAME and max(map(len, name.split()), default=0) <= COLUMN_WORD


# On paper (the printed sheet's dealer and chooser columns, static/css/print.css), by the number of
# players: the characters a line of the column holds, and the lines a name may take there while the
# sheet's deals stay on one page (three players: 18 deals, two names a deal, one line; four: 8 deals,
# one name, up to four lines).
SHEET_COLUMN = {3: (16, 1), 4: (12, 4)}


def fits_a_sheet_column(name: str, seats: int) -> bool:
    """Whether ``name``, wrapped at its spaces, takes at most the printed sheet's lines for a table of
    ``seats`` players, no word broken."""
    chars, most = SHEET_COLUMN.get(seats, SHEET_COLUMN[4])
    lines, line = 1, 0
    for word in name.split():
        size = len(graphemes(word))
        if size > chars:
            return False
        if line and line + 1 + size > chars:
            lines, line = lines + 1, size
        else:
            line = line + 1 + size if line else size
    return lines <= most


def name_marks(names: Sequence[str]) -> tuple[str, ...]:
    """A short mark per seat: the initials of the first two words ("GF"), the first two letters of a
    one-word name ("Wo"); the seat numbers when two marks would look alike."""
    marks = []
    for name in names:
        # Cut by what a reader sees (graphemes): an emoji is one, never split between its code points.
        words = [graphemes(word) for word in name.split()] or [graphemes(name)]
        if len(words) > 1:
            marks.append("".join(words[0][:1] + words[1][:1]).upper())
        else:
            marks.append("".join(words[0][:2]).capitalize())
    if len({mark.casefold() for mark in marks}) < len(marks):
        return tuple(str(seat + 1) for seat in range(len(names)))
    return tuple(marks)


# A name longer than this is drawn on the scoreboard as its start, "…" where the column runs out, and
# its end: the few letters that tell it from the other names (names often differ only at the end).
BOARD_NAME = 12
BOARD_TAIL = (4, 10)


def name_tails(names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Each name split in two for the scoreboard, (start, end): the end stays whole while the start
    gives way to "…"; a name of up to BOARD_NAME characters is all start. The end is the shortest one
    (of at least four characters, at most ten, a whole last word where it fits) that no other name
    ends with."""
    split = [graphemes(name) for name in names]
    parts = []
    for seat, letters in enumerate(split):
        if len(letters) <= BOARD_NAME:
            parts.append((names[seat], ""))
            continue
        least, most = BOARD_TAIL
        others = [other for at, other in enumerate(split) if at != seat]
        size = next(
            (n for n in range(least, most + 1) if all(other[-n:] != letters[-n:] for other in others)),
            least,
        )
        # Whole words where they fit: "Elena" rather than "lena".
        while size < min(most, len(letters) - 1) and not letters[-size - 1].isspace():
            size += 1
        parts.append(("".join(letters[:-size]), "".join(letters[-size:])))
    return tuple(parts)


#: The suits' marks; every other contract's is the one its game declares (``Contract.mark``).
SUIT_MARKS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
SUITS = frozenset(SUIT_MARKS)


def contract_mark(contract_id: str) -> str:
    """A short mark for a contract in narrow table columns and buttons, in the page's language: a suit's
    symbol, or the mark a registered game declares for it (``Contract.mark``)."""
    if contract_id in SUIT_MARKS:
        return SUIT_MARKS[contract_id]
    mark = next(
        (
            contract.mark
            for ruleset in RULESETS.values()
            for contract in ruleset.contracts
            if contract.id == contract_id and contract.mark
        ),
        None,
    )
    if mark is None:
        return contract_id[:3].title()
    return str(gettext(mark))
