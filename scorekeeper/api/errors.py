"""The contract's error body: {"error": {"code", "message", "field"}}."""

from __future__ import annotations

from flask import Response, jsonify


def error_body(code: str, message: str, field: str | None, status: int) -> tuple[Response, int]:
    return jsonify(error={"code": code, "message": message, "field": field}), status
