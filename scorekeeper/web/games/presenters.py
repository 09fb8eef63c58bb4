"""Replayed game state shaped for the templates (names instead of seat numbers)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from flask_babel import gettext

from ...messages import term
from ...rules import N_, TRICKS_PER_DEAL, DealState, GameSetup, Ruleset, graphemes
from ...rules.kierki import COUNTS, SUIT_LABELS, TRUMPS, Kierki
from ...services import Snapshot

#: A role's label (a message id), by role; a Misère player without a role has none.
ROLE_LABELS = {
    # NOTE: Mizerka's roles: forehand (left of the dealer, chooses the contract), middlehand, dealer.
    "forehand": N_("Forehand"),
    "middlehand": N_("Middlehand"),
    "dealer": N_("Dealer"),
    # NOTE: Misère's role of the player after the dealer, who bids first and leads.
    "leader": N_("Leads"),
    "player": "",
}


def role_label(role: str) -> str:
    """A role as the page names it, in the request's language."""
    label = ROLE_LABELS.get(role, role)
    return str(gettext(label)) if label else ""


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    total: int
    rank: int
    leader: bool
    remaining: tuple[tuple[str, str], ...]
    """(contract id, label) still to choose."""


#: The games these pages score at the table.
TABLE_GAMES = ("mizerka", "misere", "kierki")

#: A deal's facts counted per player (Kierki), each with its count field on the page.
COUNT_FIELDS = ("tricks", *COUNTS)


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    chooser: str | None
    chooser_seat: int | None
    contract: str
    contract_label: str
    roles: tuple[str, ...]
    bids: tuple[int, ...] | None
    tricks: tuple[int, ...] | None
    quotas: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    pending: bool
    """No result yet (a complete Kierki deal may count no tricks)."""
    bidding_order: tuple[int, ...] = ()
    """Seats in the order they bid (the dealer last); empty in a deal without bids."""
    dealer_seat: int = 0
    suit: str | None = None
    """A Kierki trump deal's suit named, as its symbol (♠)."""
    suit_name: str = ""
    took: tuple[tuple[str, ...], ...] | None = None
    """A complete Kierki deal: what each seat took, as the table entered it ("2 ♥", "K♥")."""
    fields: tuple[str, ...] = ()
    """The facts the deal takes where the game says (Kierki), in the engine's order."""
    facts: dict[str, object] = field(default_factory=dict)
    """Those facts as recorded, by seat (a taker's seat, each seat's count; absent: not given)."""

    def role_label(self, seat: int) -> str:
        return role_label(self.roles[seat])

    @property
    def totals_sum(self) -> int | None:
        """The running totals added up: Kierki's check (−2600 after its negative part, 0 at the end)."""
        return None if self.totals is None else sum(self.totals)


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


@dataclass(frozen=True)
class Turn:
    """The deal the table is on: recorded-but-pending, or next to declare."""

    number: int
    dealer: int
    chooser: int | None
    roles: tuple[str, ...]
    contract: str | None
    contract_label: str | None
    contract_description: str
    options: tuple[tuple[str, str], ...]
    """Contracts the chooser may choose: (id, label)."""
    bidding_order: tuple[int, ...]
    quotas: tuple[int, ...] | None
    pending: bool
    bids: tuple[int, ...] | None = None
    """The bids of a pending deal that has them (Misère)."""
    fields: tuple[str, ...] = ()
    """The facts the deal takes where the game says (Kierki: ``("trumps", "tricks")``...)."""
    trumps: str | None = None
    """The suit named on a pending trump deal (Kierki)."""

    def role_label(self, seat: int) -> str:
        return role_label(self.roles[seat])

    @property
    def results(self) -> tuple[str, ...]:
        """The facts that are the deal's result (its declaration, the trump suit, aside)."""
        return tuple(name for name in self.fields if name != "trumps")

    def seat_with(self, role: str) -> int | None:
        return self.roles.index(role) if role in self.roles else None

    @property
    def last_contract(self) -> bool:
        """The chooser has one contract left: it is chosen, and the page asks for the counts at once."""
        return not self.pending and self.chooser is not None and self.contract is not None and not self.fields


