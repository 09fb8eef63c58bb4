"""Who sits where each round of a club night (CLUB.md, "Tables each round" and "Seating").

A round seats every present player at one table or sits them out. The sizes of the tables come
from the number present and the sizes the night's preset allows; who sits out rotates; round 1 is
drawn from the night's seed or follows the director's order; later rounds are planned by **Mix**
(``nights.mix``: the least repeat cost, all the rounds still to come at once) or seated by **Swiss**
(from the standings). Everything here is a pure function of its arguments: the same night, seed and history
always give the same seats.

The **repeat cost** of a round is the sum, over the pairs seated at one table, of m², m the times
the pair had met earlier in the night. Over several rounds it depends only on how often each pair
meets: a pair that met h times before the plan and x times in it adds 1² + ... + (h + x − 1)²
minus what its h meetings already cost, which is what the local search below keeps up to date.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One table of a round: its number (1, 2, ...), its players in seat order, the first dealer."""

    number: int
    seats: tuple[int, ...]
    first_dealer: int

    @property
    def first_dealer_seat(self) -> int:
        """The first dealer's seat index, as a game's setup takes it."""
        return self.seats.index(self.first_dealer)


@dataclass(frozen=True)
class Round:
    """A round's tables (largest first) and the players sitting it out."""

    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...] = ()

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(player for table in self.tables for player in table.seats)

    def table_of(self, player: int) -> Table | None:
        """The table ``player`` sits at this round; None when they sit out or are not present."""
        for table in self.tables:
            if player in table.seats:
                return table
        return None


# --- tables and sitting out --------------------------------------------------------------------


def table_sizes(present: int, seat_counts: Iterable[int]) -> tuple[int, ...]:
    """The sizes of a round's tables for ``present`` players, largest first; () when no table fills.

    The fewest players sit out; among the ways to seat everyone else, as many of the largest tables as
    possible, then of the next size (tables of 3 and 4: N = 4a + 3b with b smallest; 5 players: one
    table of 4, one sits out). One size k: ⌊N/k⌋ tables.
    """
    sizes = sorted(set(seat_counts), reverse=True)
    if not sizes or present < sizes[-1]:
        return ()
    for sitting_out in range(present + 1):
        filled = _fill(present - sitting_out, sizes)
        if filled is not None:
            return filled
    return ()  # pragma: no cover - present >= the smallest size always fills one table


