"""``make bench-phones``: a club evening's phones against one server, table counts stepping up.

Each table has four phones with its game page open, one connection each, kept alive as a browser
keeps it: the scorer's (holding the pencil through its device cookie) and three watchers'.  Each
phone polls as the page does: the next poll 3 s after the last answer (``THINK``), with the ETag it
was last given (``If-None-Match``), the page's ``X-Scorekeeper-Poll`` header and ``Accept-Encoding:
gzip``; a poll answered 503 waits its ``Retry-After`` instead.  Of its requests, 2% open the whole
game page afresh and 2% a club page (home, the rankings, a player's page).  The scorer records a
deal every 30 s (``DEAL_EVERY``; the tables' first deals spread over the first 30 s) through the
JSON API on its own connection, each deal waiting for the last one's answer; a finished game makes
way at once for the next among the same players (created through the API, the pencil taken with
the key, as a phone that still has an old key cookie does).  Two tables in three play Mizerka, one
Misère, every deal a legal one drawn through the rules engine, each table's first game some deals
in.  The club has a history of 300 finished games (``seed-demo``).

Each step warms up (``--warmup``, 8 s) with every phone already polling, then measures
(``--seconds``): requests answered against those asked (phones x seconds / 3), p50 and p99 of
every phone request sent in the window, the deals' p95 and how many of those due were stored,
polls told to come back later (503), errors (any other answer but 200/201/304, a socket error, or
no answer within 10 s: a phone's page gives up then).  The client is asyncio in this one process;
the event loop's own lag is reported, since a late client would inflate every figure.

    .venv/bin/python bench/phones.py --setup run     # `make run`: Waitress on SQLite
    .venv/bin/python bench/phones.py --setup serve   # `make serve`: gunicorn behind nginx, PostgreSQL, Redis
    .venv/bin/python bench/phones.py --setup run --tables 25,50 --seconds 20

``--setup serve`` uses the database ``PHONES_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/bench_club``; its schema ``phones`` is dropped first),
``PHONES_REDIS_URL`` (default ``redis://127.0.0.1:6379/9``; flushed first) and nginx from PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.club import app_env, with_schema  # noqa: E402

BIN = Path(sys.executable).parent
WORK = HERE / "results" / "phones"
THINK = 3.0  # the page's poll period: the next poll this long after the last answer
DEAL_EVERY = 30.0  # a deal per table every 30 s (a real one takes minutes)
TIMEOUT = 10.0  # the page's poll gives up after 10 s
PAGE_SHARE, CLUB_SHARE = 0.02, 0.02  # of a phone's requests: the whole game page, a club page
HISTORY = 300  # finished games seeded before the tables sit down
APP_PORT = int(os.environ.get("PHONES_PORT", "5300"))  # the first port tried of a hundred
PROXY_PORT = int(os.environ.get("PHONES_PROXY_PORT", "8380"))  # ... of ten
APP_PORTS, PROXY_PORTS = range(APP_PORT, APP_PORT + 100), range(PROXY_PORT, PROXY_PORT + 10)
PG_URL = os.environ.get("PHONES_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/bench_club")
REDIS_URL = os.environ.get("PHONES_REDIS_URL", "redis://127.0.0.1:6379/9")
# The targets (issue 45), for every step.
P50_MS, P99_MS, ANSWERED, DEAL_P95_MS = 100, 500, 0.95, 500

# -- HTTP: one keep-alive connection, as a phone's browser holds it --------------------------------


class Closed(Exception):
    """The server closed the connection (or it could not be opened)."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes


class Connection:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.opened = 0

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.opened += 1
        assert self.reader is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept-Encoding: gzip"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            self.close()
            raise Closed(str(error)) from None
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        answer = Answer(int(status_line.split()[1]), {}, [], b"")
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                if name.lower() == "set-cookie":
                    answer.cookies.append(value.strip())
                answer.headers[name.lower()] = value.strip()
        if answer.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readline()
            await self.reader.readline()
            answer.body = b"".join(chunks)
        elif answer.status != 304 and method != "HEAD":
            answer.body = await self.reader.readexactly(int(answer.headers.get("content-length", "0")))
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        return answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def decoded(answer: Answer) -> Any:
    import gzip

    raw = gzip.decompress(answer.body) if answer.headers.get("content-encoding") == "gzip" else answer.body
    return json.loads(raw) if answer.headers.get("content-type", "").startswith("application/json") else raw


