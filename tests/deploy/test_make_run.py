"""`make run` (``scorekeeper serve``): a production server for the table, with the address to open."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_serve_upgrades_the_database_prints_the_address_and_serves_with_gunicorn(tmp_path: Path) -> None:
    port = free_port()
    instance = tmp_path / "instance"
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "SCOREKEEPER_INSTANCE": str(instance)}
    for name in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_AUTO_MIGRATE"):
        env.pop(name, None)
    env["SCOREKEEPER_AUTO_MIGRATE"] = "0"  # serve upgrades the database itself, whatever this says
    command = [sys.executable, "-c", "from scorekeeper.cli import main; main()", "serve"]
    server = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stdout.read().decode() if server.stdout else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/new", timeout=5) as response:
                    assert response.status == 200
                    software = response.headers.get("Server", "")
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer in 60 s"
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGINT)  # Ctrl+C in the terminal
        output = server.communicate(timeout=30)[0].decode()
    assert software.startswith("gunicorn"), software
    assert f"Scorekeeper is running: http://127.0.0.1:{port}/" in output
    assert "development server" not in output
    assert (instance / "scorekeeper.sqlite3").is_file()
