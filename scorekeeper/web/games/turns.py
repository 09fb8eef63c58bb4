"""The deal the table is on, as the entry card draws it (who deals and chooses, the contracts left to
choose, the facts the card asks, the side bets it offers), and every deal of the game's schedule, for
the offline entry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...messages import say_notice, term
from ...rules import GameSetup, GameState, Ruleset, ScheduledDeal
from .marks import role_label


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
    """The bids of a pending deal that has them (a deal played to bids)."""
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


def contract_said(ruleset: Ruleset, contract: str) -> str:
    """A contract's label in the page's language (a trump deal's suit is the deal's own)."""
    return term(ruleset.contract_label(contract))


def labelled(ruleset: Ruleset, contracts: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``contracts`` as the page offers them: (id, label in the page's language)."""
    return tuple((contract, contract_said(ruleset, contract)) for contract in contracts)


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


def table_turn(ruleset: Ruleset, setup: GameSetup, state: GameState, chosen: str | None) -> Turn | None:
    """The deal the table is on (None when the game is over); ``chosen``: the contract the chooser
    tapped, where the contract decides the deal's facts (the card then asks them)."""
    reminders = tuple(say_notice(notice, setup.players) for notice in ruleset.reminders(state))
    pending = state.pending_deal
    if pending is not None:
        contract = ruleset.contract(pending.contract)
        fields = ruleset.fields_with(setup, pending.number, pending.contract)
        return Turn(
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
    if state.next_deal is None:
        return None
    upcoming = state.next_deal
    # A chooser with one contract left has no choice: that contract is the deal's.
    left = upcoming.available_contracts if upcoming.chooser is not None else ()
    only = left[0] if len(left) == 1 and not upcoming.contract else None
    decides = bool(upcoming.fields_by_contract)
    tapped = chosen if decides and chosen in upcoming.available_contracts else None
    chosen = upcoming.contract or only or tapped
    fixed = ruleset.contract(chosen) if chosen else None
    fields = ruleset.fields_with(setup, upcoming.number, chosen) if decides and chosen else upcoming.fields
    return Turn(
        number=upcoming.number,
        dealer=upcoming.dealer,
        chooser=upcoming.chooser,
        roles=upcoming.roles,
        contract=chosen,
        contract_label=term(fixed) if fixed else None,
        contract_description=term(fixed.description) if fixed else "",
        options=labelled(ruleset, upcoming.available_contracts),
        bidding_order=upcoming.bidding_order,
        quotas=ruleset.quotas_for(upcoming.roles, chosen, None) if chosen and not upcoming.contract else None,
        fields=fields,
        decides=decides,
        asked=fields,
        pairs=ruleset.pairs_allowed(setup, upcoming.number, chosen) if decides and chosen else (),
        reminders=reminders,
    )


def schedule_turns(ruleset: Ruleset, slots: Iterable[ScheduledDeal]) -> tuple[Turn, ...]:
    """Every deal as the setup fixes it (dealer, chooser, roles), for the offline entry."""
    return tuple(
        Turn(
            number=slot.number,
            dealer=slot.dealer,
            chooser=slot.chooser,
            roles=slot.roles,
            contract=slot.contract,
            contract_label=contract_said(ruleset, slot.contract) if slot.contract else None,
            bidding_order=slot.bidding_order,
            fields=slot.fields,
        )
        for slot in slots
    )
