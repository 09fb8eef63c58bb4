"""The seating budget of issue 46: Mix seating of 40 players at tables of 4 for 8 rounds planned at
once, and of 39 at tables of 3, each under 2 s; and the known designs' repeat cost (0 expected).

Run: ``.venv/bin/python -m bench.nights_seating``. Prints one line per case: players, seats, rounds,
seconds, the plan's repeat cost and the greedy baseline's.
"""

from __future__ import annotations

import time

from scorekeeper.nights.mix import greedy_baseline, plan_night
from scorekeeper.nights.seating import repeat_cost

CASES = [
    (40, (4,), 8),
    (39, (3,), 8),
    (23, (3, 4), 6),
    (9, (3,), 4),
    (12, (3,), 4),
    (15, (3,), 7),
    (16, (4,), 5),
]
BUDGET_SECONDS = 2.0


def main() -> None:
    for players, seats, rounds in CASES:
        people = list(range(1, players + 1))
        start = time.perf_counter()
        plan = plan_night(people, seats, rounds, seed=46)
        took = time.perf_counter() - start
        baseline = greedy_baseline(people, seats, rounds - 1, plan[:1], seed=46)
        verdict = "ok" if took < BUDGET_SECONDS else "OVER BUDGET"
        print(
            f"{players:3d} players, seats {'/'.join(map(str, seats)):3s}, {rounds:2d} rounds: {took:5.2f} s "
            f"({verdict}), repeat cost {repeat_cost(plan)}, baseline {repeat_cost(baseline, plan[:1])}"
        )


if __name__ == "__main__":
    main()
