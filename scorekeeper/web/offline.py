"""The service worker: served from the site's root, named by the static files' content.

``/sw.js`` is ``static/js/sw.js`` with three constants put in front: ``VERSION``, a hash of
every static file, ``PRECACHE``, the files a phone keeps for the game page to open
without the network (and its manifest), and ``FACTS``, the facts the registered games' deals may
carry (``plan.declaration``), for the queue.  Any change to a static file changes the worker's bytes, so the
browser installs the new worker (it compares them on every visit: the route answers
``no-cache``), which fetches the new files and drops the old ones.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import current_app, make_response, url_for
from werkzeug.wrappers import Response

from ..rules import RULESETS, TRICKS, every_fact
from . import bp
from .games.plan import declaration

#: The static files a phone keeps (by their path under static/): the game page's look and script,
#: and the stylesheets each game declares (``precache``).  The worker keeps the manifest the pages link too,
#: ``/manifest.webmanifest`` (in the language it was last fetched in, like the pages), not the English
#: original under static/.
PRECACHE = (
    "css/app.css",
    "css/print.css",
    "css/noscript.css",
    "js/app.js",
    "js/entry.js",
    "js/game.js",
    "js/queue.js",
    "js/offline_parts.js",
    "js/offline.js",
    "icons/icon.svg",
    "icons/icon-192.png",
)
WORKER = "js/sw.js"


def precache() -> tuple[str, ...]:
    """``PRECACHE`` and the stylesheets the registered games declare (``Ruleset.stylesheets``)."""
    games = (name for ruleset in RULESETS.values() for name in ruleset.stylesheets)
    return (*PRECACHE, *dict.fromkeys(name for name in games if name not in PRECACHE))


def static_version(static_folder: str) -> str:
    """A hash of every file under ``static_folder`` (paths and contents), read once per process."""
    versions: dict[str, str] = current_app.extensions.setdefault("scorekeeper_static_version", {})
    if static_folder not in versions:
        digest = hashlib.sha256()
        root = Path(static_folder)
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        versions[static_folder] = digest.hexdigest()[:16]
    return versions[static_folder]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker script for the whole site (scope ``/``), never served stale by a cache."""
    folder = current_app.static_folder
    assert folder is not None
    source = (Path(folder) / WORKER).read_text(encoding="utf-8")
    files = [url_for("static", filename=name) for name in precache()] + [url_for("manifest")]
    facts = [declaration(fact) for fact in (TRICKS, *every_fact().values())]
    head = (
        f"const VERSION = {json.dumps(static_version(folder))};\nconst PRECACHE = {json.dumps(files)};\n"
        f"const FACTS = {json.dumps(facts)};\n"
    )
    response = make_response(head + source)
    response.headers["Content-Type"] = "text/javascript; charset=utf-8"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
