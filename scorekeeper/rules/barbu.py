"""Barbu: 4 players, 28 deals, each declarer's seven contracts once, doubles settled on the difference.

RULES.md section 4 is the decision; this module is its executable form.  Each player in turn
declares seven deals (in a block, or one in four with quick rotation) and chooses each of the
seven contracts once: five negative ones cost points, two positive ones win them, and a
declarer's seven add up to 0.  Before the first lead players may double one another: a side bet
on the difference of two players' contract points in that deal, twice that when redoubled.  Each
non-declarer owes the declarer two doubles in the declarer's seven: the app warns, never refuses.

The arithmetic here works on plain values by seat (a deal's facts as a mapping of fact ids to
seats and counts), so it is the same for the replay, the API and the tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .base import Ruleset, contracts_left
from .refusal import RuleError
from .registry import register
from .state import (
    HEARTS_TAKEN,
    KING_OF_HEARTS_TAKER,
    LAST_TRICK_TAKER,
    ONE_PLAYER,
    ORDER,
    PAIRS,
    QUEENS_TAKEN,
    TRICKS,
    TRUMP_SUIT,
    Contract,
    DealRecord,
    DealState,
    Fact,
    GameSetup,
    GameState,
    Notice,
    OptionSpec,
    Preset,
)
from .words import N_, NC_

PLAYERS = 4
"""Barbu is played by exactly four (RULES.md 4.2)."""
SEVEN = 7
"""Deals each player declares: one of each contract."""
DEALS = PLAYERS * SEVEN
TRICKS_IN_DEAL = 13
HEARTS = 13
QUEENS = 4
TIMES_OWED = 2
"""Doubles each non-declarer owes the declarer in the declarer's seven (RULES.md 4.6)."""

NO_TRICKS = "no-tricks"
NO_HEARTS = "no-hearts"
NO_QUEENS = "no-queens"
NO_KING_OF_HEARTS = "no-king-of-hearts"
NO_LAST_TWO = "no-last-two"
TRUMPS = "trumps"
DOMINO = "domino"

#: The seven contracts in API.md B1's order.
CONTRACT_IDS = (NO_TRICKS, NO_HEARTS, NO_QUEENS, NO_KING_OF_HEARTS, NO_LAST_TWO, TRUMPS, DOMINO)
#: The positive contracts: only the declarer may be doubled in them (RULES.md 4.6, D3).
POSITIVE = frozenset({TRUMPS, DOMINO})

#: The result facts each contract takes (RULES.md 4.5, API.md B4); ``trumps`` also takes the suit.
RESULTS: Mapping[str, tuple[str, ...]] = {
    NO_TRICKS: ("tricks",),
    NO_HEARTS: ("hearts", "ace_of_hearts"),
    NO_QUEENS: ("queens",),
    NO_KING_OF_HEARTS: ("king_of_hearts",),
    NO_LAST_TWO: ("penultimate_trick", "last_trick"),
    TRUMPS: ("tricks",),
    DOMINO: ("places",),
}
#: Every fact of a deal beyond its contract and doubles, in API.md B5's order (steps 4 and 6).
FACT_ORDER = (
    "trumps",
    "tricks",
    "hearts",
    "ace_of_hearts",
    "queens",
    "king_of_hearts",
    "penultimate_trick",
    "last_trick",
    "places",
)


def fields_of(contract: str) -> tuple[str, ...]:
    """The facts a deal of ``contract`` takes, in API.md B5's order (the trump suit first)."""
    return (("trumps",) if contract == TRUMPS else ()) + RESULTS[contract]


# -- values (RULES.md 4.3) -------------------------------------------------------------------------

TRICK = 2
"""No tricks: each trick (subtracted)."""
HEART = 2
"""No hearts: each heart (subtracted), the ace of hearts included..."""
ACE_OF_HEARTS = 6
"""...except the ace, which costs this instead."""
QUEEN = 6
KING_OF_HEARTS = 20
PENULTIMATE_TRICK = 10
LAST_TRICK = 20
TRUMP_TRICK = 5
"""Trumps: each trick (added)."""


@dataclass(frozen=True)
class BarbuPreset(Preset):
    """A Barbu preset (RULES.md 4.8): how the deal passes, and the Domino's values."""

    quick: bool = False
    """The deal passes to the left after every deal (quick rotation), not after seven."""
    domino: tuple[int, int, int, int] = (45, 20, 5, -5)
    """The Domino's first, second, third and fourth out."""


PRESETS = (
    BarbuPreset(
        "standard",
        # NOTE: a Barbu preset (the usual game).
        N_("Standard"),
        N_("Each player declares seven deals in a row; Domino +45, +20, +5, −5."),
    ),
    BarbuPreset(
        "quick-rotation",
        # NOTE: a Barbu preset: the deal passes to the left after every deal, not after seven.
        N_("Quick rotation"),
        N_("As the standard game, but the deal passes to the left after every deal."),
        quick=True,
        ranks_with="standard",
    ),
    BarbuPreset(
        "domino-10",
        # NOTE: a Barbu preset (the French values): the Domino's third and fourth out score 10.
        N_("Domino 10"),
        N_("As the standard game, but Domino +45, +20, +10, −10."),
        domino=(45, 20, 10, -10),
    ),
)
PRESETS_BY_ID: Mapping[str, BarbuPreset] = {preset.id: preset for preset in PRESETS}


