"""Kierki: 4 players (or 3), a negative part, then a positive part; a fixed order of deals.

RULES.md section 3 is the decision; this module is its executable form.  The table tells the
app more than tricks (API.md K4): how many hearts, queens, kings and jacks each player took,
who took the king of hearts, the 7th and the last trick, the trump suit named, who went out
first and second in the Fan Tan.  The preset in force (RULES.md 3.9) fixes the order of the
deals and every value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .base import Ruleset
from .refusal import RuleError
from .registry import register
from .state import (
    COUNT,
    HEARTS_IN_DECK,
    HEARTS_TAKEN,
    KING_OF_HEARTS_TAKER,
    LAST_TRICK_TAKER,
    ONE_PLAYER,
    ORDER,
    QUEENS_IN_DECK,
    QUEENS_TAKEN,
    TRICKS,
    TRUMP_SUIT,
    Contract,
    DealRecord,
    DealState,
    Fact,
    GameSetup,
    OptionSpec,
    Preset,
    SeatValueMessages,
)
from .words import N_, n_

DEALER = "dealer"
LEADER = "leader"
PLAYER = "player"

NO_TRICKS = "no-tricks"
NO_HEARTS = "no-hearts"
NO_QUEENS = "no-queens"
NO_KINGS_JACKS = "no-kings-jacks"
NO_KING_OF_HEARTS = "no-king-of-hearts"
NO_SEVENTH_LAST = "no-seventh-last"
ROBBER = "robber"
TRUMPS = "trumps"
FAN_TAN = "fan-tan"

#: The six negative deals of every full game, in their order (RULES.md 3.3).
NEGATIVE_DEALS = (NO_TRICKS, NO_HEARTS, NO_QUEENS, NO_KINGS_JACKS, NO_KING_OF_HEARTS, NO_SEVENTH_LAST)

CONTRACTS = (
    Contract(
        NO_TRICKS,
        # NOTE: a Kierki deal (Polish "Bez lew"): every trick taken costs points.
        N_("No tricks"),
        None,
        N_("Every trick taken costs points."),
        # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No tricks.
        mark=N_("Tr"),
    ),
    Contract(
        NO_HEARTS,
        # NOTE: a Kierki deal (Polish "Bez kierów"): every heart taken costs points.
        N_("No hearts"),
        None,
        N_("Every heart taken costs points."),
        mark="♥",
    ),
    Contract(
        NO_QUEENS,
        # NOTE: a Kierki deal (Polish "Bez dam"): every queen taken costs points.
        N_("No queens"),
        None,
        N_("Every queen taken costs points."),
        # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No queens.
        mark=N_("Q"),
    ),
    Contract(
        NO_KINGS_JACKS,
        # NOTE: a Kierki deal (Polish "Bez panów"): every king and every jack taken costs points.
        N_("No kings or jacks"),
        None,
        N_("Every king and jack taken costs points."),
        # NOTE A Kierki contract's mark atop a narrow column (a letter or two): No kings or jacks.
        mark=N_("KJ"),
    ),
    Contract(
        NO_KING_OF_HEARTS,
        # NOTE: a Kierki deal (Polish "Bez króla kier"): taking the king of hearts costs points.
        N_("No king of hearts"),
        None,
        N_("Taking the king of hearts costs points."),
        mark=N_("K♥"),
    ),
    Contract(
        NO_SEVENTH_LAST,
        # NOTE: a Kierki deal (Polish "Bez siódmej i ostatniej"): the 7th and the last trick cost points.
        N_("No seventh or last trick"),
        None,
        N_("Taking the seventh trick or the last trick costs points."),
        # NOTE A Kierki contract's mark atop a narrow column (2 or 3 characters): No seventh or last trick.
        mark=N_("7/L"),
    ),
    Contract(
        ROBBER,
        # NOTE: a Kierki deal (Polish "Rozbójnik"): all the negative deals at once.
        N_("Robber"),
        None,
        N_(
            "Tricks, hearts, queens, kings and jacks, the king of hearts, the seventh and the last trick: "
            "everything costs points."
        ),
        # NOTE A Kierki contract's mark atop a narrow column (two or three letters): the Robber.
        mark=N_("Rob"),
    ),
    Contract(
        TRUMPS,
        # NOTE: a Kierki deal of the positive part (Polish "Odgrywka"): the dealer names trumps.
        N_("Trumps"),
        None,
        N_("The dealer names trumps; every trick taken wins points."),
        # NOTE A trump deal's mark atop a narrow column (2 or 3 characters): Polish "Atu", Italian "Bri".
        mark=N_("Tru"),
    ),
    Contract(
        FAN_TAN,
        # NOTE: the last Kierki deal (Polish "Loteryjka"): a laying-out game, the first two out score.
        N_("Fan Tan"),
        None,
        N_("Get rid of your cards first: the first and the second out win points."),
        # NOTE A Kierki contract's mark atop a narrow column (two or three letters): the Fan Tan.
        mark=N_("FT"),
    ),
)
CONTRACT_IDS = tuple(contract.id for contract in CONTRACTS)

#: The result facts each contract takes (RULES.md 3.8, API.md K4), in API.md K5's order.
RESULTS: Mapping[str, tuple[str, ...]] = {
    NO_TRICKS: ("tricks",),
    NO_HEARTS: ("hearts",),
    NO_QUEENS: ("queens",),
    NO_KINGS_JACKS: ("kings_jacks",),
    NO_KING_OF_HEARTS: ("king_of_hearts",),
    NO_SEVENTH_LAST: ("seventh_trick", "last_trick"),
    ROBBER: ("tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "seventh_trick", "last_trick"),
    TRUMPS: ("tricks",),
    FAN_TAN: ("places",),
}


def fields_of(contract: str) -> tuple[str, ...]:
    """The facts a deal of ``contract`` takes, in API.md K5's order (the trump suit first)."""
    return (("trumps",) if contract == TRUMPS else ()) + RESULTS[contract]