@dataclass(frozen=True)
class GameView:
    id: str
    ruleset: Ruleset
    names: tuple[str, ...]
    seats: tuple[Seat, ...]
    deals: tuple[DealRow, ...]
    turn: Turn | None
    finished: bool
    deal_count: int
    completed: int
    version: int
    created_at: datetime
    editable: bool
    standings: tuple[Seat, ...]
    leaders: tuple[str, ...]
    """Names sharing first place (everyone before the first deal)."""
    options: dict[str, str] = field(default_factory=dict)
    played_on: date | None = None
    note: str | None = None
    schedule: tuple[Turn, ...] = ()
    """Every deal as the setup fixes it (dealer, chooser, roles), for the offline entry's
    server-drawn parts (templates/web/_offline_templates.html)."""
    parts: tuple[PartColumn, ...] = ()
    """Kierki's part grid's columns (empty for the other games): every deal in its order, the
    subtotal after the negative part, the total."""

    deal_labels: tuple[str, ...] = ()
    """Each deal's contract where the deal number fixes it (Misère, Kierki), deal 1 first."""
    tricks_per_deal: int = TRICKS_PER_DEAL
    negative_part: int = 0
    """How many deals the negative part has (Kierki); 0 in a game without parts."""

    @property
    def kierki(self) -> bool:
        """A game in parts, summed to zero (Kierki): its own grid and the log's sum of the totals."""
        return bool(self.parts)

    @property
    def upcoming(self) -> list[PartColumn]:
        """Kierki's deals still to come, with their dealer and contract (fixed from the start)."""
        return [column for column in self.parts if column.kind == "deal" and column.number > len(self.deals)]

    def part_grid(self) -> list[tuple[Seat, list[PartBox]]]:
        """Kierki's part grid: per player, a box per column of ``parts``."""
        negative = [column.number for column in self.parts if column.negative]
        done = [row for row in self.deals if not row.pending]
        closed = self.deal(negative[-1]) if len(self.deals) >= negative[-1] else None
        rows = []
        for seat in self.seats:
            boxes = []
            for column in self.parts:
                if column.kind == "total":
                    boxes.append(PartBox(column, seat.total if done else None))
                elif column.kind == "subtotal":
                    subtotal = closed.totals[seat.seat] if closed and closed.totals else None
                    boxes.append(PartBox(column, subtotal))
                elif column.number <= len(self.deals):
                    row = self.deal(column.number)
                    boxes.append(PartBox(column, row.scores[seat.seat] if row.scores else None, row.pending))
                else:
                    boxes.append(PartBox(column, None))
            rows.append((seat, boxes))
        return rows

    def count_total(self, name: str) -> int:
        """What a deal's counts of ``name`` add up to (tricks, or Kierki's hearts, queens...)."""
        return self.tricks_per_deal if name == "tricks" else COUNTS[name]

    @property
    def total_sum(self) -> int:
        """The running totals added up: the table's own check (Kierki: -2600 after the negative
        part of a 4-player standard game, 0 at the end)."""
        return sum(seat.total for seat in self.seats)

    def part_heading(self, turn: Turn) -> str:
        """A deal of a game in two parts, as the table says it: "Negative part, 5 of 7: No king
        of hearts" (the trump suit beside a trump deal's name once named)."""
        contract = turn.contract_label or ""
        if turn.trumps:
            # NOTE: a Kierki trump deal whose suit is named, in its heading ("Positive part, 2 of 5:
            # trumps ♠").
            contract = str(gettext("trumps %(suit)s", suit=contract_mark(turn.trumps)))
        elif "trumps" in turn.fields and turn.chooser is not None:
            contract = str(gettext("%(player)s names trumps", player=self.names[turn.chooser]))
        if turn.number <= self.negative_part:
            # NOTE: Kierki's first part (Polish "Rozgrywka"), e.g. "Negative part, 5 of 7: No king of hearts".
            return str(
                gettext(
                    "Negative part, %(number)s of %(count)s: %(contract)s",
                    number=turn.number,
                    count=self.negative_part,
                    contract=contract,
                )
            )
        # NOTE: Kierki's second part (Polish "Odgrywka"), e.g. "Positive part, 2 of 5: Trumps".
        return str(
            gettext(
                "Positive part, %(number)s of %(count)s: %(contract)s",
                number=turn.number - self.negative_part,
                count=self.deal_count - self.negative_part,
                contract=contract,
            )
        )

    def suits(self) -> tuple[tuple[str, str, str], ...]:
        """The suits a trump deal may name: (id, mark, name)."""
        return tuple((suit, contract_mark(suit), term(label)) for suit, label in SUIT_LABELS.items())

    @functools.cached_property
    def bidding(self) -> bool:
        """Whether any deal of the game is played to bids (Misère)."""
        return any(turn.bidding_order for turn in self.schedule)

    @functools.cached_property
    def entry_turn(self) -> Turn:
        """No deal in particular: the offline entry's fieldsets of counts, no seat with a role."""
        return Turn(
            number=0,
            dealer=-1,
            chooser=None,
            roles=("",) * len(self.names),
            contract=None,
            contract_label=None,
            contract_description="",
            options=(),
            bidding_order=(),
            quotas=None,
            pending=False,
        )

    @functools.cached_property
    def contract_descriptions(self) -> tuple[tuple[str, str], ...]:
        """Each contract's description, (id, text), as the entry card says it under its heading."""
        return tuple((c.id, term(c.description)) for c in self.ruleset.contracts)

    @functools.cached_property
    def schedule_roles(self) -> tuple[str, ...]:
        """Every role a seat has in some deal of the schedule ("" for none), in a fixed order."""
        return tuple(sorted({role for turn in self.schedule for role in turn.roles}))

    @functools.cached_property
    def quotas_known(self) -> bool:
        """Whether the engine says a deal's quotas from its roles and contract alone (Mizerka),
        rather than from what is bid at the table (Misère) or not at all."""
        return any(
            self.ruleset.quotas_for(turn.roles, contract.id, None) is not None
            for turn in self.schedule[:1]
            for contract in self.ruleset.contracts
        )

    def seat_turn(self, role: str, quota: int | None = None, bid: int | None = None) -> Turn:
        """A pending deal as one seat sees it (its role, its quota or bid): the offline entry's
        phrase beside that seat's tricks, drawn as the page draws it (``macros.seat_what``)."""
        return Turn(
            number=0,
            dealer=-1,
            chooser=None,
            roles=(role,),
            contract=None,
            contract_label=None,
            contract_description="",
            options=(),
            bidding_order=(),
            quotas=None if quota is None else (quota,),
            pending=True,
            bids=None if bid is None else (bid,),
        )

    @functools.cached_property
    def contract_choices(self) -> tuple[tuple[str, str], ...]:
        """Every contract a player may choose, (id, label), in the order the page offers them."""
        return tuple((c.id, term(self.ruleset.contract_label(c.id))) for c in self.ruleset.contracts)

    @functools.cached_property
    def marks(self) -> tuple[str, ...]:
        """Each seat's mark: the chart's line ends, and the log's column heads when names are long."""
        return name_marks(self.names)

    @functools.cached_property
    def keyed(self) -> bool:
        """Whether the log heads its columns with marks, a key above it naming them in full."""
        return any(not fits_a_column(name) for name in self.names)

    def deal(self, number: int) -> DealRow:
        return self.deals[number - 1]

    @property
    def started(self) -> bool:
        return bool(self.deals)

    @property
    def last_deal(self) -> DealRow | None:
        return self.deals[-1] if self.deals else None

    @property
    def option_labels(self) -> list[str]:
        labels = []
        for spec in self.ruleset.options:
            value = self.options.get(spec.id, spec.default)
            choice = dict(spec.choices).get(value)
            # NOTE: a game's option and its choice on the scoresheet ("Scoring: Variant").
            said = gettext(
                "%(option)s: %(choice)s", option=term(spec), choice=term(choice) if choice else value
            )
            labels.append(str(said))
        return labels

    def grid(self) -> list[tuple[Seat, list[DealRow | None]]]:
        """Contract grid: per player, per contract, the deal in which they chose it."""
        boxes: dict[tuple[int, str], DealRow] = {}
        for row in self.deals:
            if row.chooser_seat is not None:
                boxes[(row.chooser_seat, row.contract)] = row
        return [
            (seat, [boxes.get((seat.seat, contract.id)) for contract in self.ruleset.contracts])
            for seat in self.seats
        ]


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


