"""JSON API v1, as ../shared/API.md: the same services and rules as the pages."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import nights, routes, writes  # noqa: E402,F401
