"""Who sits where each round of a club night (CLUB.md, "Tables each round" and "Seating").

A round seats every present player at one table or sits them out. The sizes of the tables come
from the number present and the sizes the night's preset allows; who sits out rotates; round 1 is
drawn from the night's seed or follows the director's order; later rounds are planned by **Mix**
(the least repeat cost, all the rounds still to come at once) or seated by **Swiss** (from the
standings). Everything here is a pure function of its arguments: the same night, seed and history
always give the same seats.

The **repeat cost** of a round is the sum, over the pairs seated at one table, of m², m the times
the pair had met earlier in the night. Over several rounds it depends only on how often each pair
meets: a pair that met h times before the plan and x times in it adds 1² + ... + (h + x − 1)²
minus what its h meetings already cost, which is what the local search below keeps up to date.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

GREEDY_RESTARTS = 100
"""How many seeded restarts the greedy baseline takes the best of (CLUB.md)."""


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


def _deal(
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
    return _deal(groups, [seated.sitting_out], history)[0]


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
    return _deal([groups], [listed[start:]], ())[0]


# --- the greedy baseline -----------------------------------------------------------------------


class _Pairs:
    """Meetings as a matrix over the present players' indices (the search's hot loop reads it)."""

    def __init__(self, players: Sequence[int], history: Sequence[Round]) -> None:
        self.index = {player: i for i, player in enumerate(players)}
        size = len(players)
        self.met = [[0] * size for _ in range(size)]
        for pair, count in meetings(history).items():
            first, second = self.index.get(pair[0]), self.index.get(pair[1])
            if first is not None and second is not None:
                self.met[first][second] = self.met[second][first] = count

    def copy(self) -> _Pairs:
        twin = _Pairs.__new__(_Pairs)
        twin.index = self.index
        twin.met = [row[:] for row in self.met]
        return twin

    def seat(self, groups: Sequence[Sequence[int]]) -> int:
        """Count the groups' pairs as met; the repeat cost they add."""
        cost = 0
        met = self.met
        for group in groups:
            for i, first in enumerate(group):
                for second in group[i + 1 :]:
                    cost += met[first][second] ** 2
            for i, first in enumerate(group):
                for second in group[i + 1 :]:
                    met[first][second] += 1
                    met[second][first] += 1
        return cost


