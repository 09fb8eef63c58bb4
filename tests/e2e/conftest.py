"""Browser tests: the real server (`make run`'s, SQLite) driven by Playwright in Debian's Chromium.

They run once, on SQLite, whatever TEST_DATABASE_URL says: they prove what a person sees, not the
storage layer. Without a Chromium they are skipped on a laptop with a clear message, and fail under CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest
from e2e_support import (
    CHROMIUM_FLAGS,
    PHONE,
    ROOT,
    Games,
    LiveServer,
    find_chromium,
    in_ci,
    make_games,
    new_context,
)
from helpers import free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

HERE = Path(__file__).resolve().parent
SKIPPED_BROWSER_TESTS: list[str] = []


def _unavailable(reason: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"CI must run the browser tests, but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}; CI installs Debian's chromium and runs them")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "e2e" in Path(report.location[0]).parts:
        SKIPPED_BROWSER_TESTS.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Belt and braces for "CI fails if they were skipped": one skipped browser test fails the run.
    if in_ci() and SKIPPED_BROWSER_TESTS:
        print(
            f"\nci: {len(SKIPPED_BROWSER_TESTS)} browser tests were skipped, e.g. {SKIPPED_BROWSER_TESTS[0]}"
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@contextmanager
def running_server(instance: Path, *, before: str = "", **settings: str) -> Iterator[LiveServer]:
    """The server a person runs (``make run``: ``scorekeeper serve``), on a free port and a fresh SQLite.

    ``before``: Python run in the server's process before it starts (a test's change to the app).
    """
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    # The browser tests make games through the API far faster than people do: no rate limit here,
    # and no creation budget (one test makes 300 games in one phone).
    env.update(
        SCOREKEEPER_INSTANCE=str(instance),
        SECRET_KEY="e2e-secret-key",
        RATELIMIT_ENABLED="0",
        GAME_CREATE_RATE_LIMIT="100000 per minute",
        HOST="127.0.0.1",
        PORT=str(port),
        **settings,
    )
    log_path = instance / "server.log"
    command = [sys.executable, "-c", f"{before}\nfrom scorekeeper.cli import main; main()", "serve"]
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:  # refused, reset or timed out while it starts
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the server did not start:\n" + log_path.read_text())
            time.sleep(0.1)
        yield LiveServer(url)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The server a person runs, for the whole run (``running_server``)."""
    with running_server(tmp_path_factory.mktemp("e2e-instance")) as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Debian Chromium for the whole run."""
    executable = find_chromium()
    if executable is None:
        _unavailable("no Chromium was found (looked for /usr/bin/chromium and `chromium` on PATH)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    manager = sync_playwright().start()
    try:
        launched = manager.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        yield launched
        launched.close()
    finally:
        manager.stop()


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A phone: 390x844 CSS px, device scale 3, touch."""
    context = new_context(browser, PHONE)
    yield context
    context.close()


@pytest.fixture(scope="session")
def games(live_server: LiveServer) -> Games:
    """Games at the start, mid-game, with tricks to enter, and finished (made through the API)."""
    return make_games(live_server)