def contract_total(contract: str, preset: BarbuPreset) -> int:
    """What the contract points (and the scores) of a complete deal of ``contract`` add up to."""
    return {
        NO_TRICKS: -TRICK * TRICKS_IN_DEAL,
        NO_HEARTS: -HEART * (HEARTS - 1) - ACE_OF_HEARTS,
        NO_QUEENS: -QUEEN * QUEENS,
        NO_KING_OF_HEARTS: -KING_OF_HEARTS,
        NO_LAST_TWO: -PENULTIMATE_TRICK - LAST_TRICK,
        TRUMPS: TRUMP_TRICK * TRICKS_IN_DEAL,
        DOMINO: sum(preset.domino),
    }[contract]


# -- seats (RULES.md 4.2) --------------------------------------------------------------------------


def declarer_of(first: int, number: int, quick: bool) -> int:
    """The seat that declares deal ``number`` (1-based) when ``first`` declares deal 1."""
    passes = number - 1 if quick else (number - 1) // SEVEN
    return (first + passes) % PLAYERS


def declarers_of(first: int, quick: bool) -> tuple[int, ...]:
    """The declarer of every deal, deal 1 first (API.md B3 ``declarers``)."""
    return tuple(declarer_of(first, number, quick) for number in range(1, DEALS + 1))


def deals_left(declarers: Sequence[int], number: int) -> int:
    """The deals the declarer of deal ``number`` still declares, this one included."""
    declarer = declarers[number - 1]
    return sum(1 for seat in declarers[number - 1 :] if seat == declarer)


def is_last_of_seven(declarers: Sequence[int], number: int) -> bool:
    """Whether deal ``number`` is the last of its declarer's seven."""
    return deals_left(declarers, number) == 1


def from_left_of(seat: int) -> tuple[int, ...]:
    """The other seats, in order from ``seat``'s left (clockwise)."""
    return tuple((seat + offset) % PLAYERS for offset in range(1, PLAYERS))


def remaining_of(declarers: Sequence[int], contracts: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Per seat, the contracts not yet declared (in B1's order), ``contracts`` being those of the
    deals recorded so far (deal 1 first)."""
    return contracts_left(CONTRACT_IDS, PLAYERS, list(zip(declarers, contracts, strict=False)))


# -- contract points (RULES.md 4.3) ----------------------------------------------------------------


def contract_points(contract: str, facts: Mapping[str, Any], preset: BarbuPreset) -> tuple[int, ...]:
    """Each seat's contract points in a complete deal of ``contract`` whose facts (by seat, as
    stored) are ``facts``, before any double."""
    points = [0] * PLAYERS
    if contract in (NO_TRICKS, TRUMPS):
        value = -TRICK if contract == NO_TRICKS else TRUMP_TRICK
        for seat, taken in enumerate(facts["tricks"]):
            points[seat] = value * taken
    elif contract == NO_HEARTS:
        for seat, taken in enumerate(facts["hearts"]):
            points[seat] = -HEART * taken
        points[facts["ace_of_hearts"]] -= ACE_OF_HEARTS - HEART
    elif contract == NO_QUEENS:
        for seat, taken in enumerate(facts["queens"]):
            points[seat] = -QUEEN * taken
    elif contract == NO_KING_OF_HEARTS:
        points[facts["king_of_hearts"]] = -KING_OF_HEARTS
    elif contract == NO_LAST_TWO:
        points[facts["penultimate_trick"]] -= PENULTIMATE_TRICK
        points[facts["last_trick"]] -= LAST_TRICK
    else:
        for place, seat in enumerate(facts["places"]):
            points[seat] = preset.domino[place]
    return tuple(points)


# -- doubles (RULES.md 4.6) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Double:
    """A double by ``by`` against ``against`` (seats), ``redoubled`` by ``against``."""

    by: int
    against: int
    redoubled: bool = False

    @property
    def times(self) -> int:
        return 2 if self.redoubled else 1

    def settled(self, points: Sequence[int]) -> int:
        """What the double moves from ``against`` to ``by``: m × (c(by) − c(against))."""
        return self.times * (points[self.by] - points[self.against])


def double_scores(doubles: Sequence[Double], points: Sequence[int]) -> tuple[int, ...]:
    """Each seat's doubling result: the sum of its doubles' settlements, each on contract points."""
    result = [0] * len(points)
    for double in doubles:
        amount = double.settled(points)
        result[double.by] += amount
        result[double.against] -= amount
    return tuple(result)


def deal_scores(points: Sequence[int], doubles: Sequence[Double]) -> tuple[int, ...]:
    """Each seat's deal score: contract points plus doubling result."""
    return tuple(p + d for p, d in zip(points, double_scores(doubles, points), strict=True))


def check_double(
    players: Sequence[str], declarer: int, contract: str, double: Double, earlier: Sequence[Double]
) -> None:
    """D1-D4 for one double (seats already players of the game), given the doubles before it."""
    by, against = players[double.by], players[double.against]
    if double.by == double.against:
        raise RuleError(
            "double_not_allowed", N_("%(player)s cannot double themselves."), "doubles", {"player": by}
        )
    if double.by == declarer:
        raise RuleError(
            "double_not_allowed",
            N_("%(player)s declares this deal and cannot double anyone: the declarer may only redouble."),
            "doubles",
            {"player": by},
        )
    if contract in POSITIVE and double.against != declarer:
        message = (
            N_(
                "In trumps only the declarer (%(declarer)s) may be doubled: "
                "%(player)s cannot double %(other)s."
            )
            if contract == TRUMPS
            else N_(
                "In the domino only the declarer (%(declarer)s) may be doubled: "
                "%(player)s cannot double %(other)s."
            )
        )
        raise RuleError(
            "double_not_allowed",
            message,
            "doubles",
            {"declarer": players[declarer], "player": by, "other": against},
        )
    pair = {double.by, double.against}
    if any({other.by, other.against} == pair for other in earlier):
        raise RuleError(
            "double_twice",
            N_(
                "%(player)s and %(other)s are in two doubles: between two players there is one "
                "double, redoubled or not."
            ),
            "doubles",
            {"player": by, "other": against},
        )


DOUBLE_KEYS = frozenset({"by", "against", "redoubled"})


def parse_doubles(
    players: Sequence[str], declarer: int, contract: str, given: object, seat_of: Any
) -> tuple[Double, ...]:
    """``doubles`` as API.md B4 gives them (names), checked item by item in B5 step 7's order.

    ``seat_of(players, name, field)`` turns a name into a seat, else raises ``unknown_player``."""
    if given is None:
        return ()
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence):
        raise _doubles_invalid()
    doubles: list[Double] = []
    for item in given:
        if (
            not isinstance(item, Mapping)
            or not {"by", "against"} <= set(item)
            or not set(item) <= DOUBLE_KEYS
            or not isinstance(item["by"], str)
            or not isinstance(item["against"], str)
            or not isinstance(item.get("redoubled", False), bool)
        ):
            raise _doubles_invalid()
        double = Double(
            seat_of(players, item["by"], "doubles"),
            seat_of(players, item["against"], "doubles"),
            bool(item.get("redoubled", False)),
        )
        check_double(players, declarer, contract, double, doubles)
        doubles.append(double)
    return tuple(doubles)


