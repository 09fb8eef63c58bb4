"""Web tests build an app per test; compiled templates are shared between them to keep the suite fast."""

from __future__ import annotations

import pytest
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class SharedBytecodeCache(BytecodeCache):
    """Compiled templates kept in memory for the whole run (a changed source is recompiled: checksums)."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.store.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CACHE = SharedBytecodeCache()


@pytest.fixture(autouse=True)
def _shared_template_cache(app: Flask) -> None:
    app.jinja_env.bytecode_cache = TEMPLATE_CACHE
