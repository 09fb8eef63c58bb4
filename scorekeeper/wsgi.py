"""WSGI entry point for production servers: ``gunicorn scorekeeper.wsgi:app``."""

from . import create_app

app = create_app()
