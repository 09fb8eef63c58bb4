"""Mizerka: three players, eighteen deals, each player chooses each contract once.

RULES.md section 1 is the decision; this module is its executable form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import Ruleset
from .refusal import RuleError
from .registry import register
from .state import Contract, DealState, GameSetup
from .words import N_

FOREHAND = "forehand"
MIDDLEHAND = "middlehand"
DEALER = "dealer"

CONTRACTS = (
    # NOTE: a contract (the trump suit): clubs are trumps.
    Contract("clubs", N_("Clubs"), "clubs", N_("Clubs are trumps.")),
    # NOTE: a contract (the trump suit): diamonds are trumps.
    Contract("diamonds", N_("Diamonds"), "diamonds", N_("Diamonds are trumps.")),
    # NOTE: a contract (the trump suit): hearts are trumps.
    Contract("hearts", N_("Hearts"), "hearts", N_("Hearts are trumps.")),
    # NOTE: a contract (the trump suit): spades are trumps.
    Contract("spades", N_("Spades"), "spades", N_("Spades are trumps.")),
    # NOTE: a contract played without a trump suit.
    Contract(
        "no-trumps",
        N_("No trumps"),
        None,
        N_("No trumps; take tricks."),
        # NOTE A contract's mark in a narrow table column (two or three letters): No trumps.
        N_("NT"),
    ),
    # NOTE: the contract in which you take as few tricks as you can (also the name of the game).
    Contract(
        "mizerka",
        N_("Mizerka"),
        None,
        N_("No trumps; take as few tricks as you can."),
        # NOTE A contract's mark in a narrow table column (two or three letters): Mizerka.
        N_("Miz"),
    ),
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
            raise RuleError("unknown_contract", N_("Choose a contract."), "contract")
        if not isinstance(contract, str) or contract not in CONTRACT_IDS:
            raise RuleError(
                "unknown_contract",
                N_("There is no contract called %(given)s; choose one of %(choices)s."),
                "contract",
                {"given": str(contract), "choices": ", ".join(CONTRACT_IDS)},
            )
        return contract

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
                    N_(
                        "%(player)s has already played %(contract)s (deal %(played_in)d), "
                        "so cannot choose it again in deal %(deal)d."
                    ),
                    "contract",
                    {
                        "player": setup.players[forehand],
                        "contract": self.contract(contract),
                        "played_in": deal.number,
                        "deal": number,
                    },
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
        return self.left_to_choose(setup, deals)

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """Forehand chooses among the contracts they have left."""
        return self.chooser_offer(chooser, remaining)


MIZERKA = Mizerka(
    id="mizerka",
    # NOTE: the Polish card game's name.
    name=N_("Mizerka"),
    player_count=3,
    deal_count=18,
    contracts=CONTRACTS,
    seating_direction="clockwise",
    summary=N_("Polish, 3 players, 18 deals; each player chooses each of six contracts once."),
    made_apart="mizerka",
    role_labels={
        # NOTE: Mizerka's roles: forehand (left of the dealer, chooses the contract), middlehand, dealer.
        FOREHAND: N_("Forehand"),
        MIDDLEHAND: N_("Middlehand"),
        DEALER: N_("Dealer"),
    },
)

register(MIZERKA)
