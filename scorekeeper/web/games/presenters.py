"""Replayed game state shaped for the templates (names instead of seat numbers)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime

from flask_babel import gettext

from ...messages import say_notice, term
from ...rules import PAIRS, TRICKS_PER_DEAL, DealState, GameSetup, Ruleset, graphemes
from ...services import Snapshot
from .marks import (
    SUIT_MARKS,
    contract_mark,
    fits_a_column,
    fits_a_sheet_column,
    name_marks,
    name_tails,
    role_label,
)
from .parts import PartColumn, entered, part_columns, taken

#: The characters of a name the printed sheet's chooser column holds on a game with deal figures.
FIGURES_COLUMN = 7


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    total: int
    rank: int
    leader: bool
    remaining: tuple[tuple[str, str], ...]
    """(contract id, label) still to choose."""


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
    """No result yet (a complete deal may count no tricks)."""
    bidding_order: tuple[int, ...] = ()
    """Seats in the order they bid (the dealer last); empty in a deal without bids."""
    dealer_seat: int = 0
    suit: str | None = None
    """The suit named in the deal (``Ruleset.named_suit``), as its symbol (♠)."""
    suit_name: str = ""
    took: tuple[tuple[str, ...], ...] | None = None
    """A complete deal of a game that counts more than tricks: what each seat took, as the table
    entered it (each fact's ``short``)."""
    fields: tuple[str, ...] = ()
    """The facts the deal takes where the game says (``Ruleset.fields_for``), in the engine's order."""
    facts: dict[str, object] = field(default_factory=dict)
    """Those facts as recorded, by seat (a taker's seat, each seat's count; absent: not given)."""
    bets: tuple[tuple[int, int, bool], ...] = ()
    """The deal's side bets (a fact of kind ``PAIRS``: doubles), (by, against, raised) seats."""
    figures: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The complete deal's figures beyond its scores (``DealState.figures``), by id, by seat."""
    warnings: tuple[str, ...] = ()
    """What the deal tells the table that refuses nothing, each a sentence in the page's language."""
    entered: tuple[str, ...] = ()
    """What was entered beyond the contract, short, players by their marks (``parts.entered``)."""
    pairs: tuple[tuple[int, int], ...] = ()
    """The side bets its contract allows (``Ruleset.pairs_allowed``), for its correction."""

    def figure(self, name: str) -> tuple[int, ...] | None:
        """The figure ``name`` by seat, None while pending."""
        return dict(self.figures).get(name)

    @property
    def bet_points(self) -> tuple[int, ...] | None:
        """Each seat's result of the deal's side bets (the last of its figures, where a game declares
        them as the parts its score is the sum of), None while pending."""
        return self.figures[-1][1] if self.figures else None

    def role_label(self, seat: int) -> str:
        return role_label(self.roles[seat])

    @property
    def totals_sum(self) -> int | None:
        """The running totals added up: the table's check in a game in parts (``GameView.in_parts``)."""
        return None if self.totals is None else sum(self.totals)


@dataclass(frozen=True)
class Turn:
    """The deal the table is on: recorded-but-pending, or next to declare."""

    number: int
    dealer: int
    chooser: int | None
    roles: tuple[str, ...]
    contract: str | None
    contract_label: str | None = None
    contract_description: str = ""
    options: tuple[tuple[str, str], ...] = ()
    """Contracts the chooser may choose: (id, label)."""
    bidding_order: tuple[int, ...] = ()
    quotas: tuple[int, ...] | None = None
    pending: bool = False
    bids: tuple[int, ...] | None = None
    """The bids of a pending deal that has them (Misère)."""
    fields: tuple[str, ...] = ()
    """The facts the deal takes where the game says (``Ruleset.fields_for``: a suit, then tricks...)."""
    trumps: str | None = None
    """The suit named on a pending deal (``Ruleset.named_suit``)."""
    decides: bool = False
    """The chooser's contract decides the facts (``NextDeal.fields_by_contract``): the contract is
    chosen on the card (a link), which then asks its facts with it, saved in one post."""
    asked: tuple[str, ...] = ()
    """Of ``fields``, those the card asks (a pending deal's: its results, and a declaration it was
    declared without: ``Ruleset.asked_when_pending``)."""
    pairs: tuple[tuple[int, int], ...] = ()
    """The side bets the deal's contract allows, (by, against) seats (``Ruleset.pairs_allowed``)."""
    reminders: tuple[str, ...] = ()
    """What the table should know before the deal is played (``Ruleset.reminders``), said."""

    def role_label(self, seat: int) -> str:
        return role_label(self.roles[seat])

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
    pencil: bool
    standings: tuple[Seat, ...]
    leaders: tuple[str, ...]
    """Names sharing first place (everyone before the first deal)."""
    options: dict[str, str] = field(default_factory=dict)
    played_on: date | None = None
    note: str | None = None
    schedule: tuple[Turn, ...] = ()
    """Every deal as the setup fixes it (dealer, chooser, roles), for the offline entry's
    server-drawn parts (templates/web/_offline_templates.html)."""
    setup: GameSetup | None = None
    """The game's setup (for what the engine says of a deal the page draws offline)."""
    parts: tuple[PartColumn, ...] = ()
    """The part grid's columns of a game in parts (empty for the others): every deal in its order,
    the subtotal after the first part, the total."""

    deal_labels: tuple[str, ...] = ()
    """Each deal's contract where the deal number fixes it, deal 1 first."""
    tricks_per_deal: int = TRICKS_PER_DEAL
    negative_part: int = 0
    """How many deals the first (negative) part has; 0 in a game without parts."""
    tallies: tuple[tuple[int, ...], ...] = ()
    """The game's first count per pair of players (``GameState.tallies``): for each seat, each seat's
    count (a declarer's doubles by each other player); empty where the game keeps none."""

    @property
    def sums_totals(self) -> bool:
        """Whether the log adds up the running totals after each deal, the table's check."""
        return self.in_parts or self.ruleset.totals_check

    @functools.cached_property
    def figure_heads(self) -> tuple[tuple[str, str, str], ...]:
        """The deal figures the sheet gives per player beyond score and total: (id, heading, short), in
        the page's language."""
        return tuple((name, term(label), term(short)) for name, label, short in self.ruleset.figure_words)

    @functools.cached_property
    def has_bets(self) -> bool:
        """Whether the game's deals carry side bets (a fact of kind ``PAIRS``: doubles)."""
        return any(fact.kind == PAIRS for fact in self.ruleset.deal_facts)

    def bets_text(self, row: DealRow) -> str:
        """A deal's side bets, short, by the players' marks: "Ba×Al, Ce×Al R" (R: raised, redoubled)."""
        # NOTE A redoubled double in a deal's list of doubles ("Ce×Al R"): keep it one letter.
        raised = gettext("R")
        return ", ".join(
            f"{self.marks[by]}×{self.marks[against]}" + (f" {raised}" if up else "")
            for by, against, up in row.bets
        )

    def tally_text(self, seat: int, other: int) -> str:
        """How far ``other`` has got with ``seat`` in the game's tally, against its goal: "1/2"."""
        count = self.tallies[seat][other]
        goal = self.ruleset.tally_goal
        return f"{count}/{goal}" if goal else str(count)

    @property
    def in_parts(self) -> bool:
        """A game in parts (``Ruleset.negative_part``) whose running totals are added up as the
        table's check: its part grid, what each player took and the log's sum of the totals."""
        return bool(self.parts)

    @property
    def upcoming(self) -> list[PartColumn]:
        """A game in parts: the deals still to come, with their dealer and contract (fixed from the
        start)."""
        return [column for column in self.parts if column.kind == "deal" and column.number > len(self.deals)]

    def pair_rows(
        self, pairs: Iterable[tuple[int, int]]
    ) -> tuple[tuple[str, int, tuple[tuple[int, int, int], ...]], ...]:
        """``pair_rows``, for the templates."""
        return pair_rows(pairs)

    def count_total(self, name: str) -> int:
        """What a deal's counts of ``name`` add up to (tricks, or a counted fact's ``total``)."""
        total = 0 if name == "tricks" else self.ruleset.fact(name).total
        return total or self.tricks_per_deal

    @property
    def total_sum(self) -> int:
        """The running totals added up: the table's own check in a game in parts."""
        return sum(seat.total for seat in self.seats)

    def suits(self) -> tuple[tuple[str, str, str], ...]:
        """The suits a trump deal may name: (id, mark, name)."""
        choices = () if self.ruleset.named_suit is None else self.ruleset.named_suit.choices
        return tuple((suit, contract_mark(suit), term(label)) for suit, label in choices)

    @functools.cached_property
    def offline_pairs(self) -> tuple[tuple[int, tuple[str, ...], tuple[tuple[int, int], ...]], ...]:
        """The side bets the offline card offers: per chooser, the contracts that allow the same bets
        (``Ruleset.pairs_allowed``), with those bets; empty for a game without side bets."""
        if self.setup is None or not any(fact.kind == PAIRS for fact in self.ruleset.deal_facts):
            return ()
        setup = self.setup
        groups: dict[tuple[int, tuple[tuple[int, int], ...]], list[str]] = {}
        for turn in self.schedule:
            if turn.chooser is None or any(key[0] == turn.chooser for key in groups):
                continue
            for contract in self.ruleset.contracts:
                allowed = self.ruleset.pairs_allowed(setup, turn.number, contract.id)
                groups.setdefault((turn.chooser, allowed), []).append(contract.id)
        return tuple((seat, tuple(contracts), allowed) for (seat, allowed), contracts in groups.items())

    @functools.cached_property
    def bidding(self) -> bool:
        """Whether any deal of the game is played to bids (Misère)."""
        return any(turn.bidding_order for turn in self.schedule)

    @functools.cached_property
    def entry_turn(self) -> Turn:
        """No deal in particular: the offline entry's fieldsets of counts, no seat with a role."""
        return Turn(number=0, dealer=-1, chooser=None, roles=("",) * len(self.names), contract=None)

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
            quotas=None if quota is None else (quota,),
            pending=True,
            bids=None if bid is None else (bid,),
        )

    @functools.cached_property
    def contract_choices(self) -> tuple[tuple[str, str], ...]:
        """Every contract a player may choose, (id, label), in the order the page offers them."""
        return _labelled(self.ruleset, (contract.id for contract in self.ruleset.contracts))

    @functools.cached_property
    def marks(self) -> tuple[str, ...]:
        """Each seat's mark: the chart's line ends, and the log's column heads when names are long."""
        return name_marks(self.names)

    @functools.cached_property
    def board_names(self) -> tuple[tuple[str, str], ...]:
        """Each name as the scoreboard draws it: (start, end), the start cut short with "…" first."""
        return name_tails(self.names)

    @functools.cached_property
    def keyed(self) -> bool:
        """Whether the log heads its columns with marks, a key above it naming them in full."""
        return any(not fits_a_column(name) for name in self.names)

    @functools.cached_property
    def sheet_keyed(self) -> bool:
        """Whether the printed sheet's deal log gives the dealer (and the chooser) by their mark, the
        standings naming each mark: a game in parts' log when the phone's does; the other games' when a
        name does not fit the sheet's column (its words too long, or too many lines for one page)."""
        if self.in_parts:
            return self.keyed
        return not all(fits_a_sheet_column(name, len(self.names)) for name in self.names)

    @functools.cached_property
    def figures_keyed(self) -> bool:
        """Whether the printed sheet of a game with deal figures (``figure_heads``: the widest log) gives
        the chooser by their mark and heads each player's columns with it: a name longer than its
        narrow column."""
        return any(len(graphemes(name)) > FIGURES_COLUMN for name in self.names)

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


