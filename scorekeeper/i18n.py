"""The languages the app speaks (English, Polish, Italian), with Flask-Babel and Babel's catalogs.

Which language a request gets:

- the web pages: the one the visitor chose with the EN / PL / IT switch (a cookie remembered on
  that phone), else the best match of the browser's ``Accept-Language``, else English;
- the JSON API: only ``Accept-Language`` (a client asks per request); English by default.

The catalogs live in ``scorekeeper/translations/<lang>/LC_MESSAGES/messages.po`` (edited with
``make translations``, which runs ``pybabel extract`` and ``pybabel update``).  The app compiles
them itself when it starts, into its instance folder, so a fresh clone's ``make run``, the test
suite and an installed wheel all serve every language without a separate build step.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import Flask, g, request
from flask_babel import Babel, get_locale, get_translations

#: The languages offered, by code, each named in its own language (as the switch shows them).
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "it": "Italiano"}
DEFAULT_LANGUAGE = "en"
#: The cookie that remembers the switch's choice on a phone (a year).
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

CATALOGS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"

babel = Babel()
_compiled: dict[str, str] = {}  # catalogs' content hash -> a folder of compiled catalogs (per process)


def chosen_language() -> str | None:
    """The language the switch stored on this phone, if it is one we speak."""
    value = request.cookies.get(COOKIE)
    return value if value in LANGUAGES else None


#: The locale whose dates and numbers each language uses.  English writes dates day first
#: ("20 Dec 2025"), as the tables this app keeps score for do, never the US month-first order.
FORMATS: dict[str, str] = {"en": "en_GB", "pl": "pl_PL", "it": "it_IT"}


def select_locale() -> str:
    """The request's locale (see the module's docstring): its language, with that language's formats."""
    return FORMATS[select_language()]


def select_language() -> str:
    # Under /api/ (the API's views, and its 404 and 405 answers, which no view matched): no cookie.
    if request.blueprint != "api" and not request.path.startswith("/api/"):
        chosen = chosen_language()
        if chosen is not None:
            return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT_LANGUAGE)


def current_language() -> str:
    """The code of the language this request is served in (``en``, ``pl`` or ``it``)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def _catalog_sources() -> list[Path]:
    return sorted(CATALOGS.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_catalogs(into: str | os.PathLike[str]) -> str:
    """Compile every ``.po`` catalog into ``into`` (once per content and process); the folder used.

    The compiled files are named by a hash of the catalogs, written to a temporary name and
    renamed, so workers starting together never read a half-written file.
    """
    sources = _catalog_sources()
    digest = hashlib.sha256()
    for source in sources:
        digest.update(str(source.relative_to(CATALOGS)).encode())
        digest.update(source.read_bytes())
    key = digest.hexdigest()[:16]
    if key in _compiled and os.path.isdir(_compiled[key]):
        return _compiled[key]
    target = Path(into) / key
    for source in sources:
        mo = target / source.relative_to(CATALOGS).with_suffix(".mo")
        if mo.exists():
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with source.open("rb") as po_file:
            catalog = read_po(po_file, locale=source.parts[-3])
        fd, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as mo_file:
            write_mo(mo_file, catalog, use_fuzzy=False)
        os.replace(temporary, mo)
    _compiled[key] = str(target)
    return str(target)


def translations() -> NullTranslations:
    """The request's catalog, found once a request and cached in ``g``: the templates' words and
    ``messages.translate``'s.

    Flask-Babel finds it again for every word (its context in ``g``, the locale, the locale's name,
    its cache), several microseconds each; a game page says hundreds of words, and at a club evening
    that was a fifth of the server's time (bench/README.md).  A request's language is chosen once
    (``select_locale``), and so is its catalog.
    """
    try:
        found: NullTranslations | None = g.get("catalog")
    except RuntimeError:  # outside the app (a script): Flask-Babel's answer, no catalog
        found = None
    if found is None:
        found = get_translations()
        if g:
            g.catalog = found
    return found


def _in_context(message: str) -> str:
    context = getattr(message, "context", None)
    catalog = translations()
    return str(catalog.upgettext(context, message) if context else catalog.ugettext(message))


def init_app(app: Flask) -> None:
    directory = compile_catalogs(os.path.join(app.instance_path, "translations"))
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = directory
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    babel.init_app(app, locale_selector=select_locale)
    # A multi-line {% trans %} block is one sentence: its line breaks and indents are not part of it.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # The templates' ``_`` says a word of a game in its own context (``rules.words.NC_``), as
    # ``messages.translate`` does: a label given to ``_`` keeps the game it belongs to.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # jinja2.ext.i18n's
        gettext=_in_context,
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )

    from . import manifest

    manifest.init_app(app)

    @app.context_processor
    def languages() -> dict[str, object]:
        return {"languages": LANGUAGES, "current_language": current_language}