def _row(ruleset: Ruleset, setup: GameSetup, deal: DealState) -> DealRow:
    names = setup.players
    fields = ruleset.fields_for(setup, deal.number)
    return DealRow(
        number=deal.number,
        dealer=names[deal.dealer],
        chooser=None if deal.chooser is None else names[deal.chooser],
        chooser_seat=deal.chooser,
        contract=deal.contract,
        contract_label=term(ruleset.contract_label(deal.contract)),  # a trump deal's suit: ``suit``
        roles=deal.roles,
        bids=deal.bids,
        tricks=deal.tricks,
        quotas=deal.quotas,
        scores=deal.scores,
        totals=deal.totals,
        pending=deal.pending,
        bidding_order=ruleset.bidding_order(setup, deal.number),
        dealer_seat=deal.dealer,
        suit=SUIT_MARKS[deal.trumps] if deal.trumps else None,
        suit_name=term(SUIT_LABELS[deal.trumps]) if deal.trumps else "",
        took=taken(deal, len(names)) if isinstance(ruleset, Kierki) else None,
        fields=fields,
        facts={name: value for name in fields if (value := getattr(deal, name)) is not None},
    )


# A name fits a phone's log column (a quarter of a 320 px screen) in a few lines without a word broken:
# no word longer than this, and not longer than that in all.
COLUMN_WORD = 10
COLUMN_NAME = 30