def _fill(count: int, sizes: Sequence[int]) -> tuple[int, ...] | None:
    """``count`` players at tables of ``sizes`` exactly, as many of the earlier sizes as possible."""
    if count == 0:
        return ()
    if not sizes:
        return None
    largest, rest = sizes[0], sizes[1:]
    for many in range(count // largest, -1, -1):
        tail = _fill(count - many * largest, rest)
        if tail is not None:
            return (largest,) * many + tail
    return None


def _missed(players: Sequence[int], history: Sequence[Round]) -> dict[int, tuple[int, int]]:
    """Per player: the rounds they did not play (sat out, or not there yet) and the last of them."""
    missed: dict[int, tuple[int, int]] = {}
    for player in players:
        count, last = 0, -1
        for number, played in enumerate(history):
            if player not in played.seated:
                count, last = count + 1, number
        missed[player] = (count, last)
    return missed


def choose_sitting_out(
    players: Sequence[int], how_many: int, history: Sequence[Round], rng: random.Random
) -> tuple[int, ...]:
    """The ``how_many`` players who sit the next round out.

    A round a player missed (sat out, or came later) counts as sitting out, so nobody sits out a
    second time while someone present since round 1 has not sat out yet, and a late arrival is not
    sent out again before the others had their turn. Among equals, the one whose last missed round is
    the oldest, then a draw from the night's seed.
    """
    if how_many <= 0:
        return ()
    missed = _missed(players, history)
    draws = {player: rng.random() for player in sorted(players)}
    order = sorted(players, key=lambda player: (missed[player][0], missed[player][1], draws[player]))
    return tuple(order[:how_many])


# --- pairs and the repeat cost -----------------------------------------------------------------


def meetings(history: Sequence[Round]) -> dict[tuple[int, int], int]:
    """How often each pair (the lower id first) sat at one table in ``history``."""
    met: dict[tuple[int, int], int] = {}
    for played in history:
        for table in played.tables:
            for i, first in enumerate(table.seats):
                for second in table.seats[i + 1 :]:
                    pair = (min(first, second), max(first, second))
                    met[pair] = met.get(pair, 0) + 1
    return met


def repeat_cost(rounds: Sequence[Round], history: Sequence[Round] = ()) -> int:
    """The repeat cost of ``rounds`` played after ``history``: Σ m² over the pairs at each table."""
    met = meetings(history)
    cost = 0
    for played in rounds:
        for table in played.tables:
            for i, first in enumerate(table.seats):
                for second in table.seats[i + 1 :]:
                    pair = (min(first, second), max(first, second))
                    cost += met.get(pair, 0) ** 2
        for pair, count in meetings([played]).items():
            met[pair] = met.get(pair, 0) + count
    return cost


def repeats(seated: Round, history: Sequence[Round]) -> int:
    """How many pairs at this round's tables have met earlier in the night (the director's count)."""
    met = meetings(history)
    return sum(1 for pair in meetings([seated]) if met.get(pair, 0) > 0)


# --- first dealers -----------------------------------------------------------------------------


def dealer_counts(history: Sequence[Round]) -> dict[int, int]:
    """How often each player has been a table's first dealer in ``history``."""
    counts: dict[int, int] = {}
    for played in history:
        for table in played.tables:
            counts[table.first_dealer] = counts.get(table.first_dealer, 0) + 1
    return counts


def seated_rounds(
    groups: Sequence[Sequence[Sequence[int]]], sitting_out: Sequence[Sequence[int]], history: Sequence[Round]
) -> tuple[Round, ...]:
    """Rounds from their groups: each table's first dealer is the player who has been first dealer
    least often this night (then the earlier seat), counted round by round through the plan."""
    counts = dealer_counts(history)
    rounds: list[Round] = []
    for round_groups, out in zip(groups, sitting_out, strict=True):
        tables: list[Table] = []
        for number, seats in enumerate(round_groups, start=1):
            dealer = min(seats, key=lambda player: (counts.get(player, 0), seats.index(player)))
            counts[dealer] = counts.get(dealer, 0) + 1
            tables.append(Table(number=number, seats=tuple(seats), first_dealer=dealer))
        rounds.append(Round(tables=tuple(tables), sitting_out=tuple(sorted(out))))
    return tuple(rounds)


def with_first_dealers(seated: Round, history: Sequence[Round]) -> Round:
    """``seated`` with each table's first dealer chosen again (after a swap moved players)."""
    groups = [[list(table.seats) for table in seated.tables]]
    return seated_rounds(groups, [seated.sitting_out], history)[0]


# --- round 1 -----------------------------------------------------------------------------------


def first_round(
    players: Sequence[int], seat_counts: Iterable[int], seed: int, order: Sequence[int] | None = None
) -> Round | None:
    """Round 1: in the director's ``order`` (tables filled from the top, the last ones sit out), or
    drawn from ``seed`` when there is no order. None when too few are present for a table."""
    sizes = table_sizes(len(players), seat_counts)
    if not sizes:
        return None
    if order is not None:
        listed = list(order) + [player for player in players if player not in order]
    else:
        listed = sorted(players)
        random.Random(seed).shuffle(listed)
    groups, start = [], 0
    for size in sizes:
        groups.append(listed[start : start + size])
        start += size
    return seated_rounds([groups], [listed[start:]], ())[0]


def by_rating(players: Sequence[int], ordinals: Mapping[int, float], seed: int) -> list[int]:
    """The players in the order round 1 seats them "by rating": the highest ordinal (mu - 3 sigma) first,
    the players without a rating after those with one; equal ordinals, and the unrated among
    themselves, in a draw from ``seed``."""
    drawn = sorted(players)
    random.Random(seed).shuffle(drawn)
    draw = {player: position for position, player in enumerate(drawn)}
    return sorted(
        players, key=lambda player: (player not in ordinals, -ordinals.get(player, 0.0), draw[player])
    )


# --- Swiss -------------------------------------------------------------------------------------


def seat_swiss(
    standings: Sequence[int], seat_counts: Sequence[int], history: Sequence[Round], seed: int = 0
) -> Round | None:
    """Swiss (from round 2): the present players in standings order (the top first) fill the tables
    from the top a table's size at a time (on a night of two sizes the smaller tables take the
    bottom), then a player swaps with one at the next table while that lowers the repeat cost."""
    sizes = table_sizes(len(standings), seat_counts)
    if not sizes:
        return None
    rng = random.Random(f"sit-out:{seed}:{len(history)}")
    out = choose_sitting_out(standings, len(standings) - sum(sizes), history, rng)
    listed = [player for player in standings if player not in out]
    groups, start = [], 0
    for size in sizes:
        groups.append(listed[start : start + size])
        start += size
    met = meetings(history)

    def cost_of(group: Sequence[int]) -> int:
        return sum(
            met.get((min(a, b), max(a, b)), 0) ** 2 for i, a in enumerate(group) for b in group[i + 1 :]
        )

    improved = True
    while improved:
        improved = False
        for number in range(len(groups) - 1):
            upper, lower = groups[number], groups[number + 1]
            now = cost_of(upper) + cost_of(lower)
            best: tuple[int, int, int] | None = None
            for i, a in enumerate(upper):
                for j, b in enumerate(lower):
                    moved_up = [*upper[:i], b, *upper[i + 1 :]]
                    moved_down = [*lower[:j], a, *lower[j + 1 :]]
                    after = cost_of(moved_up) + cost_of(moved_down)
                    if after < now and (best is None or after < best[0]):
                        best = (after, i, j)
            if best is not None:
                _, i, j = best
                upper[i], lower[j] = lower[j], upper[i]
                improved = True
    return seated_rounds([groups], [out], history)[0]


# --- the director's swap -----------------------------------------------------------------------


def swap(seated: Round, first: int, second: int, history: Sequence[Round]) -> Round:
    """``seated`` with two players' places exchanged (a table seat or sitting out), first dealers
    chosen again. Raises ValueError when either is not in the round or they are the same player."""
    places = list(seated.seated) + list(seated.sitting_out)
    if first == second or first not in places or second not in places:
        raise ValueError("swap needs two different players of the round")

    def moved(player: int) -> int:
        return second if player == first else first if player == second else player

    groups = [[moved(player) for player in table.seats] for table in seated.tables]
    out = [moved(player) for player in seated.sitting_out]
    return seated_rounds([groups], [out], history)[0]
