"""Benchmark: the app under gunicorn against the stack's own floor, on SQLite and PostgreSQL.

Run by ``make bench`` (see bench/README.md).  For each database it seeds data,
starts the production server (gunicorn, one sync worker per core) on loopback,
drives every route with wrk at the same concurrency for a bounded time, and
reports requests per second, p50/p99 latency, the ratio to the floor
(``/healthz`` in the same app and server) and the peak memory of a worker.
The result goes to bench/results/latest.json beside the table (latest.txt).

    .venv/bin/python bench/run.py [--databases sqlite,postgresql] [--duration 10] [--profile game_scorer]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
RESULTS = HERE / "results"
LUA = HERE / "bench.lua"

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PG_SCHEMA = f"scorekeeper_bench_run_{os.getpid()}"  # private to this run, dropped at its end
SECRET_KEY = "bench-only-secret-key"
#: The product's app with the yardstick routes and the seeder (bench/app.py), for flask and gunicorn.
BENCH_APP = "bench.app:create_bench_app"

# Budgets (issue #8), measured at 16 connections.
CONNECTIONS = 16
READ_RATIO_BUDGET = 0.5  # game page, scoresheet and API game state: at least this share of the floor's rps
READ_P99_BUDGET_MS = 50.0
WRITE_RATIO_BUDGET = 0.5  # recording deals: at least this share of a bare INSERT's rps
# The budget's ratio is measured again in alternating slices (bare INSERT, recording,
# recording, bare INSERT, ...): on a shared host the speed of the same work drifts by a
# third within a minute, and routes measured one after the other take that drift as a
# difference between them.
PAIRED_SLICES = 10  # of each route: recording against the bare INSERT (a 2-s slice's ratio spreads widely)
FLAT_SLICES = 5  # of each club page on each club (ten pages and the floor)
PAIRED_SECONDS = 2.0
REPLAY_BUDGET_MS = 0.2
RSS_BUDGET_MB = 100.0
FLAT_BUDGET = 0.2  # the club pages at 100,000 games: within 20% of their figures at 10,000
SMALL_PLAYERS = 1000  # the players of the --games club (seed-demo's default)
REQUESTS_PER_WORKER = 10_000
STATEMENT_BUDGET = 4
# What a phone's browser sends: pages and JSON are measured as they travel, compressed.
ACCEPT_GZIP = "Accept-Encoding: gzip"

PLAYERS = ["Cid", "Ann", "Bob"]
# A legal Mizerka game, Cid dealing first: contract and tricks (Cid, Ann, Bob) of its 18 deals.
DEALS: list[tuple[str, tuple[int, int, int]]] = [
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


def create_body() -> str:
    return json.dumps({"ruleset": "mizerka", "players": PLAYERS, "first_dealer": PLAYERS[0]})


def deal_bodies() -> list[str]:
    return [
        json.dumps(
            {"number": number, "contract": contract, "tricks": dict(zip(PLAYERS, tricks, strict=True))},
            separators=(",", ":"),
        )
        for number, (contract, tricks) in enumerate(DEALS, start=1)
    ]


# -- routes ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One measured route: how wrk drives it and which budget applies."""

    name: str
    label: str
    mode: str  # bench.lua's BENCH_MODE
    path: str  # may hold {game_id}, {busiest}, {median} (players' ids) and {older} (a game id)
    budget: str | None = None  # "read", "write" or None (reported only)
    # The cookies a phone sends to pages: "watcher" (its session), "scorer" (session and edit key).
    phone: str = ""
    club: bool = False  # a club page (home, rankings, a player): kept only once the club is quiet
    writes: bool = False  # changes the database: never run on a kept club


def club(name: str, label: str, path: str, *, fresh: bool = False) -> Route:
    """A club page as a watching phone opens it; ``fresh``: a new URL every time (never kept)."""
    if fresh:
        return Route(name, label, "fresh", path, None, "watcher", club=True)
    return Route(name, label, "get", path, "read", "watcher", club=True)


# Writing routes last: a write makes the club busy, and its pages are rendered afresh for a while.
ROUTES = [
    Route("floor", "floor: GET /healthz", "get", "/healthz"),
    Route("game_watcher", "game page, watcher (18 deals)", "get", "/games/{game_id}", "read", "watcher"),
    Route("game_scorer", "game page, scorer (18 deals)", "get", "/games/{game_id}", "read", "scorer"),
    Route("scoresheet", "scoresheet (18 deals)", "get", "/games/{game_id}/scoresheet", "read", "watcher"),
    Route("api_game", "GET /api/v1/games/{id}", "get", "/api/v1/games/{game_id}", "read"),
    club("home", "home page", "/"),
    club("home_older", "home page: older games", "/?finished_after={older}"),
    club("rankings", "rankings (all time, by wins)", "/rankings"),
    club("rankings_year", "rankings: this year, by won %", "/rankings?period=year&sort=win_pct&dir=desc"),
    club("rankings_30d", "rankings: last 30 days", "/rankings?period=30d"),
    club("rankings_name", "rankings: by name, A first", "/rankings?sort=name&dir=asc"),
    club("rankings_page", "rankings: page 4, by points", "/rankings?sort=points&dir=desc&page=4"),
    club("player_busiest", "player page: busiest player", "/players/{busiest}"),
    club("player_median", "player page: median player", "/players/{median}"),
    club("player_year", "player page: busiest, this year", "/players/{busiest}?period=year"),
    # The same pages when the club is busy (a write since the last view): rendered every time.
    club("home_fresh", "home page, rendered afresh", "/", fresh=True),
    club("rankings_fresh", "rankings, rendered afresh", "/rankings", fresh=True),
    club("rankings_30d_fresh", "rankings 30 days, rendered afresh", "/rankings?period=30d", fresh=True),
    club("player_fresh", "player page (busiest), afresh", "/players/{busiest}", fresh=True),
    Route("floor_again", "floor again: GET /healthz", "get", "/healthz"),
    Route("insert", "bare INSERT: POST /_bench/insert", "insert", "/_bench/insert", writes=True),
    Route("record", "recording deals: API games of 18 deals", "record", "/", "write", writes=True),
]  # fmt: skip


