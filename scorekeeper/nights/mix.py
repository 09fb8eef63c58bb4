"""Mix seating (CLUB.md "Seating"): the rounds still to come planned at once for the least repeat cost.

First CLUB.md's greedy baseline exactly (round by round, the players in a seeded random order, each at
the open table where they add the least repeat cost, ties to the lowest table; the best of 100
restarts), then a seeded local search from it, so Mix is never worse than the baseline; for 15 players
at tables of 3 Kirkman's schoolgirls (a packing of PG(3, 2)) where the search alone falls short.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .seating import Round, Table, choose_sitting_out, first_round, meetings, seated_rounds, table_sizes

GREEDY_RESTARTS = 100
"""How many seeded restarts the greedy baseline takes the best of (CLUB.md)."""

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
    return seated_rounds(groups, schedule, history)


# --- Mix: the local search ---------------------------------------------------------------------


def _improve(plan: list[list[list[int]]], pairs: _Pairs, cost: int, seed: int, budget: int) -> int:
    """Lower the plan's repeat cost by swapping two players of one round between two tables
    (simulated annealing, seeded; the best plan seen is the one returned). Returns its cost."""
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
    return seated_rounds(groups, schedule, history)


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
