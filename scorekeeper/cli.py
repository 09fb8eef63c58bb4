"""Command-line entry points: serving for the table (``make run``), schema upgrades, backups, transfers."""

from __future__ import annotations

import logging
import signal
import socket
import sqlite3
import sys
from pathlib import Path
from typing import Any, BinaryIO

import click
import segno
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from .extensions import db


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def phone_url(host: str, port: int) -> tuple[str, bool]:
    """The address to open on a phone, and whether other devices can reach it."""
    if host in ("0.0.0.0", "::", ""):
        address = lan_address()
        if address:
            return f"http://{address}:{port}/", True
        return f"http://127.0.0.1:{port}/", False
    shown = "127.0.0.1" if host == "localhost" else host
    return f"http://{shown}:{port}/", not shown.startswith("127.")


def banner(host: str, port: int, admin_key: str | None = None) -> str:
    url, reachable = phone_url(host, port)
    lines = ["", f"  Scorekeeper is running: {url}"]
    if reachable:
        lines.append("  Open it on a phone on the same Wi-Fi, or scan:")
        code = segno.make(url, error="l")
        qr = _terminal_qr(code)
        lines.append(qr)
    else:
        lines.append("  Only this computer can reach it. To open it on a phone on the same Wi-Fi:")
        lines.append("      HOST=0.0.0.0 make run")
    if admin_key:
        lines.append(f"  Administrator key (rename and merge players; sign in at {url}admin): {admin_key}")
    lines.append("  Stop with Ctrl+C.")
    lines.append("")
    return "\n".join(lines)


def _terminal_qr(code: segno.QRCode) -> str:
    """The QR code drawn with half-block characters (two module rows per text line)."""
    rows = [list(row) for row in code.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    out = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        # Dark modules are drawn as spaces on a light terminal cell, so print inverted.
        chars = []
        for upper, lower in zip(top, bottom, strict=True):
            chars.append({(0, 0): "█", (1, 0): "▄", (0, 1): "▀", (1, 1): " "}[(upper, lower)])
        out.append("    " + "".join(chars))
    return "\n".join(out)


#: ``make run``: Waitress, a pure-Python server (Linux, macOS and Windows alike) whose one
#: event loop reads every request whole, body included, before a thread runs the app: a phone
#: that sends half a request and waits (or twenty, or fifty) costs a socket and a buffer, never
#: a thread, and everyone else is answered at once.  The settings (``waitress.create_server``;
#: ``serving.create`` adds how many connections, poll(), and the queue that puts a Save first):
RUN_SERVER: dict[str, Any] = {
    # Threads running the app.  A request holds one for milliseconds, or up to the database's
    # lock timeout (15 s) behind another writer: eight keep a few tables' phones answered.
    "threads": 8,
    # A connection silent this long (idle, or stopped mid-request) is closed, checked this often.
    # A phone polls every few seconds, so its connection stays open between polls (as many as
    # the OS allows: ``serving.connection_limit``).
    "channel_timeout": 30,
    "cleanup_interval": 10,
    # Headers beyond this are refused (431).  A body is read whole up to a length well past the
    # app's own limit (MAX_CONTENT_LENGTH), and the app refuses it (413, in the API's words); what
    # the server buffers for a request stays small, since a longer one is not read but refused at
    # once, the app answering still (``serving``).  Set from the app's limit in ``serve``.
    "max_request_header_size": 64 * 1024,
    # The app alone reads X-Forwarded-* (SCOREKEEPER_PROXY_HOPS: ProxyFix), as under gunicorn:
    # Waitress neither trusts nor strips them (its default would strip them from every client).
    "clear_untrusted_proxy_headers": False,
    "url_scheme": "http",  # no TLS here: behind a proxy that terminates it, the app takes its word
}


def serve() -> None:
    """``make run``: upgrade the database, print the address to open on a phone, serve with Waitress.

    The app is built (and the schema upgraded) before the socket is opened, and the address
    is printed once it is listening: a person sees it at once, and no development server is
    involved.  Ctrl+C (or SIGTERM) stops it cleanly.
    """
    from . import create_app, serving
    from .config import Settings
    from .database import upgrade_schema

    settings = Settings.from_environ()
    app = create_app()
    if not app.config["AUTO_MIGRATE"]:  # create_app has upgraded it otherwise
        upgrade_schema(app)
    logging.basicConfig(format="%(asctime)s [%(levelname)s] %(name)s: %(message)s", level=logging.WARNING)
    body_limit = 16 * int(app.config["MAX_CONTENT_LENGTH"])
    try:
        server = serving.create(
            app,
            map={},
            host=settings.host,
            port=settings.port,
            max_request_body_size=body_limit,
            **RUN_SERVER,
        )
    except OSError as error:
        reason = error.strerror or str(error)
        where = f"{settings.host}:{settings.port}"
        sys.exit(f"Cannot serve on {where}: {reason}. (Another port: PORT=8001 make run)")
    signal.signal(signal.SIGTERM, _stop)
    print(banner(settings.host, settings.port, app.config["ADMIN_KEY"]), flush=True)
    server.run()  # until Ctrl+C; then running requests get up to 5 s to finish


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)  # Waitress's loop closes down on it as on Ctrl+C


