"""Migration 0015 keeps each idempotency key's answer compressed, the same bytes once decompressed."""

from __future__ import annotations

import zlib

from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from scorekeeper.database import migrations_dir
from scorekeeper.extensions import db

GAME = (
    "INSERT INTO games (id, ruleset, options, first_dealer, edit_key_hash, version, played_on, created_at,"
    " updated_at) VALUES ('g1', 'mizerka', '{}', 0, 'x', 3, '2026-11-27', :at, :at)"
)
KEY = (
    "INSERT INTO idempotency_keys (game_id, key, fingerprint, status, body, created_at)"
    " VALUES ('g1', :key, :print, :status, :body, :at)"
)
ANSWERS = {"deal-5": (201, '{"number":5,"dealer":"Żaneta"}\n'), "undo-5": (204, "")}
AT = "2026-11-27 20:00:00"


def test_answers_are_compressed_and_come_back_as_they_were(old_app: Flask) -> None:
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0014")
        db.session.execute(text(GAME), {"at": AT})
        for key, (status, body) in ANSWERS.items():
            db.session.execute(
                text(KEY), {"key": key, "print": "f" * 64, "status": status, "body": body, "at": AT}
            )
        db.session.commit()
        upgrade(directory=migrations_dir(), revision="0015")
        rows = db.session.execute(text("SELECT key, status, answer FROM idempotency_keys ORDER BY key")).all()
        assert {key: (status, zlib.decompress(answer).decode()) for key, status, answer in rows} == ANSWERS
        db.session.commit()
        downgrade(directory=migrations_dir(), revision="0014")
        rows = db.session.execute(text("SELECT key, status, body FROM idempotency_keys ORDER BY key")).all()
        assert {key: (status, body) for key, status, body in rows} == ANSWERS
        db.session.remove()