def fits_a_column(name: str) -> bool:
    return len(name) <= COLUMN_NAME and max(map(len, name.split()), default=0) <= COLUMN_WORD


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


def game_view(loaded: Snapshot, *, editable: bool) -> GameView:
    ruleset, setup, state = loaded.ruleset, loaded.setup, loaded.state
    names = setup.players
    rank_of = {standing.seat: standing.rank for standing in state.standings}
    seats = tuple(
        Seat(
            seat=seat,
            name=name,
            total=state.totals[seat],
            rank=rank_of[seat],
            leader=seat in state.leaders and state.completed_deals > 0,
            remaining=tuple(
                (contract, term(ruleset.contract_label(contract)))
                for contract in state.remaining_contracts[seat]
            ),
        )
        for seat, name in enumerate(names)
    )
    turn: Turn | None = None
    pending = state.pending_deal
    if pending is not None:
        contract = ruleset.contract(pending.contract)
        turn = Turn(
            number=pending.number,
            dealer=pending.dealer,
            chooser=pending.chooser,
            roles=pending.roles,
            contract=pending.contract,
            contract_label=term(contract),
            contract_description=term(contract.description),
            options=(),
            bidding_order=ruleset.bidding_order(setup, pending.number),
            quotas=pending.quotas,
            pending=True,
            bids=pending.bids,
            fields=ruleset.fields_for(setup, pending.number),
            trumps=pending.trumps,
        )
    elif state.next_deal is not None:
        upcoming = state.next_deal
        # A chooser with one contract left has no choice: that contract is the deal's.
        left = upcoming.available_contracts if upcoming.chooser is not None else ()
        only = left[0] if len(left) == 1 and not upcoming.contract else None
        chosen = upcoming.contract or only
        fixed = ruleset.contract(chosen) if chosen else None
        turn = Turn(
            number=upcoming.number,
            dealer=upcoming.dealer,
            chooser=upcoming.chooser,
            roles=upcoming.roles,
            contract=chosen,
            contract_label=term(fixed) if fixed else None,
            contract_description=term(fixed.description) if fixed else "",
            options=tuple(
                (contract, term(ruleset.contract_label(contract)))
                for contract in upcoming.available_contracts
            ),
            bidding_order=upcoming.bidding_order,
            quotas=ruleset.quotas_for(upcoming.roles, chosen, None)
            if chosen and not upcoming.contract
            else None,
            pending=False,
            fields=upcoming.fields,
        )
    schedule = (
        tuple(
            Turn(
                number=slot.number,
                dealer=slot.dealer,
                chooser=slot.chooser,
                roles=slot.roles,
                contract=slot.contract,
                contract_label=term(ruleset.contract_label(slot.contract)) if slot.contract else None,
                contract_description="",
                options=(),
                bidding_order=slot.bidding_order,
                quotas=None,
                pending=False,
                fields=slot.fields,
            )
            for slot in ruleset.schedule(setup)
        )
        if editable and not state.finished and not ruleset.facts  # the offline entry's (plan.py)
        else ()
    )
    return GameView(
        id=loaded.id,
        ruleset=ruleset,
        names=names,
        seats=seats,
        deals=tuple(_row(ruleset, setup, deal) for deal in state.deals),
        turn=turn,
        finished=state.finished,
        deal_count=state.deal_count,
        completed=state.completed_deals,
        version=loaded.version,
        created_at=loaded.created_at,
        editable=editable,
        standings=tuple(seats[standing.seat] for standing in state.standings),
        leaders=tuple(names[seat] for seat in state.leaders),
        options=setup.options_dict,
        played_on=loaded.played_on,
        note=loaded.note,
        schedule=schedule,
        parts=part_columns(ruleset, setup, state.deals) if isinstance(ruleset, Kierki) else (),
        deal_labels=tuple(
            term(ruleset.contract_label(slot.contract)) if slot.contract else ""
            for slot in ruleset.schedule(setup)
        ),
        tricks_per_deal=ruleset.tricks_per_deal(setup),
        negative_part=negative_part(ruleset, setup),
    )


