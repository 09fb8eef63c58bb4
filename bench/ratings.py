"""What a rating replay costs: the correction of the oldest game of a kept club (bench/club.py) that
moves its places, which replays its rating from the first game (every game of the club: all are of
one game and house rule), timed as the write the page or the API makes (``services.update_deal``).

Each run corrects a deal of the oldest game (the oldest of them whose places one deal's tricks can
move) to tricks that move its places, then back, each a write of its own (so the kept club ends as
it began); the figures are each write's seconds, and the
replay's parts: reading the rating's games in order, and OpenSkill's updates alone.

    .venv/bin/python bench/ratings.py                          # the 100,000-game club, both databases
    .venv/bin/python bench/ratings.py --databases sqlite --runs 5

Unlike bench/run.py it runs the product in this process (as the seeder does), not over HTTP: the
write's own time, without a server around it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.club import app_env, kept_club  # noqa: E402

RESULTS = ROOT / "bench" / "results"
BUDGET = 2.0
"""Seconds the correction of the oldest game may take (issue 46)."""


def measure(database: str, games: int, runs: int) -> dict[str, Any]:
    """The figures of one club on one database."""
    club = kept_club(database, games)
    os.environ.update(app_env(club.url))
    os.environ["SCOREKEEPER_AUTO_MIGRATE"] = "0"
    from sqlalchemy import func, select

    from scorekeeper import create_app, services
    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.rules.ranking import ranking_key, rankings_rated_as, rating_of
    from scorekeeper.stats import ratings
    from scorekeeper.stored_figures import GameResult, Rating

    app = create_app()
    figures: dict[str, Any] = {"database": database, "games": games}
    with app.app_context():
        if db.session.execute(select(func.count()).select_from(Rating)).scalar_one() == 0:
            # A club kept from before migration 0018: its ratings computed once (flask rebuild-stats).
            started = time.perf_counter()
            ratings.replay_all()
            db.session.commit()
            figures["first_replay"] = time.perf_counter() - started
        # The oldest game (in the order of finishing) one of whose deals can be corrected so that its
        # places move: a replay is of every game of the rating whichever game starts it.
        candidates = db.session.execute(
            select(Game.id).where(Game.finished).order_by(Game.finished_at, Game.id).limit(50)
        ).scalars()
        for oldest_id in candidates:
            oldest = services.snapshot(oldest_id)
            found = _moving_correction(services, ratings, oldest)
            if found is not None:
                break
        else:
            raise SystemExit("none of the 50 oldest games has a correction that moves its places")
        number, was, moved = found
        finished_at = db.session.get(Game, oldest_id).finished_at
        figures["before"] = db.session.execute(
            select(func.count()).select_from(Game).where(Game.finished, Game.finished_at < finished_at)
        ).scalar_one()
        rating = rating_of(ranking_key(oldest.ruleset, oldest.setup))
        figures["rated"] = db.session.execute(
            select(func.count(func.distinct(GameResult.game_id))).where(
                GameResult.ranking.in_(rankings_rated_as(rating)), GameResult.finished
            )
        ).scalar_one()
        db.session.remove()
        writes: list[float] = []
        settled: list[float] = []
        for _ in range(runs):
            for tricks in (moved, was):
                started = time.perf_counter()
                services.update_deal(oldest_id, number, tricks=tricks)
                writes.append(time.perf_counter() - started)
                db.session.remove()
                ratings.wait()  # the replay left to a thread, if the rating is too long for the write
                settled.append(time.perf_counter() - started)
        figures["writes"], figures["settled"] = writes, settled
        # The same replay inside the write, as a rating within RATINGS_REPLAY_AT_ONCE is replayed.
        started = time.perf_counter()
        ratings.replay(rating, at_once=True)
        db.session.commit()
        figures["inline"] = time.perf_counter() - started
        # The replay's parts: the read of the games in order, and OpenSkill's updates alone.
        started = time.perf_counter()
        rows = db.session.execute(ratings._GAMES, {"rankings": list(rankings_rated_as(rating))}).all()
        figures["read"] = time.perf_counter() - started
        played: list[list[tuple[int, int]]] = []
        for key, seats in itertools.groupby(rows, key=lambda row: row.game_id):
            del key
            played.append([(row.player_id, row.rank) for row in seats])
        started = time.perf_counter()
        ratings.replayed(played)
        figures["compute"] = time.perf_counter() - started
        db.session.remove()
        db.engine.dispose()
    return figures


def _moving_correction(services: Any, ratings: Any, game: Any) -> tuple[int, Any, Any] | None:
    """A deal of ``game`` and its tricks shared out anew so that the game's places move (checked by a
    dry run): (its number, its tricks as they are, as corrected); None if no such deal."""
    places = ratings.places(game.state.standings)
    names = game.setup.players
    for number in range(len(game.records), 0, -1):
        was = dict(zip(names, game.records[number - 1].tricks or (), strict=True))
        for order in itertools.permutations(was.values()):
            tricks = dict(zip(was, order, strict=True))
            if tricks == was:
                continue
            try:
                written = services.update_deal(game.id, number, tricks=tricks, dry_run=True)
            except ValueError:
                continue
            if ratings.places(written.state.standings) != places:
                return number, was, tricks
    return None


def report(all_figures: list[dict[str, Any]]) -> str:
    lines = [
        "Correcting the oldest game of the club (its places moved), which replays its rating:",
        "the write (what the scorer waits for), until the ratings are up to date again (the replay left",
        "to a thread), the same replay inside a write, and its read of the games and OpenSkill's part",
        f"{'database':<11} {'games':>7} {'rated':>7} {'write p50':>9} {'max':>6}"
        f" {'settled p50':>11} {'max':>6} {'inline':>7} {'read':>6} {'compute':>7}"
        f"  budget {BUDGET:.0f} s (the write)",
    ]
    for f in all_figures:
        worst = max(f["writes"])
        verdict = "PASS" if worst <= BUDGET else "OVER"
        lines.append(
            f"{f['database']:<11} {f['games']:>7} {f['rated']:>7} {statistics.median(f['writes']):>8.2f}s"
            f" {worst:>5.2f}s {statistics.median(f['settled']):>10.2f}s {max(f['settled']):>5.2f}s"
            f" {f['inline']:>6.2f}s {f['read']:>5.2f}s {f['compute']:>6.2f}s  {verdict}"
            + f"  ({f['before']} games finished before the one corrected)"
            + (f"  (first replay {f['first_replay']:.1f} s)" if "first_replay" in f else "")
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3, help="corrections there and back")
    args = parser.parse_args()
    found = [measure(database, args.games, args.runs) for database in args.databases.split(",") if database]
    text = report(found)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ratings-latest.txt").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
