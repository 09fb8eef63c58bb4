"""Benchmark: the rankings page and a player's page with 10,000 finished games and 1,000 players.

Seeds a fresh SQLite file and a private PostgreSQL schema (when a URL is given) with the
``seed-demo`` data set, built by the migrations like a real install, then times each page
through the Flask test client: median and 95th percentile of N requests after a few warm-up
requests, and the number of SQL queries each page issues.

    .venv/bin/python bench/bench_rankings.py                      # SQLite only
    TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_rankings.py

Not a test: timings depend on the machine.  bench/README.md records the figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import create_engine, event, func, select, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.demo import seed_demo
from scorekeeper import create_app
from scorekeeper.config import normalise_database_url
from scorekeeper.database import upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.models import GameResult

BUDGET_MS = 100.0


def make_app(url: str, instance: Path, schema: str | None = None) -> Flask:
    os.environ["SCOREKEEPER_INSTANCE"] = str(instance)
    config: dict[str, Any] = {"SECRET_KEY": "bench", "AUTO_MIGRATE": False, "SQLALCHEMY_DATABASE_URI": url}
    if schema:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
    app = create_app(config)
    upgrade_schema(app)  # the schema as a real install builds it: migrations, indexes included
    return app


@contextmanager
def postgresql_schema(url: str) -> Iterator[str]:
    """A private schema for the run, dropped afterwards."""
    schema = f"scorekeeper_bench_{os.getpid()}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def seed(app: Flask, games: int, players: int) -> float:
    started = time.perf_counter()
    with app.app_context():
        report = seed_demo(games, players, seed=2026)
        if db.engine.dialect.name == "postgresql":
            # What autovacuum does within a minute of a bulk load; the planner needs the row counts.
            db.session.execute(text("ANALYZE"))
            db.session.commit()
        db.session.remove()
    assert report.games == games
    return time.perf_counter() - started


def players_to_time(app: Flask) -> dict[str, int]:
    """The player with the most games and one with a median number."""
    with app.app_context():
        counts = db.session.execute(
            select(GameResult.player_id, func.count().label("games"))
            .group_by(GameResult.player_id)
            .order_by(func.count().desc(), GameResult.player_id)
        ).all()
        db.session.remove()
    return {"busiest": counts[0].player_id, "median": counts[len(counts) // 2].player_id}


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


def run(backend: str, app: Flask, games: int, players: int, requests: int) -> list[tuple[Any, ...]]:
    seconds = seed(app, games, players)
    print(f"{backend}: seeded {games} games, {players} players in {seconds:.1f} s", flush=True)
    who = players_to_time(app)
    pages = {
        "rankings (all time)": "/rankings",
        "rankings (this year, by won %)": "/rankings?period=year&sort=win_pct",
        "rankings (last 30 days)": "/rankings?period=30d",
        "player page (busiest player)": f"/players/{who['busiest']}",
        "player page (median player)": f"/players/{who['median']}",
    }
    rows = []
    for label, url in pages.items():
        median, p95, cpu, queries, size = time_page(app, url, requests)
        rows.append((backend, label, median, p95, cpu, queries, size))
        print(f"  {label:32} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries} queries", flush=True)
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
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", 10_000)))
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--postgresql", default=os.environ.get("TEST_DATABASE_URL", ""), help="PostgreSQL URL (optional)"
    )
    args = parser.parse_args()

    rows: list[tuple[Any, ...]] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        path = Path(folder)
        app = make_app(f"sqlite:///{path / 'bench.sqlite3'}", path / "instance")
        rows += run("SQLite", app, args.games, args.players, args.requests)
        with app.app_context():
            db.engine.dispose()
        unreachable = args.postgresql and postgresql_unreachable(args.postgresql)
        if unreachable:
            print(f"PostgreSQL skipped: {unreachable}", flush=True)
        elif args.postgresql:
            url = normalise_database_url(args.postgresql)
            with postgresql_schema(url) as schema:
                app = make_app(url, path / "instance-pg", schema)
                rows += run("PostgreSQL", app, args.games, args.players, args.requests)
                with app.app_context():
                    db.session.remove()
                    db.engine.dispose()

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, load {load}"
    lines = [
        f"{time.strftime('%Y-%m-%d')}, {machine}",
        f"{args.games} games, {args.players} players, {args.requests} requests per page",
        "",
        "| database | page | median | p95 | app CPU (median) | queries | HTML |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for backend, label, median, p95, cpu, queries, size in rows:
        lines.append(
            f"| {backend} | {label} | {median:.1f} ms | {p95:.1f} ms | {cpu:.1f} ms | {queries} "
            f"| {size // 1024} KB |"
        )
    slow = [row for row in rows if row[2] > BUDGET_MS]
    if slow:
        lines.append(f"\nOver the {BUDGET_MS:.0f} ms budget: {', '.join(f'{r[0]} {r[1]}' for r in slow)}")
    text = "\n".join(lines) + "\n"
    print()
    print(text, end="")
    results = Path(__file__).resolve().parent / "results"
    results.mkdir(exist_ok=True)
    (results / "rankings.txt").write_text(text)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