def _doubles_invalid() -> RuleError:
    return RuleError(
        "doubles_invalid",
        N_(
            "Give the doubles as a list of {by, against, redoubled}: "
            "who doubled, whom, and whether that player redoubled."
        ),
        "doubles",
    )


def check_hearts(players: Sequence[str], hearts: Sequence[int], ace_of_hearts: int) -> None:
    """H1: the ace of hearts' taker took at least one heart (``hearts_inconsistent``)."""
    if hearts[ace_of_hearts] == 0:
        raise RuleError(
            "hearts_inconsistent",
            N_("%(player)s took the ace of hearts but no heart: the ace of hearts is a heart."),
            "ace_of_hearts",
            {"player": players[ace_of_hearts]},
        )


# -- the obligation (RULES.md 4.6): counted and warned, never refused --------------------------------


def double_counts(
    declarers: Sequence[int], doubles_by_deal: Sequence[Sequence[Double]]
) -> tuple[tuple[int, ...], ...]:
    """For each seat as declarer, for each seat, the declarer's deals so far (``doubles_by_deal``:
    the doubles of deals 1, 2, ...) in which that seat doubled the declarer."""
    counts = [[0] * PLAYERS for _ in range(PLAYERS)]
    for number, doubles in enumerate(doubles_by_deal, start=1):
        declarer = declarers[number - 1]
        for seat in {double.by for double in doubles if double.against == declarer}:
            counts[declarer][seat] += 1
    return tuple(tuple(row) for row in counts)


def must_double(
    declarers: Sequence[int], doubles_by_deal: Sequence[Sequence[Double]], number: int
) -> tuple[int, ...]:
    """The seats that must double the declarer in deal ``number`` to meet the obligation: doubles
    still missing at least the declarer's deals left, this one included; from the declarer's left.
    ``doubles_by_deal`` are the doubles of the deals before it."""
    declarer = declarers[number - 1]
    counts = double_counts(declarers, doubles_by_deal[: number - 1])[declarer]
    left = deals_left(declarers, number)
    return tuple(
        seat
        for seat in from_left_of(declarer)
        if counts[seat] < TIMES_OWED and TIMES_OWED - counts[seat] >= left
    )


@dataclass(frozen=True)
class ObligationWarning:
    """The obligation not met (API.md B3 ``warnings``): ``player`` doubled ``declarer`` ``doubles``
    times in the declarer's seven, fewer than twice.  Seats."""

    declarer: int
    player: int
    doubles: int
    code: str = "double_obligation"

    @property
    def message(self) -> str:
        """The warning as a sentence (a message id; params ``player``, ``declarer``)."""
        if self.doubles == 0:
            return N_("%(player)s never doubled %(declarer)s (of 2).")
        return N_("%(player)s doubled %(declarer)s once (of 2).")

    def said(self, players: Sequence[str]) -> str:
        """The warning in English, with the players' names."""
        return self.message % {"player": players[self.player], "declarer": players[self.declarer]}


