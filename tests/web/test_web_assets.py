"""Scripts and stylesheets travel minified (web/assets.py): without the comments written for their
readers, the same code (the queue's logic passes its Node tests as served), revalidated and
ranged as any static file; other static files as they are on disk."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]


def fetch(client: FlaskClient, url: str, **headers: str) -> Any:
    with client.get(url, headers=headers) as response:
        response.get_data()
        return response


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI must check the served scripts with Node, but `node` is not on PATH", pytrace=False
            )
        pytest.skip("`node` is not on PATH")
    return found


@pytest.mark.parametrize(
    ("url", "mimetype"),
    [
        ("/static/js/app.js", "text/javascript"),
        ("/static/js/entry.js", "text/javascript"),
        ("/static/js/game.js", "text/javascript"),
        ("/static/js/offline.js", "text/javascript"),
        ("/static/js/offline_parts.js", "text/javascript"),
        ("/static/js/queue.js", "text/javascript"),
        ("/static/js/sw.js", "text/javascript"),
        ("/static/css/app.css", "text/css"),
        ("/static/css/print.css", "text/css"),
        ("/static/css/taps.css", "text/css"),
    ],
)
def test_scripts_and_stylesheets_travel_without_their_comments(
    client: FlaskClient, url: str, mimetype: str
) -> None:
    source = (ROOT / url.lstrip("/")).read_text(encoding="utf-8")
    served = fetch(client, url)
    text = served.get_data(as_text=True)
    assert served.status_code == 200 and served.mimetype == mimetype
    assert "/*" in source and "/*" not in text, "comments stay home"
    assert len(text) < len(source)
    again = fetch(client, url, **{"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    ranged = fetch(client, url, Range="bytes=0-99")
    assert ranged.status_code == 206 and ranged.data == served.data[:100]


def test_the_queue_as_served_passes_its_node_tests_and_every_script_parses(
    client: FlaskClient, tmp_path: Path
) -> None:
    runner = node()
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "tests" / "js").mkdir(parents=True)
    for name in sorted(script.name for script in (ROOT / "static" / "js").glob("*.js")):
        script = tmp_path / "static" / "js" / name
        script.write_bytes(fetch(client, f"/static/js/{name}").data)
        check = subprocess.run([runner, "--check", str(script)], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, f"{name} as served: {check.stderr[-2000:]}"
    shutil.copy(ROOT / "tests" / "js" / "queue.test.js", tmp_path / "tests" / "js")
    run = subprocess.run(
        [runner, "--test", "tests/js"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_other_static_files_are_sent_as_they_are(client: FlaskClient) -> None:
    icon = fetch(client, "/static/icons/icon.svg")
    assert icon.status_code == 200 and icon.data == (ROOT / "static" / "icons" / "icon.svg").read_bytes()
    assert fetch(client, "/static/js/nothing.js").status_code == 404
    assert fetch(client, "/static/../pyproject.toml").status_code == 404


def test_no_script_of_ours_is_over_500_lines() -> None:
    """A script is read whole by the person changing it: split along its seams before it grows past 500."""
    lines = {
        script.name: len(script.read_text(encoding="utf-8").splitlines())
        for script in (ROOT / "static" / "js").glob("*.js")
    }
    assert lines and {name: count for name, count in lines.items() if count > 500} == {}
