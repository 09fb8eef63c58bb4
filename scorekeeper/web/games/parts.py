"""Kierki's parts on the pages: what each player took, as the log says it short; the part grid's
columns and boxes (RULES.md 3.12); a deal's heading in its part ("Negative part, 5 of 7: ...")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask_babel import gettext

from ...messages import term
from ...rules import N_, DealState, GameSetup, Ruleset
from ...rules.kierki import TRUMPS, Kierki
from .marks import SUIT_MARKS, contract_mark

if TYPE_CHECKING:
    from .presenters import GameView, Seat, Turn


@dataclass(frozen=True)
class PartColumn:
    """A column of Kierki's part grid: a deal, the negative part's subtotal, or the total."""

    kind: str
    """"deal", "subtotal" or "total"."""
    number: int = 0
    contract: str = ""
    mark: str = ""
    """The heading's short text: the contract's mark, a trump deal's suit."""
    title: str = ""
    """The heading in words: the contract, a trump deal's suit and chooser."""
    dealer: str = ""
    dealer_seat: int = 0
    chooser: int | None = None
    """The seat naming trumps on a trump deal."""
    negative: bool = False


@dataclass(frozen=True)
class PartBox:
    """A player's box of the part grid: a score, "…" while the deal is played, empty while to come."""

    column: PartColumn
    score: int | None
    pending: bool = False


#: A Kierki deal's counts as the log says them, short (API.md K4's fields).
COUNT_WORDS = (
    # NOTE "tr" is short for "tricks": the tricks a player took in a deal.
    ("tricks", N_("%(tricks)s tr")),
    ("hearts", "%(tricks)s ♥"),
    # NOTE The queens a player took in a Kierki deal, short ("1 Q"): a letter for the queen.
    ("queens", N_("%(tricks)s Q")),
    # NOTE The kings and jacks a player took in a Kierki deal, short ("2 K/J"): a letter for each.
    ("kings_jacks", N_("%(tricks)s K/J")),
)
#: The cards and tricks one player takes in a Kierki deal, as the log marks their taker.
TAKER_WORDS = (
    # NOTE The mark, in a Kierki deal's log, of the player who took the king of hearts.
    ("king_of_hearts", N_("K♥")),
    # NOTE The mark, in a Kierki deal's log, of the player who took the seventh trick: keep it short.
    ("seventh_trick", N_("7th")),
    # NOTE The mark, in a Kierki deal's log, of the player who took the last trick: keep it short.
    ("last_trick", N_("last")),
)
# NOTE The marks, in the log of Kierki's Fan Tan, of the first and the second player out of cards.
PLACE_WORDS = (N_("1st out"), N_("2nd out"))


def taken(deal: DealState, seats: int) -> tuple[tuple[str, ...], ...] | None:
    """What each seat took in a complete Kierki deal, in the order the table enters it."""
    if deal.pending:
        return None
    took: list[list[str]] = [[] for _ in range(seats)]
    for name, words in COUNT_WORDS:
        counts = getattr(deal, name)
        for seat, count in enumerate(counts or ()):
            took[seat].append(gettext(words, tricks=count))
    for name, word in TAKER_WORDS:
        seat = getattr(deal, name)
        if seat is not None:
            took[seat].append(gettext(word))
    for place, seat in enumerate(deal.places or ()):
        took[seat].append(gettext(PLACE_WORDS[place]))
    return tuple(tuple(items) for items in took)


#: Kierki's contracts as the part grid heads their columns (the trump deals by their suit).
KIERKI_MARKS = {
    # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No tricks.
    "no-tricks": N_("Tr"),
    "no-hearts": "♥",
    # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No queens.
    "no-queens": N_("Q"),
    # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No kings or jacks.
    "no-kings-jacks": N_("KJ"),
    "no-king-of-hearts": TAKER_WORDS[0][1],
    # NOTE A Kierki contract's mark atop a narrow column (two or three characters): No seventh or last trick.
    "no-seventh-last": N_("7/L"),
    # NOTE A Kierki contract's mark atop a narrow column (two or three letters): the Robber.
    "robber": N_("Rob"),
    # NOTE A Kierki contract's mark atop a narrow column (two or three letters): the Fan Tan.
    "fan-tan": N_("FT"),
}


