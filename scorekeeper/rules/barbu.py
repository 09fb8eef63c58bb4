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
from dataclasses import dataclass
from typing import Any

from .refusal import RuleError
from .state import Preset
from .words import N_

PLAYERS = 4
"""Barbu is played by exactly four (RULES.md 4.2)."""
SEVEN = 7
"""Deals each player declares: one of each contract."""
DEALS = PLAYERS * SEVEN
TRICKS = 13
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
    ranks_with: str = ""
    """The preset whose ranking games of this one count in (same scale); empty: its own."""


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


def ranking_preset(preset: BarbuPreset) -> str:
    """The preset whose ranking a game of ``preset`` counts in (RULES.md 4.8)."""
    return preset.ranks_with or preset.id


def contract_total(contract: str, preset: BarbuPreset) -> int:
    """What the contract points (and the scores) of a complete deal of ``contract`` add up to."""
    return {
        NO_TRICKS: -TRICK * TRICKS,
        NO_HEARTS: -HEART * (HEARTS - 1) - ACE_OF_HEARTS,
        NO_QUEENS: -QUEEN * QUEENS,
        NO_KING_OF_HEARTS: -KING_OF_HEARTS,
        NO_LAST_TWO: -PENULTIMATE_TRICK - LAST_TRICK,
        TRUMPS: TRUMP_TRICK * TRICKS,
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
    used: list[set[str]] = [set() for _ in range(PLAYERS)]
    for number, contract in enumerate(contracts, start=1):
        used[declarers[number - 1]].add(contract)
    return tuple(tuple(c for c in CONTRACT_IDS if c not in used[seat]) for seat in range(PLAYERS))


# -- contract points (RULES.md 4.3) ----------------------------------------------------------------


def contract_points(contract: str, facts: Mapping[str, Any], preset: BarbuPreset) -> tuple[int, ...]:
    """Each seat's contract points in a complete deal of ``contract`` whose facts (by seat, as
    kept) are ``facts``, before any double."""
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
