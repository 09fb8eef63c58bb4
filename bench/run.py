"""``make bench``: the budgets of bench/README.md, measured with wrk on SQLite and on PostgreSQL.

For each database and club size it serves the benchmark's app (bench/app.py) as ``make run``
serves the product (Waitress, the same settings) on a kept club (bench/club.py) and drives it
with wrk (2 threads, 8 connections; bench.lua), every figure a ratio to ``/healthz`` of the same
server in the same run: the club's pages while nothing is written and while a writer records a
deal through the JSON API every 0.25 s at one of 24 tables, the phones' mix, a watcher's poll
and a game page.  Recording deals is measured against a bare one-row INSERT on a fresh, empty
club of its own (so the kept clubs do not fill with benchmark games).  Everything but the
seeding goes over HTTP.  One table per database and size, and the code's size, are printed
and written to bench/results/latest.txt.

    .venv/bin/python bench/run.py [--databases sqlite,postgresql] [--sizes 10000,100000]
                                  [--quick] [--seconds 10] [--runs 3]
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.club import Club, app_env, kept_club, pg_base_url, with_schema  # noqa: E402

RESULTS = HERE / "results"
LUA = HERE / "bench.lua"
THREADS, CONNECTIONS = 2, 8
TIMEOUT = "10s"  # a phone's poll gives up after 10 s
TABLES = 24
WRITE_EVERY = 0.25  # seconds between two deals recorded in the busy club
RECORD_POOL = 512  # games a wrk thread plays in step (bench.lua): a deal overtaken by 512 others fails
QUIET_SECONDS = 40  # a club is quiet once nothing has been written for this long
FIRST_PORT = int(os.environ.get("BENCH_PORT", "5201"))
PORTS = range(FIRST_PORT, FIRST_PORT + 99)  # 5201-5299 by default; a BENCH_PORT past 5299 too

# The budgets (issue 32): the least share of /healthz's requests per second.
BUDGETS = {
    "busy: the phones' mix": 0.5,
    "busy: home": 0.2,
    "busy: rankings": 0.2,
    "busy: a player's page": 0.2,
    "quiet: home": 0.7,
    "quiet: rankings": 0.7,
    "quiet: a player's page": 0.7,
    "a watcher's poll (304)": 0.6,
    "a full game page": 0.4,
}
RECORD_BUDGET = 0.3  # recording a deal, against a bare one-row INSERT
SIZE_BUDGET = 2800
MODULE_BUDGET = 420
#: What the size budget counts: the issue's services, stats and database.py, and caching.py, which
#: replaced its pagecache.py and compression.py (keep this list up to date).
SIZE_PATHS = ["services", "stats", "database.py", "caching.py"]

# A legal Mizerka game, $1 dealing first: contract and tricks ($1, $2, $3) of its 18 deals.
DEALS = [
    ("hearts", (4, 5, 4)),
    ("mizerka", (6, 5, 2)),
    ("no-trumps", (8, 4, 1)),
    ("clubs", (1, 7, 5)),
    ("spades", (3, 1, 9)),
    ("diamonds", (6, 6, 1)),
    ("mizerka", (9, 0, 4)),
    ("hearts", (5, 2, 6)),
    ("clubs", (13, 0, 0)),
    ("no-trumps", (3, 4, 6)),
    ("clubs", (4, 2, 7)),
    ("mizerka", (3, 5, 5)),
    ("diamonds", (2, 8, 3)),
    ("no-trumps", (7, 1, 5)),
    ("spades", (7, 5, 1)),
    ("spades", (0, 9, 4)),
    ("diamonds", (5, 4, 4)),
    ("hearts", (5, 7, 1)),
]


# -- HTTP -------------------------------------------------------------------------------------------


def call(base: str, method: str, path: str, body: Any = None, key: str = "") -> tuple[int, Any]:
    """One request as a phone sends it; the answer's status and its JSON (or its headers for HEAD)."""
    headers = {"Accept-Encoding": "gzip"}  # as wrk sends: the page's ETag is the one wrk is given
    if body is not None:
        headers["Content-Type"] = "application/json"
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw, answer_headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, raw, answer_headers = error.code, error.read(), error.headers
    if method == "HEAD":
        return status, answer_headers
    if answer_headers.get("Content-Encoding") == "gzip":
        import gzip

        raw = gzip.decompress(raw)
    text = raw.decode()
    return status, json.loads(text) if answer_headers.get_content_type() == "application/json" else text


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")


