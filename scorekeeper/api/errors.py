"""The contract's error body: {"error": {"code", "message", "field"}} (``answers.Error``)."""

from __future__ import annotations

from flask import Response, jsonify

from .answers import Error, ErrorDetail


def error_body(code: str, message: str, field: str | None, status: int) -> tuple[Response, int]:
    body = Error(error=ErrorDetail(code=code, message=message, field=field))
    return jsonify(body.model_dump()), status
