"""A club night under load (issue 46): the night's standings, the projector view and a season's
table, each driven alone by wrk while a night of 25 tables writes.

A night of 100 players is made through the API (tables of four: 25 tables of Misère), its round
seated and started, so that each table has its game; each table's scorer takes the game's pencil
with the scoring link the director hands out (the take page, as a phone opens it) and a few deals
go in.  The season holds that night and ``PAST_NIGHTS`` earlier ones of the same players (their
tables closed as they stood), so that every player has a row in its table.  Then the night's
phones run as ``bench/phones.py`` runs a club evening's (per table a scorer and three watchers
polling the game page every 3 s with its ETag, the scorer recording a deal every 30 s, through the
page's own JSON writes, ``/games/<id>/sync/deals``), and one projector polls the projector view
every 5 s (the page's script fetches the whole screen).  While they do, wrk drives each page alone
with ``bench/run.py``'s settings (2 threads, 8 connections, ``--seconds`` each, gzip, a 10 s
timeout): the night's standings (the standings sheet, ``/nights/<id>/cards``; the director's page
shows the same table but needs the night's pencil), the projector view and the season's table.
Each is reported as requests per second and as a ratio to ``/healthz`` of the same server in the
same run (the mean of ``/healthz`` before the phones start and after they stop, as ``run.py``
measures it), with its errors, beside what the phones and the projector saw meanwhile.

    .venv/bin/python bench/night_load.py                  # make run: Waitress on SQLite
    .venv/bin/python bench/night_load.py --setup serve    # make serve: gunicorn, nginx, PostgreSQL, Redis

The servers, databases and ports are ``bench/phones.py``'s (``PHONES_PORT``, ``PHONES_PROXY_PORT``,
``PHONES_DATABASE_URL``, ``PHONES_REDIS_URL``); the report goes to
``bench/results/night/latest-<setup>.txt``, wrk's output to ``wrk.log`` beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench import phones  # noqa: E402
from bench.phones import Answer, Connection, Table, Tally, decoded, legal_game  # noqa: E402
from bench.run import THREADS, wrk  # noqa: E402

WORK = HERE / "results" / "night"
PLAYERS, RULESET = 100, "misere"  # Misère seats four: 25 tables
PAST_NIGHTS = 3  # earlier nights of the season: a season's table counts a player from their third night
PROJECTOR_EVERY = 5.0  # the projector page's data-poll
BUDGET = 0.2  # issue 46: each page >= 0.2x /healthz while the night writes


async def ask(conn: Connection, method: str, path: str, body: Any = None, key: str = "") -> Any:
    """A JSON API request; its decoded answer (a refusal stops the benchmark)."""
    import json

    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    answer = await conn.request(method, path, headers, json.dumps(body).encode() if body is not None else b"")
    if answer.status not in (200, 201):
        raise RuntimeError(f"{method} {path}: {answer.status} {answer.body[:300]!r}")
    return decoded(answer)


async def night_of(conn: Connection, names: list[str], played_on: date, label: str) -> tuple[str, str, Any]:
    """A night of ``names`` on ``played_on``, its first round seated and started: (id, key, its state)."""
    made = await ask(
        conn,
        "POST",
        "/api/v1/nights",
        {"name": label, "ruleset": RULESET, "rounds": 1, "played_on": played_on.isoformat(), "seed": 46},
    )
    night, key = made["id"], made["key"]
    for name in names:
        await ask(conn, "POST", f"/api/v1/nights/{night}/players", {"name": name})
    await ask(conn, "POST", f"/api/v1/nights/{night}/rounds", {}, key)
    state = await ask(conn, "POST", f"/api/v1/nights/{night}/rounds/start", {}, key)
    return night, key, state


class NightTable(Table):
    """A table of the night: its game is the round's, its scorer holds the pencil through the
    scoring link, and its deals go through the page's own JSON writes."""

    async def take_link(self, conn: Connection, link: str) -> None:
        """Open the scoring link's take page and send its code, as the page's script does."""
        where = urlsplit(link)
        page = await conn.request("GET", where.path, {})
        self.take_cookies(page)
        token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', decoded(page))
        if page.status != 200 or token is None:
            raise RuntimeError(f"table {self.number}: the take page answered {page.status}")
        form = f"csrf_token={html.unescape(token.group(1).decode())}&key={where.fragment}".encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"} | self.cookie_header()
        taken = await conn.request("POST", where.path, headers, form)
        self.take_cookies(taken)
        if taken.status != 303:
            raise RuntimeError(f"table {self.number}: the pencil was not taken ({taken.status})")
        await self.take_pencil(conn)  # the game page, the device cookie shown back

    async def new_game(self, conn: Connection) -> None:
        raise RuntimeError(f"table {self.number}: its game finished (lay fewer deals in)")

    async def record(self, conn: Connection) -> Answer:
        headers = {"Content-Type": "application/json"} | self.cookie_header()
        path = f"/games/{self.game}/sync/deals"
        answer = await conn.request("POST", path, headers, self.deals[self.next_deal])
        if answer.status == 201:
            self.next_deal += 1
        elif answer.status == 409:  # an earlier deal was stored after all
            state = await conn.request("GET", f"/api/v1/games/{self.game}", {})
            self.next_deal = decoded(state)["deal_count"] if state.status == 200 else self.next_deal
        return answer