@contextmanager
def server(url: str, log: Path) -> Iterator[str]:
    """The benchmark's app served by Waitress as ``make run`` serves the product; yields its base URL."""
    port = free_port()
    env = app_env(url)
    # The writers here create far more games from one address than a club does.
    env.update(HOST="127.0.0.1", PORT=str(port), GAME_CREATE_RATE_LIMIT="1000000 per minute")
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bench.app"], env=env, cwd=ROOT, stdout=out, stderr=out
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited ({process.returncode}); see {log}")
            try:
                if call(base, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer in 120 s; see {log}")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- wrk --------------------------------------------------------------------------------------------


@dataclass
class Result:
    rps: float
    requests: int
    errors: int
    statuses: dict[str, int]


def wrk(base: str, path: str, mode: str, seconds: float, log: Path, **env: str) -> Result:
    """One wrk run (2 threads, 8 connections, bench.lua in ``mode``); its output goes to ``log``."""
    command = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds:g}s", "--timeout", TIMEOUT]
    command += ["-H", "Accept-Encoding: gzip", "-s", str(LUA), base + path]
    settings = {"BENCH_MODE": mode, "BENCH_THREADS": str(THREADS), **env}
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **settings})
    with open(log, "a") as out:
        out.write(
            f"== {mode} {path} {' '.join(f'{k}={v}' for k, v in env.items())}\n{done.stdout}{done.stderr}\n"
        )
    for line in done.stdout.splitlines():
        if line.startswith("BENCH_JSON "):
            raw = json.loads(line.removeprefix("BENCH_JSON "))
            return Result(
                rps=raw["requests"] / (raw["duration_us"] / 1e6),
                requests=raw["requests"],
                errors=sum(raw["errors"].values()),
                statuses=raw["statuses"],
            )
    raise RuntimeError(f"wrk gave no result: {done.stdout}\n{done.stderr}")


# -- the busy club ----------------------------------------------------------------------------------


@dataclass
class Table:
    id: str
    key: str
    players: list[str]
    etag: str = ""


@dataclass
class Writer:
    """Records a deal at one table after another through the API, one every ``WRITE_EVERY`` s
    however long each takes (the tables do not wait for each other), and keeps the tables file
    bench.lua's watchers read (each table's page and its ETag)."""

    base: str
    tables: list[Table]
    tables_file: Path
    deals: int = 0
    started: int = 0
    failed: int = 0
    seconds: float = 0.0
    last_write: float = 0.0  # time.monotonic() of the latest write
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def record(self, index: int) -> None:
        """The next deal at table ``index``; a finished game makes way for a new one, same players."""
        table = self.tables[index]
        status, game = call(self.base, "GET", f"/api/v1/games/{table.id}")
        if status != 200:
            raise RuntimeError(f"GET game {table.id}: {status}")
        if game["next_deal"] is None:
            seats = [*table.players[1:], table.players[0]]
            table = self.tables[index] = new_game(self.base, seats)
            game = call(self.base, "GET", f"/api/v1/games/{table.id}")[1]
            with self._lock:
                self.started += 1
                self.last_write = time.monotonic()
        upcoming = game["next_deal"]
        tricks = dict(zip(table.players, (5, 4, 4), strict=True))
        body = {
            "number": upcoming["number"],
            "contract": upcoming["available_contracts"][0],
            "tricks": tricks,
        }
        status, answer = call(self.base, "POST", f"/api/v1/games/{table.id}/deals", body, table.key)
        if status != 201:
            raise RuntimeError(f"POST deal at {table.id}: {status} {answer}")
        with self._lock:
            self.deals += 1
            self.last_write = time.monotonic()
        self.refresh(table)

    def refresh(self, table: Table) -> None:
        """The table's page ETag as a watcher is given it, written where the watchers read it."""
        status, headers = call(self.base, "HEAD", f"/games/{table.id}")
        if status != 200 or not headers.get("ETag"):
            raise RuntimeError(f"HEAD /games/{table.id}: {status}")
        with self._lock:
            table.etag = headers["ETag"]
            partial = self.tables_file.with_suffix(".new")
            partial.write_text("".join(f"/games/{t.id} {t.etag}\n" for t in self.tables))
            partial.replace(self.tables_file)

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        began = time.monotonic()
        tick, turn, writes = began, 0, []
        while not self._stop.is_set():
            writes.append(threading.Thread(target=self._write, args=(turn % len(self.tables),)))
            writes[-1].start()
            turn += 1
            tick += WRITE_EVERY
            self._stop.wait(max(0.0, tick - time.monotonic()))
        for write in writes:
            write.join()
        self.seconds += time.monotonic() - began

    def _write(self, index: int) -> None:
        try:
            self.record(index)
        except (OSError, RuntimeError, KeyError, ValueError) as error:
            with self._lock:
                self.failed += 1
            print(f"  writer: {error}", flush=True)


