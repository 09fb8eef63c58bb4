"""Italian Misère: four players, eight deals in a fixed order, six of them with bids.

RULES.md section 2 is the decision; this module is its executable form.
The seating order is stored in playing direction (counter-clockwise at the
table), so "the player after" a seat is simply the next seat index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .base import Ruleset
from .refusal import RuleError
from .registry import register
from .state import TRICKS_PER_DEAL, Contract, DealState, GameSetup, OptionSpec, Preset
from .words import N_

DEALER = "dealer"
LEADER = "leader"
PLAYER = "player"

CIAPA_CIAPA = "ciapa-ciapa"
MISERE_DEAL = "misere"

CONTRACTS = (
    Contract(
        "hearts", N_("Hearts"), "hearts", N_("Hearts are trumps; bid the tricks you will take, then make it.")
    ),
    Contract(
        "diamonds",
        N_("Diamonds"),
        "diamonds",
        N_("Diamonds are trumps; bid the tricks you will take, then make it."),
    ),
    Contract(
        "clubs", N_("Clubs"), "clubs", N_("Clubs are trumps; bid the tricks you will take, then make it.")
    ),
    Contract(
        "spades", N_("Spades"), "spades", N_("Spades are trumps; bid the tricks you will take, then make it.")
    ),
    Contract(
        "no-trumps",
        N_("No trumps"),
        None,
        N_("No trumps; bid the tricks you will take, then make it."),
        # NOTE A contract's mark in a narrow table column (two or three letters): No trumps.
        N_("NT"),
    ),
    Contract(
        "blind",
        # NOTE: a Misère deal whose bids are made before looking at the cards.
        N_("Blind"),
        None,
        N_("No trumps; bids are made before looking at the cards, then make your bid."),
        # NOTE A contract's mark in a narrow table column (two or three letters): the Blind deal.
        N_("Bl"),
    ),
    Contract(
        CIAPA_CIAPA,
        # NOTE: an Italian deal name (take as many tricks as you can); usually left as it is.
        N_("Ciapa-ciapa"),
        None,
        N_("No trumps, no bids; take as many tricks as you can."),
        # NOTE A contract's mark in a narrow table column (two or three letters): Ciapa ciapa.
        N_("Cc"),
    ),
    Contract(
        MISERE_DEAL,
        # NOTE: the last Misère deal (take as few tricks as you can), also the game's name.
        N_("Misère"),
        None,
        N_("No trumps, no bids; take as few tricks as you can."),
        # NOTE A contract's mark in a narrow table column (two or three letters): Misère.
        N_("Mis"),
    ),
)
CONTRACT_IDS = tuple(contract.id for contract in CONTRACTS)

#: Deals 1..BIDDING_DEALS are played to a bid; the rest have none.
BIDDING_DEALS = 6

STANDARD = "standard"
VARIANT = "variant"
# NOTE: the option choosing how Misère deals are scored, and its two choices.
SCORING = OptionSpec("scoring", N_("Scoring"), ((STANDARD, N_("Standard")), (VARIANT, N_("Variant"))))

#: The two scorings are the Misère's presets (RULES.md "House rules"), chosen by its ``scoring`` option.
PRESETS = (
    Preset(
        STANDARD,
        N_("Standard"),
        N_(
            "Bids made score 10 a trick (a misère 50), bids missed lose 10 a trick off; "
            "ciapa-ciapa and misère 10 a trick."
        ),
    ),
    Preset(
        VARIANT,
        N_("Variant"),
        N_(
            "Bids made score 10 plus the bid (a misère 25), bids missed the tricks taken; "
            "ciapa-ciapa and misère 3 a trick."
        ),
    ),
)


def bid_score(bid: int, tricks: int, scoring: str = STANDARD) -> int:
    """Points for a player who bid ``bid`` and took ``tricks`` in deals 1-6."""
    if scoring == VARIANT:
        if tricks != bid:
            return tricks
        return 25 if bid == 0 else 10 + bid
    if tricks != bid:
        return -10 * abs(tricks - bid)
    return 50 if bid == 0 else 10 * bid


def trick_score(contract: str, tricks: int, scoring: str = STANDARD) -> int:
    """Points for ``tricks`` in ciapa-ciapa (a bonus each) or the misère deal (a penalty each)."""
    per_trick = 3 if scoring == VARIANT else 10
    return per_trick * tricks if contract == CIAPA_CIAPA else -per_trick * tricks


@dataclass(frozen=True)
class Misere(Ruleset):
    declares_contract: bool = False
    """Nobody chooses a contract: the deal number fixes it."""

    # -- the fixed deals ---------------------------------------------------------------

    def fixed_contract(self, number: int) -> Contract:
        """The contract deal ``number`` (1..8) is played under."""
        if not 1 <= number <= self.deal_count:
            raise RuleError(
                "game_finished",
                N_("The game has %(count)d deals (no deal %(deal)d)."),
                "number",
                {"count": self.deal_count, "deal": number},
            )
        return self.contracts[number - 1]

    def bids_in(self, number: int) -> bool:
        """Whether deal ``number`` is played to bids (deals 1-6)."""
        return 1 <= number <= BIDDING_DEALS

    def roles(self, dealer: int) -> tuple[str, ...]:
        """Role of each seat: the seat after the dealer bids first and leads."""
        roles = [PLAYER] * self.player_count
        roles[dealer] = DEALER
        roles[(dealer + 1) % self.player_count] = LEADER
        return tuple(roles)

    def scoring(self, setup: GameSetup) -> str:
        """The scoring in force: the game's preset (``invalid_options`` for one it cannot have)."""
        return self.preset_of(setup).id

    # -- the hook rule -----------------------------------------------------------------

    @staticmethod
    def forbidden_bid(other_bids: Iterable[int]) -> int | None:
        """The one bid the dealer may not make, given the bids of the three other players.

        It is the number that would make the four bids add up to 13; None when
        the others have already bid more than 13 between them.
        """
        forbidden = TRICKS_PER_DEAL - sum(other_bids)
        return forbidden if 0 <= forbidden <= TRICKS_PER_DEAL else None

    def dealer_forbidden_bid(self, setup: GameSetup, number: int, bids: Sequence[int]) -> int | None:
        """``forbidden_bid`` for deal ``number``, from bids by seat (the dealer's own is ignored)."""
        if not self.bids_in(number):
            return None
        dealer = self.dealer_of(setup, number)
        return self.forbidden_bid(bid for seat, bid in enumerate(bids) if seat != dealer)

    def check_hook_rule(self, setup: GameSetup, number: int, bids: Sequence[int]) -> None:
        """Raise ``hook_rule`` if the dealer's bid makes the four bids add up to 13."""
        dealer = self.dealer_of(setup, number)
        forbidden = self.dealer_forbidden_bid(setup, number, bids)
        if forbidden is not None and bids[dealer] == forbidden:
            name = setup.players[dealer]
            raise RuleError(
                "hook_rule",
                N_(
                    "%(player)s deals and bids last: %(player)s may not bid %(bid)d, "
                    "because the bids would add up to %(total)d."
                ),
                "bids",
                {"player": name, "bid": forbidden, "total": TRICKS_PER_DEAL},
            )

    # -- parsing -----------------------------------------------------------------------

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        if not 1 <= number <= self.deal_count:
            return None
        fixed = self.fixed_contract(number)
        if contract is None or contract == "" or contract == fixed.id:
            return fixed.id
        raise RuleError(
            "unknown_contract",
            N_("Deal %(deal)d is %(contract)s; the contract is fixed by the deal number."),
            "contract",
            {"deal": number, "contract": fixed},
        )

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        if not 1 <= number <= self.deal_count:
            return None
        if not self.bids_in(number):
            if bids is not None:
                raise RuleError(
                    "bids_not_allowed",
                    N_("Deal %(deal)d (%(contract)s) has no bids."),
                    "bids",
                    {"deal": number, "contract": self.fixed_contract(number)},
                )
            return None
        if bids is None:
            raise RuleError(
                "bids_required",
                N_("Deal %(deal)d (%(contract)s) needs a bid from every player."),
                "bids",
                {"deal": number, "contract": self.fixed_contract(number)},
            )
        return self.seat_values(
            setup, bids, "bids", mismatch_code="bids_required", range_code="bid_range", noun="bids"
        )

    # -- the game ----------------------------------------------------------------------

    def check_declaration(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        contract: str,
        bids: tuple[int, ...] | None,
    ) -> None:
        if bids is not None:
            self.check_hook_rule(setup, number, bids)

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        """A player's target is their bid (deals 1-6); ciapa-ciapa and misère have none."""
        return bids

    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        """Each seat's points in deal ``number``; ``quotas`` are the bids where there are bids."""
        scoring = self.scoring(setup)
        if self.bids_in(number):
            assert quotas is not None
            return tuple(bid_score(b, t, scoring) for b, t in zip(quotas, tricks, strict=True))
        return tuple(trick_score(contract, t, scoring) for t in tricks)

    def aims_made(
        self, number: int, contract: str, quotas: Sequence[int] | None, tricks: Sequence[int]
    ) -> tuple[bool, ...] | None:
        """A bid is made by taking exactly that many tricks; ciapa-ciapa and misère have no bids."""
        if quotas is None:
            return None
        return tuple(taken == bid for bid, taken in zip(quotas, tricks, strict=True))

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """The fixed deals still to come, the same for every seat."""
        remaining_ids = tuple(contract.id for contract in self.contracts[len(deals) :])
        return tuple(remaining_ids for _ in range(self.player_count))

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """The deal number fixes the contract."""
        fixed = self.fixed_contract(number).id
        return fixed, (fixed,)


MISERE = Misere(
    id="misere",
    # NOTE: the Italian card game's name.
    name=N_("Misère"),
    player_count=4,
    deal_count=8,
    contracts=CONTRACTS,
    options=(SCORING,),
    presets=PRESETS,
    preset_option=SCORING.id,
    seating_direction="counter-clockwise",
    role_labels={
        DEALER: N_("Dealer"),
        # NOTE: the role of the player after the dealer, who leads (and bids first, in Misère).
        LEADER: N_("Leads"),
        PLAYER: "",
    },
    summary=N_("Italian, 4 players, 8 fixed deals: six played to exact bids, then ciapa-ciapa and misère."),
)

register(MISERE)