@dataclass(frozen=True)
class DoubleOwed:
    """Before a deal (API.md B3 ``must_double``): ``player`` still owes ``declarer`` ``doubles`` doubles
    and has no deal of the declarer's seven to spare.  Seats."""

    declarer: int
    player: int
    doubles: int
    code: str = "double_owed"

    @property
    def notice(self) -> Notice:
        """The reminder as the pages say it (``Ruleset.reminders``)."""
        return Notice(
            self.code,
            self.message,
            (("player", self.player), ("declarer", self.declarer)),
            (("doubles", self.doubles),),
        )

    @property
    def message(self) -> str:
        """The reminder as a sentence (a message id; params ``player``, ``declarer``)."""
        if self.doubles == 1:
            # NOTE: Barbu, before a deal: a player must double the declarer now to meet the obligation.
            return N_("%(player)s still owes %(declarer)s one double.")
        # NOTE: Barbu, before a deal: a player must double the declarer in this deal and the next.
        return N_("%(player)s still owes %(declarer)s two doubles.")


def owed_before(
    declarers: Sequence[int], doubles_by_deal: Sequence[Sequence[Double]], number: int
) -> tuple[DoubleOwed, ...]:
    """Who must double the declarer in deal ``number`` (``must_double``), with the doubles each still
    owes; ``doubles_by_deal``: the doubles of the deals before it (at least)."""
    declarer = declarers[number - 1]
    counts = double_counts(declarers, doubles_by_deal[: number - 1])[declarer]
    return tuple(
        DoubleOwed(declarer, seat, TIMES_OWED - counts[seat])
        for seat in must_double(declarers, doubles_by_deal, number)
    )


def warnings_of(
    declarers: Sequence[int], doubles_by_deal: Sequence[Sequence[Double]], number: int
) -> tuple[ObligationWarning, ...]:
    """Deal ``number``'s warnings: on the last deal of a declarer's seven, one for every player
    (from the declarer's left) who doubled that declarer fewer than twice.  ``doubles_by_deal``
    are the doubles of deals 1 to ``number`` at least (pending deals included)."""
    if not is_last_of_seven(declarers, number):
        return ()
    declarer = declarers[number - 1]
    counts = double_counts(declarers, doubles_by_deal[:number])[declarer]
    return tuple(
        ObligationWarning(declarer, seat, counts[seat])
        for seat in from_left_of(declarer)
        if counts[seat] < TIMES_OWED
    )


# -- the ruleset --------------------------------------------------------------------------------------

DEALER = "dealer"
PLAYER = "player"

CONTRACTS = (
    Contract(
        NO_TRICKS,
        # NOTE: a Barbu contract (Polish "Bez lew", Italian "Niente prese"): every trick costs 2.
        N_("No tricks"),
        None,
        N_("Every trick taken costs 2 points."),
        mark=N_("Tr"),
    ),
    Contract(
        NO_HEARTS,
        # NOTE: a Barbu contract (Polish "Bez kierów", Italian "Niente cuori").
        N_("No hearts"),
        None,
        N_("Every heart taken costs 2 points, the ace of hearts 6."),
        mark="♥",
    ),
    Contract(
        NO_QUEENS,
        # NOTE: a Barbu contract (Polish "Bez dam", Italian "Niente donne"): every queen costs 6.
        N_("No queens"),
        None,
        N_("Every queen taken costs 6 points."),
        mark=N_("Q"),
    ),
    Contract(
        NO_KING_OF_HEARTS,
        # NOTE: a Barbu contract (Polish "Bez króla kier", Italian "Niente re di cuori").
        N_("No king of hearts"),
        None,
        N_("Taking the king of hearts costs 20 points."),
        mark=N_("K♥"),
    ),
    Contract(
        NO_LAST_TWO,
        # NOTE: a Barbu contract (Polish "Bez dwóch ostatnich", Italian "Niente ultime due").
        N_("No last two"),
        None,
        N_("The 12th trick costs 10 points, the 13th 20."),
        # NOTE A Barbu contract's mark atop a narrow column (2 or 3 characters): No last two.
        mark=N_("12/13"),
    ),
    Contract(
        TRUMPS,
        # NOTE: a Barbu contract (RULES 4.3: Polish "Atu", Italian "Briscola"): the declarer names trumps.
        # In a context of its own: another game's trump deal is another word in Polish ("Odgrywka").
        NC_("barbu", "Trumps"),
        None,
        N_("The declarer names trumps; every trick taken wins 5 points."),
        # NOTE A trump deal's mark atop a narrow column (2 or 3 characters): Polish "Atu", Italian "Bri".
        mark=N_("Tru"),
        positive=True,
    ),
    Contract(
        DOMINO,
        # NOTE: a Barbu contract (Polish and Italian "Domino"): a laying-out game, scored by going-out order.
        N_("Domino"),
        None,
        N_("Get rid of your cards: the order in which players go out scores."),
        mark=N_("Dom"),
        positive=True,
    ),
)


def _as_barbus(fact: Fact, about: str) -> Fact:
    """One of the deck's facts (``state``: its id, kind, shape and sentences) as a Barbu deal takes it."""
    return replace(fact, about=about, answered=about.rstrip(".") + "; else null.")


