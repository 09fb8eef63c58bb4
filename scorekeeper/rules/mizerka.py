"""Mizerka: three players, eighteen deals, each player chooses each contract once.

RULES.md section 1 is the decision; this module is its executable form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import (
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    NextDeal,
    RuleError,
    Ruleset,
    standings_for,
    totals_after,
)

FOREHAND = "forehand"
MIDDLEHAND = "middlehand"
DEALER = "dealer"

CONTRACTS = (
    Contract("clubs", "Clubs", "clubs", "Clubs are trumps."),
    Contract("diamonds", "Diamonds", "diamonds", "Diamonds are trumps."),
    Contract("hearts", "Hearts", "hearts", "Hearts are trumps."),
    Contract("spades", "Spades", "spades", "Spades are trumps."),
    Contract("no-trumps", "No trumps", None, "No trumps; take tricks."),
    Contract("mizerka", "Mizerka", None, "No trumps; take as few tricks as you can."),
)
CONTRACT_IDS = tuple(contract.id for contract in CONTRACTS)

#: Quotas by role: (trumps or no-trumps, mizerka).
QUOTAS = {FOREHAND: (7, 1), MIDDLEHAND: (5, 5), DEALER: (1, 7)}


def quota(role: str, contract: str) -> int:
    """Tricks a player in ``role`` is expected to take under ``contract``."""
    trumps_quota, mizerka_quota = QUOTAS[role]
    return mizerka_quota if contract == "mizerka" else trumps_quota


def deal_score(contract: str, tricks: int, quota_: int) -> int:
    """+1 per trick over quota (under, for mizerka), -1 per trick the other way."""
    return quota_ - tricks if contract == "mizerka" else tricks - quota_


@dataclass(frozen=True)
class Mizerka(Ruleset):
    def roles(self, dealer: int) -> tuple[str, ...]:
        """Role of each seat when ``dealer`` deals: forehand is left of the dealer."""
        roles = [""] * self.player_count
        roles[dealer] = DEALER
        roles[(dealer + 1) % 3] = FOREHAND
        roles[(dealer + 2) % 3] = MIDDLEHAND
        return tuple(roles)

    def forehand_of(self, dealer: int) -> int:
        return (dealer + 1) % 3

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        if contract is None or contract == "":
            raise RuleError("unknown_contract", "Choose a contract.", "contract")
        if not isinstance(contract, str) or contract not in CONTRACT_IDS:
            raise RuleError(
                "unknown_contract",
                f"There is no contract called {contract!s}; choose one of {', '.join(CONTRACT_IDS)}.",
                "contract",
            )
        return contract

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        if bids is not None:
            raise RuleError("bids_not_allowed", "Mizerka has no bids.", "bids")
        return None

    def replay_after(
        self, setup: GameSetup, done: Sequence[DealState], deals: Sequence[DealRecord]
    ) -> GameState:
        used: list[dict[str, int]] = [{} for _ in range(self.player_count)]
        for deal in done:
            assert deal.chooser is not None
            used[deal.chooser][deal.contract] = deal.number
        totals = totals_after(done, self.player_count)
        states: list[DealState] = list(done)
        for number, record in enumerate(deals, start=len(done) + 1):
            if number > self.deal_count:
                raise RuleError("game_finished", f"The game is over after {self.deal_count} deals.", "number")
            if states and states[-1].pending:
                raise RuleError(
                    "deal_pending",
                    f"Deal {number - 1} has no tricks yet; enter them before the next deal.",
                    "tricks",
                )
            dealer = self.dealer_of(setup, number)
            forehand = self.forehand_of(dealer)
            roles = self.roles(dealer)
            contract = self.parse_contract(setup, number, record.contract)
            assert contract is not None
            if record.bids is not None:
                raise RuleError("bids_not_allowed", "Mizerka has no bids.", "bids")
            if contract in used[forehand]:
                raise RuleError(
                    "contract_used",
                    f"{setup.players[forehand]} has already played {self.contract_label(contract)} "
                    f"(deal {used[forehand][contract]}), so cannot choose it again in deal {number}.",
                    "contract",
                )
            used[forehand][contract] = number
            quotas = tuple(quota(role, contract) for role in roles)
            if record.tricks is None:
                states.append(
                    DealState(number, dealer, forehand, contract, roles, None, None, quotas, None, None)
                )
                continue
            tricks = self.tricks_for(setup, record.tricks)
            scores = tuple(deal_score(contract, t, q) for t, q in zip(tricks, quotas, strict=True))
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
            states.append(
                DealState(
                    number, dealer, forehand, contract, roles, None, tricks, quotas, scores, tuple(totals)
                )
            )

        remaining = tuple(
            tuple(c for c in CONTRACT_IDS if c not in used[seat]) for seat in range(self.player_count)
        )
        finished = len(states) == self.deal_count and not states[-1].pending
        next_deal: NextDeal | None = None
        if not finished and not (states and states[-1].pending):
            number = len(states) + 1
            dealer = self.dealer_of(setup, number)
            forehand = self.forehand_of(dealer)
            next_deal = NextDeal(
                number=number,
                dealer=dealer,
                chooser=forehand,
                contract=None,
                available_contracts=remaining[forehand],
                roles=self.roles(dealer),
            )
        return GameState(
            setup=setup,
            deals=tuple(states),
            totals=tuple(totals),
            next_deal=next_deal,
            remaining_contracts=remaining,
            standings=standings_for(totals),
            finished=finished,
            deal_count=self.deal_count,
        )


MIZERKA = Mizerka(
    id="mizerka",
    name="Mizerka",
    player_count=3,
    deal_count=18,
    contracts=CONTRACTS,
    seating_direction="clockwise",
    summary="Polish, 3 players, 18 deals; each player chooses each of six contracts once.",
)