# -- the tables ------------------------------------------------------------------------------------


def legal_game(
    rng: random.Random, ruleset_id: str, names: list[str], first: int | None = None
) -> tuple[int, list[bytes]]:
    """A random legal game among ``names``: its first dealer's seat (``first``, else drawn) and each
    deal's API body."""
    from scorekeeper.rules import DealRecord, GameSetup, get_ruleset
    from scorekeeper.rules.misere import Misere

    ruleset = get_ruleset(ruleset_id)
    first = rng.randrange(len(names)) if first is None else first
    setup = GameSetup(
        ruleset=ruleset.id, players=tuple(names), first_dealer=first, options=ruleset.validate_options({})
    )
    state = ruleset.replay(setup, [])
    bodies = []
    while (upcoming := state.next_deal) is not None:
        body: dict[str, Any] = {"number": upcoming.number}
        contract = bids = None
        if upcoming.chooser is not None:
            contract = body["contract"] = rng.choice(upcoming.available_contracts)
        if upcoming.bidding_order:
            by_seat = [0] * len(names)
            for seat in upcoming.bidding_order:
                bid = rng.choice((0, 1, 2, 3, 3, 4, 4, 5))
                if seat == upcoming.dealer:
                    others = (by_seat[other] for other in upcoming.bidding_order if other != seat)
                    bid += bid == Misere.forbidden_bid(others)
                by_seat[seat] = bid
            bids = tuple(by_seat)
            body["bids"] = dict(zip(names, bids, strict=True))
        cuts = sorted(rng.randint(0, 13) for _ in range(len(names) - 1))
        tricks = tuple(b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True))
        body["tricks"] = dict(zip(names, tricks, strict=True))
        state = ruleset.extend(state, [DealRecord(contract=contract, bids=bids, tricks=tricks)])
        bodies.append(json.dumps(body).encode())
    return first, bodies


@dataclass
class Table:
    number: int
    ruleset: str
    names: list[str]
    rng: random.Random
    game: str = ""
    key: str = ""
    deals: list[bytes] = field(default_factory=list)
    next_deal: int = 0  # index into deals
    cookies: dict[str, str] = field(default_factory=dict)  # the scorer's
    games_started: int = 0

    def cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def take_cookies(self, answer: Answer) -> None:
        for line in answer.cookies:
            name, _, rest = line.partition("=")
            value = rest.split(";", 1)[0]
            if not value or "max-age=0" in rest.lower() or "expires=thu, 01 jan 1970" in rest.lower():
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value

    async def new_game(self, conn: Connection) -> None:
        """The table's next game (the seats move on one), created through the API; the pencil is
        taken by the scorer's next page view with the key (an old per-game key cookie)."""
        if self.game:
            self.names = [*self.names[1:], self.names[0]]
        first, self.deals = legal_game(self.rng, self.ruleset, self.names)
        body = {"ruleset": self.ruleset, "players": self.names, "first_dealer": self.names[first]}
        answer = await conn.request(
            "POST", "/api/v1/games", {"Content-Type": "application/json"}, json.dumps(body).encode()
        )
        if answer.status != 201:
            raise RuntimeError(f"new game: {answer.status} {answer.body[:200]!r}")
        created = decoded(answer)
        self.game, self.key, self.next_deal = created["id"], created["edit_key"], 0
        self.cookies[f"sk_edit_{self.game}"] = self.key
        self.games_started += 1

    async def take_pencil(self, conn: Connection) -> Answer:
        """The scorer's page view: with an old key cookie, the pencil goes into its device's keyring."""
        answer = Answer(0, {}, [], b"")
        for _ in range(3):  # a new device is stored when it shows back the value it was given
            answer = await conn.request("GET", f"/games/{self.game}", self.cookie_header())
            self.take_cookies(answer)
            if not any(name.startswith("sk_edit_") for name in self.cookies):
                break
        return answer

    async def record(self, conn: Connection) -> Answer:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.key}"}
        answer = await conn.request(
            "POST",
            f"/api/v1/games/{self.game}/deals",
            headers | self.cookie_header(),
            self.deals[self.next_deal],
        )
        if answer.status == 201:
            self.next_deal += 1
        elif answer.status == 409:  # an earlier deal was stored after all: carry on from the game's own count
            state = await conn.request("GET", f"/api/v1/games/{self.game}", {})
            self.next_deal = decoded(state)["deal_count"] if state.status == 200 else self.next_deal
        return answer