#: The facts of a deal (RULES.md 4.5, API.md B4), in B5's order: the trump suit, the tricks, the
#: hearts and the ace of hearts' taker, the queens, the takers of the king of hearts, of the 12th and
#: of the 13th trick, the Domino's going-out order; then the doubles, declared with the contract.
FACTS = (
    _as_barbus(TRUMP_SUIT, "Barbu, trumps: the suit the declarer named (also when pending)."),
    TRICKS,
    _as_barbus(HEARTS_TAKEN, "Barbu, no hearts: hearts taken, the ace included (13 in all)."),
    Fact(
        "ace_of_hearts",
        # NOTE: a Barbu deal fact, named in a refusal: the player who took the ace of hearts.
        N_("Who took the ace of hearts"),
        ONE_PLAYER,
        answered="Barbu, no hearts: who took the ace of hearts; else null.",
        about="Barbu, no hearts: who took the ace of hearts (they took at least one heart).",
        columns=(N_("ace of hearts"),),
        # NOTE The mark, in a Barbu deal's log, of the player who took the ace of hearts.
        short=N_("A♥"),
    ),
    _as_barbus(QUEENS_TAKEN, "Barbu, no queens: queens taken (4 in all)."),
    _as_barbus(KING_OF_HEARTS_TAKER, "Barbu, no king of hearts: who took the king of hearts."),
    Fact(
        "penultimate_trick",
        # NOTE: a Barbu deal fact, named in a refusal: the player who took the 12th trick (of 13).
        N_("Who took the 12th trick"),
        ONE_PLAYER,
        answered="Barbu, no last two: who took the 12th trick; else null.",
        about="Barbu, no last two: who took the 12th trick.",
        columns=(N_("12th trick"),),
        # NOTE The mark, in a Barbu deal's log, of the player who took the 12th trick: keep it short.
        short=N_("12th"),
    ),
    _as_barbus(LAST_TRICK_TAKER, "Barbu, no last two: who took the 13th trick."),
    Fact(
        "places",
        # NOTE: a Barbu deal fact, named in a refusal: the four players in the order they went out.
        N_("Going-out order"),
        ORDER,
        places=(
            # NOTE Barbu's Domino: the first player to get rid of all their cards.
            N_("First out"),
            # NOTE Barbu's Domino: the second player to get rid of all their cards.
            N_("Second out"),
            # NOTE Barbu's Domino: the third player to get rid of all their cards.
            N_("Third out"),
            # NOTE Barbu's Domino: the last player out.
            N_("Fourth out"),
        ),
        refusal=("places_invalid", N_("Give the four players in the order they went out, each once.")),
        answered="Barbu, Domino: the four players in the order they went out; else null.",
        about="Barbu, Domino: the four players in the order they went out, each exactly once.",
        columns=(N_("first out"), N_("second out"), N_("third out"), N_("fourth out")),
        places_short=(N_("1st out"), N_("2nd out"), N_("3rd out"), N_("4th out")),
    ),
    Fact(
        "doubles",
        # NOTE: a Barbu deal fact: who doubled whom before the first lead, and the redoubles.
        N_("Doubles"),
        PAIRS,
        declared=True,
        answered="Barbu: the doubles, [{by, against, redoubled}], [] when none.",
        about="Barbu: the doubles, each {by, against, redoubled}: a side bet on the difference of two "
        "players' contract points, twice that when redoubled; at most one per pair of players.",
        # NOTE: the column heading of a Barbu CSV deal log: the doubles ("Bartek×Ala R").
        columns=(N_("doubles"),),
    ),
)
#: Every fact of a deal, tricks among them, in API.md B5's order.
FIELDS = tuple(fact.id for fact in FACTS)
COUNTS: Mapping[str, int] = {"hearts": HEARTS, "queens": QUEENS}
TAKERS = ("ace_of_hearts", "king_of_hearts", "penultimate_trick", "last_trick")
#: The figures of a complete deal beyond its scores (API.md B3): contract points, doubling result.
FIGURES = ("contract_scores", "double_scores")

# NOTE: the option choosing a game's house rules (Barbu's presets).
PRESET = OptionSpec("preset", N_("Preset"), tuple((preset.id, preset.label) for preset in PRESETS))


def stored_doubles(doubles: Sequence[Double]) -> tuple[tuple[int, int, bool], ...] | None:
    """Doubles as a deal keeps them: (by, against, redoubled) triples of seats; None when none."""
    return tuple((d.by, d.against, d.redoubled) for d in doubles) or None


def doubles_of(deal: DealRecord | DealState) -> tuple[Double, ...]:
    """The doubles a deal keeps."""
    return tuple(
        Double(by, against, bool(redoubled)) for by, against, redoubled in deal.fact("doubles") or ()
    )


