"""Mizerka: three players, eighteen deals, each player chooses each contract once.

RULES.md section 1 is the decision; this module is its executable form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import Ruleset
from .refusal import RuleError
from .state import Contract, DealState, GameSetup

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

    # -- the hooks of the replay ------------------------------------------------------

    def chooser_of(self, setup: GameSetup, number: int) -> int | None:
        """Forehand, left of the dealer, chooses the contract."""
        return self.forehand_of(self.dealer_of(setup, number))

    def check_declaration(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        contract: str,
        bids: tuple[int, ...] | None,
    ) -> None:
        """Each-contract-once: forehand may not choose a contract they have already played."""
        forehand = self.forehand_of(self.dealer_of(setup, number))
        for deal in done:
            if deal.chooser == forehand and deal.contract == contract:
                raise RuleError(
                    "contract_used",
                    f"{setup.players[forehand]} has already played {self.contract_label(contract)} "
                    f"(deal {deal.number}), so cannot choose it again in deal {number}.",
                    "contract",
                )

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        return tuple(quota(role, contract) for role in roles)

    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        assert quotas is not None
        return tuple(deal_score(contract, t, q) for t, q in zip(tricks, quotas, strict=True))

    def aims_made(
        self, number: int, contract: str, quotas: Sequence[int] | None, tricks: Sequence[int]
    ) -> tuple[bool, ...] | None:
        """Made means no trick short of the quota (no trick over it, in Mizerka): a score of 0 or more."""
        assert quotas is not None
        return tuple(deal_score(contract, t, q) >= 0 for t, q in zip(tricks, quotas, strict=True))

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """Per seat, the contracts that seat has not chosen yet."""
        used: list[set[str]] = [set() for _ in range(self.player_count)]
        for deal in deals:
            if deal.chooser is not None:
                used[deal.chooser].add(deal.contract)
        return tuple(
            tuple(c for c in CONTRACT_IDS if c not in used[seat]) for seat in range(self.player_count)
        )

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """Forehand chooses among the contracts they have left."""
        assert chooser is not None
        return None, remaining[chooser]


MIZERKA = Mizerka(
    id="mizerka",
    name="Mizerka",
    player_count=3,
    deal_count=18,
    contracts=CONTRACTS,
    seating_direction="clockwise",
    summary="Polish, 3 players, 18 deals; each player chooses each of six contracts once.",
)
