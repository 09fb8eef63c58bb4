"""The benchmark's app: the product's ``create_app()`` plus the yardstick routes and the seeder command.

    gunicorn 'bench.app:create_bench_app()'              # what bench/run.py serves
    flask --app bench.app:create_bench_app seed-demo     # random legal finished games, in bulk

The product never imports this package: ``scorekeeper:create_app()`` has no ``/_bench`` route.
"""

from __future__ import annotations

import time
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper import create_app
from scorekeeper.extensions import csrf

from .demo import seed_demo
from .routes import bp


def create_bench_app(config: dict[str, Any] | None = None) -> Flask:
    """The product's app with the benchmark's routes (``/_bench/...``) and ``seed-demo`` command."""
    app = create_app(config)
    app.register_blueprint(bp)
    csrf.exempt(bp)  # wrk posts without a form token
    app.cli.add_command(seed_demo_command)
    return app


@click.command("seed-demo")
@click.option("--games", default=10_000, show_default=True, help="Finished games to add.")
@click.option("--players", default=1_000, show_default=True, help="New players to add.")
@click.option("--seed", default=1, show_default=True, help="Random seed (the same seed, the same games).")
@click.option("--misere-share", default=0.0, show_default=True, help="Share of Misère games (0 to 1).")
@click.option("--days", default=730, show_default=True, help="Games are spread over this many past days.")
@with_appcontext
def seed_demo_command(games: int, players: int, seed: int, misere_share: float, days: int) -> None:
    """Add random legal finished games among new players, in bulk (for benchmarks and demos)."""
    if players < 4 or games < 0 or days < 1:
        raise click.BadParameter("give at least 4 players, no negative games and at least 1 day")
    started = time.perf_counter()
    report = seed_demo(games, players, seed=seed, misere_share=misere_share, days=days)
    click.echo(
        f"Added {report.players} players, {report.games} games and {report.deals} deals "
        f"in {time.perf_counter() - started:.1f} s."
    )
