"""Kept clubs: a club of seeded finished games is made once and reused by later runs.

Seeding 100,000 games takes minutes, so ``kept_club`` keeps each club: a SQLite file under
``bench/clubs/`` and a PostgreSQL schema ``scorekeeper_bench_club_<games>_<players>`` in the
database of ``BENCH_DATABASE_URL``, each with a JSON note beside it (how it was made, and the
tables playing in it: their games and edit keys, which bench/run.py keeps).  A later run
brings the schema up to date with the migrations, as a real install would, and reuses the
data.  A PostgreSQL club whose SQLite twin is kept is copied from it with COPY (the same
games, in a fraction of the seeder's time).

    .venv/bin/python bench/club.py --games 100000           # make (or find) one, on both databases
    .venv/bin/python bench/club.py --games 100000 --drop
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
CLUBS = HERE / "clubs"
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
SEED = 2026


def pg_base_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "").strip() or DEFAULT_PG_URL


def with_schema(url: str, schema: str) -> str:
    """``url`` with ``schema`` as the connection's search path."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@dataclass
class Club:
    database: str
    games: int
    players: int
    note: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"club_{self.games}_{self.players}"

    @property
    def schema(self) -> str:
        return f"scorekeeper_bench_{self.name}"

    @property
    def sqlite_file(self) -> Path:
        return CLUBS / f"{self.name}.sqlite3"

    @property
    def url(self) -> str:
        """The database URL the app is given (``DATABASE_URL``)."""
        if self.database == "sqlite":
            return f"sqlite:///{self.sqlite_file}"
        return with_schema(pg_base_url(), self.schema)

    @property
    def note_path(self) -> Path:
        return CLUBS / f"{self.name}.{self.database}.json"

    def save_note(self) -> None:
        self.note_path.write_text(json.dumps(self.note, indent=2) + "\n")

    def exists(self) -> bool:
        if not self.note_path.exists():
            return False
        if self.database == "sqlite":
            return self.sqlite_file.exists()
        import psycopg

        with psycopg.connect(pg_base_url(), autocommit=True) as connection:
            found = connection.execute(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = 'games'",
                (self.schema,),
            ).fetchone()
        return found is not None

    def drop(self) -> None:
        self.note_path.unlink(missing_ok=True)
        if self.database == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_file}{suffix}").unlink(missing_ok=True)
            return
        import psycopg

        with psycopg.connect(pg_base_url(), autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def app_env(url: str) -> dict[str, str]:
    """The environment the benchmark's app runs in: the database, its own instance folder, no Redis."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(DATABASE_URL=url, SCOREKEEPER_INSTANCE=str(CLUBS / "instance"), SECRET_KEY="bench-club")
    return env


def _flask(url: str, *args: str) -> None:
    # The benchmark's app: the product's, plus the seeder command (bench/app.py).
    command = [str(BIN / "flask"), "--app", "bench.app:create_bench_app", *args]
    subprocess.run(command, env=app_env(url), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def copy_from_sqlite(source: Path, url: str) -> None:
    """Copy every row of the SQLite club at ``source`` into the (migrated, empty) schema at ``url``."""
    import psycopg

    with sqlite3.connect(source) as lite, psycopg.connect(url) as connection:
        tables = [
            row[0]
            for row in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
            if row[0] != "alembic_version" and not row[0].startswith("sqlite_")
        ]
        for table in tables:
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
            if not columns:
                continue  # a table the schema no longer has
            names = ", ".join(columns)
            with connection.cursor().copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in lite.execute(f"SELECT {names} FROM {table}"):
                    copy.write_row(row)
        for table, column in connection.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND column_default LIKE 'nextval%%'"
        ).fetchall():
            connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" greatest((SELECT max({column}) FROM {table}), 1))"
            )
        connection.commit()


def vacuum(url: str) -> None:
    """VACUUM (ANALYZE) the club's tables, as autovacuum would in the middle of a measurement."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
        for (table,) in tables:
            connection.execute(f'VACUUM (ANALYZE) "{table}"')


def kept_club(database: str, games: int) -> Club:
    """The club of ``games`` finished games (and a tenth as many players) on ``database``:
    found and brought up to date, or seeded now."""
    CLUBS.mkdir(exist_ok=True)
    club = Club(database, games, max(games // 10, 10))
    if club.exists():
        club.note = json.loads(club.note_path.read_text())
        _flask(club.url, "db-upgrade")  # a newer schema: the migrations bring the kept data along
        return club
    club.drop()
    if database == "postgresql":
        import psycopg

        with psycopg.connect(pg_base_url(), autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{club.schema}"')
    print(f"[{database}] seeding a club of {games} games (kept for later runs)", flush=True)
    started = time.perf_counter()
    _flask(club.url, "db-upgrade")
    twin = Club("sqlite", club.games, club.players)
    if database == "postgresql" and twin.exists():
        print(f"[{database}] copying the rows of {twin.sqlite_file.name}", flush=True)
        _flask(twin.url, "db-upgrade")  # the same schema on both sides
        copy_from_sqlite(twin.sqlite_file, club.url)
        kept = json.loads(twin.note_path.read_text())
        club.note = {key: kept[key] for key in ("tables", "games_finished_by_writers") if key in kept}
        club.note["copied_from"] = twin.sqlite_file.name
    else:
        _flask(
            club.url, "seed-demo", "--games", str(games), "--players", str(club.players), "--seed", str(SEED)
        )
    if database == "postgresql":
        vacuum(club.url)
    club.note.update(
        games=games,
        players=club.players,
        seed_seconds=round(time.perf_counter() - started, 1),
        seeded_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    club.save_note()
    print(f"[{database}] seeded in {club.note['seed_seconds']:.0f} s", flush=True)
    return club


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--drop", action="store_true", help="remove the kept club instead")
    args = parser.parse_args()
    for database in [d for d in args.databases.split(",") if d]:
        if args.drop:
            Club(database, args.games, max(args.games // 10, 10)).drop()
            print(f"[{database}] dropped")
            continue
        club = kept_club(database, args.games)
        print(f"[{database}] {club.url} ({club.note['seed_seconds']:.0f} s to seed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