def negative_part(ruleset: Ruleset, setup: GameSetup) -> int:
    """How many deals a game's negative part has (Kierki's ``negative_part``); 0 for other games."""
    return ruleset.negative_part(setup) if isinstance(ruleset, Kierki) else 0


CONTRACT_MARKS = {
    "clubs": "♣",
    "diamonds": "♦",
    "hearts": "♥",
    "spades": "♠",
    # NOTE A contract's mark in a narrow table column (two or three letters): No trumps.
    "no-trumps": N_("NT"),
    # NOTE A contract's mark in a narrow table column (two or three letters): Mizerka.
    "mizerka": N_("Miz"),
    # NOTE A contract's mark in a narrow table column (two or three letters): the Blind deal.
    "blind": N_("Bl"),
    # NOTE A contract's mark in a narrow table column (two or three letters): Ciapa ciapa.
    "ciapa-ciapa": N_("Cc"),
    # NOTE A contract's mark in a narrow table column (two or three letters): Misère.
    "misere": N_("Mis"),
}
SUITS = frozenset(("clubs", "diamonds", "hearts", "spades"))
SUIT_MARKS = {suit: CONTRACT_MARKS[suit] for suit in SUITS}


def contract_mark(contract_id: str) -> str:
    """A short mark for a contract in narrow table columns and buttons, in the page's language."""
    mark = CONTRACT_MARKS.get(contract_id)
    if mark is None:
        return contract_id[:3].title()
    return mark if contract_id in SUITS else gettext(mark)