def pair_rows(
    pairs: Iterable[tuple[int, int]],
) -> tuple[tuple[str, int, tuple[tuple[int, int, int], ...]], ...]:
    """Side bets (``Ruleset.pairs_allowed``) as the card draws them: ("by", seat, bets), a row per
    player who may bet, each bet (by, against, the seat its tap names); where every bet is against one
    player (the declarer in a positive contract), one row ("against", that seat, bets) naming who bets."""
    pairs = tuple(pairs)
    targets = {against for _, against in pairs}
    if len(targets) == 1 and len(pairs) > 1:
        (target,) = targets
        return (("against", target, tuple((by, against, by) for by, against in pairs)),)
    rows: dict[int, list[tuple[int, int, int]]] = {}
    for by, against in pairs:
        rows.setdefault(by, []).append((by, against, against))
    return tuple(("by", by, tuple(bets)) for by, bets in rows.items())


def _row(ruleset: Ruleset, setup: GameSetup, deal: DealState) -> DealRow:
    names = setup.players
    fields = ruleset.fields_with(setup, deal.number, deal.contract)
    suit = ruleset.suit_of(deal)
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
        suit=SUIT_MARKS[suit] if suit else None,
        suit_name=term(dict(ruleset.named_suit.choices)[suit]) if suit and ruleset.named_suit else "",
        took=taken(ruleset, deal, len(names)) if ruleset.facts else None,
        fields=fields,
        facts={name: value for name in fields if (value := deal.fact(name)) is not None},
        bets=tuple(
            (by, against, bool(up))
            for fact in ruleset.deal_facts
            if fact.kind == PAIRS
            for by, against, up in deal.fact(fact.id) or ()
        ),
        figures=deal.figures,
        warnings=tuple(str(gettext(notice.message, **notice.params(names))) for notice in deal.warnings),
        entered=entered(ruleset, deal, name_marks(names)) if ruleset.facts else (),
        pairs=ruleset.pairs_allowed(setup, deal.number, deal.contract) if _paired(ruleset, fields) else (),
    )


