"""Kept clubs for the benchmarks: a large seeded club is built once and reused by later runs.

Seeding 100,000 games takes minutes (bench/README.md says how long, and how much disk the
club takes), so ``kept_club`` keeps it: a SQLite file under ``bench/clubs/`` and a PostgreSQL
schema ``scorekeeper_bench_club_<games>_<players>``, each with a small JSON note of how it
was made.  A later run finds them, brings the schema up to date with the migrations (as a
real install would) and reuses the data.  Benchmarks only read a kept club: the routes that
write (recording deals, the bare INSERT) run on a fresh club of their own.

Besides the finished games of ``seed-demo`` a club has a few games in progress, made
through the services as a phone would, so the home page has both of its lists.  A
PostgreSQL club whose SQLite twin is already kept is copied from it with COPY (the same
games; inserting them again through the seeder takes an hour on a busy 2-core machine).

    .venv/bin/python bench/club.py --games 100000 --players 10000     # make (or find) one
    .venv/bin/python bench/club.py --games 100000 --players 10000 --drop
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
CLUBS = HERE / "clubs"
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
SEED = 2026
GAMES_IN_PROGRESS = 12
SEEDED_TABLES = "players, games, seats, deals, game_results, deal_results, player_totals"


@dataclass(frozen=True)
class Club:
    database: str
    url: str
    """The database URL the app is given (``DATABASE_URL``)."""
    games: int
    players: int
    seed_seconds: float
    disk_mb: float
    reused: bool


def pg_base_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "").strip() or DEFAULT_PG_URL


def club_name(games: int, players: int) -> str:
    return f"club_{games}_{players}"


def club_url(database: str, games: int, players: int) -> str:
    if database == "sqlite":
        return f"sqlite:///{CLUBS / (club_name(games, players) + '.sqlite3')}"
    base = pg_base_url()
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options=-csearch_path%3Dscorekeeper_bench_{club_name(games, players)}"


def _note(database: str, games: int, players: int) -> Path:
    return CLUBS / f"{club_name(games, players)}.{database}.json"


def _env(url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GUNICORN", "WEB_"))}
    env.update(DATABASE_URL=url, SCOREKEEPER_INSTANCE=str(CLUBS / "instance"), SECRET_KEY="bench-club")
    return env


def _flask(url: str, *args: str) -> None:
    # The benchmark's app: the product's, plus the seeder command (bench/app.py).
    command = [str(BIN / "flask"), "--app", "bench.app:create_bench_app", *args]
    subprocess.run(command, env=_env(url), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def _schema(games: int, players: int) -> str:
    return f"scorekeeper_bench_{club_name(games, players)}"


def _exists(database: str, games: int, players: int) -> bool:
    if not _note(database, games, players).exists():
        return False
    if database == "sqlite":
        return (CLUBS / (club_name(games, players) + ".sqlite3")).exists()
    import psycopg

    with psycopg.connect(pg_base_url(), autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = 'games'",
            (_schema(games, players),),
        ).fetchone()
    return found is not None


def drop_club(database: str, games: int, players: int) -> None:
    note = _note(database, games, players)
    note.unlink(missing_ok=True)
    if database == "sqlite":
        for suffix in ("", "-wal", "-shm"):
            (CLUBS / (club_name(games, players) + ".sqlite3" + suffix)).unlink(missing_ok=True)
        return
    import psycopg

    with psycopg.connect(pg_base_url(), autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{_schema(games, players)}" CASCADE')


def disk_mb(database: str, games: int, players: int) -> float:
    """The club's size on disk: the SQLite file (and its WAL), or the schema's tables with indexes."""
    if database == "sqlite":
        files = [CLUBS / (club_name(games, players) + ".sqlite3" + s) for s in ("", "-wal")]
        return round(sum(f.stat().st_size for f in files if f.exists()) / 2**20, 1)
    import psycopg

    with psycopg.connect(pg_base_url(), autocommit=True) as connection:
        size = connection.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
            (_schema(games, players),),
        ).fetchone()
    return round(int(size[0]) / 2**20, 1) if size else 0.0


def add_games_in_progress(url: str, count: int = GAMES_IN_PROGRESS) -> None:
    """``count`` games in progress among the club's busiest players, written through the services."""
    sys.path.insert(0, str(ROOT))
    os.environ["SCOREKEEPER_INSTANCE"] = str(CLUBS / "instance")
    from sqlalchemy import text

    from scorekeeper import create_app, services
    from scorekeeper.config import normalise_database_url
    from scorekeeper.extensions import db
    from scorekeeper.rules import DealRecord

    app = create_app({"SQLALCHEMY_DATABASE_URI": normalise_database_url(url), "SECRET_KEY": "bench-club"})
    with app.app_context():
        names = list(
            db.session.execute(
                text(
                    "SELECT p.name FROM player_totals t JOIN players p ON p.id = t.player_id"
                    " WHERE t.ruleset = 'mizerka' AND t.year = 0 ORDER BY t.games DESC, p.id LIMIT :n"
                ),
                {"n": 3 * count},
            ).scalars()
        )
        for i in range(count):
            table = names[3 * i : 3 * i + 3]
            loaded, _key = services.create_game("mizerka", table, table[0])
            ruleset, state = loaded.ruleset, loaded.state
            for _ in range(i % ruleset.deal_count):  # 0, 1, 2 ... deals: every stage of a game
                upcoming = state.next_deal
                assert upcoming is not None
                contract = upcoming.available_contracts[0]
                tricks = (5, 4, 4)
                state = ruleset.extend(state, [DealRecord(contract=contract, tricks=tricks)])
                number = upcoming.number
                services.record_deal(loaded.id, number=number, contract=contract, tricks=list(tricks))
        db.session.remove()
        db.engine.dispose()