def _sit_out_schedule(
    players: Sequence[int], seat_counts: Sequence[int], rounds: int, history: Sequence[Round], seed: int
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """The table sizes and, per round to plan, who sits out (the same for Mix and the baseline)."""
    sizes = table_sizes(len(players), seat_counts)
    rng = random.Random(f"sit-out:{seed}:{len(history)}")
    schedule: list[tuple[int, ...]] = []
    played = list(history)
    for _ in range(rounds):
        out = choose_sitting_out(players, len(players) - sum(sizes), played, rng)
        schedule.append(out)
        # Only who played counts for the rotation, so a round of one table stands for the seated.
        seated = tuple(player for player in players if player not in out)
        played.append(Round(tables=(Table(number=1, seats=seated, first_dealer=seated[0]),), sitting_out=out))
    return sizes, schedule


def _greedy_once(
    order_of: Sequence[Sequence[int]], sizes: Sequence[int], pairs: _Pairs
) -> tuple[int, list[list[list[int]]]]:
    """One greedy pass: round by round, each player (in the given order) at the open table where they
    add the least repeat cost, ties to the lowest table number. Returns the cost and the groups."""
    met = pairs.met
    total = 0
    plan: list[list[list[int]]] = []
    for order in order_of:
        groups: list[list[int]] = [[] for _ in sizes]
        for player in order:
            row = met[player]
            best, best_cost = -1, 0
            for number, group in enumerate(groups):
                if len(group) >= sizes[number]:
                    continue
                added = 0
                for other in group:
                    added += row[other] * row[other]
                if best < 0 or added < best_cost:
                    best, best_cost = number, added
            groups[best].append(player)
        total += pairs.seat(groups)
        plan.append(groups)
    return total, plan


def _baseline(
    seated_per_round: Sequence[Sequence[int]], sizes: Sequence[int], pairs: _Pairs, seed: int, restarts: int
) -> tuple[int, list[list[list[int]]]]:
    rng = random.Random(seed)
    best: tuple[int, list[list[list[int]]]] | None = None
    for _ in range(restarts):
        orders = []
        for seated in seated_per_round:
            order = list(seated)
            rng.shuffle(order)
            orders.append(order)
        found = _greedy_once(orders, sizes, pairs.copy())
        if best is None or found[0] < best[0]:
            best = found
    assert best is not None
    return best


def greedy_baseline(
    players: Sequence[int],
    seat_counts: Sequence[int],
    rounds: int,
    history: Sequence[Round] = (),
    seed: int = 0,
    restarts: int = GREEDY_RESTARTS,
) -> tuple[Round, ...]:
    """CLUB.md's greedy baseline for the next ``rounds`` rounds after ``history``: the best of
    ``restarts`` seeded greedy passes by total repeat cost (the yardstick Mix must not exceed)."""
    present = sorted(players)
    sizes, schedule = _sit_out_schedule(present, seat_counts, rounds, history, seed)
    if not sizes or rounds <= 0:
        return ()
    pairs = _Pairs(present, history)
    seated = [[pairs.index[p] for p in present if p not in out] for out in schedule]
    _, plan = _baseline(seated, sizes, pairs, seed, restarts)
    groups = [[[present[i] for i in group] for group in round_groups] for round_groups in plan]
    return _deal(groups, schedule, history)


# --- Mix: the local search ---------------------------------------------------------------------


def _improve(plan: list[list[list[int]]], pairs: _Pairs, cost: int, seed: int, budget: int) -> int:
    """Lower the plan's repeat cost by swapping two players of one round between two tables
    (simulated annealing, seeded; the best plan seen is kept in place). Returns its cost."""
    if cost == 0:
        return 0
    rng = random.Random(f"mix:{seed}")
    met = pairs.met
    for round_groups in plan:
        pairs.seat(round_groups)
    movable = [r for r, round_groups in enumerate(plan) if len(round_groups) > 1]
    if not movable:
        return cost
    best_cost = cost
    best_plan = [[group[:] for group in round_groups] for round_groups in plan]
    temperature = 1.0
    cooling = math.exp(math.log(0.02) / max(budget // 4, 1))
    randrange, random_ = rng.randrange, rng.random
    step = 0
    while step < budget:
        step += 1
        round_groups = plan[movable[randrange(len(movable))]]
        tables = len(round_groups)
        first = randrange(tables)
        second = randrange(tables - 1)
        if second >= first:
            second += 1
        here, there = round_groups[first], round_groups[second]
        i, j = randrange(len(here)), randrange(len(there))
        a, b = here[i], there[j]
        row_a, row_b = met[a], met[b]
        delta = 0
        for x in here:
            if x != a:
                delta += row_b[x] * row_b[x] - (row_a[x] - 1) * (row_a[x] - 1)
        for y in there:
            if y != b:
                delta += row_a[y] * row_a[y] - (row_b[y] - 1) * (row_b[y] - 1)
        if delta > 0 and random_() >= math.exp(-delta / temperature):
            temperature = max(temperature * cooling, 0.02)
            continue
        for x in here:
            if x != a:
                row_a[x] -= 1
                met[x][a] -= 1
                row_b[x] += 1
                met[x][b] += 1
        for y in there:
            if y != b:
                row_b[y] -= 1
                met[y][b] -= 1
                row_a[y] += 1
                met[y][a] += 1
        here[i], there[j] = b, a
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best_plan = [[group[:] for group in groups] for groups in plan]
            if cost == 0:
                break
        temperature = max(temperature * cooling, 0.02)
        if step % (budget // 4 or 1) == 0:
            temperature = 1.0  # reheat: a few restarts from where the search stands
    for r, round_groups in enumerate(best_plan):
        plan[r] = round_groups
    return best_cost


def _line(a: int, b: int) -> tuple[int, int, int]:
    low, middle, high = sorted((a, b, a ^ b))
    return (low, middle, high)


def _spreads_and_packing() -> list[list[tuple[int, int, int]]]:
    """Seven spreads of PG(3, 2) that share no line: a Kirkman schoolgirl design on its 15 points.

    The points are GF(2)⁴'s non-zero vectors (1..15), a line is {a, b, a xor b}; a spread is five
    lines through all 15 points (a round), a packing seven spreads using all 35 lines once (seven
    rounds in which no pair meets twice). Found by a small exact search, in a few milliseconds.
    """
    lines: list[tuple[int, int, int]] = sorted({_line(a, b) for a in range(1, 16) for b in range(a + 1, 16)})
    spreads: list[tuple[tuple[int, int, int], ...]] = []

    def cover(chosen: list[tuple[int, int, int]], used: set[int]) -> None:
        if len(used) == 15:
            spreads.append(tuple(chosen))
            return
        point = min(set(range(1, 16)) - used)
        for line in lines:
            if point in line and not used.intersection(line):
                cover([*chosen, line], used | set(line))

    cover([], set())
    packing: list[tuple[tuple[int, int, int], ...]] = []

    def pack(taken: set[tuple[int, int, int]]) -> bool:
        if len(packing) == 7:
            return True
        line = next(line for line in lines if line not in taken)
        for spread in spreads:
            if line in spread and not taken.intersection(spread):
                packing.append(spread)
                if pack(taken | set(spread)):
                    return True
                packing.pop()
        return False

    pack(set())
    return [list(spread) for spread in packing]


_PACKING: list[list[tuple[int, int, int]]] = []


def _kirkman(
    present: Sequence[int], sizes: Sequence[int], rounds: int, history: Sequence[Round], pairs: _Pairs
) -> list[list[list[int]]] | None:
    """Kirkman's schoolgirls where they apply (15 players at 5 tables of 3, after one round that
    seated them all, at most 6 more rounds): that round read as the packing's first spread, the other
    spreads the rounds to come, so no pair meets twice. None elsewhere (the search does the rest)."""
    if len(present) != 15 or tuple(sizes) != (3,) * 5 or len(history) != 1 or rounds > 6:
        return None
    opening = history[0]
    if sorted(opening.seated) != sorted(present) or any(len(t.seats) != 3 for t in opening.tables):
        return None
    if not _PACKING:
        _PACKING.extend(_spreads_and_packing())
    point_of_player: dict[int, int] = {}
    for table, line in zip(opening.tables, _PACKING[0], strict=True):
        for player, point in zip(table.seats, line, strict=True):
            point_of_player[pairs.index[player]] = point
    player_at = {point: player for player, point in point_of_player.items()}
    return [[[player_at[point] for point in line] for line in spread] for spread in _PACKING[1 : rounds + 1]]


def plan_mix(
    players: Sequence[int],
    seat_counts: Sequence[int],
    rounds: int,
    history: Sequence[Round] = (),
    seed: int = 0,
    budget: int | None = None,
) -> tuple[Round, ...]:
    """Mix: the next ``rounds`` rounds after ``history``, planned at once for the least total repeat
    cost, never more than the greedy baseline's (the search starts from it), then first dealers
    balanced. () when too few are present for a table."""
    present = sorted(players)
    sizes, schedule = _sit_out_schedule(present, seat_counts, rounds, history, seed)
    if not sizes or rounds <= 0:
        return ()
    pairs = _Pairs(present, history)
    seated = [[pairs.index[p] for p in present if p not in out] for out in schedule]
    cost, plan = _baseline(seated, sizes, pairs, seed, GREEDY_RESTARTS)
    known = _kirkman(present, sizes, rounds, history, pairs) if cost else None
    if known is not None:
        plan, cost = known, 0
    if budget is None:
        budget = 60_000 + 4_000 * rounds * len(sizes)
    _improve(plan, pairs, cost, seed, budget)
    groups = [[[present[i] for i in group] for group in round_groups] for round_groups in plan]
    return _deal(groups, schedule, history)


def plan_night(
    players: Sequence[int],
    seat_counts: Sequence[int],
    rounds: int,
    history: Sequence[Round] = (),
    seed: int = 0,
    order: Sequence[int] | None = None,
) -> tuple[Round, ...]:
    """The night's rounds still to come under Mix: round 1 drawn (or in ``order``) when nothing was
    played yet, the rest planned at once. A late arrival or a leaver: call again with who is present
    and the rounds played as ``history``, and the rounds not started are planned anew."""
    if rounds <= 0:
        return ()
    if history:
        return plan_mix(players, seat_counts, rounds, history, seed)
    opening = first_round(players, seat_counts, seed, order)
    if opening is None:
        return ()
    return (opening, *plan_mix(players, seat_counts, rounds - 1, (opening,), seed))


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
    return _deal([groups], [out], history)[0]


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
    return _deal([groups], [out], history)[0]