#: How many of each penalty card a deal holds (the 3-player game removes the two of clubs only).
KINGS_JACKS_IN_DECK = 8


#: The contracts whose ``taken`` says yes or no (the king of hearts taken; among the first two out).
TAKEN_OR_NOT = (NO_KING_OF_HEARTS, FAN_TAN)


#: The facts of a deal (RULES.md 3.8, API.md K4), in API.md K5's order: the trump suit, the tricks, the
#: counts of hearts, queens, kings and jacks, who took the king of hearts, the 7th and the last trick,
#: who went out first and second in the Fan Tan.  Each label names the fact in a refusal about a fact
#: a deal does not take ("Deal 2 (No hearts) takes no “Trump suit”.").
FACTS = (
    replace(
        TRUMP_SUIT,
        answered="Kierki, trump deal: the suit named; else null.",
        about="Kierki, trump deal: the suit the dealer named (also when pending).",
    ),
    TRICKS,
    replace(
        HEARTS_TAKEN, answered="Kierki: hearts taken; else null.", about="Kierki: hearts taken (13 in all)."
    ),
    replace(
        QUEENS_TAKEN, answered="Kierki: queens taken; else null.", about="Kierki: queens taken (4 in all)."
    ),
    Fact(
        "kings_jacks",
        # NOTE: a Kierki deal fact, named in a refusal: the kings and jacks each player took.
        N_("Kings and jacks taken"),
        COUNT,
        total=KINGS_JACKS_IN_DECK,
        messages=SeatValueMessages(
            not_playing=N_("%(player)s is not playing in this game; give kings and jacks for %(players)s."),
            twice=N_("%(player)s appears twice in the kings and jacks."),
            missing=N_("Kings and jacks missing for %(players)s."),
            count=N_("Give kings and jacks for exactly the %(count)d players."),
            each=N_("Give the kings and jacks each player took."),
            value_range=N_(
                "%(player)s's kings and jacks must be a whole number from 0 to %(most)d (got %(value)s)."
            ),
            enter_named=N_("Enter the kings and jacks for %(players)s."),
            enter_every=N_("Enter the kings and jacks for every player."),
            enter_one=N_("%(player)s: enter the kings and jacks."),
        ),
        sum_message=N_("Kings and jacks must add up to %(total)d (got %(got)d)."),
        answered="Kierki: kings and jacks taken; else null.",
        about="Kierki: kings and jacks taken (8 in all).",
        columns=(N_("%(player)s kings and jacks"),),
        hint=N_("Each player's kings and jacks: %(count)s in all."),
        chip=N_("%(player)s: kings and jacks"),
        # NOTE The kings and jacks a player took in a Kierki deal, short ("2 K/J"): a letter for each.
        short=N_("%(tricks)s K/J"),
    ),
    replace(
        KING_OF_HEARTS_TAKER,
        answered="Kierki: who took the king of hearts.",
        about="Kierki: who took the king of hearts.",
    ),
    Fact(
        "seventh_trick",
        # NOTE: a Kierki deal fact, named in a refusal: the player who took the 7th trick.
        N_("Who took the seventh trick"),
        ONE_PLAYER,
        answered="Kierki: who took the 7th trick.",
        about="Kierki: who took the 7th trick.",
        columns=(N_("seventh trick"),),
        # NOTE The mark, in a Kierki deal's log, of the player who took the seventh trick: keep it short.
        short=N_("7th"),
    ),
    replace(
        LAST_TRICK_TAKER,
        answered="Kierki: who took the last trick.",
        about="Kierki: who took the last trick (13th; 17th with 3 players).",
    ),
    Fact(
        "places",
        # NOTE: a Kierki deal fact, named in a refusal: the first and the second player out in the Fan Tan.
        N_("First and second out"),
        ORDER,
        places=(
            # NOTE Kierki's Fan Tan: the first player to get rid of all their cards.
            N_("First out"),
            # NOTE Kierki's Fan Tan: the second player to get rid of all their cards.
            N_("Second out"),
        ),
        refusal=("places_invalid", N_("Give the first and the second player out: two names.")),
        answered="Kierki, Fan Tan: [first out, second out]; else null.",
        about="Kierki, Fan Tan: [first out, second out], two different players' names.",
        columns=(
            N_("first out"),
            # NOTE: a column heading of a Kierki CSV deal log: who went out second in the Fan Tan.
            N_("second out"),
        ),
        # NOTE The marks, in the log of Kierki's Fan Tan, of the first and the second player out of cards.
        places_short=(N_("1st out"), N_("2nd out")),
    ),
)
#: Every fact of a deal, tricks among them, in API.md K5's order.
FIELDS = tuple(fact.id for fact in FACTS)
#: The per-player counts: field -> (the cards of that kind in the deck).
COUNTS: Mapping[str, int] = {fact.id: fact.total for fact in FACTS if fact.kind == COUNT and fact.total}
#: The fields naming one player (``unknown_player`` when it names nobody at the table).
TAKERS = tuple(fact.id for fact in FACTS if fact.kind == ONE_PLAYER)


