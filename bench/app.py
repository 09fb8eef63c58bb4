"""The benchmark's app: the product's ``create_app()`` plus the yardstick route and the seeder command.

    PORT=5201 .venv/bin/python -m bench.app               # served as `make run` serves the product
    flask --app bench.app:create_bench_app seed-demo      # random legal finished games, in bulk

The product never imports this package: ``scorekeeper:create_app()`` has no ``/_bench`` route.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper import create_app
from scorekeeper.cli import RUN_SERVER
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


def serve() -> None:
    """Serve the benchmark's app on ``HOST``:``PORT`` as ``scorekeeper serve`` (``make run``) serves
    the product's: Waitress with the same settings, the schema brought up to date first."""
    from scorekeeper import serving

    app = create_bench_app()
    body_limit = 16 * int(app.config["MAX_CONTENT_LENGTH"])
    host, port = os.environ.get("HOST", "127.0.0.1"), int(os.environ.get("PORT", "5201"))
    server = serving.create(app, map={}, host=host, port=port, max_request_body_size=body_limit, **RUN_SERVER)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    server.run()


if __name__ == "__main__":
    serve()