@click.command("db-upgrade")
@with_appcontext
def db_upgrade_command() -> None:
    """Create the database or bring its schema up to date."""
    from .database import upgrade_schema

    upgrade_schema(current_app._get_current_object())  # type: ignore[attr-defined]
    click.echo(f"Database ready: {db.engine.url.render_as_string(hide_password=True)}")


@click.command("backup")
@click.argument("destination", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(destination: Path) -> None:
    """Copy the SQLite database to DESTINATION safely while the app runs (online backup API)."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database:
        raise click.ClickException("backup copies SQLite databases; for PostgreSQL use pg_dump.")
    destination.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(url.database)
    target = sqlite3.connect(destination)
    try:
        with target:
            source.backup(target)
    finally:
        target.close()
        source.close()
    click.echo(f"Backed up {url.database} to {destination}")


@click.command("export-game")
@click.argument("game_id")
@with_appcontext
def export_game_command(game_id: str) -> None:
    """Print game GAME_ID's export (JSON: its facts) to standard output."""
    import json

    from . import services, transfer
    from .rules import Refusal

    try:
        exported = transfer.export_game(services.snapshot(game_id))
    except Refusal as refused:
        raise click.ClickException(refused.message) from None
    click.echo(json.dumps(exported, ensure_ascii=False, indent=2))


@click.command("import-game")
@click.argument("source", type=click.File("rb"))
@with_appcontext
def import_game_command(source: BinaryIO) -> None:
    """Import the export in SOURCE (a file, or - for standard input) as a new game; prints its id and key."""
    import json

    from . import transfer
    from .rules import Refusal

    try:
        loaded, key = transfer.import_game(json.loads(source.read()))
    except (ValueError, RecursionError) as error:
        message = error.message if isinstance(error, Refusal) else "the file is not valid JSON"
        raise click.ClickException(f"Not imported: {message}") from None
    click.echo(f"Imported game {loaded.id} ({loaded.ruleset.name}: {', '.join(loaded.setup.players)}).")
    click.echo(f"Edit key (shown once): {key}")


@click.command("rebuild-stats")
@with_appcontext
def rebuild_stats_command() -> None:
    """Rewrite every game's figures for rankings from its replay (after a manual repair)."""
    from .services import rebuild_results

    click.echo(f"Rebuilt the figures of {rebuild_results()} games.")


class MigrationCommands(click.Group):
    """``flask db ...``: Flask-Migrate's commands, loaded when one is asked for.

    The app registers Flask-Migrate only when a migration runs (``register_migrations``):
    this group does it for the command line, then hands over to Flask-Migrate's own group.
    """

    @staticmethod
    def _commands(ctx: click.Context) -> click.Group:
        from flask.cli import ScriptInfo
        from flask_migrate.cli import db as commands

        from .database import register_migrations

        register_migrations(ctx.ensure_object(ScriptInfo).load_app())
        group: click.Group = commands
        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self._commands(ctx).list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._commands(ctx).get_command(ctx, cmd_name)


@click.group("db", cls=MigrationCommands)
@click.option("-d", "--directory", default=None, help='Migration script directory (default is "migrations")')
@click.option("-x", "--x-arg", multiple=True, help="Additional arguments consumed by custom env.py scripts")
@with_appcontext
def migration_commands(directory: str | None, x_arg: tuple[str, ...]) -> None:
    """Perform database migrations (Flask-Migrate)."""
    # What Flask-Migrate's own group does before its commands, which read these.
    g.directory = directory
    g.x_arg = x_arg


def register(app: Flask) -> None:
    app.cli.add_command(migration_commands)
    app.cli.add_command(rebuild_stats_command)
    app.cli.add_command(db_upgrade_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(export_game_command)
    app.cli.add_command(import_game_command)


def main() -> None:
    """``scorekeeper serve`` (used by ``make run``)."""
    command = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if command == "serve":
        serve()
    else:
        sys.exit(f"usage: {Path(sys.argv[0]).name} serve")


if __name__ == "__main__":
    main()