@dataclass(frozen=True)
class Values:
    """The points of one preset for one player count (RULES.md 3.6): penalties as positive numbers."""

    trick: int
    """Each trick in ``no-tricks`` and the robber (subtracted)."""
    heart: int
    queen: int
    king_jack: int
    king_of_hearts: int
    seventh_last: int
    """The 7th trick; the last trick (each, subtracted)."""
    trump_trick: int
    """Each trick in a ``trumps`` deal (added)."""
    fan_tan: tuple[int, int] = (0, 0)
    """The first and the second player out of the Fan Tan (added); (0, 0) where there is none."""


#: RULES.md 3.6: the full game with 4 players, with 3, and the short game.
FULL_4 = Values(
    trick=20,
    heart=20,
    queen=60,
    king_jack=30,
    king_of_hearts=150,
    seventh_last=75,
    trump_trick=25,
    fan_tan=(800, 500),
)
FULL_3 = Values(
    trick=15,
    heart=20,
    queen=60,
    king_jack=30,
    king_of_hearts=140,
    seventh_last=70,
    trump_trick=25,
    fan_tan=(790, 485),
)
SHORT_4 = Values(trick=2, heart=2, queen=5, king_jack=3, king_of_hearts=16, seventh_last=9, trump_trick=10)


@dataclass(frozen=True)
class KierkiPreset(Preset):
    """A Kierki preset (RULES.md 3.9): the order of its deals and its values by player count."""

    negative: tuple[str, ...] = ()
    """The negative part's deals, in order."""
    trump_rounds: int = 1
    """Trump deals per player in the positive part (each player names trumps that often)."""
    fan_tan: bool = False
    """Whether the positive part ends with the Fan Tan."""
    values: tuple[tuple[int, Values], ...] = ()
    """(player count, values) pairs."""

    def order(self, player_count: int) -> tuple[str, ...]:
        """The contract of every deal, deal 1 first (RULES.md 3.3)."""
        positive = (TRUMPS,) * (self.trump_rounds * player_count)
        return self.negative + positive + ((FAN_TAN,) if self.fan_tan else ())

    def values_for(self, player_count: int) -> Values:
        return dict(self.values)[player_count]


