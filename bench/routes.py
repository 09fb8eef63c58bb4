"""The benchmark's yardstick route, registered by its own app (bench/app.py).

``POST /_bench/insert``: one bare single-row INSERT and its commit, through the same app,
server and database as recording a deal (the budget is a ratio of the two).
"""

from __future__ import annotations

import secrets

from flask import Blueprint

from scorekeeper.extensions import db
from scorekeeper.models import Player

bp = Blueprint("bench", __name__, url_prefix="/_bench")


@bp.post("/insert")
def insert() -> tuple[str, int, dict[str, str]]:
    """201: one row inserted and committed (a player with a random name), nothing else."""
    db.session.add(Player(name="bench", name_key="~bench-insert-" + secrets.token_hex(8)))
    db.session.commit()
    return "ok\n", 201, {"Content-Type": "text/plain"}
