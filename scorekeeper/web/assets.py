"""The static files as a phone gets them: scripts and stylesheets minified by rjsmin and rcssmin,
so their comments and indentation, written for the people who read ``static/``, do not travel;
every other file as it is.  Flask's own static view with the minified bytes in place of the
file's: the same ``ETag`` and ``Last-Modified`` (the file's), ranges and 304s, gzip after.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable

import rcssmin
import rjsmin
from flask import Flask, Response, abort, current_app, send_file
from werkzeug.security import safe_join

MINIFIERS: dict[str, tuple[Callable[[str], str], str]] = {
    ".js": (rjsmin.jsmin, "text/javascript"),
    ".css": (rcssmin.cssmin, "text/css"),
}


@functools.lru_cache(maxsize=32)
def minified(path: str, modified: float) -> bytes:
    """The file at ``path`` minified, once per version of it (``modified``: its mtime)."""
    minify, _ = MINIFIERS[os.path.splitext(path)[1]]
    with open(path, encoding="utf-8") as source:
        return minify(source.read()).encode()


def static_file(filename: str) -> Response:
    """``/static/<filename>``: a script or stylesheet minified, anything else as Flask sends it."""
    app = current_app
    kind = MINIFIERS.get(os.path.splitext(filename)[1])
    path = safe_join(app.static_folder or "", filename)
    if kind is None or path is None or not os.path.isfile(path):
        return app.send_static_file(filename) if path else abort(404)
    stat = os.stat(path)
    body = minified(path, stat.st_mtime)
    return send_file(
        io.BytesIO(body),
        mimetype=kind[1],
        conditional=True,
        etag=f"{stat.st_mtime}-{stat.st_size}-min",
        last_modified=stat.st_mtime,
        max_age=app.get_send_file_max_age(filename),
    )


def register(app: Flask) -> None:
    app.view_functions["static"] = static_file