COPIED_TABLES = [
    "players",
    "games",
    "seats",
    "deals",
    "game_results",
    "deal_results",
    "player_totals",
    "kept_window",
]


def copy_from_sqlite(source: Path, url: str) -> None:
    """Copy every row of the SQLite club at ``source`` into the (migrated, empty) schema at ``url``.

    PostgreSQL's COPY takes the rows in a few minutes where inserting them through the
    seeder takes an hour on a busy 2-core machine: the same games, not a second draw.
    """
    import sqlite3

    import psycopg

    with sqlite3.connect(source) as lite, psycopg.connect(url) as connection:
        for table in COPIED_TABLES:
            columns = [
                row[0]
                for row in connection.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = %s"
                    " AND is_generated = 'NEVER'"  # the database computes those (COPY refuses them)
                    " ORDER BY ordinal_position",
                    (table,),
                )
            ]
            names = ", ".join(columns)
            with connection.cursor().copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in lite.execute(f"SELECT {names} FROM {table}"):
                    copy.write_row(row)
        for table in ("players", "deals"):
            connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
        connection.commit()


def kept_club(database: str, games: int, players: int) -> Club:
    """The club of ``games`` games and ``players`` players on ``database``: found, or seeded now."""
    CLUBS.mkdir(exist_ok=True)
    url = club_url(database, games, players)
    note_path = _note(database, games, players)
    if _exists(database, games, players):
        note = json.loads(note_path.read_text())
        _flask(url, "db-upgrade")  # a newer schema: the migrations bring the kept data along
        size = disk_mb(database, games, players)
        return Club(database, url, games, players, note["seed_seconds"], size, True)
    drop_club(database, games, players)
    if database == "postgresql":
        import psycopg

        with psycopg.connect(pg_base_url(), autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{_schema(games, players)}"')
    print(
        f"[{database}] seeding a club of {games} games, {players} players (kept for later runs)", flush=True
    )
    started = time.perf_counter()
    _flask(url, "db-upgrade")
    source = CLUBS / (club_name(games, players) + ".sqlite3")
    if database == "postgresql" and _exists("sqlite", games, players):
        print(f"[{database}] copying the rows of {source.name}", flush=True)
        _flask(club_url("sqlite", games, players), "db-upgrade")  # the same schema on both sides
        copy_from_sqlite(source, url)
    else:
        _flask(url, "seed-demo", "--games", str(games), "--players", str(players), "--seed", str(SEED))
        add_games_in_progress(url)
    if database == "postgresql":
        import psycopg

        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"VACUUM (ANALYZE) {SEEDED_TABLES}")
    seconds = round(time.perf_counter() - started, 1)
    note: dict[str, Any] = {
        "games": games,
        "players": players,
        "seed_seconds": seconds,
        "seeded_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "disk_mb": disk_mb(database, games, players),
    }
    note_path.write_text(json.dumps(note, indent=2) + "\n")
    print(f"[{database}] seeded in {seconds:.0f} s, {note['disk_mb']} MB on disk", flush=True)
    return Club(database, url, games, players, seconds, note["disk_mb"], False)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--drop", action="store_true", help="remove the kept club instead")
    args = parser.parse_args()
    for database in [d for d in args.databases.split(",") if d]:
        if args.drop:
            drop_club(database, args.games, args.players)
            print(f"[{database}] dropped")
            continue
        club = kept_club(database, args.games, args.players)
        state = "reused" if club.reused else "seeded"
        print(f"[{database}] {state}: {club.url} ({club.seed_seconds:.0f} s to seed, {club.disk_mb} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
