"""The web app manifest in the request's language (its description; the name is the brand).

``static/manifest.webmanifest`` is the English original and stays served for anything that
links to it; pages link to ``/manifest.webmanifest``, drawn from it with the description
translated and the icons' addresses made absolute (the static folder is elsewhere).
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Flask, current_app, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from .i18n import current_language
from .messages import join_names
from .rules import RULESETS

CONTENT_TYPE = "application/manifest+json"


def games() -> str:
    """The registered games' names as a list in the request's language ("A, B and C")."""
    return join_names([gettext(ruleset.name) for ruleset in RULESETS.values()])


def description() -> str:
    """What the installed app says it is, in the request's language."""
    text: str = gettext("Keeps the score of card games played with a real deck: %(games)s.", games=games())
    return text


def _original() -> dict[str, Any]:
    static = current_app.static_folder or ""
    with open(os.path.join(static, "manifest.webmanifest"), encoding="utf-8") as source:
        loaded: dict[str, Any] = json.load(source)
    return loaded


def manifest() -> Response:
    """The manifest for this phone's language; cached like a page, per language."""
    document = _original()
    document["description"] = description()
    document["lang"] = current_language()
    for icon in document["icons"]:
        icon["src"] = url_for("static", filename=icon["src"])
    response = current_app.response_class(
        json.dumps(document, ensure_ascii=False, indent=2), mimetype=CONTENT_TYPE
    )
    response.headers["Vary"] = "Accept-Language, Cookie"
    response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    app.jinja_env.globals["game_names"] = games
    app.add_url_rule("/manifest.webmanifest", endpoint="manifest", view_func=manifest)
