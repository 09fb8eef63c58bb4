"""The scripts' pure parts (tests/js/*.test.js), run by Node's own test runner (`node --test`).

Without Node they are skipped with a notice on a laptop, and fail under CI (CI=true), as the
browser tests are with Chromium (tests/e2e/conftest.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "js"


def test_the_scripts_logic_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the JavaScript unit tests, but `node` is not on PATH", pytrace=False)
        pytest.skip("JavaScript unit tests skipped: `node` is not on PATH; CI installs Node and runs them")
    assert list(SCRIPTS.glob("*.test.js")), "no tests/js/*.test.js"
    run = subprocess.run(
        [node, "--test", "tests/js"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
