"""Fuzz tests: hypothesis state machines and schemathesis, each bounded to keep the folder under a minute.

They reuse the API tests' checker (every answer validated against the OpenAPI document).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

API_TESTS = str(Path(__file__).resolve().parents[1] / "api")
if API_TESTS not in sys.path:
    sys.path.insert(0, API_TESTS)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """With --hypothesis-show-statistics, what the fuzzers did: examples, steps, requests, refusals."""
    from fuzz_support import STATS

    if STATS and config.getoption("hypothesis_show_statistics", False):
        terminalreporter.section("Fuzz statistics")
        for name, count in sorted(STATS.items()):
            terminalreporter.write_line(f"{name}: {count}")
