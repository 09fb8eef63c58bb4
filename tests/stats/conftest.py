"""Fixtures for statistics tests: the hand-scored season, built once per module and backend."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.extensions import db
from tests.conftest import BACKENDS, make_test_app
from tests.stats.dataset import build_season


@pytest.fixture(scope="module", params=BACKENDS)
def season(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """(app, game ids by label): read-only tests share one database with the season in it."""
    app = make_test_app(str(request.param), tmp_path_factory.mktemp("season"), request)
    with app.app_context():
        ids = build_season()
        db.session.remove()
    yield app, ids
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def season_app(season: Any) -> Iterator[Flask]:
    app, _ids = season
    with app.app_context():
        yield app
        db.session.remove()