def part_columns(ruleset: Kierki, setup: GameSetup, deals: Sequence[DealState]) -> tuple[PartColumn, ...]:
    """Kierki's part grid's columns: each deal in the preset's order, the subtotal after the negative
    part, the total. A trump deal is headed by its suit once named, and its chooser."""
    names, negative = setup.players, ruleset.negative_part(setup)
    columns = []
    for slot in ruleset.schedule(setup):
        contract = slot.contract or ""
        label = term(ruleset.contract_label(contract))
        mark, title = KIERKI_MARKS.get(contract, ""), label
        if contract == TRUMPS:
            suit = deals[slot.number - 1].trumps if slot.number <= len(deals) else None
            mark = SUIT_MARKS[suit] if suit else ""
            title = f"{label} {mark} · {names[slot.dealer]}" if suit else f"{label} · {names[slot.dealer]}"
        else:
            mark = gettext(mark)
        columns.append(
            PartColumn(
                "deal",
                slot.number,
                contract,
                mark,
                title,
                names[slot.dealer],
                slot.dealer,
                slot.chooser,
                slot.number <= negative,
            )
        )
        if slot.number == negative:
            # NOTE The part grid's column of each player's points in Kierki's negative part (deals 1-7).
            title = gettext("Negative part: deals 1–%(last)s", last=negative)
            columns.append(PartColumn("subtotal", mark=f"Σ 1–{negative}", title=title))
    columns.append(PartColumn("total", title=gettext("Total")))
    return tuple(columns)


def negative_part(ruleset: Ruleset, setup: GameSetup) -> int:
    """How many deals a game's negative part has (Kierki's ``negative_part``); 0 for other games."""
    return ruleset.negative_part(setup) if isinstance(ruleset, Kierki) else 0


def part_grid(view: GameView) -> list[tuple[Seat, list[PartBox]]]:
    """Kierki's part grid: per player, a box per column of the view's ``parts``."""
    negative = [column.number for column in view.parts if column.negative]
    done = [row for row in view.deals if not row.pending]
    closed = view.deal(negative[-1]) if len(view.deals) >= negative[-1] else None
    rows = []
    for seat in view.seats:
        boxes = []
        for column in view.parts:
            if column.kind == "total":
                boxes.append(PartBox(column, seat.total if done else None))
            elif column.kind == "subtotal":
                subtotal = closed.totals[seat.seat] if closed and closed.totals else None
                boxes.append(PartBox(column, subtotal))
            elif column.number <= len(view.deals):
                row = view.deal(column.number)
                boxes.append(PartBox(column, row.scores[seat.seat] if row.scores else None, row.pending))
            else:
                boxes.append(PartBox(column, None))
        rows.append((seat, boxes))
    return rows


def part_heading(view: GameView, turn: Turn, trumps: str | None = None) -> str:
    """A deal of a game in two parts, as the table says it: "Negative part, 5 of 7: No king
    of hearts" (the trump suit beside a trump deal's name once named: ``trumps``, or the turn's)."""
    contract = turn.contract_label or ""
    trumps = trumps or turn.trumps
    if trumps:
        # NOTE: a Kierki trump deal whose suit is named, in its heading ("Positive part, 2 of 5:
        # trumps ♠").
        contract = str(gettext("trumps %(suit)s", suit=contract_mark(trumps)))
    elif "trumps" in turn.fields and turn.chooser is not None:
        contract = str(gettext("%(player)s names trumps", player=view.names[turn.chooser]))
    if turn.number <= view.negative_part:
        # NOTE: Kierki's first part (Polish "Rozgrywka"), e.g. "Negative part, 5 of 7: No king of hearts".
        return str(
            gettext(
                "Negative part, %(number)s of %(count)s: %(contract)s",
                number=turn.number,
                count=view.negative_part,
                contract=contract,
            )
        )
    # NOTE: Kierki's second part (Polish "Odgrywka"), e.g. "Positive part, 2 of 5: Trumps".
    return str(
        gettext(
            "Positive part, %(number)s of %(count)s: %(contract)s",
            number=turn.number - view.negative_part,
            count=view.deal_count - view.negative_part,
            contract=contract,
        )
    )