PRESETS = (
    KierkiPreset(
        "standard",
        # NOTE: a Kierki preset (the usual game).
        N_("Standard"),
        N_("Seven negative deals with the robber, a trump deal for each player, then the Fan Tan."),
        negative=(*NEGATIVE_DEALS, ROBBER),
        fan_tan=True,
        values=((4, FULL_4), (3, FULL_3)),
    ),
    KierkiPreset(
        "no-fan-tan",
        # NOTE: a Kierki preset: a second round of trump deals instead of the Fan Tan (Polish "loteryjka").
        N_("No Fan Tan"),
        N_("As the standard game, but two trump deals for each player instead of the Fan Tan."),
        negative=(*NEGATIVE_DEALS, ROBBER),
        trump_rounds=2,
        values=((4, FULL_4), (3, FULL_3)),
    ),
    KierkiPreset(
        "no-robber",
        # NOTE: a Kierki preset: the six negative deals without the robber (Polish "rozbójnik").
        N_("No robber"),
        N_("The six negative deals without the robber, then a trump deal for each player."),
        negative=NEGATIVE_DEALS,
        values=((4, FULL_4), (3, FULL_3)),
    ),
    KierkiPreset(
        "short",
        # NOTE: a Kierki preset (Polish "kierki krótkie"), for 4 players only.
        N_("Short (4 players)"),
        N_("Four robbers, then four trump deals, on a small scale: 2 a trick, +10 a trump trick."),
        player_counts=(4,),
        negative=(ROBBER,) * 4,
        values=((4, SHORT_4),),
    ),
)
# NOTE: the option choosing a game's house rules (Kierki's presets).
PRESET = OptionSpec("preset", N_("Preset"), tuple((preset.id, preset.label) for preset in PRESETS))

#: Tricks in a deal: 13 with 4 players, 17 with 3 (the two of clubs removed).
TRICKS_BY_PLAYERS: Mapping[int, int] = {4: 13, 3: 17}


def deal_amount(values: Values, tricks_per_deal: int, contract: str) -> int:
    """What the scores of a complete deal of ``contract`` add up to (RULES.md 3.7)."""
    negative = {
        NO_TRICKS: tricks_per_deal * values.trick,
        NO_HEARTS: HEARTS_IN_DECK * values.heart,
        NO_QUEENS: QUEENS_IN_DECK * values.queen,
        NO_KINGS_JACKS: KINGS_JACKS_IN_DECK * values.king_jack,
        NO_KING_OF_HEARTS: values.king_of_hearts,
        NO_SEVENTH_LAST: 2 * values.seventh_last,
    }
    if contract in negative:
        return -negative[contract]
    if contract == ROBBER:
        return -sum(negative.values())
    if contract == TRUMPS:
        return tricks_per_deal * values.trump_trick
    return sum(values.fan_tan)


def penalty_cards(hearts: int, queens: int, kings_jacks: int) -> int:
    """The fewest cards that hold these counts: the heart queen, king and jack count twice (R3)."""
    return hearts + queens + kings_jacks - min(hearts, min(queens, 1) + min(kings_jacks, 2))