async def lay_night(base: tuple[str, int]) -> tuple[dict[str, str], list[NightTable]]:
    """The season, its past nights and tonight's, tonight's tables laid: the pages to measure."""
    conn = Connection(*base)
    names = [f"Player {number:03d}" for number in range(1, PLAYERS + 1)]
    today = date.today()
    for weeks in range(PAST_NIGHTS, 0, -1):
        night, key, state = await night_of(conn, names, today - timedelta(weeks=weeks), f"Week -{weeks}")
        for table in state["rounds_seated"][-1]["tables"]:
            await ask(conn, "POST", f"/api/v1/nights/{night}/tables/1/{table['number']}/close", {}, key)
    night, key, state = await night_of(conn, names, today, "Tonight")
    season = await ask(
        conn,
        "POST",
        "/api/v1/seasons",
        {
            "name": "Night under load",
            "ruleset": RULESET,
            "starts_on": (today - timedelta(weeks=PAST_NIGHTS + 1)).isoformat(),
            "ends_on": today.isoformat(),
        },
    )
    conn.close()
    tables: list[NightTable] = []
    for seated in state["rounds_seated"][-1]["tables"]:
        rng = random.Random(seated["number"])
        players = list(seated["players"])
        _first, deals = legal_game(rng, RULESET, players, players.index(seated["first_dealer"]))
        table = NightTable(seated["number"], RULESET, players, rng, game=seated["game_id"], deals=deals)
        scorer = Connection(*base)
        await table.take_link(scorer, seated["scoring_link"])
        for _ in range(rng.randrange(3)):  # a few deals in; a game of Misère among four has 8 or more
            answer = await table.record(scorer)
            if answer.status != 201:
                raise RuntimeError(f"table {table.number}: a deal was refused: {answer.status}")
        scorer.close()
        tables.append(table)
    pages = {
        "the night's standings": f"/nights/{night}/cards",
        "the projector view": f"/nights/{night}/screen",
        "a season's table": f"/seasons/{season['id']}",
    }
    return pages, tables


async def projector(base: tuple[str, int], path: str, seen: list[tuple[float, int]], stop: float) -> None:
    """The projector: the whole screen fetched every 5 s (no ETag: the page's script asks no-store)."""
    loop = asyncio.get_running_loop()
    conn = Connection(*base)
    while loop.time() < stop:
        sent = loop.time()
        try:
            answer = await asyncio.wait_for(conn.request("GET", path, {}), phones.TIMEOUT)
            seen.append((loop.time() - sent, answer.status))
        except (TimeoutError, phones.Closed, OSError):
            conn.close()
            seen.append((loop.time() - sent, 0))
        await asyncio.sleep(max(0.0, sent + PROJECTOR_EVERY - loop.time()))
    conn.close()


