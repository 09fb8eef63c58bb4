"""Scorekeeper: keeps score for card games played with a real deck."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, Request, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from . import caching, compression, i18n, limits, polls
from .config import Settings, default_config
from .extensions import csrf, db, limiter

__version__ = "0.1.0"


def _asset_dir(name: str) -> str:
    """Templates and static files ship inside the wheel, and sit at the top level in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / name, here.parent / name):
        if candidate.is_dir():
            return str(candidate)
    raise RuntimeError(f"{name}/ folder not found next to the scorekeeper package")


class SessionInterface(SecureCookieSessionInterface):
    """Session cookies are marked Secure whenever the page itself came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app.  ``config`` overrides the environment-derived defaults (tests use it)."""
    settings = Settings.from_environ()
    app = Flask(
        __name__,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
        instance_path=settings.instance_path,
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.update(default_config(app.instance_path, settings, config))
    app.config.update(config or {})
    # The pool tests each connection before lending it, whatever other engine options are given:
    # a connection the server cut while it sat idle is replaced, not handed to a request.
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
        "pool_pre_ping": True,
        **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
    }
    app.session_interface = SessionInterface()
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.json.sort_keys = False  # type: ignore[attr-defined]  # per-player objects keep seat order

    limits.init_app(app)  # first: bounded ids in every route, over-long bodies refused before anything
    register_proxy_fix(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    register_headers(app)
    polls.init_app(app)  # outermost: a poll answered 304 again without the app
    if app.config["AUTO_MIGRATE"]:
        from .database import upgrade_schema

        upgrade_schema(app)
    if app.config["RATINGS_RESUME"]:  # a replay a process died owing (stats.ratings.resume)
        from .stats import ratings

        ratings.resume_in_each_process(app)
    return app


def register_proxy_fix(app: Flask) -> None:
    """Behind N trusted proxies, take the client's address and scheme from their X-Forwarded-* headers.

    Without it every client would share the proxy's address (and its rate limit).
    """
    hops = int(app.config["PROXY_HOPS"] or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def register_extensions(app: Flask) -> None:
    from . import access
    from .database import configure_engine

    i18n.init_app(app)
    db.init_app(app)
    csrf.init_app(app)
    limiter.init_app(app)
    # Flask-Migrate is registered when a migration runs (database.register_migrations), not here.
    configure_engine(app)
    caching.init_app(app)
    access.init_app(app)  # the keyring: old key cookies taken over before any view reads it


def register_blueprints(app: Flask) -> None:
    from .api import bp as api_bp
    from .api.page import bp as page_api_bp
    from .web import assets
    from .web import bp as web_bp

    assets.register(app)  # /static/: scripts and stylesheets minified
    app.register_blueprint(web_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(page_api_bp)
    # The API authenticates with a bearer key, not a cookie: CSRF cannot reach it.
    csrf.exempt(api_bp)
    # The page's JSON writes: a SameSite cookie, JSON bodies only, same origin only (api/page.py).
    csrf.exempt(page_api_bp)


def register_errorhandlers(app: Flask) -> None:
    from .web.errors import register

    register(app)


def register_commands(app: Flask) -> None:
    from .cli import register

    register(app)


CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def register_headers(app: Flask) -> None:
    compression.init_app(app)

    @app.after_request
    def security_headers(response: Any) -> Any:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        headers.setdefault("X-Content-Type-Options", "nosniff")
        # Same origin only: the app's own form posts carry it (over HTTPS the CSRF check
        # requires it, so "no-referrer" would refuse every form), no other site ever sees it.
        headers.setdefault("Referrer-Policy", "same-origin")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if _request_is_secure(request):
            headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        return response


def _request_is_secure(req: Request) -> bool:
    return bool(req and req.is_secure)