@dataclass(frozen=True)
class Kierki(Ruleset):
    declares_contract: bool = False
    """Nobody chooses a contract: the preset and the deal number fix it."""

    # -- the game a setup plays ----------------------------------------------------------

    def kierki_preset(self, setup: GameSetup) -> KierkiPreset:
        preset = self.preset_of(setup)
        assert isinstance(preset, KierkiPreset)
        return preset

    def values_of(self, setup: GameSetup) -> Values:
        """The values in force (the preset's, for the number of players)."""
        return self.kierki_preset(setup).values_for(len(setup.players))

    def order_of(self, setup: GameSetup) -> tuple[str, ...]:
        """The contract of every deal of the game, deal 1 first (API.md K3 ``schedule``)."""
        return self.kierki_preset(setup).order(len(setup.players))

    def deals_in(self, setup: GameSetup) -> int:
        return len(self.order_of(setup))

    @property
    def most_deals(self) -> int:
        return max(
            len(preset.order(count))
            for preset in self.presets
            if isinstance(preset, KierkiPreset)
            for count in self.seat_counts
            if preset.plays_with(count)
        )

    @property
    def most_tricks(self) -> int:
        return max(TRICKS_BY_PLAYERS[count] for count in self.seat_counts)

    def tricks_per_deal(self, setup: GameSetup) -> int:
        return TRICKS_BY_PLAYERS[len(setup.players)]

    def negative_part(self, setup: GameSetup) -> int:
        """How many deals the negative part has."""
        return len(self.kierki_preset(setup).negative)

    def amount_of(self, setup: GameSetup, contract: str) -> int:
        """What a complete deal's scores add up to in the game ``setup``."""
        return deal_amount(self.values_of(setup), self.tricks_per_deal(setup), contract)

    def contract_of(self, setup: GameSetup, number: int) -> str:
        """The contract of deal ``number`` (``game_finished`` past the last deal)."""
        order = self.order_of(setup)
        if not 1 <= number <= len(order):
            raise RuleError(
                "game_finished",
                N_("The game has %(count)d deals (no deal %(deal)d)."),
                "number",
                {"count": len(order), "deal": number},
            )
        return order[number - 1]

    def check_setup(self, setup: GameSetup) -> None:
        self.check_player_count(len(setup.players))
        self.kierki_preset(setup)

    # -- seats -----------------------------------------------------------------------------

    def roles(self, dealer: int) -> tuple[str, ...]:
        """Roles at the default table (4 players): the seat left of the dealer leads."""
        return kierki_roles(self.player_count, dealer)

    def roles_for(self, setup: GameSetup, dealer: int) -> tuple[str, ...]:
        return kierki_roles(len(setup.players), dealer)

    def chooser_of(self, setup: GameSetup, number: int) -> int | None:
        """The dealer names trumps on a trump deal (RULES.md 3.2, 3.11 #3); nobody chooses otherwise."""
        if self.contract_of(setup, number) == TRUMPS:
            return self.dealer_of(setup, number)
        return None

    def declares_in(self, setup: GameSetup, number: int) -> bool:
        """A trump deal is declared (its suit named) before its cards are played."""
        return self.contract_of(setup, number) == TRUMPS

    def fields_for(self, setup: GameSetup, number: int) -> tuple[str, ...]:
        return fields_of(self.contract_of(setup, number))

    # -- parsing (API.md K5, steps 2 to 5) -----------------------------------------------

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        if not 1 <= number <= self.deals_in(setup):
            return None
        fixed = self.contract_of(setup, number)
        if contract is None or contract == "" or contract == fixed:
            return fixed
        raise RuleError(
            "unknown_contract",
            N_("Deal %(deal)d is %(contract)s; the contract is fixed by the deal number."),
            "contract",
            {"deal": number, "contract": self.contract(fixed)},
        )

    def parse_deal(
        self,
        setup: GameSetup,
        number: int,
        *,
        contract: object = None,
        bids: object = None,
        tricks: object = None,
        **facts: object,
    ) -> DealRecord:
        """Deal ``number``'s facts (names as keys, as API.md K4 gives them) as a ``DealRecord``.

        Checked in API.md K5's order: ``bids_not_allowed``, ``unknown_contract``,
        ``field_not_allowed``, ``field_required``, then each field in its order; a field
        given as None is not given.  The robber's consistency (K5 step 6) is the replay's.
        """
        for name in facts:
            if name not in FIELDS:
                raise self.takes_no(name)
        self.check_setup(setup)
        if not 1 <= number <= self.deals_in(setup):
            self.contract_of(setup, number)  # game_finished
        self.parse_bids(setup, number, bids)
        fixed = self.parse_contract(setup, number, contract)
        assert fixed is not None
        given = {name: facts.get(name) for name in FIELDS}
        given["tricks"] = tricks
        self.check_presence(
            setup, number, fixed, {name for name, value in given.items() if value is not None}
        )
        # Each field in K5's order: the keyword arguments are evaluated in the order written.
        trumps = None if given["trumps"] is None else self.suit(given["trumps"])
        counted = None if tricks is None else self.tricks_for(setup, tricks)
        stored = {
            "trumps": trumps,
            **{name: self.counts_or_none(setup, name, given[name]) for name in COUNTS},
            **{name: self.taker_or_none(setup, name, given[name]) for name in TAKERS},
            "places": None if given["places"] is None else self.places_for(setup, given["places"]),
        }
        return DealRecord(contract=fixed, tricks=counted, facts=stored)

    def taken(self, deal: DealState) -> tuple[int, ...] | None:
        """Per seat, what the contract counts: tricks (no tricks, robber, trumps), hearts, queens,
        kings and jacks; 1 for the king of hearts' taker; the 7th and last tricks taken (0-2); 1 for
        the Fan Tan's first two out.  None while pending."""
        if deal.pending:
            return None
        seats = range(len(deal.roles))
        counted = {
            NO_TRICKS: deal.tricks,
            ROBBER: deal.tricks,
            TRUMPS: deal.tricks,
            NO_HEARTS: deal.fact("hearts"),
            NO_QUEENS: deal.fact("queens"),
            NO_KINGS_JACKS: deal.fact("kings_jacks"),
        }.get(deal.contract)
        if counted is not None:
            return tuple(counted)
        if deal.contract == NO_KING_OF_HEARTS:
            return tuple(int(seat == deal.fact("king_of_hearts")) for seat in seats)
        if deal.contract == NO_SEVENTH_LAST:
            seventh, last = deal.fact("seventh_trick"), deal.fact("last_trick")
            return tuple(int(seat == seventh) + int(seat == last) for seat in seats)
        return tuple(int(seat in (deal.fact("places") or ())) for seat in seats)

    def taken_or_not(self, contract: str) -> bool:
        return contract in TAKEN_OR_NOT

    def corrected(
        self, setup: GameSetup, number: int, old: DealRecord, fields: Mapping[str, object]
    ) -> DealRecord:
        """The given fields replace the stored ones (a per-player map whole; None clears one), then
        the deal is parsed as a whole as if it were posted (API.md K4, corrections)."""
        said = self.deal_input(setup, old)
        for name, value in fields.items():
            if name in ("contract", "bids"):
                continue
            if value is None:
                said.pop(name, None)
            else:
                said[name] = value
        return self.parse_deal(
            setup, number, contract=fields.get("contract"), bids=fields.get("bids"), **said
        )

    def check_presence(self, setup: GameSetup, number: int, contract: str, given: set[str]) -> None:
        """``field_not_allowed`` for a fact the contract does not take, then ``field_required``:
        the trump suit on a trump deal, and every result once one is given (API.md K5 steps 3, 4)."""
        self.check_given(
            setup,
            number,
            contract,
            given,
            fields=FIELDS,
            takes=fields_of(contract),
            results=RESULTS[contract],
            suit_named=contract == TRUMPS,
        )

    def counts_or_none(self, setup: GameSetup, name: str, values: object) -> tuple[int, ...] | None:
        return None if values is None else self.counts_for(setup, name, values)

    def taker_or_none(self, setup: GameSetup, name: str, player: object) -> int | None:
        return None if player is None else self.seat_of(setup.players, player, name)

    def places_for(self, setup: GameSetup, places: object) -> tuple[int, ...]:
        """The first and the second player out: a list of two different players (``places_invalid``)."""
        return self.order_of_players(
            setup,
            places,
            2,
            N_("%(player)s is not playing in this game; give the first and the second player out."),
            N_("The first and the second player out are two players (%(player)s is given twice)."),
        )

    # -- the hooks of the replay -----------------------------------------------------------

    def check_facts(self, setup: GameSetup, number: int, contract: str, record: DealRecord) -> None:
        """The record's facts as ``parse_deal`` checks them, then the robber's consistency (K5 step 6)."""
        for name in record.facts:
            if name not in FIELDS:
                raise self.takes_no(name)
        given = {*record.facts, *(() if record.tricks is None else ("tricks",))}
        self.check_presence(setup, number, contract, given)
        if record.fact("trumps") is not None:
            self.suit(record.fact("trumps"))
        if record.tricks is not None:
            self.tricks_for(setup, record.tricks)
        for name in COUNTS:
            values = record.fact(name)
            if values is not None:
                self.counts_for(setup, name, values)
        for name in TAKERS:
            seat = record.fact(name)
            if seat is not None and not 0 <= seat < len(setup.players):
                raise RuleError(
                    "unknown_player",
                    N_("%(player)s is not playing in this game."),
                    name,
                    {"player": str(seat)},
                )
        if record.fact("places") is not None:
            self.places_for(setup, [_name_at(setup, seat) for seat in record.fact("places")])
        if contract == ROBBER and not self.is_pending(record):
            self.check_robber(setup, record)

    def check_robber(self, setup: GameSetup, record: DealRecord) -> None:
        """RULES.md 3.8, R1-R3: conditions the robber's counts must meet, else ``robber_inconsistent``."""
        tricks = record.tricks
        hearts, queens, kings_jacks = (record.fact(name) for name in COUNTS)
        king, seventh, last = (record.fact(name) for name in TAKERS)
        assert tricks is not None and hearts is not None and queens is not None and kings_jacks is not None
        assert king is not None and seventh is not None and last is not None
        players = setup.players
        # R1: whoever took the 7th or the last trick has a trick; whoever took both, two.
        for field_name, taker in (("seventh_trick", seventh), ("last_trick", last)):
            if tricks[taker] == 0:
                message = (
                    N_("%(player)s has no trick, so cannot have taken the seventh trick.")
                    if field_name == "seventh_trick"
                    else N_("%(player)s has no trick, so cannot have taken the last trick.")
                )
                raise RuleError("robber_inconsistent", message, field_name, {"player": players[taker]})
        if seventh == last and tricks[last] < 2:
            raise RuleError(
                "robber_inconsistent",
                N_(
                    "%(player)s took both the seventh and the last trick, so has at least 2 tricks "
                    "(got %(tricks)d)."
                ),
                "last_trick",
                {"player": players[last], "tricks": tricks[last]},
            )
        # R2: the king of hearts is a heart and a king.
        if hearts[king] == 0:
            raise RuleError(
                "robber_inconsistent",
                N_(
                    "%(player)s took the king of hearts but no heart: "
                    "the king of hearts is also a heart and a king."
                ),
                "king_of_hearts",
                {"player": players[king]},
            )
        if kings_jacks[king] == 0:
            raise RuleError(
                "robber_inconsistent",
                N_(
                    "%(player)s took the king of hearts but no king or jack: "
                    "the king of hearts is also a heart and a king."
                ),
                "king_of_hearts",
                {"player": players[king]},
            )
        # R3: the penalty cards fit in the player's tricks.
        room_per_trick = len(players)
        for seat, player in enumerate(players):
            cards = penalty_cards(hearts[seat], queens[seat], kings_jacks[seat])
            room = room_per_trick * tricks[seat]
            if cards <= room:
                continue
            if tricks[seat] == 0:
                held = next(name for name in COUNTS if record.fact(name)[seat] > 0)
                raise RuleError(
                    "robber_inconsistent",
                    N_("%(player)s has no trick, so cannot have a heart, a queen, a king or a jack."),
                    held,
                    {"player": player},
                )
            raise RuleError(
                "robber_inconsistent",
                N_(
                    "%(player)s has at least %(cards)s among hearts, queens, kings and jacks, "
                    "but only %(room)s in %(tricks)s."
                ),
                "tricks",
                {
                    "player": player,
                    "cards": n_("%(num)d card", "%(num)d cards", cards),
                    "room": n_("%(num)d card", "%(num)d cards", room),
                    "tricks": n_("%(num)d trick", "%(num)d tricks", tricks[seat]),
                },
            )

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        """Nobody has a quota: every trick and card scores for itself."""
        return None

    def scores_for(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int] | None,
        record: DealRecord,
    ) -> tuple[int, ...]:
        """Each seat's points in a complete deal (RULES.md 3.6)."""
        return deal_scores_of(self.values_of(setup), len(setup.players), contract, record)

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """The deals still to come, the same for every seat (API.md K3 ``remaining_contracts``)."""
        left = self.order_of(setup)[len(deals) :]
        return tuple(left for _ in setup.players)

    def offer_for(
        self, setup: GameSetup, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """The preset and the deal number fix the contract."""
        fixed = self.contract_of(setup, number)
        return fixed, (fixed,)


def deal_scores_of(values: Values, player_count: int, contract: str, record: DealRecord) -> tuple[int, ...]:
    """Each seat's points in a complete deal of ``contract`` whose facts are ``record``."""
    scores = [0] * player_count
    robber = contract == ROBBER

    def per_seat(counts: tuple[int, ...] | None, points: int) -> None:
        assert counts is not None
        for seat, count in enumerate(counts):
            scores[seat] += count * points

    def to_taker(seat: int | None, points: int) -> None:
        assert seat is not None
        scores[seat] += points

    if contract == NO_TRICKS or robber:
        per_seat(record.tricks, -values.trick)
    if contract == NO_HEARTS or robber:
        per_seat(record.fact("hearts"), -values.heart)
    if contract == NO_QUEENS or robber:
        per_seat(record.fact("queens"), -values.queen)
    if contract == NO_KINGS_JACKS or robber:
        per_seat(record.fact("kings_jacks"), -values.king_jack)
    if contract == NO_KING_OF_HEARTS or robber:
        to_taker(record.fact("king_of_hearts"), -values.king_of_hearts)
    if contract == NO_SEVENTH_LAST or robber:
        to_taker(record.fact("seventh_trick"), -values.seventh_last)
        to_taker(record.fact("last_trick"), -values.seventh_last)
    if contract == TRUMPS:
        per_seat(record.tricks, values.trump_trick)
    if contract == FAN_TAN:
        assert record.fact("places") is not None
        first, second = record.fact("places")
        to_taker(first, values.fan_tan[0])
        to_taker(second, values.fan_tan[1])
    return tuple(scores)


def kierki_roles(player_count: int, dealer: int) -> tuple[str, ...]:
    """Role of each seat when ``dealer`` deals: the seat to the dealer's left leads."""
    roles = [PLAYER] * player_count
    roles[dealer] = DEALER
    roles[(dealer + 1) % player_count] = LEADER
    return tuple(roles)


def _name_at(setup: GameSetup, seat: int) -> object:
    return setup.players[seat] if 0 <= seat < len(setup.players) else seat


KIERKI = Kierki(
    id="kierki",
    # NOTE: the Polish card game's name.
    name=N_("Kierki"),
    player_count=4,
    deal_count=len(PRESETS[0].order(4)),
    contracts=CONTRACTS,
    options=(PRESET,),
    seating_direction="clockwise",
    role_labels={DEALER: N_("Dealer"), LEADER: N_("Leads"), PLAYER: ""},
    summary=N_(
        "Polish, 4 or 3 players: seven negative deals, then a trump deal for each player and the Fan Tan."
    ),
    presets=PRESETS,
    preset_option=PRESET.id,
    player_counts=(3, 4),
    deal_facts=FACTS,
    stylesheets=("css/taps.css",),
)

register(KIERKI)
