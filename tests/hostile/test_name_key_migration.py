"""Migration 0003 recomputes the stored name keys, so look-alikes of old names find the old person."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import select, text

from scorekeeper.database import migrations_dir
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import find_player

PLAYERS = (
    "INSERT INTO players (id, name, name_key, created_at) VALUES (:id, :name, :key, '2025-11-07 20:00:00')"
)


def test_old_name_keys_are_recomputed_and_collisions_stay_two_records(old_app: Flask) -> None:
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0002")
        # As 0002 stored them: the case fold of the NFC name.
        for player, name in enumerate(("Ann", "Ｂｏｂ", "Bob", "ﬁona"), start=1):
            db.session.execute(text(PLAYERS), {"id": player, "name": name, "key": name.casefold()})
        db.session.commit()
        upgrade(directory=migrations_dir(), revision="0003")
        keys = {row[0]: row[1] for row in db.session.execute(select(Player.name, Player.name_key))}
        # Ｂｏｂ's new key is Bob's: it keeps its old one, and the two stay two records (to merge).
        assert keys == {"Ann": "ann", "Ｂｏｂ": "ｂｏｂ", "Bob": "bob", "ﬁona": "fiona"}
        assert find_player("FIONA").name == "ﬁona"
        db.session.remove()


def test_the_migration_computes_the_engine_s_key() -> None:
    """The migration carries its own copy of the key: the same as the engine's, for any text."""
    import importlib.util

    from hypothesis import given
    from hypothesis import strategies as st

    from scorekeeper.database import migrations_dir
    from scorekeeper.rules import name_key as engine_key

    path = Path(migrations_dir()) / "versions" / "0003_name_keys_fold_look_alikes.py"
    spec = importlib.util.spec_from_file_location("migration_0003", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)

    @given(st.text(max_size=40))
    def same(name: str) -> None:
        assert migration.name_key(name) == engine_key(name)

    same()