@dataclass(frozen=True)
class Barbu(Ruleset):
    """RULES.md section 4 on the engine's replay: the declarer deals and chooses, each contract once."""

    def barbu_preset(self, setup: GameSetup) -> BarbuPreset:
        preset = self.preset_of(setup)
        assert isinstance(preset, BarbuPreset)
        return preset

    def declarers(self, setup: GameSetup) -> tuple[int, ...]:
        """The declarer of every deal, deal 1 first (API.md B3)."""
        return declarers_of(setup.first_dealer, self.barbu_preset(setup).quick)

    # -- seats ----------------------------------------------------------------------------------

    def dealer_of(self, setup: GameSetup, number: int) -> int:
        """The declarer, recorded as the dealer (RULES.md 4.10, 1)."""
        return declarer_of(setup.first_dealer, number, self.barbu_preset(setup).quick)

    def chooser_of(self, setup: GameSetup, number: int) -> int | None:
        return self.dealer_of(setup, number)

    def roles(self, dealer: int) -> tuple[str, ...]:
        return tuple(DEALER if seat == dealer else PLAYER for seat in range(PLAYERS))

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        return None

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        """Per seat, the contracts not yet declared (API.md B3 ``remaining_contracts``)."""
        return self.left_to_choose(setup, deals)

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        """The declarer chooses among their unused contracts."""
        return self.chooser_offer(chooser, remaining)

    # -- parsing (API.md B5) ----------------------------------------------------------------------

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

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        if bids is not None:
            raise RuleError("bids_not_allowed", N_("%(game)s has no bids."), "bids", {"game": self.term})
        return None

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
        """Deal ``number``'s body (names as keys, API.md B4) as a ``DealRecord``, checked in B5's
        order: ``unknown_field``, ``bids_not_allowed``, ``unknown_contract``, ``field_not_allowed``,
        ``field_required``, each field, the doubles item by item, H1.  ``contract_used`` needs the
        deals before: the replay's (``check_declaration``)."""
        for name in facts:
            if name not in FIELDS:
                raise self.takes_no(name)
        self.check_setup(setup)
        self.parse_bids(setup, number, bids)
        chosen = self.parse_contract(setup, number, contract)
        assert chosen is not None
        given = {name: facts.get(name) for name in FIELDS}
        given["tricks"] = tricks
        self.check_presence(
            setup, number, chosen, {name for name, value in given.items() if value is not None}
        )
        fact: dict[str, object] = {"trumps": None if given["trumps"] is None else self.suit(given["trumps"])}
        counted = None if tricks is None else self.tricks_for(setup, tricks)
        for name in COUNTS:
            fact[name] = None if given[name] is None else self.counts_for(setup, name, given[name])
        for name in TAKERS:
            fact[name] = None if given[name] is None else self.seat_of(setup.players, given[name], name)
        fact["places"] = None if given["places"] is None else self.places_for(setup, given["places"])
        declarer = self.dealer_of(setup, number)
        doubles = parse_doubles(setup.players, declarer, chosen, given["doubles"], self.seat_of)
        fact["doubles"] = stored_doubles(doubles)
        if fact["hearts"] is not None:
            assert isinstance(fact["hearts"], tuple) and isinstance(fact["ace_of_hearts"], int)
            check_hearts(setup.players, fact["hearts"], fact["ace_of_hearts"])
        return DealRecord(contract=chosen, tricks=counted, facts=fact)

    def parse_next(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        *,
        contract: object = None,
        bids: object = None,
        tricks: object = None,
        **facts: object,
    ) -> DealRecord:
        """API.md B5 steps 2 and 3 with the deals before (``contract_used`` ahead of the facts), then
        ``parse_deal``."""
        for name in facts:
            if name not in FIELDS:
                raise self.takes_no(name)
        self.parse_bids(setup, number, bids)
        chosen = self.parse_contract(setup, number, contract)
        assert chosen is not None
        self.check_declaration(setup, done, number, chosen, None)
        return self.parse_deal(setup, number, contract=contract, bids=bids, tricks=tricks, **facts)

    def check_correction(
        self, setup: GameSetup, number: int, fields: Mapping[str, object], contracts: Sequence[object]
    ) -> None:
        """API.md B5 steps 2 and 3 for a correction: ``unknown_field``, ``bids_not_allowed``,
        ``unknown_contract`` and ``contract_used`` against the declarer's other deals as corrected
        (``contracts``: so two deals of one declarer swap in one PATCH), ahead of the facts."""
        for name in fields:
            if name not in (*FIELDS, "contract", "bids", "tricks"):
                raise self.takes_no(name)
        self.parse_bids(setup, number, fields.get("bids"))
        if "contract" not in fields:
            return
        chosen = self.parse_contract(setup, number, fields["contract"])
        assert chosen is not None
        declarers = self.declarers(setup)
        for other, contract in enumerate(contracts, start=1):
            if other != number and contract == chosen and declarers[other - 1] == declarers[number - 1]:
                raise self.used(setup, number, chosen, other)

    def check_presence(self, setup: GameSetup, number: int, contract: str, given: set[str]) -> None:
        """``field_not_allowed``, then ``field_required`` (API.md B5 steps 4 and 5)."""
        self.check_given(
            setup,
            number,
            contract,
            given,
            fields=FIELDS,
            takes=(*fields_of(contract), "doubles"),
            results=RESULTS[contract],
            suit_named=contract == TRUMPS,
        )

    def places_for(self, setup: GameSetup, places: object) -> tuple[int, ...]:
        """The four players in going-out order, each once (``places_invalid`` for anything else)."""
        return self.order_of_players(
            setup,
            places,
            PLAYERS,
            N_("%(player)s is not playing in this game; give the four players in going-out order."),
            N_("%(player)s is given twice; give each player once, in the order they went out."),
        )

    def corrected(
        self, setup: GameSetup, number: int, old: DealRecord, fields: Mapping[str, object]
    ) -> DealRecord:
        """API.md B4, corrections: the given fields replace the stored ones (a map, the doubles, whole;
        None clears one); a new contract drops the old one's results and the trump suit, and needs its
        own in the same body unless the deal is pending; then the deal is parsed as if posted."""
        said = self.deal_input(setup, old)
        contract = fields.get("contract", old.contract)
        was_pending = self.is_pending(old)
        if "contract" in fields and contract != old.contract:
            for name in FIELDS:
                if name != "doubles":
                    said.pop(name, None)
        for name, value in fields.items():
            if name in ("contract", "bids"):
                continue
            if value is None:
                said.pop(name, None)
            else:
                said[name] = value
        record = self.parse_deal(setup, number, contract=contract, bids=fields.get("bids"), **said)
        if not was_pending and self.is_pending(record):
            chosen = self.parse_contract(setup, number, contract)
            assert chosen is not None
            raise self.result_missing(number, chosen, RESULTS[chosen][0])
        return record

    # -- the hooks of the replay ------------------------------------------------------------------

    def check_declaration(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        contract: str,
        bids: tuple[int, ...] | None,
    ) -> None:
        """Each contract once per declarer (``contract_used``)."""
        declarer = self.dealer_of(setup, number)
        for deal in done:
            if deal.chooser == declarer and deal.contract == contract:
                raise self.used(setup, number, contract, deal.number)

    def used(self, setup: GameSetup, number: int, contract: str, played_in: int) -> RuleError:
        """``contract_used``: deal ``number``'s declarer declared ``contract`` in deal ``played_in``."""
        return RuleError(
            "contract_used",
            N_(
                "%(player)s has already played %(contract)s (deal %(played_in)d), "
                "so cannot choose it again in deal %(deal)d."
            ),
            "contract",
            {
                "player": setup.players[self.dealer_of(setup, number)],
                "contract": self.contract(contract),
                "played_in": played_in,
                "deal": number,
            },
        )

    def check_facts(self, setup: GameSetup, number: int, contract: str, record: DealRecord) -> None:
        """The record's facts (by seat) as ``parse_deal`` checks them."""
        self.parse_deal(setup, number, contract=contract, **self.deal_input(setup, record))

    def points_of(self, setup: GameSetup, contract: str, record: DealRecord | DealState) -> tuple[int, ...]:
        """Each seat's contract points in the complete deal ``record``."""
        facts = dict(record.facts)
        facts["tricks"] = record.tricks
        return contract_points(contract, facts, self.barbu_preset(setup))

    def scores_for(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int] | None,
        record: DealRecord,
    ) -> tuple[int, ...]:
        """Contract points plus each seat's doubling result (RULES.md 4.6)."""
        return deal_scores(self.points_of(setup, contract, record), doubles_of(record))

    def push(
        self,
        setup: GameSetup,
        done: Sequence[DealState],
        number: int,
        record: DealRecord,
        totals: Sequence[int],
    ) -> DealState:
        """The engine's deal, with its contract points, doubling results and obligation warnings."""
        deal = super().push(setup, done, number, record, totals)
        declarers = self.declarers(setup)
        doubles = [doubles_of(before) for before in done] + [doubles_of(record)]
        warnings = tuple(
            Notice(
                w.code, w.message, (("declarer", w.declarer), ("player", w.player)), (("doubles", w.doubles),)
            )
            for w in warnings_of(declarers, doubles, number)
        )
        figures: tuple[tuple[str, tuple[int, ...]], ...] = ()
        if not deal.pending:
            points = self.points_of(setup, deal.contract, record)
            figures = (("contract_scores", points), ("double_scores", double_scores(doubles[-1], points)))
        return replace(deal, figures=figures, warnings=warnings)

    def replay_after(
        self, setup: GameSetup, done: Sequence[DealState], deals: Sequence[DealRecord]
    ) -> GameState:
        """The engine's state, with the declarers, the doubles counted and who must double next."""
        state = super().replay_after(setup, done, deals)
        declarers = self.declarers(setup)
        doubles = [doubles_of(deal) for deal in state.deals]
        counts = double_counts(declarers, doubles)
        next_deal = state.next_deal
        if next_deal is not None:
            fields = tuple((contract, fields_of(contract)) for contract in next_deal.available_contracts)
            owing = must_double(declarers, doubles, next_deal.number)
            next_deal = replace(next_deal, fields_by_contract=fields, seat_lists=(("must_double", owing),))
        return replace(
            state,
            next_deal=next_deal,
            seat_lists=(("declarers", declarers),),
            tallies=(("double_counts", counts),),
        )

    def fields_with(self, setup: GameSetup, number: int, contract: str) -> tuple[str, ...]:
        """The card asks the declaration first (the trump suit, the doubles), then the results."""
        if contract not in RESULTS:
            return ()
        return (*(("trumps",) if contract == TRUMPS else ()), "doubles", *RESULTS[contract])

    def pairs_allowed(self, setup: GameSetup, number: int, contract: str) -> tuple[tuple[int, int], ...]:
        """The doubles D1-D3 allow in deal ``number`` of ``contract``: each non-declarer's, from the
        declarer's left, against the others in seat order (the declarer alone in a positive contract)."""
        declarer = self.dealer_of(setup, number)
        allowed: list[tuple[int, int]] = []
        for by in from_left_of(declarer):
            for against in range(PLAYERS):
                try:
                    check_double(setup.players, declarer, contract, Double(by, against), ())
                except RuleError:
                    continue
                allowed.append((by, against))
        return tuple(allowed)

    def settled(self, setup: GameSetup, deal: DealState) -> tuple[int, ...]:
        """Each double's settlement, m × (c(by) − c(against)), in the order given (RULES.md 4.6)."""
        if deal.pending:
            return ()
        points = self.points_of(setup, deal.contract, deal)
        return tuple(double.settled(points) for double in doubles_of(deal))

    def reminders(self, state: GameState) -> tuple[Notice, ...]:
        """Before a deal: who still owes its declarer a double and has no deal to spare (RULES.md 4.6)."""
        if state.finished:
            return ()
        number = state.current_number
        doubles = [doubles_of(deal) for deal in state.deals]
        return tuple(owed.notice for owed in owed_before(self.declarers(state.setup), doubles, number))

    def reminders_by_count(self, setup: GameSetup, number: int) -> tuple[tuple[int, int, Notice], ...]:
        """``owed_before`` deal ``number`` for each player and each count of the declarer's deals before it
        in which they doubled the declarer (the offline card counts the doubles it keeps)."""
        declarers = self.declarers(setup)
        declarer = declarers[number - 1]
        before = [deal for deal in range(1, number) if declarers[deal - 1] == declarer]
        said: list[tuple[int, int, Notice]] = []
        for seat in from_left_of(declarer):
            for made in range(min(TIMES_OWED, len(before)) + 1):
                doubled = set(before[:made])
                doubles = [(Double(seat, declarer),) if deal in doubled else () for deal in range(1, number)]
                said += [
                    (seat, made, owed.notice)
                    for owed in owed_before(declarers, doubles, number)
                    if owed.player == seat
                ]
        return tuple(said)

    def taken(self, deal: DealState) -> tuple[int, ...] | None:
        """Per seat, what the contract counts: tricks, hearts, queens; 1 for a taker (the 12th and 13th
        tricks: 0-2); 1 for the Domino's first out.  None while pending."""
        if deal.pending:
            return None
        if deal.contract in (NO_TRICKS, TRUMPS):
            return deal.tricks
        if deal.contract in (NO_HEARTS, NO_QUEENS):
            return tuple(deal.fact("hearts" if deal.contract == NO_HEARTS else "queens"))
        seats = range(PLAYERS)
        if deal.contract == NO_KING_OF_HEARTS:
            return tuple(int(seat == deal.fact("king_of_hearts")) for seat in seats)
        if deal.contract == NO_LAST_TWO:
            twelfth, last = deal.fact("penultimate_trick"), deal.fact("last_trick")
            return tuple(int(seat == twelfth) + int(seat == last) for seat in seats)
        return tuple(int(seat == deal.fact("places")[0]) for seat in seats)

    def side_bets(self, deal: DealState) -> tuple[tuple[int, int, bool, int], ...]:
        """Each double of the complete ``deal`` with its settlement, m × (c(by) − c(against))."""
        if deal.pending:
            return ()
        points = dict(deal.figures)["contract_scores"]
        return tuple((d.by, d.against, d.redoubled, d.settled(points)) for d in doubles_of(deal))

    def taken_or_not(self, contract: str) -> bool:
        """The king of hearts taken, the Domino won (first out): yes or no."""
        return contract in (NO_KING_OF_HEARTS, DOMINO)


