"""Adding a game is one module: a made-up one (made_up_game.py: three players, two deals, every trick
costs a point) registers itself through ``rules.register`` in a process of its own, so the games of
every other test stay ours, and is created, played, refused, corrected, exported, imported and
printed through the API and the pages with no other file changed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_a_game_registered_from_its_own_module_is_played_exported_and_printed(tmp_path: Path) -> None:
    script = Path(__file__).with_name("made_up_game.py")
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "game.sqlite3")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said == {
        "created": 201,
        "schedule": ["no-tricks-toy", "no-tricks-toy"],
        "first": [201, {"Ann": -4, "Bob": -9, "Cid": 0}],
        "refused": [422, "tricks_sum"],
        "corrected": 200,
        "second": 201,
        "totals": {"Ann": -1, "Bob": -15, "Cid": -10},
        "status": "finished",
        "imported": [201, {"Ann": -1, "Bob": -15, "Cid": -10}],
        "rulesets": ["mizerka", "misere", "kierki", "barbu", "no-tricks-toy"],
        "page": 200,
        "sheet": 200,
        "csv": 200,
    }
