"""What drawing a game page costs: CPU milliseconds per request, through Flask's test client.

    .venv/bin/python bench/pages.py                   # 200 requests of each kind, the medians
    .venv/bin/python bench/pages.py --requests 500 --profile scorer

A repeatable micro-measure beside the phones benchmark (bench/README.md, "What fills the server"):
no server, no network, one process, so a shared machine disturbs it less than wrk or the phones.
Games as the phones' tables play them (Mizerka among 3 at every stage of a game, Misère among 4),
and Kierki and Barbu among 4 at their first deal, on a fresh SQLite file; for each game, the median
CPU time (the process's, ``time.process_time``) of:

- ``scorer``: the scorer's page (holding the pencil), drawn for each request;
- ``watcher``: a watcher's page drawn (nothing cached: ``CACHE_TYPE`` NullCache);
- ``cached``: a watcher's cached copy (the same page again, from the cache);
- ``304``: a poll whose ETag is current.

``--profile KIND`` runs that kind under cProfile and prints the functions that took the most time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from flask.testing import FlaskClient

from bench.phones import legal_game
from scorekeeper import create_app, services
from scorekeeper.access import DEVICE_COOKIE
from scorekeeper.extensions import db
from scorekeeper.services import keyring

NAMES = ["Ala", "Bartek", "Celina", "Darek"]
#: (label, ruleset, players, share of its deals recorded)
GAMES = [
    ("mizerka 3, first deal", "mizerka", 3, 0.0),
    ("mizerka 3, halfway", "mizerka", 3, 0.5),
    ("mizerka 3, last deal", "mizerka", 3, 0.95),
    ("misere 4, halfway", "misere", 4, 0.5),
    ("kierki 4, first deal", "kierki", 4, 0.0),  # (bench/phones.py draws no Kierki deals)
    ("barbu 4, first deal", "barbu", 4, 0.0),
]
KINDS = ("scorer", "watcher", "cached", "304")


def make_app(folder: Path, cache: bool) -> Flask:
    config: dict[str, Any] = {
        "SECRET_KEY": "bench",
        "AUTO_MIGRATE": False,
        "SERVER_NAME": None,
        "RATELIMIT_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'pages.sqlite'}",
    }
    if not cache:
        config["CACHE_TYPE"] = "NullCache"
        warnings.filterwarnings("ignore", "Flask-Caching: CACHE_TYPE is set to NullCache")
    app = create_app(config)
    with app.app_context():
        db.create_all()
    return app


def lay_game(app: Flask, ruleset: str, players: int, share: float, rng: random.Random) -> str:
    """A game of ``ruleset`` with ``share`` of its deals recorded (legal, through the services)."""
    names = NAMES[:players]
    first, bodies = legal_game(rng, ruleset, names) if share else (0, [])
    with app.app_context():
        game, _key = services.create_game(ruleset, names, names[first])
        for body in bodies[: int(len(bodies) * share)]:
            deal = json.loads(body)
            facts = {k: v for k, v in deal.items() if k not in ("number", "contract", "bids", "tricks")}
            services.record_deal(
                game.id,
                number=deal["number"],
                contract=deal.get("contract"),
                bids=deal.get("bids"),
                tricks=deal.get("tricks"),
                facts=facts or None,
            )
        db.session.remove()
    return game.id


def scorer_client(app: Flask, game_id: str) -> FlaskClient:
    client = app.test_client()
    with app.app_context():
        device, token = keyring.device_for_pencil(None)
        keyring.add_pencils(device, [game_id])
        db.session.commit()
        db.session.remove()
    assert token is not None
    client.set_cookie(DEVICE_COOKIE, token, path="/")
    return client


def cpu_ms(request: Callable[[], Any], count: int) -> float:
    """The median CPU time of ``count`` calls of ``request``, after a few unmeasured."""
    for _ in range(5):
        request()
    times = []
    for _ in range(count):
        started = time.process_time()
        request()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def getter(client: FlaskClient, path: str, status: int, **headers: str) -> Callable[[], Any]:
    def get() -> Any:
        answer = client.get(path, headers=headers)
        if answer.status_code != status:
            raise RuntimeError(f"{path}: {answer.status_code}, not {status}")
        return answer

    return get


def requests_of(apps: dict[bool, Flask], ids: dict[bool, str], kind: str, language: str) -> Callable[[], Any]:
    """The request of one kind, against the app with the cache (``cached``, ``304``) or without."""
    cached = kind in ("cached", "304")
    app, game_id = apps[cached], ids[cached]
    path = f"/games/{game_id}"
    headers = {"Accept-Language": language}
    if kind == "scorer":
        return getter(scorer_client(app, game_id), path, 200, **headers)
    client = app.test_client()
    if kind == "304":
        etag = client.get(path, headers=headers).headers["ETag"]
        return getter(client, path, 304, **headers, **{"If-None-Match": etag, "X-Scorekeeper-Poll": "1"})
    return getter(client, path, 200, **headers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind per game")
    parser.add_argument("--profile", choices=KINDS, help="profile this kind (every game) instead")
    parser.add_argument("--language", default="en", help="the Accept-Language of every request")
    arguments = parser.parse_args()
    profile = cProfile.Profile()
    with tempfile.TemporaryDirectory() as folder:
        apps = {cached: make_app(Path(folder), cached) for cached in (False, True)}
        print(f"CPU ms per request, median of {arguments.requests} (Accept-Language: {arguments.language}):")
        print(f"{'game':<24}" + "".join(f"{kind:>9}" for kind in KINDS))
        for number, (label, ruleset, players, share) in enumerate(GAMES):
            rng = random.Random(number)
            game_id = lay_game(apps[False], ruleset, players, share, rng)
            ids = {False: game_id, True: game_id}  # one database, two apps: with and without the cache
            cells = []
            for kind in KINDS:
                request = requests_of(apps, ids, kind, arguments.language)
                if arguments.profile == kind:
                    profile.enable()
                    for _ in range(arguments.requests):
                        request()
                    profile.disable()
                    cells.append("-")
                else:
                    cells.append(f"{cpu_ms(request, arguments.requests):.2f}")
            print(f"{label:<24}" + "".join(f"{cell:>9}" for cell in cells), flush=True)
    if arguments.profile:
        stats = pstats.Stats(profile).sort_stats("cumulative")
        stats.print_stats(70)
        stats.sort_stats("tottime").print_stats(40)
        stats.print_callers("flask_babel.*gettext|wtforms.*gettext")
    return 0


if __name__ == "__main__":
    sys.exit(main())