def _paired(ruleset: Ruleset, fields: Iterable[str]) -> bool:
    """Whether ``fields`` hold a side bet (a fact of kind ``PAIRS``)."""
    return any(ruleset.fact(name).kind == PAIRS for name in fields)


def _labelled(ruleset: Ruleset, contracts: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``contracts`` as the page offers them: (id, label in the page's language)."""
    return tuple((contract, term(ruleset.contract_label(contract))) for contract in contracts)


def game_view(loaded: Snapshot, *, pencil: bool, chosen: str | None = None) -> GameView:
    """The game as the pages draw it; ``chosen``: the contract the chooser tapped, where the contract
    decides the deal's facts (the card then asks them)."""
    ruleset, setup, state = loaded.ruleset, loaded.setup, loaded.state
    reminders = tuple(say_notice(notice, setup.players) for notice in ruleset.reminders(state))
    names = setup.players
    rank_of = {standing.seat: standing.rank for standing in state.standings}
    seats = tuple(
        Seat(
            seat=seat,
            name=name,
            total=state.totals[seat],
            rank=rank_of[seat],
            leader=seat in state.leaders and state.completed_deals > 0,
            remaining=_labelled(ruleset, state.remaining_contracts[seat]),
        )
        for seat, name in enumerate(names)
    )
    turn: Turn | None = None
    pending = state.pending_deal
    if pending is not None:
        contract = ruleset.contract(pending.contract)
        fields = ruleset.fields_with(setup, pending.number, pending.contract)
        turn = Turn(
            number=pending.number,
            dealer=pending.dealer,
            chooser=pending.chooser,
            roles=pending.roles,
            contract=pending.contract,
            contract_label=term(contract),
            contract_description=term(contract.description),
            bidding_order=ruleset.bidding_order(setup, pending.number),
            quotas=pending.quotas,
            pending=True,
            bids=pending.bids,
            trumps=ruleset.suit_of(pending),
            fields=fields,
            asked=ruleset.asked_when_pending(fields, pending),
            pairs=ruleset.pairs_allowed(setup, pending.number, pending.contract),
            reminders=reminders,
        )
    elif state.next_deal is not None:
        upcoming = state.next_deal
        # A chooser with one contract left has no choice: that contract is the deal's.
        left = upcoming.available_contracts if upcoming.chooser is not None else ()
        only = left[0] if len(left) == 1 and not upcoming.contract else None
        decides = bool(upcoming.fields_by_contract)
        tapped = chosen if decides and chosen in upcoming.available_contracts else None
        chosen = upcoming.contract or only or tapped
        fixed = ruleset.contract(chosen) if chosen else None
        fields = (
            ruleset.fields_with(setup, upcoming.number, chosen) if decides and chosen else upcoming.fields
        )
        turn = Turn(
            number=upcoming.number,
            dealer=upcoming.dealer,
            chooser=upcoming.chooser,
            roles=upcoming.roles,
            contract=chosen,
            contract_label=term(fixed) if fixed else None,
            contract_description=term(fixed.description) if fixed else "",
            options=_labelled(ruleset, upcoming.available_contracts),
            bidding_order=upcoming.bidding_order,
            quotas=ruleset.quotas_for(upcoming.roles, chosen, None)
            if chosen and not upcoming.contract
            else None,
            fields=fields,
            decides=decides,
            asked=fields,
            pairs=ruleset.pairs_allowed(setup, upcoming.number, chosen) if decides and chosen else (),
            reminders=reminders,
        )
    slots = ruleset.schedule(setup)
    schedule = (
        tuple(
            Turn(
                number=slot.number,
                dealer=slot.dealer,
                chooser=slot.chooser,
                roles=slot.roles,
                contract=slot.contract,
                contract_label=term(ruleset.contract_label(slot.contract)) if slot.contract else None,
                bidding_order=slot.bidding_order,
                fields=slot.fields,
            )
            for slot in slots
        )
        if pencil and not state.finished  # the offline entry's (plan.py)
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
        pencil=pencil,
        standings=tuple(seats[standing.seat] for standing in state.standings),
        leaders=tuple(names[seat] for seat in state.leaders),
        options=setup.options_dict,
        played_on=loaded.played_on,
        note=loaded.note,
        schedule=schedule,
        setup=setup,
        parts=part_columns(ruleset, setup, state.deals) if ruleset.negative_part(setup) else (),
        deal_labels=tuple(
            term(ruleset.contract_label(slot.contract)) if slot.contract else "" for slot in slots
        ),
        tricks_per_deal=ruleset.tricks_per_deal(setup),
        negative_part=ruleset.negative_part(setup),
        tallies=state.tallies[0][1] if state.tallies else (),
    )