async def lay_tables(base: tuple[str, int], tables: list[Table], count: int) -> None:
    """Tables up to ``count``: each its first game, some deals in (every stage of a game), pencil taken."""

    async def lay(number: int) -> None:
        rng = random.Random(number)
        ruleset = "misere" if number % 3 == 2 else "mizerka"
        seats = 4 if ruleset == "misere" else 3
        table = Table(
            number,
            ruleset,
            [f"{name} {number}" for name in ("Ala", "Bartek", "Celina", "Darek")[:seats]],
            rng,
        )
        conn = Connection(*base)
        await table.new_game(conn)
        for _ in range(rng.randrange(len(table.deals) * 2 // 3)):
            answer = await table.record(conn)
            if answer.status != 201:
                raise RuntimeError(
                    f"table {number}: a deal was refused: {answer.status} {answer.body[:200]!r}"
                )
        await table.take_pencil(conn)
        conn.close()
        tables.append(table)

    gate = asyncio.Semaphore(4)

    async def gated(number: int) -> None:
        async with gate:
            await lay(number)

    await asyncio.gather(*(gated(n) for n in range(len(tables) + 1, count + 1)))
    tables.sort(key=lambda t: t.number)


# -- one step: the phones of ``tables``, warmed up, then measured -----------------------------------


@dataclass
class Tally:
    window: tuple[float, float]
    latencies: list[float] = field(default_factory=list)
    deals: list[float] = field(default_factory=list)
    answered: int = 0
    shed: int = 0
    errors: int = 0
    deals_due: int = 0
    deal_failures: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    error_notes: list[str] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    reconnects: int = 0
    trace: list[str] = field(default_factory=list)  # every request of the step, warm-up included
    cpu: tuple[float, float] = (float("nan"), float("nan"))  # the server's and this client's, in the window

    def inside(self, sent: float) -> bool:
        return self.window[0] <= sent < self.window[1]

    def note(self, sent: float, latency: float, status: int, *, deal: bool = False, note: str = "") -> None:
        kind = "deal" if deal else note.split(":")[0]
        self.trace.append(f"{sent - self.window[0]:.3f},{latency * 1000:.1f},{status},{kind}")
        if not self.inside(sent):
            return
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status in (200, 201, 304):
            self.answered += not deal  # asked: the phones' own requests (polls, pages), not the deals
            self.latencies.append(latency)
            if deal:
                self.deals.append(latency)
        elif status == 503 and not deal:
            self.shed += 1
            self.latencies.append(latency)
        else:
            self.errors += 1
            self.deal_failures += deal
            if len(self.error_notes) < 5:
                self.error_notes.append(note or str(status))


async def phone(
    base: tuple[str, int],
    table: Table,
    scorer: bool,
    tally: Tally,
    pages: list[str],
    stop: float,
    seed: int,
    warmup: float,
) -> None:
    rng = random.Random(seed)
    conn = Connection(*base)
    etag, game = "", ""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, max(THINK, warmup - THINK)))  # phones join through the warm-up
    deal_at = tally.window[0] - DEAL_EVERY + (table.number * 7.31) % DEAL_EVERY  # spread over 30 s
    while deal_at < loop.time():
        deal_at += DEAL_EVERY
    next_poll = loop.time()
    while loop.time() < stop:
        now = loop.time()
        wait = max(0.0, (min(next_poll, deal_at) if scorer else next_poll) - now)
        if wait:
            await asyncio.sleep(wait)
            if loop.time() >= stop:
                break
        if scorer and loop.time() >= deal_at:
            due = deal_at
            deal_at += DEAL_EVERY
            tally.deals_due += tally.inside(due)
            if table.next_deal >= len(table.deals):
                await table.new_game(conn)  # the table's next game, and the pencil with it
                await table.take_pencil(conn)
            sent = loop.time()
            try:
                answer = await asyncio.wait_for(table.record(conn), TIMEOUT)
                tally.note(
                    due,
                    loop.time() - sent,
                    answer.status,
                    deal=True,
                    note=answer.body[:120].decode(errors="replace"),
                )
            except (TimeoutError, Closed, OSError) as error:
                conn.close()
                tally.note(due, loop.time() - sent, 0, deal=True, note=f"deal: {type(error).__name__}")
            continue
        # A poll, or now and then the whole page or a club page.
        draw, headers = rng.random(), table.cookie_header() if scorer else {}
        if game != table.game:  # a new game at the table: its page, opened afresh
            path, etag, game = f"/games/{table.game}", "", table.game
        elif draw < PAGE_SHARE:
            path, etag = f"/games/{table.game}", ""
        elif draw < PAGE_SHARE + CLUB_SHARE:
            path, headers = rng.choice(pages), {}
        else:
            path = f"/games/{table.game}"
            headers = headers | {"X-Scorekeeper-Poll": "1"} | ({"If-None-Match": etag} if etag else {})
        sent = loop.time()
        try:
            answer = await asyncio.wait_for(conn.request("GET", path, headers), TIMEOUT)
        except (TimeoutError, Closed, OSError) as error:
            conn.close()
            tally.note(
                sent, loop.time() - sent, 0, note=f"{kind(path, headers)}: {path}: {type(error).__name__}"
            )
            next_poll = loop.time() + THINK
            continue
        tally.note(sent, loop.time() - sent, answer.status, note=f"{kind(path, headers)}: {answer.status}")
        if path.startswith("/games/") and answer.status in (200, 304):
            etag = answer.headers.get("etag", etag)
        if scorer:
            table.take_cookies(answer)
        later = answer.headers.get("retry-after", "") if answer.status == 503 else ""
        next_poll = loop.time() + max(THINK, float(later) if later.isdigit() else 0)
    tally.reconnects += max(0, conn.opened - 1) if tally.inside(stop - 1) else 0
    conn.close()


