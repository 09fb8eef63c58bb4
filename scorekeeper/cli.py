"""Command-line entry points: the development server and database commands."""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    pass


def main() -> None:
    pass
