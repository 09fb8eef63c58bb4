"""The benchmark's own app (bench/app.py) and its seeder; the product never imports them."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from bench.app import create_bench_app
from bench.demo import random_game
from scorekeeper.rules import DealRecord, get_ruleset
from scorekeeper.rules.misere import Misere

ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_app_adds_the_yardstick_routes_to_the_product(app: Flask) -> None:
    bench = create_bench_app({key: app.config[key] for key in ("TESTING", "SECRET_KEY", "AUTO_MIGRATE")})
    client = bench.test_client()
    with bench.app_context():
        from scorekeeper.extensions import db

        db.create_all()
    assert client.post("/_bench/insert").status_code == 201
    assert client.get("/_bench/worker").json["requests"] >= 1  # type: ignore[index]
    assert "seed-demo" in bench.cli.list_commands(None)  # type: ignore[arg-type]
    assert "seed-demo" not in app.cli.list_commands(None)  # type: ignore[arg-type]


def test_the_product_imports_nothing_from_bench() -> None:
    script = (
        "import sys; from scorekeeper import create_app; "
        "create_app({'SECRET_KEY': 'k', 'AUTO_MIGRATE': False, 'SQLALCHEMY_DATABASE_URI': 'sqlite://'}); "
        "import scorekeeper.cli; "
        "sys.exit(' '.join(m for m in sys.modules if m == 'bench' or m.startswith('bench.')) or None)"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("ruleset_id", ["mizerka", "misere"])
def test_seeded_games_are_legal_finished_games_and_repeatable(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    names = ("Ann", "Bob", "Cid", "Dan")[: ruleset.player_count]
    for seed in range(30):
        setup, state = random_game(random.Random(seed), ruleset_id, names)
        assert state.finished
        assert state == random_game(random.Random(seed), ruleset_id, names)[1]
        # The whole game again from its facts: the engine refuses anything illegal (hook rule included).
        records = [DealRecord(deal.contract, deal.bids, deal.tricks) for deal in state.deals]
        assert ruleset.replay(setup, records) == state
        for deal in state.deals:
            if deal.bids is not None:
                others = [bid for seat, bid in enumerate(deal.bids) if seat != deal.dealer]
                assert deal.bids[deal.dealer] != Misere.forbidden_bid(others)
