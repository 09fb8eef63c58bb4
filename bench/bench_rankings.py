"""Benchmark: the club's pages rendered afresh, in-process, at 10,000 and at 100,000 games.

For each database it opens the kept clubs of ``bench/club.py`` (10,000 games and 1,000
players; 100,000 games and 10,000 players; seeded once, reused by later runs) and times
each page through the Flask test client with the page cache off, so every request runs
its queries and renders: what the pages cost while a club is busy (a write since the
last view).  Median and 95th percentile of N requests after a few warm-up requests, the
app's own CPU time, the number of SQL queries and the size of the page; then the change
from the small club to the large one.

    .venv/bin/python bench/bench_rankings.py --postgresql postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python bench/bench_rankings.py --clubs 10000:1000                # one size, SQLite only

Not a test: timings depend on the machine.  bench/README.md records the figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event, text

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.club import kept_club  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.config import normalise_database_url  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

BUDGET_MS = 100.0


def make_app(url: str, instance: Path) -> Flask:
    os.environ["SCOREKEEPER_INSTANCE"] = str(instance)
    config: dict[str, Any] = {
        "SECRET_KEY": "bench",
        "AUTO_MIGRATE": False,
        "SQLALCHEMY_DATABASE_URI": normalise_database_url(url),
        "CACHE_TYPE": "NullCache",  # every request queries and renders
        "CACHE_NO_NULL_WARNING": True,
    }
    return create_app(config)


def page_values(app: Flask) -> dict[str, Any]:
    """The busiest and a median player of the club, and a page of its older games."""
    with app.app_context():
        players = db.session.execute(
            text(
                "SELECT player_id FROM player_totals WHERE ruleset = 'mizerka' AND year = 0 AND games > 0"
                " ORDER BY games DESC, player_id"
            )
        ).scalars()
        ids = list(players)
        older = db.session.execute(
            text("SELECT id FROM games WHERE finished ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 19")
        ).scalar_one()
        db.session.remove()
    return {"busiest": ids[0], "median": ids[len(ids) // 2], "older": older}


PAGES = {
    "home page": "/",
    "home page: older games": "/?finished_after={older}",
    "rankings (all time, by wins)": "/rankings",
    "rankings: this year, by won %": "/rankings?period=year&sort=win_pct&dir=desc",
    "rankings: last 30 days": "/rankings?period=30d",
    "rankings: by name, A first": "/rankings?sort=name&dir=asc",
    "rankings: page 4, by points": "/rankings?sort=points&dir=desc&page=4",
    "player page (busiest player)": "/players/{busiest}",
    "player page (median player)": "/players/{median}",
    "player page (busiest, this year)": "/players/{busiest}?period=year",
}


def time_page(app: Flask, url: str, requests: int, warm: int = 3) -> tuple[float, float, float, int, int]:
    """(median ms, p95 ms, median CPU ms of this process, queries, bytes) for ``url``.

    The CPU time is the app's own (Python, and SQLite, which runs in-process), not PostgreSQL's:
    on a busy machine it shows what the page costs apart from waiting for a core.
    """
    client = app.test_client()
    for _ in range(warm):
        assert client.get(url).status_code == 200, url
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        response = client.get(url)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    size = len(response.get_data())
    samples = []
    cpu = []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, url
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return statistics.median(samples), p95, statistics.median(cpu), len(statements), size


def run(backend: str, database: str, games: int, players: int, requests: int, folder: Path) -> list[Any]:
    club = kept_club(database, games, players)
    made = "reused" if club.reused else "seeded now"
    print(f"{backend}: club of {games} games, {players} players ({made}, {club.disk_mb} MB)", flush=True)
    app = make_app(club.url, folder / f"instance-{database}-{games}")
    values = page_values(app)
    rows = []
    for label, path in PAGES.items():
        median, p95, cpu, queries, size = time_page(app, path.format(**values), requests)
        rows.append((backend, games, label, median, p95, cpu, queries, size))
        print(f"  {label:34} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries} queries", flush=True)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return rows


def postgresql_unreachable(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used (None when it can)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError

    engine = create_engine(normalise_database_url(url))
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except OperationalError as error:
        return f"cannot connect to {url} ({str(error).strip().splitlines()[0]})"
    finally:
        engine.dispose()
    return None


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    small = f"{os.environ.get('BENCH_GAMES', '10000')}:1000"
    large = os.environ.get("BENCH_LARGE", "100000:10000")
    parser.add_argument(
        "--clubs", default=",".join(c for c in (small, large) if c), help="games:players, comma-separated"
    )
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--postgresql", default=os.environ.get("TEST_DATABASE_URL", ""), help="PostgreSQL URL (optional)"
    )
    args = parser.parse_args()
    clubs = [tuple(int(n) for n in size.split(":")) for size in args.clubs.split(",") if size]

    started_load = os.getloadavg()
    started_ticks = cpu_ticks()
    rows: list[Any] = []
    folder = HERE / "clubs"
    folder.mkdir(exist_ok=True)
    databases = [("SQLite", "sqlite")]
    unreachable = args.postgresql and postgresql_unreachable(args.postgresql)
    if unreachable:
        print(f"PostgreSQL skipped: {unreachable}", flush=True)
    elif args.postgresql:
        os.environ["BENCH_DATABASE_URL"] = args.postgresql
        databases.append(("PostgreSQL", "postgresql"))
    for backend, database in databases:
        for games, players in clubs:
            rows += run(backend, database, games, players, args.requests, folder)

    load = " / ".join(f"{value:.1f}" for value in started_load)
    end_load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    steal = steal_percent(started_ticks, cpu_ticks())
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    lines = [
        f"{time.strftime('%Y-%m-%d %H:%M')}, {machine}",
        f"load average {load} at the start, {end_load} at the end; CPU stolen by the host {steal:.1f}%",
        f"pages rendered afresh (no page cache), {args.requests} requests per page",
        "",
        "| database | games | page | median | p95 | app CPU (median) | queries | HTML |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for backend, games, label, median, p95, cpu, queries, size in rows:
        lines.append(
            f"| {backend} | {games:,} | {label} | {median:.1f} ms | {p95:.1f} ms | {cpu:.1f} ms | {queries} "
            f"| {size // 1024} KB |"
        )
    if len(clubs) > 1:
        small_games, large_games = clubs[0][0], clubs[-1][0]
        lines += [
            "",
            f"| database | page | app CPU, {small_games:,} games | {large_games:,} games | change |",
        ]
        lines += ["|---|---|---:|---:|---:|"]
        by_key = {(row[0], row[1], row[2]): row for row in rows}
        for backend, _database in databases:
            for label in PAGES:
                small, large = (
                    by_key.get((backend, clubs[0][0], label)),
                    by_key.get((backend, clubs[-1][0], label)),
                )
                if small and large:
                    change = large[5] / small[5] - 1 if small[5] else 0.0
                    lines.append(
                        f"| {backend} | {label} | {small[5]:.1f} ms | {large[5]:.1f} ms | {change:+.0%} |"
                    )
    slow = [row for row in rows if row[3] > BUDGET_MS]
    if slow:
        lines.append(f"\nOver {BUDGET_MS:.0f} ms: {', '.join(f'{r[0]} {r[1]:,} {r[2]}' for r in slow)}")
    report = "\n".join(lines) + "\n"
    print()
    print(report, end="")
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / "rankings.txt").write_text(report)
    return 1 if slow else 0


def cpu_ticks() -> tuple[int, int]:
    """(steal, total) CPU ticks so far."""
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def steal_percent(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return 100 * (after[0] - before[0]) / total if total > 0 else 0.0


if __name__ == "__main__":
    sys.exit(main())
