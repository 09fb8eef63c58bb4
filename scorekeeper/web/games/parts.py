"""A game that counts more than tricks on the pages: what each player took, as the log says it short;
a game in parts' grid's columns and boxes (RULES.md 3.12) and a deal's heading in its part
("Negative part, 5 of 7: ...")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask_babel import gettext

from ...messages import term
from ...rules import COUNT, ONE_PLAYER, ORDER, SUIT, DealState, GameSetup, Ruleset
from .marks import SUIT_MARKS, contract_mark

if TYPE_CHECKING:
    from .presenters import GameView, Seat
    from .turns import Turn


@dataclass(frozen=True)
class PartColumn:
    """A column of the part grid: a deal, the first (negative) part's subtotal, or the total."""

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


def taken(ruleset: Ruleset, deal: DealState, seats: int) -> tuple[tuple[str, ...], ...] | None:
    """What each seat took in a complete deal, as the log says it short, in the order the table
    enters it (each fact's ``short``: "2 ♥", "K♥", "1st out")."""
    if deal.pending:
        return None
    took: list[list[str]] = [[] for _ in range(seats)]
    for fact in ruleset.deal_facts:
        value = deal.fact(fact.id)
        if value is None or fact.kind == SUIT:
            continue
        if fact.kind == COUNT:
            for seat, count in enumerate(value):
                took[seat].append(gettext(fact.short, tricks=count))
        elif fact.kind == ORDER:
            for place, seat in enumerate(value):
                took[seat].append(gettext(fact.places_short[place]))
        elif fact.kind == ONE_PLAYER:
            took[value].append(gettext(fact.short))
    return tuple(tuple(items) for items in took)


def entered(ruleset: Ruleset, deal: DealState, marks: Sequence[str]) -> tuple[str, ...]:
    """What was entered for the complete ``deal`` beyond its contract and suit, short, the players by
    their marks: a count's figures in seat order ("1/0/1/2 Q"), a taker ("K♥ Da"), an order ("Ce › Al
    › Da › Ba"); a side bet (``PAIRS``) is said apart (``GameView.bets_text``)."""
    if deal.pending:
        return ()
    said: list[str] = []
    for fact in ruleset.all_facts:
        value = deal.fact(fact.id)
        if value is None:
            continue
        if fact.kind == COUNT:
            said.append(gettext(fact.short, tricks="/".join(str(count) for count in value)))
        elif fact.kind == ONE_PLAYER:
            said.append(f"{gettext(fact.short)} {marks[value]}")
        elif fact.kind == ORDER:
            said.append(" › ".join(marks[seat] for seat in value))
    return tuple(said)


def part_columns(ruleset: Ruleset, setup: GameSetup, deals: Sequence[DealState]) -> tuple[PartColumn, ...]:
    """The part grid's columns: each deal in the preset's order, the subtotal after the first
    (negative) part, the total. A deal whose chooser names a suit is headed by it once named, and
    its chooser."""
    names, negative = setup.players, ruleset.negative_part(setup)
    columns = []
    for slot in ruleset.schedule(setup):
        contract = slot.contract or ""
        label = term(ruleset.contract_label(contract))
        mark, title = ruleset.contract(contract).mark, label
        if slot.chooser is not None:  # the dealer names trumps
            suit = ruleset.suit_of(deals[slot.number - 1]) if slot.number <= len(deals) else None
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
            # NOTE The part grid's column of each player's points in a game's negative part (deals 1-7).
            title = gettext("Negative part: deals 1–%(last)s", last=negative)
            columns.append(PartColumn("subtotal", mark=f"Σ 1–{negative}", title=title))
    columns.append(PartColumn("total", title=gettext("Total")))
    return tuple(columns)


def part_grid(view: GameView) -> list[tuple[Seat, list[PartBox]]]:
    """The part grid: per player, a box per column of the view's ``parts``."""
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
    """A deal of a game in two parts, as the table says it: "Negative part, 5 of 7: No tricks" (the
    suit named beside the deal's name once named: ``trumps``, or the turn's)."""
    contract = turn.contract_label or ""
    trumps = trumps or turn.trumps
    if trumps:
        # NOTE: a trump deal whose suit is named, in its heading ("Positive part, 2 of 5: trumps ♠").
        contract = str(gettext("trumps %(suit)s", suit=contract_mark(trumps)))
    elif turn.chooser is not None:
        contract = str(gettext("%(player)s names trumps", player=view.names[turn.chooser]))
    if turn.number <= view.negative_part:
        # NOTE: a game's first part (in Polish "Rozgrywka"), e.g. "Negative part, 5 of 7: No tricks".
        return str(
            gettext(
                "Negative part, %(number)s of %(count)s: %(contract)s",
                number=turn.number,
                count=view.negative_part,
                contract=contract,
            )
        )
    # NOTE: a game's second part (in Polish "Odgrywka"), e.g. "Positive part, 2 of 5: Trumps".
    return str(
        gettext(
            "Positive part, %(number)s of %(count)s: %(contract)s",
            number=turn.number - view.negative_part,
            count=view.deal_count - view.negative_part,
            contract=contract,
        )
    )