def kind(path: str, headers: dict[str, str]) -> str:
    """What a phone's request is, in the trace: a poll, its game's page, or a club page."""
    return "poll" if "X-Scorekeeper-Poll" in headers else "page" if path.startswith("/games/") else "club"


async def lag_watch(tally: Tally, stop: float) -> None:
    loop = asyncio.get_running_loop()
    while loop.time() < stop:
        before = loop.time()
        await asyncio.sleep(0.1)
        if tally.inside(before):
            tally.lag.append(loop.time() - before - 0.1)


#: ``make serve``'s gunicorn settings (the Makefile's serve target, with its default WORKERS and THREADS).
SERVE_WORKERS = "--worker-class gthread --workers 2 --threads 8 --keep-alive 15"
SERVER: list[int] = []  # the server's process id (gunicorn's: its master, the workers its children)


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children (gunicorn's workers) so far (Linux: /proc); nan elsewhere."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ticks = 0
        for each in [pid, *map(int, children)]:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, ValueError):
        return float("nan")
    return ticks / os.sysconf("SC_CLK_TCK")


async def cpu_watch(tally: Tally) -> None:
    """The share of a core the server and this client each used in the measured window."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(tally.window[0] - loop.time())
    server, client = cpu_seconds(SERVER[0]) if SERVER else float("nan"), time.process_time()
    await asyncio.sleep(tally.window[1] - loop.time())
    seconds = tally.window[1] - tally.window[0]
    server_now = cpu_seconds(SERVER[0]) if SERVER else float("nan")
    tally.cpu = ((server_now - server) / seconds, (time.process_time() - client) / seconds)


async def measure(
    base: tuple[str, int], tables: list[Table], pages: list[str], warmup: float, seconds: float
) -> Tally:
    loop = asyncio.get_running_loop()
    start = loop.time() + warmup
    tally = Tally((start, start + seconds))
    stop = start + seconds
    tasks = [lag_watch(tally, stop), cpu_watch(tally)]
    for table in tables:
        for seat in range(4):
            tasks.append(phone(base, table, seat == 0, tally, pages, stop, table.number * 4 + seat, warmup))
    await asyncio.gather(*tasks)
    return tally


# -- servers ---------------------------------------------------------------------------------------


def free_port(ports: range) -> int:
    for port in ports:
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports}")


def wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}); see {log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
                if b" 200 " in sock.recv(100):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer in 120 s; see {log}")


def stop_process(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


NGINX = """\
worker_processes auto;
worker_rlimit_nofile 8192;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
    fastcgi_temp_path {work}/nginx-tmp; uwsgi_temp_path {work}/nginx-tmp; scgi_temp_path {work}/nginx-tmp;
{site}
}}
"""

# The site, as README.md gives it ("Running it for a club"), but for its ports.
SITE = """\
    upstream scorekeeper {{
        server 127.0.0.1:{app_port};
        keepalive 32;
        keepalive_timeout 10s;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 128k;
        location / {{
            proxy_pass http://scorekeeper;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Start "t=${{msec}}";
        }}
    }}"""


@contextmanager
def run_setup(setup: str, url: str, workers: str, log: Path) -> Iterator[tuple[str, int]]:
    """The server of ``setup`` on a club at ``url``; yields the address the phones reach."""
    app_port = free_port(APP_PORTS)
    env = app_env(url) | {
        "HOST": "127.0.0.1",
        "PORT": str(app_port),
        "GAME_CREATE_RATE_LIMIT": "1000000 per minute",
    }
    if setup == "run":
        command = [str(BIN / "scorekeeper"), "serve"]  # what `make run` starts
    else:
        env |= {"REDIS_URL": REDIS_URL, "SCOREKEEPER_PROXY_HOPS": "1"}
        command = [
            str(BIN / "gunicorn"),
            "--bind",
            f"127.0.0.1:{app_port}",
            *workers.split(),
            "scorekeeper:create_app()",
        ]
    out = open(log, "ab")  # noqa: SIM115 (open while the server runs)
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out)
    SERVER[:] = [process.pid]
    proxy = None
    try:
        wait_for(app_port, process, log)
        if setup == "run":
            yield ("127.0.0.1", app_port)
            return
        port = free_port(PROXY_PORTS)
        (WORK / "nginx-tmp").mkdir(exist_ok=True)
        config = WORK / "nginx.conf"
        config.write_text(NGINX.format(work=WORK, site=SITE.format(app_port=app_port, port=port)))
        proxy = subprocess.Popen(
            ["nginx", "-g", "daemon off;", "-c", str(config), "-p", str(WORK)], stdout=out, stderr=out
        )
        wait_for(port, proxy, log)
        yield ("127.0.0.1", port)
    finally:
        if proxy is not None:
            stop_process(proxy)
        stop_process(process)
        out.close()


def fresh_club(setup: str) -> str:
    """An empty database with the club's history seeded: SQLite for ``run``, PostgreSQL for ``serve``."""
    if setup == "run":
        path = WORK / "club.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    else:
        import psycopg
        import redis

        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute("DROP SCHEMA IF EXISTS phones CASCADE")
            connection.execute("CREATE SCHEMA phones")
        redis.Redis.from_url(REDIS_URL).flushdb()
        url = with_schema(PG_URL, "phones")
    flask = [str(BIN / "flask"), "--app", "bench.app:create_bench_app"]
    for args in (
        ["db-upgrade"],
        ["seed-demo", "--games", str(HISTORY), "--players", "40", "--misere-share", "0.33"],
    ):
        subprocess.run([*flask, *args], env=app_env(url), cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return url


async def club_pages(base: tuple[str, int]) -> list[str]:
    conn = Connection(*base)
    answer = await conn.request("GET", "/rankings", {})
    conn.close()
    players = re.findall(rb'href="(/players/\d+)"', decoded(answer))
    return ["/", "/rankings", *dict.fromkeys(p.decode() for p in players[:5])]


# -- the report ------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


HEADER = (
    f"{'tables':>6} {'phones':>6} {'asked':>7} {'answered':>13} {'503':>5} {'p50':>6} {'p99':>6}"
    f" {'deals stored/due':>17} {'p95':>6} {'errors':>6} {'lag p99':>7} {'cpu':>9} {'load':>5}  result"
)


def line(tables: int, seconds: float, tally: Tally, load: str) -> tuple[str, bool]:
    asked = tables * 4 * seconds / THINK
    share = tally.answered / asked
    p50, p99 = percentile(tally.latencies, 0.5) * 1000, percentile(tally.latencies, 0.99) * 1000
    deal_p95 = percentile(tally.deals, 0.95) * 1000
    held = (
        p50 <= P50_MS
        and p99 <= P99_MS
        and share >= ANSWERED
        and len(tally.deals) >= tally.deals_due
        and deal_p95 <= DEAL_P95_MS
        and not tally.errors
    )
    text = (
        f"{tables:>6} {tables * 4:>6} {asked:>7.0f} {tally.answered:>7} {100 * share:>4.0f}% {tally.shed:>5}"
        f" {p50:>4.0f}ms {p99:>4.0f}ms {len(tally.deals):>8}/{tally.deals_due:<8} {deal_p95:>4.0f}ms"
        f" {tally.errors:>6} {percentile(tally.lag, 0.99) * 1000:>5.0f}ms"
        f" {100 * tally.cpu[0]:>3.0f}%/{100 * tally.cpu[1]:>3.0f}% {load:>5}"
        f"  {'held' if held else 'NOT held'}"
    )
    return text, held


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--setup", choices=("run", "serve"), default="run")
    parser.add_argument("--tables", default="25,50,100,150,200,300,400", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=30, help="each step's measured time")
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument(
        "--workers",
        default=SERVE_WORKERS,
        help="gunicorn's worker settings (--setup serve; default: make serve's)",
    )
    parser.add_argument("--keep-going", action="store_true", help="go on past a step badly not held")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))
    if args.setup == "serve" and shutil.which("nginx") is None:
        sys.exit("nginx is needed for --setup serve (Debian: apt-get install nginx-light)")
    WORK.mkdir(parents=True, exist_ok=True)
    log = WORK / f"server-{args.setup}.log"
    log.unlink(missing_ok=True)
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=ROOT
    )
    what = (
        "make run (Waitress, SQLite)"
        if args.setup == "run"
        else f"make serve (gunicorn {args.workers}) behind nginx, PostgreSQL, Redis"
    )
    report = [
        f"bench/phones.py --setup {args.setup}: {what}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit"
        f" {commit.stdout.strip()}, {os.cpu_count()} cores;"
        f" warm-up {args.warmup:g} s, then {args.seconds:g} s measured",
        "asked: phones x seconds / 3; p50, p99: every phone request sent in the window; p95: the deals';"
        " 503: polls told to come back later; cpu: the server's and this client's share of a core in the"
        " window; load: the 1-minute load average before the step",
        HEADER,
    ]
    print(f"seeding a club of {HISTORY} games", flush=True)
    url = fresh_club(args.setup)
    tables: list[Table] = []
    with run_setup(args.setup, url, args.workers, log) as base:
        pages = asyncio.run(club_pages(base))
        print("\n".join(report), flush=True)
        for count in [int(n) for n in args.tables.split(",") if n]:
            asyncio.run(lay_tables(base, tables, count))
            time.sleep(2)
            load = Path("/proc/loadavg").read_text().split()[0]
            tally = asyncio.run(measure(base, tables[:count], pages, args.warmup, args.seconds))
            text, held = line(count, args.seconds, tally, load)
            notes = f"        statuses {dict(sorted(tally.statuses.items()))}" + (
                f"; first errors: {tally.error_notes}" if tally.error_notes else ""
            )
            report += [text, notes]
            trace = "sent_s,latency_ms,status,kind\n" + "\n".join(tally.trace) + "\n"
            (WORK / f"trace-{args.setup}-{count}.csv").write_text(trace)
            print(text + "\n" + notes, flush=True)
            (WORK / f"latest-{args.setup}.txt").write_text("\n".join(report) + "\n")
            answered = tally.answered / (count * 4 * args.seconds / THINK)
            if (
                not held
                and not args.keep_going
                and (answered < 0.8 or len(tally.deals) < 0.8 * tally.deals_due)
            ):
                report.append("(stopped: that step was far from held)")
                break
    (WORK / f"latest-{args.setup}.txt").write_text("\n".join(report) + "\n")
    print(f"written to {WORK / f'latest-{args.setup}.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
