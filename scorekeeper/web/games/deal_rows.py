"""The deal log's rows: each deal as the log, the printed sheet and the correction form draw it, with
names instead of seat numbers."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext

from ...messages import term
from ...rules import PAIRS, DealState, GameSetup, Ruleset
from .marks import SUIT_MARKS, name_marks, role_label
from .parts import entered, taken
from .turns import contract_said


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


def deal_row(ruleset: Ruleset, setup: GameSetup, deal: DealState) -> DealRow:
    names = setup.players
    fields = ruleset.fields_with(setup, deal.number, deal.contract)
    suit = ruleset.suit_of(deal)
    paired = any(ruleset.fact(name).kind == PAIRS for name in fields)  # a side bet (doubles) among them
    return DealRow(
        number=deal.number,
        dealer=names[deal.dealer],
        chooser=None if deal.chooser is None else names[deal.chooser],
        chooser_seat=deal.chooser,
        contract=deal.contract,
        contract_label=contract_said(ruleset, deal.contract),  # a trump deal's suit: ``suit``
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
        pairs=ruleset.pairs_allowed(setup, deal.number, deal.contract) if paired else (),
    )