def new_game(base: str, players: list[str]) -> Table:
    body = {"ruleset": "mizerka", "players": players, "first_dealer": players[0]}
    status, game = call(base, "POST", "/api/v1/games", body)
    if status != 201:
        raise RuntimeError(f"POST /api/v1/games: {status} {game}")
    return Table(game["id"], game["edit_key"], list(game["players"]))


def regulars(base: str) -> list[tuple[str, str]]:
    """The players of the default rankings view, best first: (their page's path, their name)."""
    status, page = call(base, "GET", "/rankings")
    link = r'href="(/players/\d+)(?:\?[^"]*)?"[^>]*>\s*([^<]+?)\s*<'  # a player's link, its query if any
    found = re.findall(link, page) if status == 200 else []
    people = list(dict.fromkeys((path, html.unescape(name)) for path, name in found))
    if len(people) < 3:
        raise RuntimeError(f"the rankings page lists {len(people)} players; is the club seeded?")
    return people


def club_tables(base: str, club: Club, writer: Writer) -> None:
    """The club's 24 tables playing: those kept in its note (the writer starts a new game where
    one has finished), and new games among the ranked players, each some deals in (every stage
    of a game), for the others."""
    for kept in club.note.get("tables", [])[:TABLES]:
        status, game = call(base, "GET", f"/api/v1/games/{kept['id']}")
        if status == 200:
            writer.tables.append(Table(kept["id"], kept["key"], list(game["players"])))
    names = [name for _, name in regulars(base)]
    while len(writer.tables) < TABLES:
        index = len(writer.tables)
        writer.tables.append(new_game(base, [names[(3 * index + seat) % len(names)] for seat in range(3)]))
        for _ in range(index % len(DEALS)):
            writer.record(index)
    save_tables(club, writer)
    for table in writer.tables:
        writer.refresh(table)
    writer.deals = 0  # the writer's figures count from here


def save_tables(club: Club, writer: Writer) -> None:
    club.note["tables"] = [{"id": t.id, "key": t.key} for t in writer.tables]
    club.note["games_finished_by_writers"] = club.note.get("games_finished_by_writers", 0) + writer.started
    writer.started = 0
    club.save_note()


def measure_club(club: Club, seconds: float, work: Path) -> tuple[dict[str, Result], Writer]:
    """Every figure but recording deals, on ``club``, served as ``make run`` serves."""
    log = work / "wrk.log"
    figures: dict[str, Result] = {}
    with server(club.url, work / "server.log") as base:
        writer = Writer(base, [], work / "tables.txt")
        club_tables(base, club, writer)
        player = regulars(base)[0][0]
        pages = {"home": "/", "rankings": "/rankings", "a player's page": player}
        for path in [*pages.values(), "/healthz", *(f"/games/{t.id}" for t in writer.tables)]:
            for _ in range(3):  # warm: connections, templates, caches
                call(base, "GET", path)
        tables = {"BENCH_TABLES": str(writer.tables_file), "BENCH_PLAYER": player}

        def run(name: str, path: str, mode: str = "get") -> None:
            print(f"  {name}", flush=True)
            figures[name] = wrk(base, path, mode, seconds, log, **tables)
            time.sleep(1)

        pause = QUIET_SECONDS - (time.monotonic() - writer.last_write)
        if pause > 0:
            print(f"  {pause:.0f} s of quiet after the tables were laid", flush=True)
            time.sleep(pause)
        run("/healthz before", "/healthz")
        for page, path in pages.items():
            run(f"quiet: {page}", path)
        run("a watcher's poll (304)", "/", "poll")
        run("a full game page", "/", "page")
        writer.start()
        time.sleep(2)
        try:
            run("busy: the phones' mix", "/", "mix")
            for page, path in pages.items():
                run(f"busy: {page}", path)
        finally:
            writer.stop()
            save_tables(club, writer)
        run("/healthz after", "/healthz")
    return figures, writer


