"""Routes for the benchmark only (bench/run.py), registered by the benchmark's own app (bench/app.py).

``POST /_bench/insert`` is the yardstick for recording a deal: one bare
single-row INSERT and its commit, through the same app, server and database.
``GET /_bench/worker`` tells which worker answered, how many requests it has
served and its memory, so the benchmark can check a worker after 10,000 requests.
"""

from __future__ import annotations

import os
import secrets

from flask import Blueprint, Response, jsonify

from scorekeeper.extensions import db
from scorekeeper.models import Player

bp = Blueprint("bench", __name__, url_prefix="/_bench")

#: Name keys of the rows ``insert`` adds start with this, so the benchmark can remove them.
INSERT_PREFIX = "~bench-insert-"

_served = 0


@bp.before_app_request
def count_request() -> None:
    global _served
    _served += 1


@bp.post("/insert")
def insert() -> tuple[str, int, dict[str, str]]:
    """201: one row inserted and committed (a player with a random name), nothing else."""
    db.session.add(Player(name="bench", name_key=INSERT_PREFIX + secrets.token_hex(8)))
    db.session.commit()
    return "ok\n", 201, {"Content-Type": "text/plain"}


@bp.get("/worker")
def worker() -> Response:
    """200: this worker's pid, requests served, and resident memory now and at its peak (kB)."""
    memory = {}
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                memory[name] = int(value.split()[0])
    return jsonify(pid=os.getpid(), requests=_served, rss_kb=memory.get("VmRSS"), hwm_kb=memory.get("VmHWM"))
