"""Club-night tests call the services directly: each runs inside the test app's context."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.extensions import db


@pytest.fixture
def ctx(app: Flask) -> Iterator[Flask]:
    with app.app_context():
        yield app
        db.session.remove()