BARBU = Barbu(
    id="barbu",
    # NOTE: the French card game's name.
    name=N_("Barbu"),
    player_count=PLAYERS,
    deal_count=DEALS,
    contracts=CONTRACTS,
    options=(PRESET,),
    seating_direction="clockwise",
    summary=N_(
        "French, 4 players, 28 deals: each declares seven contracts once, five negative and two positive; "
        "players double one another."
    ),
    presets=PRESETS,
    preset_option=PRESET.id,
    deal_facts=FACTS,
    deal_figures=FIGURES,
    next_deal_lists=("must_double",),
    game_lists=("declarers",),
    game_tallies=("double_counts",),
    warns=True,
    figure_words=(
        # NOTE A Barbu deal's contract points (before the doubles), the sheet's column heading; then its
        # short form atop a narrow column (2 or 3 characters).
        ("contract_scores", N_("Contract points"), N_("Ctr")),
        # NOTE A Barbu player's doubling result in a deal (what their doubles moved), the sheet's column
        # heading; then its short form atop a narrow column: "×" stands for doubles.
        ("double_scores", N_("Doubling result"), N_("×")),
    ),
    tally_goal=TIMES_OWED,
    totals_check=True,
    stylesheets=("css/taps.css", "css/barbu.css"),
)

register(BARBU)