# -- the machine ------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as meminfo:
        mem_kb = int(meminfo.readline().split()[1])
    wrk_version = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return {
        "hostname": platform.node(),
        "cpus": os.cpu_count(),
        "cpu_model": cpu,
        "memory_gb": round(mem_kb / 1024 / 1024, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "wrk": wrk_version.split(" Copyright")[0].strip(),
        "gunicorn": _version("gunicorn"),
        "sqlalchemy": _version("sqlalchemy"),
        "flask": _version("flask"),
    }


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def loadavg() -> list[float]:
    with open("/proc/loadavg") as handle:
        return [float(x) for x in handle.read().split()[:3]]


def cpu_ticks() -> tuple[int, int]:
    """(steal, total) CPU ticks so far: on a virtual machine, time the host gave to someone else."""
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    steal = fields[7] if len(fields) > 7 else 0
    return steal, sum(fields[:8])


def steal_percent(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return round(100 * (after[0] - before[0]) / total, 1) if total > 0 else 0.0


# -- the rules engine alone -------------------------------------------------------------------------


def time_replay() -> dict[str, Any]:
    """The engine replaying the 18-deal game: CPU time (steady on a busy machine) and wall time, best of 7."""
    from scorekeeper.rules import DealRecord, get_ruleset

    ruleset = get_ruleset("mizerka")
    setup = ruleset.make_setup(PLAYERS, PLAYERS[0])
    records = [DealRecord(contract=contract, tricks=tricks) for contract, tricks in DEALS]
    state = ruleset.replay(setup, records)
    assert state.finished and len(state.deals) == 18
    figures: dict[str, Any] = {"budget_ms": REPLAY_BUDGET_MS}
    for name, clock in (("cpu_ms", time.process_time), ("wall_ms", time.perf_counter)):
        timer = timeit.Timer(lambda: ruleset.replay(setup, records), timer=clock)
        loops = 500
        figures[name] = round(min(timer.repeat(repeat=7, number=loops)) / loops * 1000, 4)
    figures["ms"] = figures["cpu_ms"]
    return figures


# -- databases --------------------------------------------------------------------------------------


@dataclass
class Database:
    name: str
    url: str
    cleanup: Any = None


@contextmanager
def database(name: str, workdir: Path) -> Iterator[Database]:
    """A fresh, empty database: a SQLite file, or a private schema in PostgreSQL."""
    if name == "sqlite":
        yield Database(name, f"sqlite:///{workdir / 'bench.sqlite3'}")
        return
    import psycopg

    base = os.environ.get("BENCH_DATABASE_URL", "").strip() or DEFAULT_PG_URL
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE')
        connection.execute(f'CREATE SCHEMA "{PG_SCHEMA}"')
    separator = "&" if "?" in base else "?"
    try:
        yield Database(name, f"{base}{separator}options=-csearch_path%3D{PG_SCHEMA}")
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{PG_SCHEMA}" CASCADE')


def postgresql_missing() -> str | None:
    """Why PostgreSQL cannot be benchmarked here (None when it can)."""
    import psycopg

    url = os.environ.get("BENCH_DATABASE_URL", "").strip() or DEFAULT_PG_URL
    try:
        with psycopg.connect(url, connect_timeout=5):
            return None
    except psycopg.Error as error:
        return f"cannot connect to {url} ({str(error).strip().splitlines()[0]}); set BENCH_DATABASE_URL"


def app_env(db: Database, workdir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GUNICORN", "WEB_"))}
    env.update(
        DATABASE_URL=db.url,
        SCOREKEEPER_INSTANCE=str(workdir / "instance"),
        SECRET_KEY=SECRET_KEY,
        RATELIMIT_ENABLED="0",  # the recording run creates hundreds of games a second
        PYTHONUNBUFFERED="1",
    )
    return env


SEEDED_TABLES = "players, games, seats, deals, game_results, deal_results, player_totals"


def seed_demo(env: dict[str, str], games: int, db: Database) -> float:
    """Bulk-add ``games`` finished random games (the rankings page's data); returns seconds taken.

    On PostgreSQL the tables are then vacuumed and analysed, as autovacuum does within a
    minute or so of such a load on a running instance: otherwise it starts in the middle of
    a measured route and takes a core away from it.
    """
    started = time.perf_counter()
    if games:
        subprocess.run(
            [str(BIN / "flask"), "--app", BENCH_APP, "seed-demo", "--games", str(games)],
            env=env,
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        if db.name == "postgresql":
            import psycopg

            with psycopg.connect(db.url, autocommit=True) as connection:
                connection.execute(f"VACUUM (ANALYZE) {SEEDED_TABLES}")
    return time.perf_counter() - started


# -- the server -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    base: str
    workers: int

    def worker_pids(self) -> list[int]:
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The command may hold spaces and parentheses: the ppid is the 2nd field after the last ")".
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                pids.append(int(entry.name))
        return sorted(pids)


@contextmanager
def gunicorn(env: dict[str, str], workers: int, log: Path) -> Iterator[Server]:
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--bind",
        f"127.0.0.1:{port}",
        "--timeout",
        "30",
        "--log-level",
        "warning",
        BENCH_APP + "()",
    ]
    with open(log, "ab") as log_file:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log_file, stderr=subprocess.STDOUT)
    server = Server(process, f"http://127.0.0.1:{port}", workers)
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({process.returncode}); see {log}")
            try:
                if http("GET", server.base + "/healthz")[0] == 200 and len(server.worker_pids()) == workers:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer in 90 s; see {log}")
            time.sleep(0.2)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def http(method: str, url: str, body: str | None = None, headers: dict[str, str] | None = None) -> tuple:
    request = urllib.request.Request(
        url, data=None if body is None else body.encode(), method=method, headers=headers or {}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def seed_game(base: str) -> tuple[str, str]:
    """A finished 18-deal game through the API; returns its id and edit key."""
    status, body = http("POST", base + "/api/v1/games", create_body(), {"Content-Type": "application/json"})
    assert status == 201, (status, body)
    created = json.loads(body)
    game_id, key = created["id"], created["edit_key"]
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    for deal in deal_bodies():
        status, body = http("POST", f"{base}/api/v1/games/{game_id}/deals", deal, headers)
        assert status == 201, (status, body)
    status, body = http("GET", f"{base}/api/v1/games/{game_id}")
    assert status == 200 and json.loads(body)["status"] == "finished", body
    return game_id, key


def worker_report(server: Server) -> dict[int, dict[str, Any]]:
    """Requests served and memory of every worker (asking /_bench/worker until each has answered)."""
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(200):
        status, body = http("GET", server.base + "/_bench/worker")
        if status == 200:
            report = json.loads(body)
            seen[report["pid"]] = report
        if len(seen) >= server.workers:
            break
    for pid in server.worker_pids():
        memory = read_memory(pid)
        if pid in seen:
            seen[pid].update(rss_kb=memory["VmRSS"], hwm_kb=memory["VmHWM"])
    return seen


def read_memory(pid: int) -> dict[str, int]:
    memory = {"VmRSS": 0, "VmHWM": 0}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in memory:
                    memory[name] = int(value.split()[0])
    except OSError:
        pass
    return memory


def workers_cpu_seconds(server: Server) -> float:
    """User + system CPU time the workers have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in server.worker_pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def settle(server: Server, timeout: float = 30.0) -> None:
    """Wait until the workers are idle: requests queued when wrk stopped must not spill over."""
    deadline = time.monotonic() + timeout
    last = workers_cpu_seconds(server)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = workers_cpu_seconds(server)
        if now - last < 0.02:
            return
        last = now


def peak_worker_mb(server: Server) -> float:
    return max((read_memory(pid)["VmHWM"] for pid in server.worker_pids()), default=0) / 1024


# -- wrk ------------------------------------------------------------------------------------------


def wrk(url: str, mode: str, seconds: float, headers: list[str], deals_file: Path) -> dict[str, Any]:
    """One wrk run; one connection per thread (the recording script keeps a game per connection)."""
    command = ["wrk", f"-t{CONNECTIONS}", f"-c{CONNECTIONS}", f"-d{seconds:g}s", "--timeout", "10s"]
    for header in [ACCEPT_GZIP, *headers]:
        command += ["-H", header]
    command += ["-s", str(LUA), url]
    env = {**os.environ, "BENCH_MODE": mode, "BENCH_DEALS_FILE": str(deals_file)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=seconds + 60)
    for line in done.stdout.splitlines():
        if line.startswith("BENCH_JSON "):
            return dict(json.loads(line.removeprefix("BENCH_JSON ")))
    raise RuntimeError(f"wrk gave no result: {done.stdout}\n{done.stderr}")


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    seconds = raw["duration_us"] / 1e6
    errors = sum(raw["errors"].values())
    latency = raw["latency_us"]
    return {
        "requests": raw["requests"],
        "seconds": round(seconds, 2),
        "rps": round(raw["requests"] / seconds, 1),
        "p50_ms": round(latency["p50"] / 1000, 2),
        "p90_ms": round(latency["p90"] / 1000, 2),
        "p99_ms": round(latency["p99"] / 1000, 2),
        "max_ms": round(latency["max"] / 1000, 2),
        "errors": errors,
        "error_detail": raw["errors"],
        "games": raw["games"],
        "deals": raw["deals"],
        "deals_per_s": round(raw["deals"] / seconds, 1),
        "failures": raw["failures"],
    }


# -- profiles ---------------------------------------------------------------------------------------


@contextmanager
def profiling(server: Server, route: str, seconds: float, out: Path) -> Iterator[None]:
    """py-spy samples every worker while the route is under load; raw stacks go to ``out``."""
    processes = []
    for pid in server.worker_pids():
        target = out.with_name(f"{out.stem}-{pid}.txt")
        processes.append(
            subprocess.Popen(
                [str(BIN / "py-spy"), "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate",
                 "250", "--format", "raw", "--nonblocking", "--output", str(target)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )  # fmt: skip
    try:
        yield
    finally:
        for process in processes:
            process.wait(timeout=seconds + 60)


FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>[^:()]+)(?::\d+)?\)$")


def profile_summary(paths: list[Path], top: int = 25) -> list[str]:
    """Where the busy samples fall (py-spy leaves out idle ones), from the app's entry point down.

    Samples outside ``Flask.wsgi_app`` are the server's own work (accepting,
    parsing, writing and closing the socket) and are grouped under one line.
    """
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not count_text.isdigit():
                continue
            count = int(count_text)
            frames = [_frame_name(frame) for frame in stack.split(";") if frame]
            if not frames:
                continue
            total += count
            entry = next((i for i, f in enumerate(frames) if f.startswith("Flask.wsgi_app ")), None)
            if entry is None:
                inclusive["(server outside the app: gunicorn accept, parse, socket write and close)"] += count
                own[frames[-1]] += count
                continue
            own[frames[-1]] += count
            for name in set(frames[entry:]):
                inclusive[name] += count
    if not total:
        return ["(no samples)"]
    lines = [f"{total} busy samples; inclusive share of the busy time:"]
    for name, count in inclusive.most_common(top):
        lines.append(f"  {100 * count / total:5.1f}%  {name}")
    lines.append("own time (the function itself):")
    for name, count in own.most_common(12):
        lines.append(f"  {100 * count / total:5.1f}%  {name}")
    return lines


def _frame_name(frame: str) -> str:
    match = FRAME.match(frame.strip())
    if not match:
        return frame.strip()
    path = match.group("file")
    for marker in ("site-packages/", "/scorekeeper/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            if marker == "/scorekeeper/":
                path = "scorekeeper/" + path
            break
    return f"{match.group('function')} ({path})"


# -- statements per request (in-process, against the seeded database) -------------------------------


def count_statements(
    db: Database, workdir: Path, values: dict[str, str], key: str | None, routes: list[Route]
) -> dict[str, Any]:
    """SQL statements each route sends (SQLAlchemy ``before_cursor_execute`` events).

    Reads: [first request, the same again]; writes: the average per request.
    """
    game_id = values["game_id"]
    os.environ["SCOREKEEPER_INSTANCE"] = str(workdir / "instance")
    from sqlalchemy import event

    from bench.app import create_bench_app
    from scorekeeper.access import cookie_name
    from scorekeeper.config import normalise_database_url
    from scorekeeper.extensions import db as sqla

    app = create_bench_app(
        {
            "SQLALCHEMY_DATABASE_URI": normalise_database_url(db.url),
            "SECRET_KEY": SECRET_KEY,
            "AUTO_MIGRATE": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    statements: list[str] = []
    with app.app_context():
        engine = sqla.engine
        event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    watcher = app.test_client()
    scorer = app.test_client()
    if key is not None:
        # The old key cookie is taken over at the first visit (not counted, and on a page no route
        # measures, which keeps no copy): then the keyring, as on a phone all evening.
        scorer.set_cookie(cookie_name(game_id), key, path=f"/games/{game_id}")
        assert scorer.get(f"/games/{game_id}/take").status_code == 200
    counts: dict[str, Any] = {}
    if any(route.path.endswith("period=30d") for route in routes):
        # The day's first view of the last 30 days rolls the kept window forward (a write, once a
        # day: ``stats.keep_recent``; a kept club may have been rolled today already): counted on
        # its own, then every route as on any other view.
        statements.clear()
        assert watcher.get("/rankings?period=30d&roll=first").status_code == 200
        counts["window_roll"] = len(statements)
    for route in routes:
        if route.mode not in ("get", "fresh"):
            continue
        client = scorer if route.phone == "scorer" else watcher
        url = route.path.format(**values)
        seen = []
        for visit in ("first", "again"):  # a page's first view renders it; the next may be kept
            if route.mode == "fresh":  # as bench.lua asks: a new URL every time
                url = route.path.format(**values) + ("&" if "?" in route.path else "?") + f"fresh={visit}"
            statements.clear()
            assert client.get(url).status_code == 200, url
            seen.append(len(statements))
        counts[route.name] = seen
    if not any(route.writes for route in routes):
        with app.app_context():
            sqla.session.remove()
            sqla.engine.dispose()
        return counts
    statements.clear()
    assert watcher.post("/_bench/insert").status_code == 201
    counts["insert"] = len(statements)
    # Recording: every POST of one whole game (create + 18 deals), on average.
    statements.clear()
    created = watcher.post("/api/v1/games", data=create_body(), content_type="application/json")
    new_id, new_key = created.json["id"], created.json["edit_key"]  # type: ignore[index]
    for body in deal_bodies():
        response = watcher.post(
            f"/api/v1/games/{new_id}/deals",
            data=body,
            content_type="application/json",
            headers={"Authorization": f"Bearer {new_key}"},
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    counts["record"] = round(len(statements) / (1 + len(DEALS)), 1)
    with app.app_context():
        sqla.session.remove()
        sqla.engine.dispose()
    return counts


# -- one database -----------------------------------------------------------------------------------


def bench_database(name: str, args: argparse.Namespace, log: Path) -> dict[str, Any]:
    """Every route on a fresh club of ``args.games`` games (seeded now, written to by the last routes)."""
    workdir = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-{name}-"))
    result: dict[str, Any] = {"database": name, "club": "fresh", "load_before": loadavg()}
    ticks = cpu_ticks()
    try:
        with database(name, workdir) as db:
            env = app_env(db, workdir)
            print(f"[{name}] seeding {args.games} games ...", flush=True)
            result["seed_seconds"] = round(seed_demo(env, args.games, db), 1)
            result["seeded_games"] = args.games
            result["seeded_players"] = SMALL_PLAYERS
            with gunicorn(env, args.workers, log) as server:
                game_id, key = seed_game(server.base)
                values = route_values(server, db.url, game_id)
                routes = [r for r in ROUTES if not args.routes or r.name in args.routes]
                measure(result, server, db, workdir, values, key, routes, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["load_after"] = loadavg()
    # Wall-clock figures move with CPU the host took away; the ratios within a run move less.
    result["cpu_steal_percent"] = steal_percent(ticks, cpu_ticks())
    return result


def bench_kept_club(
    name: str, games: int, players: int, args: argparse.Namespace, log: Path
) -> dict[str, Any]:
    """The routes that only read, on the kept club of ``games`` games (bench/club.py; seeded once)."""
    from bench.club import kept_club

    workdir = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-{name}-kept-"))
    result: dict[str, Any] = {"database": name, "club": "kept"}
    try:
        club = kept_club(name, games, players)
        checkpoint(name)
        result.update(
            seeded_games=games, seeded_players=players, seed_seconds=club.seed_seconds, disk_mb=club.disk_mb,
            reused=club.reused, load_before=loadavg(),
        )  # fmt: skip
        ticks = cpu_ticks()
        db = Database(name, club.url)
        env = app_env(db, workdir)
        with gunicorn(env, args.workers, log) as server:
            game_id = newest_finished_game(club.url)
            values = route_values(server, club.url, game_id)
            routes = [
                r for r in ROUTES
                if not r.writes and r.phone != "scorer" and (not args.routes or r.name in args.routes)
            ]  # fmt: skip
            measure(result, server, db, workdir, values, None, routes, args)
        result["load_after"] = loadavg()
        result["cpu_steal_percent"] = steal_percent(ticks, cpu_ticks())
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def bench_flat(
    name: str, small: tuple[int, int], large: tuple[int, int], args: argparse.Namespace, log: Path
) -> dict[str, Any]:
    """Each kept club page on the small and on the large kept club, measured in alternating slices.

    Both clubs are served at once, by a server each (only one of them under load at a time),
    and each page is measured on them in turn: the host's speed drifts over the minutes
    between two separate measures, and that drift must not pass for a cost of the club's size.
    """
    from bench.club import kept_club

    routes = [
        r for r in ROUTES
        if (r.name == "floor" or (r.club and r.mode != "fresh"))
        and (not args.routes or r.name in args.routes)
    ]  # fmt: skip
    workdir = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-{name}-flat-"))
    result: dict[str, Any] = {"small": list(small), "large": list(large), "load_before": loadavg()}
    ticks = cpu_ticks()
    try:
        clubs = [kept_club(name, *small), kept_club(name, *large)]
        checkpoint(name)
        with ExitStack() as stack:
            sides = []
            for index, club in enumerate(clubs):
                env = app_env(Database(name, club.url), workdir / str(index))
                server = stack.enter_context(gunicorn(env, args.workers, log))
                values = route_values(server, club.url, newest_finished_game(club.url))
                sides.append((server, values, phone_cookies(server.base, values["game_id"], None)))
            deals_file = workdir / "deals.txt"
            deals_file.write_text("\n")  # the routes only read
            print(f"[{name}] {small[0]} and {large[0]} games in turn: warming up ...", flush=True)
            for route in routes:
                for server, values, cookies in sides:
                    run_route(server, route, values, cookies, deals_file, args.warmup, then_settle=True)
            measured: dict[str, Any] = {}
            for route in routes:
                print(f"[{name}] {route.label}, {small[0]} and {large[0]} games in turn ...", flush=True)
                runs = [
                    partial(run_route, server, route, values, cookies, deals_file, then_settle=True)
                    for server, values, cookies in sides
                ]
                measured[route.name] = {"label": route.label, **alternating(runs[0], runs[1], FLAT_SLICES)}
            result["routes"] = measured
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["load_after"] = loadavg()
    result["cpu_steal_percent"] = steal_percent(ticks, cpu_ticks())
    return result


def checkpoint(name: str) -> None:
    """On PostgreSQL, write out what the routes before left dirty (the fresh club's writes, its
    dropped schema) now, so that a checkpoint does not land in the middle of a measure that
    only reads."""
    if name != "postgresql":
        return
    import psycopg

    url = os.environ.get("BENCH_DATABASE_URL", "").strip() or DEFAULT_PG_URL
    # Not a superuser (nor pg_checkpoint): the measure takes its chances.
    with psycopg.connect(url) as connection, suppress(psycopg.errors.InsufficientPrivilege):
        connection.execute("CHECKPOINT")


def measure(
    result: dict[str, Any],
    server: Server,
    db: Database,
    workdir: Path,
    values: dict[str, str],
    key: str | None,
    routes: list[Route],
    args: argparse.Namespace,
) -> None:
    """Warm every route up, then measure each with wrk; figures go into ``result``."""
    name = db.name
    deals_file = workdir / "deals.txt"
    deals_file.write_text("\n".join([create_body(), *deal_bodies()]) + "\n")
    cookies = phone_cookies(server.base, values["game_id"], key)
    result["game_id"] = values["game_id"]
    # The routes that write come last.
    result["statements"] = count_statements(db, workdir, values, key, routes)
    print(f"[{name}] warming up ...", flush=True)
    # The afresh routes first: each of their requests keeps a page under a new URL, and a
    # few hundred of them push every kept page out of the workers' caches (PAGE_CACHE_SIZE).
    # Warmed up last, they left each kept route to start its measure with a miss, and at
    # 100,000 games a miss of "this year by won %" is a 150-240 ms render in each worker.
    for route in sorted(routes, key=lambda route: route.mode != "fresh"):
        if not route.writes:
            run_route(server, route, values, cookies, deals_file, args.warmup)
            settle(server)
    measured: dict[str, Any] = {}
    for route in routes:
        if route.writes:
            run_route(server, route, values, cookies, deals_file, args.warmup)
            settle(server)
        print(f"[{name}] {route.label} ...", flush=True)
        cpu_before = workers_cpu_seconds(server)
        if route.name in args.profile:
            out = RESULTS / f"profile-{name}-{route.name}.txt"
            with profiling(server, route.name, args.duration, out):
                raw = run_route(server, route, values, cookies, deals_file, args.duration)
            paths = sorted(RESULTS.glob(f"profile-{name}-{route.name}-*.txt"))
            summary = profile_summary(paths)
            out.write_text("\n".join(summary) + "\n")
            print("\n".join(summary))
        else:
            raw = run_route(server, route, values, cookies, deals_file, args.duration)
        cpu = workers_cpu_seconds(server) - cpu_before
        settle(server)  # requests wrk left queued must not spill into the next route
        measured[route.name] = {
            "label": route.label,
            **summarise(raw),
            "worker_cpu_ms": round(1000 * cpu / max(raw["requests"], 1), 2),
            "peak_worker_mb": round(peak_worker_mb(server), 1),
            "statements": result["statements"].get(route.name),
        }
    result["routes"] = measured
    by_name = {route.name: route for route in routes}
    if "insert" in by_name and "record" in by_name:
        print(f"[{name}] bare INSERT and recording in alternating slices ...", flush=True)
        result["paired"] = paired(server, by_name["insert"], by_name["record"], values, cookies, deals_file)
    result["workers"] = top_up(server, values["game_id"])


def paired(
    server: Server,
    insert: Route,
    record: Route,
    values: dict[str, str],
    cookies: dict[str, str],
    deals_file: Path,
) -> dict[str, Any]:
    """Recording's rps over the bare INSERT's (``rps``: the INSERT's, then recording's), each
    measured in PAIRED_SLICES slices taken in turn."""
    return alternating(
        partial(run_route, server, insert, values, cookies, deals_file, then_settle=True),
        partial(run_route, server, record, values, cookies, deals_file, then_settle=True),
        PAIRED_SLICES,
    )


def alternating(
    first: Callable[[float], dict[str, Any]],
    second: Callable[[float], dict[str, Any]],
    slices: int,
    seconds: float = PAIRED_SECONDS,
) -> dict[str, Any]:
    """The second measure's rps over the first's, each run in ``slices`` slices taken in turn.

    The order goes A B B A A B ...: a drift of the host's speed during the slices weighs on
    both alike.  Each slice's requests count over its own duration.
    """
    totals = [[0, 0.0], [0, 0.0]]
    ratios = []
    for pair in range(slices):
        order = (0, 1) if pair % 2 == 0 else (1, 0)
        rps = [0.0, 0.0]
        for index in order:
            raw = (first, second)[index](seconds)
            took = raw["duration_us"] / 1e6
            totals[index][0] += raw["requests"]
            totals[index][1] += took
            rps[index] = raw["requests"] / took
        ratios.append(round(rps[1] / rps[0], 2))
    overall = [requests / took for requests, took in totals]
    return {
        "slices": slices,
        "seconds": seconds,
        "rps": [round(figure, 1) for figure in overall],
        "ratio": round(overall[1] / overall[0], 2),
        "ratios": ratios,
    }


def sql_rows(url: str, query: str) -> list[Any]:
    from sqlalchemy import create_engine, text

    from scorekeeper.config import normalise_database_url

    engine = create_engine(normalise_database_url(url))
    try:
        with engine.connect() as connection:
            return list(connection.execute(text(query)))
    finally:
        engine.dispose()


def newest_finished_game(url: str) -> str:
    rows = sql_rows(url, "SELECT id FROM games WHERE finished ORDER BY created_at DESC, id DESC LIMIT 1")
    return str(rows[0][0])


def route_values(server: Server, url: str, game_id: str) -> dict[str, str]:
    """What the routes' paths name: the game, the busiest and a median player, a page of older games."""
    players = sql_rows(
        url,
        "SELECT player_id FROM player_totals WHERE ruleset = 'mizerka' AND year = 0 AND games > 0"
        " ORDER BY games DESC, player_id",
    )
    status, body = http("GET", server.base + "/")
    older = re.search(r"finished_after=([A-Za-z0-9_-]+)", body)
    assert status == 200 and older, "the home page links no older games"
    return {
        "game_id": game_id,
        "busiest": str(players[0][0]),
        "median": str(players[len(players) // 2][0]),
        "older": older.group(1),
    }


def run_route(
    server: Server,
    route: Route,
    values: dict[str, str],
    cookies: dict[str, str],
    deals_file: Path,
    seconds: float,
    *,
    then_settle: bool = False,
) -> dict[str, Any]:
    """One measure of ``route``; ``then_settle``: then wait until the workers are idle again."""
    headers = [f"Cookie: {cookies[route.phone]}"] if route.phone else []
    url = server.base + route.path.format(**values)
    raw = wrk(url, route.mode, seconds, headers, deals_file)
    if then_settle:
        settle(server)
    return raw


def phone_cookies(base: str, game_id: str, key: str | None) -> dict[str, str]:
    """The cookies a watching and a scoring phone hold after their first look at the game.

    A browser keeps the session cookie the first page set (it carries the CSRF secret),
    so later pages read it instead of starting a new session every time.
    """
    from http.cookies import SimpleCookie

    from scorekeeper.access import cookie_name

    edit = f"{cookie_name(game_id)}={key}" if key is not None else ""
    cookies = {}
    for phone, sent in (("watcher", ""), ("scorer", edit)):
        request = urllib.request.Request(f"{base}/games/{game_id}", headers={"Cookie": sent} if sent else {})
        with urllib.request.urlopen(request, timeout=30) as response:
            jar: SimpleCookie = SimpleCookie()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar.load(header)
        # The scorer's old key cookie is taken over (a grant in the keyring) and expired: the phone
        # then holds its device cookie and its session, as a browser does after its first visit.
        session = "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items() if morsel.value)
        cookies[phone] = session
    return cookies


def top_up(server: Server, game_id: str) -> dict[str, Any]:
    """Load the game page until every worker has served REQUESTS_PER_WORKER, then read its memory."""
    url = f"{server.base}/games/{game_id}"
    extra = 0
    for _ in range(10):
        report = worker_report(server)
        fewest = min((w["requests"] for w in report.values()), default=0)
        if len(report) >= server.workers and fewest >= REQUESTS_PER_WORKER:
            break
        raw = wrk(url, "get", 5, [], Path("/dev/null"))
        extra += raw["requests"]
    else:
        report = worker_report(server)
    workers = {
        str(pid): {
            "requests": w["requests"],
            "rss_mb": round(w["rss_kb"] / 1024, 1),
            "peak_mb": round(w["hwm_kb"] / 1024, 1),
        }
        for pid, w in sorted(report.items())
    }
    return {"top_up_requests": extra, "each": workers}


# -- report -----------------------------------------------------------------------------------------


def evaluate(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every budget of issue #8 that this run measured, with its figure and whether it is met."""
    routes = result["routes"]
    checks: list[dict[str, Any]] = []
    floors = [routes[name]["rps"] for name in ("floor", "floor_again") if name in routes]
    floor = sum(floors) / len(floors) if floors else None
    for route in routes.values():
        route["ratio"] = round(route["rps"] / floor, 2) if floor else None
    for route_def in ROUTES:
        route = routes.get(route_def.name)
        if route is None:
            continue
        if route_def.budget == "read" and floor:
            checks.append(
                check(f"{route_def.label}: rps / floor", route["ratio"], f">= {READ_RATIO_BUDGET}",
                      route["ratio"] >= READ_RATIO_BUDGET)
            )  # fmt: skip
            checks.append(
                check(f"{route_def.label}: p99", f"{route['p99_ms']} ms", f"< {READ_P99_BUDGET_MS:g} ms",
                      route["p99_ms"] < READ_P99_BUDGET_MS)
            )  # fmt: skip
        if route_def.budget == "write" and "insert" in routes:
            ratio = round(route["rps"] / routes["insert"]["rps"], 2)
            route["ratio_to_insert"] = ratio
            pairs = result.get("paired")
            if pairs:
                checks.append(
                    check("recording deals: rps / bare INSERT rps (alternating slices)", pairs["ratio"],
                          f">= {WRITE_RATIO_BUDGET}", pairs["ratio"] >= WRITE_RATIO_BUDGET)
                )  # fmt: skip
            else:
                checks.append(
                    check("recording deals: rps / bare INSERT rps", ratio, f">= {WRITE_RATIO_BUDGET}",
                          ratio >= WRITE_RATIO_BUDGET)
                )  # fmt: skip
        if route["errors"] or route["failures"]:
            checks.append(
                check(f"{route_def.label}: errors", route["errors"] + route["failures"], "0", False)
            )
    reads = {k: max(v) for k, v in result.get("statements", {}).items() if isinstance(v, list)}
    for label, count in reads.items():
        if count > STATEMENT_BUDGET:
            checks.append(check(f"SQL statements: {label}", count, f"<= {STATEMENT_BUDGET}", False))
    if reads:
        most = max(reads.values())
        checks.append(
            check("SQL statements per read (most)", most, f"<= {STATEMENT_BUDGET}", most <= STATEMENT_BUDGET)
        )
    workers = result.get("workers", {}).get("each", {})
    if workers:
        fewest = min(w["requests"] for w in workers.values())
        worst = max(w["rss_mb"] for w in workers.values())
        checks.append(
            check(f"worker RSS after >= {fewest} requests each", f"{worst} MB", f"< {RSS_BUDGET_MB:g} MB",
                  worst < RSS_BUDGET_MB and fewest >= REQUESTS_PER_WORKER)
        )  # fmt: skip
    result["floor_rps"] = round(floor, 1) if floor else None
    result["budgets"] = checks
    return checks


def flatness(large: dict[str, Any], flat: dict[str, Any]) -> list[dict[str, Any]]:
    """The club pages at the large club's size within FLAT_BUDGET of the small club's.

    Read off ``bench_flat``: each page on both clubs, in alternating slices of the same run.
    The floor is measured the same way, and reported, as a control: the two servers should
    be equal on it.
    """
    checks = []
    small_games, large_games = flat["small"][0], flat["large"][0]
    for route_def in ROUTES:
        pair = flat["routes"].get(route_def.name)
        if pair is None or not route_def.club:
            continue
        change = pair["ratio"] - 1
        checks.append(
            check(f"{route_def.label}: req/s at {large_games} vs {small_games} games, in turn",
                  f"{pair['rps'][1]} vs {pair['rps'][0]} ({change:+.0%})", f"within {FLAT_BUDGET:.0%}",
                  abs(change) <= FLAT_BUDGET)
        )  # fmt: skip
    large["flat"] = flat
    large["budgets"] += checks
    return checks


def check(what: str, figure: Any, budget: str, met: bool) -> dict[str, Any]:
    return {"what": what, "figure": figure, "budget": budget, "met": bool(met)}


def table(report: dict[str, Any]) -> str:
    lines = []
    m = report["machine"]
    lines.append(
        f"Scorekeeper bench, {report['date']} on {m['hostname']}: {m['cpus']} x {m['cpu_model']}, "
        f"{m['memory_gb']} GB; {m['wrk']}, gunicorn {m['gunicorn']} ({report['workers']} sync workers), "
        f"{CONNECTIONS} connections, {report['duration_s']:g} s per route"
    )
    replay = report["replay"]
    verdict = "met" if replay["ms"] < REPLAY_BUDGET_MS else "NOT MET"
    lines.append(
        f"Rules engine: replaying the 18-deal game takes {replay['cpu_ms'] * 1000:.0f} µs of CPU "
        f"({replay['wall_ms'] * 1000:.0f} µs wall; budget {REPLAY_BUDGET_MS * 1000:.0f} µs: {verdict})"
    )
    for result in report["databases"]:
        lines.append("")
        if "skipped" in result:
            lines.append(f"== {result['database']}: skipped: {result['skipped']}")
            continue
        load = " ".join(f"{x:.2f}" for x in result["load_before"])
        if result.get("club") == "kept":
            made = "reused" if result.get("reused") else "seeded now"
            club = (
                f"kept club of {result['seeded_games']} games, {result['seeded_players']} players ({made}; "
                f"seeding took {result['seed_seconds']:.0f} s, {result['disk_mb']} MB on disk), reads only"
            )
        else:
            club = f"fresh club of {result['seeded_games']} games (seeded in {result['seed_seconds']:.0f} s)"
        lines.append(
            f"== {result['database']}: {club}; load average before {load}, "
            f"after {' '.join(f'{x:.2f}' for x in result['load_after'])}; "
            f"CPU stolen by the host {result.get('cpu_steal_percent', 0):.1f}%"
        )
        header = (
            f"{'route':42} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'x floor':>8} {'CPU ms':>7} "
            f"{'SQL':>5} {'peak MB':>8} {'errors':>6}"
        )
        lines.append(header)
        lines.append("-" * len(header))
        for route in result["routes"].values():
            ratio = "" if route["ratio"] is None else f"{route['ratio']:.2f}"
            statements = route.get("statements")
            if isinstance(statements, list):
                sql = "/".join(str(n) for n in statements)
            else:
                sql = "" if statements is None else f"{statements:g}"
            lines.append(
                f"{route['label'][:42]:42} {route['rps']:8.1f} {route['p50_ms']:8.2f} {route['p99_ms']:8.2f} "
                f"{ratio:>8} {route['worker_cpu_ms']:7.2f} {sql:>5} {route['peak_worker_mb']:8.1f} "
                f"{route['errors'] + route['failures']:6d}"
            )
        record = result["routes"].get("record")
        if record:
            lines.append(
                f"recording: {record['games']} games, {record['deals']} deals "
                f"({record['deals_per_s']} deals/s); x bare INSERT {record.get('ratio_to_insert')}; "
                f"{result['statements'].get('record')} SQL statements per write on average"
            )
        roll = result.get("statements", {}).get("window_roll")
        if roll is not None:
            lines.append(
                f"first view of the last 30 days (it rolls the window if none did today): {roll} SQL "
                "statements (not a read: counted apart)"
            )
        pairs = result.get("paired")
        if pairs:
            lines.append(
                f"in alternating slices ({pairs['slices']} of {pairs['seconds']:g} s each): bare INSERT "
                f"{pairs['rps'][0]} req/s, recording {pairs['rps'][1]} req/s, x bare INSERT "
                f"{pairs['ratio']} (each pair: {', '.join(f'{r:g}' for r in pairs['ratios'])})"
            )
        flat = result.get("flat")
        if flat:
            small_games, large_games = flat["small"][0], flat["large"][0]
            lines.append(
                f"kept clubs of {small_games} and {large_games} games served at once, each page measured on "
                f"them in turn ({FLAT_SLICES} slices of {PAIRED_SECONDS:g} s each); load average before "
                f"{' '.join(f'{x:.2f}' for x in flat['load_before'])}, "
                f"CPU stolen {flat['cpu_steal_percent']:.1f}%"
            )
            for pair in flat["routes"].values():
                lines.append(
                    f"  {pair['label'][:40]:40} {pair['rps'][0]:8.1f} {pair['rps'][1]:8.1f} req/s  "
                    f"x{pair['ratio']:.2f} (each pair: {', '.join(f'{r:g}' for r in pair['ratios'])})"
                )
        for pid, worker in result.get("workers", {}).get("each", {}).items():
            lines.append(
                f"worker {pid}: {worker['requests']} requests, RSS {worker['rss_mb']} MB, "
                f"peak {worker['peak_mb']} MB"
            )
        lines.append("budgets:")
        for item in result["budgets"]:
            lines.append(
                f"  {'met    ' if item['met'] else 'NOT MET'}  {item['what']}: {item['figure']} "
                f"(budget {item['budget']})"
            )
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", default=os.environ.get("BENCH_DATABASES", "sqlite,postgresql"))
    parser.add_argument("--duration", type=float, default=float(os.environ.get("BENCH_DURATION", 10)))
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of load per route first, not kept")
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", 10_000)))
    parser.add_argument("--large", default=os.environ.get("BENCH_LARGE", "100000:10000"),
                        help="kept clubs to read, games:players, comma-separated ('' for none)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--routes", default="", help="comma-separated route names (default: all)")
    parser.add_argument("--profile", default=os.environ.get("BENCH_PROFILE", ""),
                        help="comma-separated route names to sample with py-spy while measured")  # fmt: skip
    parser.add_argument("--strict", action="store_true", help="exit 1 when a budget is not met")
    args = parser.parse_args(argv)
    args.databases = [d for d in args.databases.split(",") if d]
    args.large = [tuple(int(n) for n in size.split(":")) for size in args.large.split(",") if size]
    args.routes = {r for r in args.routes.split(",") if r}
    args.profile = {p for p in args.profile.split(",") if p}
    unknown = (args.routes | args.profile) - {r.name for r in ROUTES}
    if unknown or not set(args.databases) <= {"sqlite", "postgresql"}:
        parser.error(f"unknown route or database: {sorted(unknown) or args.databases}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (make bench installs it: apt-get install wrk)")
    if args.profile and not (BIN / "py-spy").exists():
        sys.exit(f"--profile needs py-spy: {BIN / 'pip'} install py-spy")
    sys.path.insert(0, str(ROOT))
    RESULTS.mkdir(exist_ok=True)
    for stale in RESULTS.glob("profile-*"):
        stale.unlink()
    log = RESULTS / "gunicorn.log"
    log.write_text("")
    started = time.monotonic()
    report: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "workers": args.workers,
        "connections": CONNECTIONS,
        "duration_s": args.duration,
        "load_before": loadavg(),
        "replay": time_replay(),
        "databases": [],
    }
    for name in args.databases:
        missing = postgresql_missing() if name == "postgresql" else None
        if missing:
            print(f"[{name}] skipped: {missing}", flush=True)
            report["databases"].append({"database": name, "skipped": missing})
            continue
        result = bench_database(name, args, log)
        evaluate(result)
        report["databases"].append(result)
        for games, players in args.large:
            large = bench_kept_club(name, games, players, args, log)
            evaluate(large)
            flatness(large, bench_flat(name, (args.games, SMALL_PLAYERS), (games, players), args, log))
            report["databases"].append(large)
    report["load_after"] = loadavg()
    report["wall_seconds"] = round(time.monotonic() - started, 1)
    replay_met = report["replay"]["ms"] < REPLAY_BUDGET_MS
    report["all_budgets_met"] = replay_met and all(
        item["met"] for result in report["databases"] for item in result.get("budgets", [{"met": False}])
    )
    text = table(report)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "latest.txt").write_text(text)
    print()
    print(text, end="")
    print(
        f"({report['wall_seconds']:.0f} s; written to {RESULTS.relative_to(ROOT)}/latest.json and latest.txt)"
    )
    return 1 if args.strict and not report["all_budgets_met"] else 0


if __name__ == "__main__":
    sys.exit(main())
