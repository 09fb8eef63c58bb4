"""Parts of pages that nothing a request brings changes but its language: drawn once, then cached.

Each is a template's macro (so it draws as an ``{% include %}`` of the same text would, and the
tests that read what a template says still see it as the template's), drawn for a ``key`` that
names everything it depends on besides the language, and cached by the app: the oldest goes once
``MOST_CACHED`` are cached.  In debug, where templates reload as they are edited, nothing is cached.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app, get_template_attribute
from markupsafe import Markup

from ..i18n import current_language

#: How many drawings the app caches: a club evening's tables' offline parts, in each language (one
#: is 40-120 KB: some 30 MB at most per process).
MOST_CACHED = 512
_lock = threading.Lock()


def drawn(template: str, macro: str, key: Hashable, arguments: Callable[[], tuple[Any, ...]]) -> Markup:
    """``macro`` of ``template`` called with ``arguments()``, drawn once per ``key`` and language
    (the arguments are made only to draw it)."""
    cache: dict[Hashable, Markup] = current_app.extensions.setdefault("cached_drawings", {})
    name = (template, macro, key, current_language())
    drawing = cache.get(name)
    if drawing is None:
        drawing = get_template_attribute(template, macro)(*arguments())
        if not current_app.jinja_env.auto_reload:
            with _lock:
                if len(cache) >= MOST_CACHED:
                    del cache[next(iter(cache))]
                cache[name] = drawing
    return drawing


def ui_strings(offline: bool) -> Markup:
    """The texts the page's scripts read (``templates/_ui_strings.html``), the offline entry's too
    where ``offline``: the same on every page in a language."""
    return drawn("_ui_strings.html", "texts", offline, lambda: (offline,))