async def night_phones(
    base: tuple[str, int],
    tables: list[NightTable],
    pages: list[str],
    screen: str,
    warmup: float,
    seconds: float,
) -> tuple[Tally, list[tuple[float, int]]]:
    """The tables' phones and the projector, warmed up, then ``seconds`` measured."""
    loop = asyncio.get_running_loop()
    start = loop.time() + warmup
    tally, seen = Tally((start, start + seconds)), []
    stop = start + seconds
    tasks = [phones.lag_watch(tally, stop), phones.cpu_watch(tally), projector(base, screen, seen, stop)]
    for table in tables:
        for seat in range(4):
            seed = table.number * 4 + seat
            tasks.append(phones.phone(base, table, seat == 0, tally, pages, stop, seed, warmup))
    await asyncio.gather(*tasks)
    return tally, seen


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--setup", choices=("run", "serve"), default="run")
    parser.add_argument("--seconds", type=float, default=10, help="each wrk run's length")
    parser.add_argument("--warmup", type=float, default=8)
    parser.add_argument("--workers", default=phones.SERVE_WORKERS, help="gunicorn's settings (--setup serve)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk")
    if args.setup == "serve" and shutil.which("nginx") is None:
        sys.exit("nginx is needed for --setup serve (Debian: apt-get install nginx-light)")
    WORK.mkdir(parents=True, exist_ok=True)
    phones.WORK = WORK  # the club's files and the nginx site go here, not beside phones.py's
    log, wrk_log = WORK / f"server-{args.setup}.log", WORK / "wrk.log"
    log.unlink(missing_ok=True)
    wrk_log.unlink(missing_ok=True)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True)
    print(f"seeding a club of {phones.HISTORY} games", flush=True)
    url = phones.fresh_club(args.setup)
    with phones.run_setup(args.setup, url, args.workers, log) as base:
        address = f"http://{base[0]}:{base[1]}"
        print(f"laying a night of {PLAYERS} players and its season", flush=True)
        pages, tables = asyncio.run(lay_night(base))
        for path in [*pages.values(), "/healthz"]:
            for _ in range(3):  # warm: connections, templates, caches
                asyncio.run(phone_get(base, path))
        figures: dict[str, Any] = {}

        def run(name: str, path: str) -> None:
            print(f"  {name}", flush=True)
            figures[name] = wrk(address, path, "get", args.seconds, wrk_log)
            time.sleep(1)

        run("/healthz before", "/healthz")
        load = Path("/proc/loadavg").read_text().split()[0]
        seconds = len(pages) * (args.seconds + 1.5) + 2
        club = ["/", "/rankings", f"{pages['the projector view'].rsplit('/', 1)[0]}/me"]
        outcome: list[Any] = []
        driver = threading.Thread(
            target=lambda: outcome.append(
                asyncio.run(
                    night_phones(base, tables, club, pages["the projector view"], args.warmup, seconds)
                )
            )
        )
        driver.start()
        time.sleep(args.warmup + 1)
        for name, path in pages.items():
            run(name, path)
        driver.join()
        run("/healthz after", "/healthz")
    tally, seen = outcome[0]
    yardstick = (figures["/healthz before"].rps + figures["/healthz after"].rps) / 2
    report = [
        f"bench/night_load.py --setup {args.setup}: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit"
        f" {commit.stdout.strip()}, {os.cpu_count()} cores, load {load}; wrk -t{THREADS}"
        f" -c8 -d{args.seconds:g}s, each page alone while a night of {len(tables)} tables writes",
        f"/healthz: {figures['/healthz before'].rps:.0f} req/s before the phones, "
        f"{figures['/healthz after'].rps:.0f} after; the yardstick: their mean, {yardstick:.0f}",
        f"{'page':<24}{'req/s':>8}{'ratio':>8}{'budget':>9}{'errors':>8}  result",
    ]
    for name in pages:
        result = figures[name]
        ratio = result.rps / yardstick
        held = "PASS" if ratio >= BUDGET and not result.errors else "FAIL"
        report.append(f"{name:<24}{result.rps:>8.0f}{ratio:>7.2f}x{'>= 0.2':>9}{result.errors:>8}  {held}")
    text, _held = phones.line(len(tables), seconds, tally, load)
    report += [
        "the night's phones meanwhile (bench/phones.py's columns):",
        phones.HEADER,
        text,
        f"        statuses {dict(sorted(tally.statuses.items()))}"
        + (f"; first errors: {tally.error_notes}" if tally.error_notes else ""),
        f"the projector: {len(seen)} polls, {sum(status != 200 for _l, status in seen)} not answered 200,"
        f" p50 {1000 * phones.percentile([latency for latency, _s in seen], 0.5):.0f} ms",
    ]
    (WORK / f"latest-{args.setup}.txt").write_text("\n".join(report) + "\n")
    print("\n".join(report))
    print(f"written to {WORK / f'latest-{args.setup}.txt'}")
    return 0


async def phone_get(base: tuple[str, int], path: str) -> None:
    conn = Connection(*base)
    await conn.request("GET", path, {})
    conn.close()


if __name__ == "__main__":
    sys.exit(main())
