"""The schema comes from migrations, matches the models, and is built safely at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.database import register_migrations, upgrade_schema
from scorekeeper.extensions import db
from scorekeeper.services.keys import hash_matches
from tests.conftest import database_config

ROOT = Path(__file__).resolve().parents[2]


def reset_postgresql(app: Flask) -> None:
    """Drop every table (the session's own read transaction ended first, or DROP waits on it)."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.session.remove()


@pytest.fixture
def migrated(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """An app whose schema will be built by the migrations alone (no create_all)."""
    app = migrated_app(backend, tmp_path, request)
    yield app
    if backend == "postgresql":
        reset_postgresql(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def migrated_app(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Flask:
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    config = {
        "TESTING": True,
        "SECRET_KEY": "k",
        "AUTO_MIGRATE": False,
        **database_config(backend, tmp_path, request),
    }
    app = create_app(config)
    register_migrations(app)
    if backend == "postgresql":
        # The shared test schema may hold the suite's create_all tables: start from nothing.
        reset_postgresql(app)
    return app


def schema_differences(app: Flask) -> list[Any]:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, db.metadata))


def test_migrated_schema_equals_the_models(migrated: Flask) -> None:
    app = migrated
    upgrade_schema(app)
    assert schema_differences(app) == []
    upgrade_schema(app)  # a second upgrade is a no-op
    assert schema_differences(app) == []


def test_data_written_at_the_first_migration_survives_upgrades(migrated: Flask) -> None:
    """Rows written as the first schema knew them (plain SQL, not today's models) upgrade intact."""
    from flask_migrate import upgrade

    from scorekeeper import services
    from scorekeeper.database import migrations_dir

    app = migrated
    rows = [
        "INSERT INTO players (id, name, name_key, created_at) VALUES "
        "(1, 'Ann', 'ann', '2026-01-02 20:00:00'), (2, 'Bob', 'bob', '2026-01-02 20:00:00'), "
        "(3, 'Cid', 'cid', '2026-01-02 20:00:00')",
        "INSERT INTO games"
        " (id, ruleset, options, first_dealer, edit_key_hash, version, created_at, updated_at)"
        " VALUES ('OldGame0001', 'mizerka', '{}', 0, :hash, 3, '2026-01-02 20:00:00', '2026-01-02 21:00:00')",
        "INSERT INTO seats (game_id, position, player_id) VALUES "
        "('OldGame0001', 0, 1), ('OldGame0001', 1, 2), ('OldGame0001', 2, 3)",
        "INSERT INTO deals (game_id, number, contract, bids, tricks, created_at, updated_at) VALUES "
        "('OldGame0001', 1, 'hearts', NULL, '[1, 7, 5]', '2026-01-02 20:10:00', '2026-01-02 20:10:00'), "
        "('OldGame0001', 2, 'mizerka', NULL, '[6, 2, 5]', '2026-01-02 20:20:00', '2026-01-02 20:20:00')",
    ]
    with app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        for statement in rows:
            db.session.execute(text(statement), {"hash": services.hash_key("old-key")})
        db.session.commit()
        db.session.remove()
    upgrade_schema(app)
    with app.app_context():
        loaded = services.snapshot("OldGame0001")
        state = loaded.state
        assert loaded.setup.players == ("Ann", "Bob", "Cid")
        assert [deal.tricks for deal in state.deals] == [(1, 7, 5), (6, 2, 5)]
        # Deal 1: Ann deals, Bob forehand (hearts); deal 2: Bob deals, Cid forehand (mizerka).
        # Mizerka quotas F1 M5 D7: Cid 1-5 = -4, Ann (middlehand) 5-6 = -1, Bob (dealer) 7-2 = +5.
        assert [deal.scores for deal in state.deals] == [(0, 0, 0), (-1, 5, -4)]
        assert state.totals == (-1, 5, -4)
        assert hash_matches(loaded.edit_key_hash, "old-key")
        db.session.remove()


STARTUP = textwrap.dedent(
    """
    import sys
    from scorekeeper import create_app
    app = create_app()
    response = app.test_client().get("/")
    sys.exit(0 if response.status_code == 200 else 1)
    """
)


def test_several_workers_starting_at_once_build_one_schema(tmp_path: Path) -> None:
    """Four processes start on a brand-new SQLite database at the same moment: all come up."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
        "SCOREKEEPER_AUTO_MIGRATE": "1",
    }
    env.pop("DATABASE_URL", None)
    env.pop("SECRET_KEY", None)
    workers = [
        subprocess.Popen([sys.executable, "-c", STARTUP], env=env, cwd=tmp_path, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    outcomes = [(worker.communicate(timeout=120)[1], worker.returncode) for worker in workers]
    for stderr, returncode in outcomes:
        assert returncode == 0, stderr.decode()
    key_file = tmp_path / "instance" / "secret_key"
    assert len(key_file.read_text().strip()) == 64  # generated once, shared by all workers


LOADS_ALEMBIC = textwrap.dedent(
    """
    import sys
    from scorekeeper import create_app
    app = create_app()
    assert app.test_client().get("/").status_code == 200
    print("alembic" in sys.modules)
    """
)


def test_a_worker_on_a_current_database_never_loads_alembic(tmp_path: Path) -> None:
    """The first start builds the schema with the migrations; later ones see it current and skip Alembic.

    Alembic and its templates would cost each serving worker some 12 MB.
    """
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
        "SCOREKEEPER_AUTO_MIGRATE": "1",
    }
    env.pop("DATABASE_URL", None)

    def start() -> str:
        run = subprocess.run(
            [sys.executable, "-c", LOADS_ALEMBIC], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert start() == "True"  # a new database: migrated
    assert start() == "False"  # current: nothing to run, nothing loaded


def test_the_product_imports_nothing_from_bench() -> None:
    """bench/ (the benchmarks, their app and their seeder) is never imported by the product."""
    script = (
        "import sys; from scorekeeper import create_app; "
        "create_app({'SECRET_KEY': 'k', 'AUTO_MIGRATE': False, 'SQLALCHEMY_DATABASE_URI': 'sqlite://'}); "
        "import scorekeeper.cli; "
        "sys.exit(' '.join(m for m in sys.modules if m == 'bench' or m.startswith('bench.')) or None)"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_newest_revision_read_from_the_files_is_alembic_s_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from scorekeeper.database import migrations_dir, newest_revision

    config = Config()
    config.set_main_option("script_location", migrations_dir())
    assert newest_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_a_database_behind_the_newest_migration_is_not_current(migrated: Flask) -> None:
    from flask_migrate import upgrade

    from scorekeeper.database import migrations_dir, newest_revision, schema_is_current

    app = migrated
    with app.app_context():
        assert not schema_is_current(app)  # no schema at all
        upgrade(directory=migrations_dir(), revision="0003")
        assert not schema_is_current(app)
        upgrade_schema(app)
        assert schema_is_current(app)
        stamp = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        assert stamp == newest_revision()
        db.session.remove()


def test_the_migration_commands_work_from_the_command_line(migrated: Flask) -> None:
    """``flask db ...`` loads Flask-Migrate when asked for: here an upgrade of an empty database."""
    from scorekeeper.database import schema_is_current

    app = create_app({**migrated.config, "AUTO_MIGRATE": False})  # as served: Flask-Migrate not loaded
    assert "migrate" not in app.extensions
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert schema_is_current(app)
        db.session.remove()
        db.engine.dispose()


@pytest.mark.slow
def translated(language: str, message: str) -> str:
    """``message`` as the repository's catalog for ``language`` says it."""
    from babel.messages.pofile import read_po

    path = ROOT / "scorekeeper" / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as catalog:
        entry = read_po(catalog)[message]
    assert entry is not None and entry.string, (language, message)
    return str(entry.string)


def test_installed_wheel_serves_the_pages_from_an_empty_folder(tmp_path: Path) -> None:
    """`pip install .` ships templates, static files and migrations inside the package."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("scorekeeper-*.whl")
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    for shipped in (
        "templates/web/game.html",
        "static/css/app.css",
        "migrations/env.py",
        "translations/pl/LC_MESSAGES/messages.po",
        "translations/it/LC_MESSAGES/messages.po",
    ):
        assert (target / "scorekeeper" / shipped).is_file(), shipped
    empty = tmp_path / "empty"
    empty.mkdir()
    script = STARTUP + textwrap.dedent(
        """
        import scorekeeper
        assert scorekeeper.__file__.startswith(sys.argv[1]), scorekeeper.__file__
        client = app.test_client()
        assert client.get("/games/new").status_code == 200
        assert client.get("/static/css/app.css").status_code == 200
        # Every language ships: the catalogs are inside the package and compiled at start-up.
        for language, words in zip(("pl", "it"), sys.argv[2:]):
            page = client.get("/games/new", headers={"Accept-Language": language}).get_data(as_text=True)
            assert f'<html lang="{language}"' in page and words in page, (language, words)
        """
    ).replace("sys.exit(0 if response.status_code == 200 else 1)", "assert response.status_code == 200")
    env = {**os.environ, "PYTHONPATH": str(target), "SCOREKEEPER_INSTANCE": str(empty / "instance")}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            str(target),
            *(translated(language, "New game") for language in ("pl", "it")),
        ],
        env=env,
        cwd=empty,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert (empty / "instance" / "scorekeeper.sqlite3").is_file()