# -- recording deals ----------------------------------------------------------------------------


@contextmanager
def fresh_database(database: str, work: Path) -> Iterator[str]:
    """An empty database: a SQLite file in ``work``, or a schema of its own, dropped after."""
    if database == "sqlite":
        path = work / "writes.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        yield f"sqlite:///{path}"
        return
    import psycopg

    schema = "scorekeeper_bench_writes"
    with psycopg.connect(pg_base_url(), autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_schema(pg_base_url(), schema)
    finally:
        with psycopg.connect(pg_base_url(), autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def measure_writes(database: str, seconds: float, work: Path) -> dict[str, Result]:
    """The bare INSERT, recording deals through the API, the bare INSERT again; on a fresh club."""
    log = work / "wrk.log"
    deals_file, games_file = work / "deals.txt", work / "games.txt"
    deals_file.write_text(
        "".join(
            json.dumps({"number": n, "contract": c, "tricks": dict(zip(("$1", "$2", "$3"), t, strict=True))})
            + "\n"
            for n, (c, t) in enumerate(DEALS, start=1)
        )
    )
    names = [f"Player {n}" for n in range(1, 25)]
    with fresh_database(database, work) as url, server(url, work / "server.log") as base:
        for _ in range(20):
            call(base, "POST", "/_bench/insert")
        figures = {"insert": wrk(base, "/_bench/insert", "get", seconds, log, BENCH_POST="1")}
        # Enough games that no thread runs out, with a quarter to spare (bench.lua plays them in step).
        per_thread = figures["insert"].rps * seconds * 1.25 / THREADS
        games = math.ceil(per_thread / (len(DEALS) * RECORD_POOL)) * RECORD_POOL * THREADS
        lines = []
        for index in range(games):
            trio = names[3 * (index % 8) : 3 * (index % 8) + 3]
            table = new_game(base, trio)
            lines.append("\t".join([table.id, table.key, *trio]) + "\n")
        games_file.write_text("".join(lines))
        env = {"BENCH_GAMES": str(games_file), "BENCH_DEALS": str(deals_file), "BENCH_POOL": str(RECORD_POOL)}
        figures["record"] = wrk(base, "/", "record", seconds, log, **env)
        figures["insert again"] = wrk(base, "/_bench/insert", "get", seconds, log, BENCH_POST="1")
    return figures


# -- the code's size --------------------------------------------------------------------------------


def lines_of(path: Path) -> int:
    """``wc -l``: the newlines in the file."""
    return path.read_bytes().count(b"\n")


def code_size() -> tuple[int, list[str], list[tuple[str, int]]]:
    """Lines of SIZE_PATHS together, those missing, and the modules outside rules/ over the limit."""
    package = ROOT / "scorekeeper"
    total, missing = 0, []
    for name in SIZE_PATHS:
        path = package / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
        missing += [] if files else [name]
        total += sum(lines_of(f) for f in files)
    long = [
        (str(f.relative_to(package)), lines_of(f))
        for f in sorted(package.rglob("*.py"))
        if "rules" not in f.relative_to(package).parts[:1] and lines_of(f) > MODULE_BUDGET
    ]
    return total, missing, long


# -- the report -------------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def row(name: str, rps: float, ratio: float, budget: float, errors: int, note: str = "") -> str:
    passed = verdict(ratio >= budget and not errors)
    return f"{name:<34}{rps:>8.0f}{ratio:>7.2f}x{'>= ' + str(budget):>9}{errors:>8}  {passed}{note}"


def club_table(
    database: str, club: Club, figures: dict[str, Result], writer: Writer, writes: dict[str, Result]
) -> str:
    before, after = figures["/healthz before"].rps, figures["/healthz after"].rps
    yardstick = (before + after) / 2
    finished = club.note.get("games_finished_by_writers", 0)
    out = [
        f"{NAMES[database]}: a club of {club.games:,} finished games (and {finished:,} finished by"
        f" writers since), {club.players:,} players, {TABLES} tables playing",
        f"/healthz: {before:.0f} req/s before, {after:.0f} after; the yardstick: their mean, {yardstick:.0f}",
        f"{'figure':<34}{'req/s':>8}{'ratio':>8}{'budget':>9}{'errors':>8}  result",
    ]
    for name, budget in BUDGETS.items():
        result = figures[name]
        note = ""
        if name == "busy: the phones' mix":
            share = {
                status: 100 * count / max(result.requests, 1) for status, count in result.statuses.items()
            }
            note = f"  (answered 304: {share['304']:.0f}%, 200: {share['2xx']:.0f}%)"
        out.append(row(name, result.rps, result.rps / yardstick, budget, result.errors, note))
    insert = (writes["insert"].rps + writes["insert again"].rps) / 2
    record, write_errors = writes["record"], sum(r.errors for r in writes.values())
    inserts = f"{writes['insert'].rps:.0f} and {writes['insert again'].rps:.0f}/s"
    note = f"  (bare INSERT {inserts}; a fresh club)"
    ratio = record.rps / insert
    out.append(row("recording a deal (x bare INSERT)", record.rps, ratio, RECORD_BUDGET, write_errors, note))
    errors = sum(r.errors for r in figures.values()) + writer.failed + write_errors
    out.append(f"{'no error':<34}{'':>16}{'0':>9}{errors:>8}  {verdict(not errors)}")
    rate = writer.deals / max(writer.seconds, 1)
    out.append(
        f"writer: {writer.deals} deals in {writer.seconds:.0f} s ({rate:.1f}/s), {writer.failed} failed"
    )
    return "\n".join(out)


def size_table() -> str:
    total, missing, long = code_size()
    counted = ", ".join(SIZE_PATHS) + (f" ({', '.join(missing)} not found)" if missing else "")
    listed = ", ".join(f"{name} {lines}" for name, lines in long) or "none"
    return "\n".join(
        [
            "Code size (wc -l)",
            f"{counted}: {total} lines, budget <= {SIZE_BUDGET}  {verdict(total <= SIZE_BUDGET)}",
            f"modules outside rules/ over {MODULE_BUDGET} lines: {listed}  {verdict(not long)}",
        ]
    )


def postgresql_missing() -> str | None:
    import psycopg

    try:
        with psycopg.connect(pg_base_url(), connect_timeout=5):
            return None
    except psycopg.Error as error:
        return f"PostgreSQL skipped: cannot connect to {pg_base_url()} (set BENCH_DATABASE_URL): {error}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--sizes", default="10000,100000", help="clubs' finished games, comma-separated")
    parser.add_argument("--quick", action="store_true", help="the club of 10,000 games only")
    parser.add_argument("--seconds", type=float, default=10, help="each wrk run's length")
    parser.add_argument("--runs", type=int, default=1, help="measure everything this many times")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))  # stop the server on the way out
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk (make bench installs it)")
    sizes = [10_000] if args.quick else [int(size) for size in args.sizes.split(",") if size]
    databases = [name for name in args.databases.split(",") if name]
    RESULTS.mkdir(exist_ok=True)
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=ROOT
    )
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    header = (
        f"make bench, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit.stdout.strip()},"
        f" {os.cpu_count()} cores, load average {load}; wrk -t{THREADS} -c{CONNECTIONS} -d{args.seconds:g}s"
    )
    report = [header, "", size_table()]
    print("\n".join(report), flush=True)
    for run in range(1, args.runs + 1):
        for database in databases:
            skipped = postgresql_missing() if database == "postgresql" else None
            if skipped:
                report += ["", skipped]
                print(skipped, flush=True)
                continue
            work = RESULTS / database
            work.mkdir(exist_ok=True)
            if run == 1:
                for log in ("wrk.log", "server.log"):
                    (work / log).unlink(missing_ok=True)
            print(f"[run {run}, {database}] recording deals on a fresh club", flush=True)
            writes = measure_writes(database, args.seconds, work)
            for games in sizes:
                club = kept_club(database, games)
                print(f"[run {run}, {database}] the club of {games:,} games", flush=True)
                figures, writer = measure_club(club, args.seconds, work)
                table = club_table(database, club, figures, writer, writes)
                report += ["", f"Run {run} of {args.runs}. {table}"]
                print(f"\nRun {run} of {args.runs}. {table}\n", flush=True)
                (RESULTS / "latest.txt").write_text("\n".join(report) + "\n")
    (RESULTS / "latest.txt").write_text("\n".join(report) + "\n")
    print(f"Written to {RESULTS / 'latest.txt'} (wrk's own output: {RESULTS}/<database>/wrk.log)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
