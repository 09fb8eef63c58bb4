"""Error pages in the site's style, and JSON errors under /api/."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..errors import HTTP_CODES

MESSAGES = {
    400: "That request could not be understood.",
    404: "There is nothing at this address. The link may be mistyped, or the game was never created.",
    405: "That action is not possible at this address.",
    413: "That request is too large.",
    429: "Too many requests; wait a moment and try again.",
    500: "Something went wrong on our side. Nothing you entered was lost; try again.",
}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Any:
        message = (
            "This form had expired or was sent from elsewhere, so nothing was saved. "
            "The page has been reloaded: please try again."
        )
        return render_template("errors/error.html", status=400, title="Form expired", message=message), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        status = error.code or 500
        if _wants_json():
            from ..api.errors import error_body

            return error_body(
                HTTP_CODES.get(status, HTTP_CODES[400]),
                MESSAGES.get(status, error.description or error.name),
                None,
                status,
            )
        return (
            render_template(
                "errors/error.html",
                status=status,
                title=error.name,
                message=MESSAGES.get(status, error.description),
            ),
            status,
        )

    @app.errorhandler(500)
    def server_error(error: Exception) -> Any:
        if _wants_json():
            return jsonify(error={"code": HTTP_CODES[500], "message": MESSAGES[500], "field": None}), 500
        return render_template(
            "errors/error.html", status=500, title="Server error", message=MESSAGES[500]
        ), 500
