"""`make audit`: the pages Lighthouse CI audits, made real, then `lhci` itself.

Everything about the audit (mobile settings, three runs a page judged by their median,
the score thresholds, Debian's Chromium) is in lighthouserc.json; this script only gives
Lighthouse something to look at. It starts the production server (gunicorn) on a free port
with a fresh SQLite database, makes a game halfway through (the next deal declared) and a
finished one through the JSON API, and hands lhci the home page, both game pages as the
scorer's phone sees them (with its edit keys) and the scoresheet. Every run's report lands
in test-output/lighthouse/ (manifest.json marks the median run of each page).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LHCI = ROOT / "node_modules" / ".bin" / "lhci"
REPORTS = ROOT / "test-output" / "lighthouse"  # lighthouserc.json: upload.outputDir
# The hand-scored game of tests/helpers.py: each deal's contract and tricks (Ann, Bob, Cid); Cid deals first.
NAMES = ["Ann", "Bob", "Cid"]
DEALS = [
    ("hearts", (8, 4, 1)), ("clubs", (2, 6, 5)), ("mizerka", (4, 9, 0)), ("mizerka", (3, 3, 7)),
    ("diamonds", (0, 9, 4)), ("no-trumps", (5, 2, 6)), ("clubs", (10, 3, 0)), ("hearts", (1, 7, 5)),
    ("spades", (3, 1, 9)), ("no-trumps", (6, 6, 1)), ("spades", (2, 8, 3)), ("hearts", (6, 0, 7)),
    ("spades", (7, 6, 0)), ("no-trumps", (0, 10, 3)), ("diamonds", (4, 1, 8)), ("diamonds", (9, 3, 1)),
    ("mizerka", (6, 2, 5)), ("clubs", (5, 3, 5)),
]  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(instance: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env.update(SCOREKEEPER_INSTANCE=str(instance), SECRET_KEY="audit-secret-key", RATELIMIT_ENABLED="0")
    command = [sys.executable, "-m", "gunicorn", "--workers", "2", "--threads", "4", "--no-control-socket"]
    command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    log = (instance / "server.log").open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return server, url
        except OSError:  # refused, reset or timed out while it starts
            time.sleep(0.2)
    server.kill()
    sys.exit("audit: the server did not start:\n" + (instance / "server.log").read_text())


def api(url: str, path: str, body: Any, key: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    request = urllib.request.Request(url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def make_game(url: str, deals: int, declare_next: bool = False) -> tuple[str, str]:
    """A game with its first ``deals`` deals played (and the next one declared): its id and edit key."""
    created = api(url, "/api/v1/games", {"players": NAMES, "first_dealer": "Cid"})
    game_id, key = created["id"], created["edit_key"]
    for number, (contract, tricks) in enumerate(DEALS[:deals], start=1):
        body = {"number": number, "contract": contract, "tricks": dict(zip(NAMES, tricks, strict=True))}
        api(url, f"/api/v1/games/{game_id}/deals", body, key)
    if declare_next:
        api(url, f"/api/v1/games/{game_id}/deals", {"number": deals + 1, "contract": DEALS[deals][0]}, key)
    return game_id, key


def scorer_cookie(url: str, games: dict[str, str]) -> str:
    """The scorer's device cookie holding these games (id -> key): the server takes over the old
    per-game key cookies sent once and answers with the phone's one device cookie."""
    from http.cookies import SimpleCookie

    old = "; ".join(f"sk_edit_{game_id}={key}" for game_id, key in games.items())
    game_id = next(iter(games))
    request = urllib.request.Request(f"{url}/games/{game_id}", headers={"Cookie": old})
    with urllib.request.urlopen(request, timeout=30) as response:
        jar: SimpleCookie = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
    return f"sk_device={jar['sk_device'].value}"


def lhci(*args: str) -> int:
    return subprocess.run([str(LHCI), *args], cwd=ROOT).returncode


def main() -> int:
    if not LHCI.exists():
        sys.exit("audit: Lighthouse CI is not installed; run `npm ci` in the repository first")
    with tempfile.TemporaryDirectory(prefix="scorekeeper-audit-") as instance:
        server, url = start_server(Path(instance))
        try:
            playing, playing_key = make_game(url, deals=9, declare_next=True)
            finished, finished_key = make_game(url, deals=18)
            # Pages as anyone sees them, then the game pages as the scorer's phone sees them all evening.
            collected = lhci("collect", f"--url={url}/", f"--url={url}/games/{finished}/scoresheet")
            if collected == 0:
                cookie = scorer_cookie(url, {playing: playing_key, finished: finished_key})
                collected = lhci(
                    "collect",
                    "--additive",
                    f"--url={url}/games/{playing}",
                    f"--url={url}/games/{finished}",
                    f"--settings.extraHeaders.Cookie={cookie}",
                )
        finally:
            server.terminate()
            server.wait(timeout=20)
    if collected != 0:
        return collected
    shutil.rmtree(REPORTS, ignore_errors=True)  # this run's reports only
    uploaded = lhci("upload")  # every run's report, HTML and JSON, even when an assertion fails
    if uploaded == 0:
        manifest = json.loads((REPORTS / "manifest.json").read_text())
        for run in (run for run in manifest if run["isRepresentativeRun"]):
            scores = ", ".join(f"{category} {score:.2f}" for category, score in run["summary"].items())
            print(f"{urllib.parse.urlsplit(run['url']).path:<32} {scores}  (median run)")
    return lhci("assert") or uploaded


if __name__ == "__main__":
    sys.exit(main())
