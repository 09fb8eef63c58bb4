"""What every fuzz test shares: bounded settings, an emptied database per example, snapshots."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask import Flask
from helpers import db_snapshot
from hypothesis import settings

from scorekeeper.extensions import db

#: Examples are whole games of up to ``stateful_step_count`` requests; bounded for two shared cores.
MACHINE_SETTINGS = settings(max_examples=30, stateful_step_count=20, deadline=None, database=None)

#: What the fuzzers did in this run (examples, steps, requests...), shown by --hypothesis-show-statistics.
STATS: Counter[str] = Counter()


def count(app: Flask, what: str, n: int = 1) -> None:
    """Add ``n`` to the statistic ``what`` of this app's database backend."""
    backend = "sqlite" if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") else "postgresql"
    STATS[f"{backend}: {what}"] += n


def empty_database(app: Flask) -> None:
    """Delete every row of every table, children first: each example starts from nothing."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        db.session.remove()


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (see helpers.db_snapshot)."""
    return db_snapshot(app)
