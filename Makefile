# Quick start: `make run` serves the app, `make test` runs the whole suite.
# Both set up a virtual environment in .venv first (only Python 3.11+ needed).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
STAMP := $(VENV)/.installed

.PHONY: setup run serve test lint typecheck db-upgrade clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed (found %s)" % sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

db-upgrade: setup
	$(BIN)/flask --app scorekeeper db-upgrade

run: db-upgrade
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m scorekeeper.cli serve-dev

serve: db-upgrade
	$(BIN)/gunicorn --workers $${WORKERS:-2} --bind $(HOST):$(PORT) 'scorekeeper:create_app()'

lint: setup
	$(BIN)/ruff check scorekeeper tests bench
	$(BIN)/ruff format --check scorekeeper tests bench

typecheck: setup
	$(BIN)/mypy

test: setup lint typecheck
	$(BIN)/pytest

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
