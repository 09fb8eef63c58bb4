"""Replayed game state shaped for the templates (names instead of seat numbers): the game's view, its
seats and standings; its deals' rows are ``deal_rows.py``'s, the deal the table is on ``turns.py``'s."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import date, datetime

from flask_babel import gettext

from ...messages import term
from ...rules import PAIRS, TRICKS_PER_DEAL, GameSetup, Ruleset, graphemes
from ...services import Snapshot
from .deal_rows import DealRow, deal_row
from .marks import contract_mark, fits_a_column, fits_a_sheet_column, name_marks, name_tails
from .parts import PartColumn, part_columns
from .turns import Turn, contract_said, labelled, pair_rows, schedule_turns, table_turn

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

    pair_rows = staticmethod(pair_rows)  # for the templates

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
        if self.setup is None or not self.has_bets:
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
        """Whether any deal of the game is played to bids."""
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
        """Whether the engine says a deal's quotas from its roles and contract alone,
        rather than from what is bid at the table or not at all."""
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
        return labelled(self.ruleset, (contract.id for contract in self.ruleset.contracts))

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


def game_view(loaded: Snapshot, *, pencil: bool, chosen: str | None = None) -> GameView:
    """The game as the pages draw it; ``chosen``: the contract the chooser tapped, where the contract
    decides the deal's facts (the card then asks them)."""
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
            remaining=labelled(ruleset, state.remaining_contracts[seat]),
        )
        for seat, name in enumerate(names)
    )
    slots = ruleset.schedule(setup)
    schedule = schedule_turns(ruleset, slots) if pencil and not state.finished else ()  # the offline entry's
    return GameView(
        id=loaded.id,
        ruleset=ruleset,
        names=names,
        seats=seats,
        deals=tuple(deal_row(ruleset, setup, deal) for deal in state.deals),
        turn=table_turn(ruleset, setup, state, chosen),
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
        deal_labels=tuple(contract_said(ruleset, slot.contract) if slot.contract else "" for slot in slots),
        tricks_per_deal=ruleset.tricks_per_deal(setup),
        negative_part=ruleset.negative_part(setup),
        tallies=state.tallies[0][1] if state.tallies else (),
    )
