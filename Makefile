# Quick start: `make run` serves the app, `make test` runs the whole suite.
# Both set up a virtual environment in .venv first (only Python 3.11+ needed): `make run` installs
# what running the app needs, `make test` (and `make setup`) the test and development tools too.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
RUNTIME := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed-test
LINTED := $(wildcard scorekeeper tests bench scripts)
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: setup runtime run serve test e2e screens audit bench bench-phones lint typecheck db-upgrade translations clean

setup: $(STAMP)
runtime: $(RUNTIME)

# The venv's pip is upgraded first: Python 3.11's bundled pip takes three times as long to install.
$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed (found %s)" % sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): pyproject.toml $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

db-upgrade: runtime
	$(BIN)/flask --app scorekeeper db-upgrade

# For a person at the table: upgrades the database, prints the address (and its QR code), serves
# with Waitress on HOST:PORT (pure Python; reads each request whole, so slow phones hold up no one).
run: runtime
	@HOST=$(HOST) PORT=$(PORT) $(BIN)/scorekeeper serve

# For a club: gunicorn's threaded workers (gthread: WORKERS processes of THREADS threads each), behind
# a proxy that buffers requests (README: "Running it for a club").  Threads, since a request spends
# much of its time waiting on PostgreSQL and Redis (a commit's disk flush above all), which a sync
# worker spends doing nothing else.  --keep-alive outlasts nginx's own upstream keepalive_timeout
# (10 s), so gunicorn never closes a connection nginx is about to send a Save on.
serve: db-upgrade
	$(BIN)/gunicorn --worker-class gthread --workers $${WORKERS:-2} --threads $${THREADS:-8} --keep-alive 15 \
	  --bind $(HOST):$(PORT) 'scorekeeper:create_app()'

lint: setup
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: setup
	$(BIN)/mypy

# The suite runs in a worker per core (pytest-xdist; TEST_WORKERS=0: all in this process), each worker
# its own browser and server; each run in a new random order (pytest-randomly prints the seed:
# `--randomly-seed=N` repeats it).  worksteal: a worker starts on its own half of the files, so most
# files' servers and seeded clubs are built once, and takes tests from the other when it runs dry
# (a file to a worker, --dist loadfile, left one worker alone on the longest browser file).
TEST_WORKERS ?= auto
PARALLEL := -n $(TEST_WORKERS) --dist worksteal

test: setup lint typecheck
	$(BIN)/pytest $(PARALLEL)

# Browser tests only (Playwright driving Debian's /usr/bin/chromium; also part of `make test`).
e2e: setup
	$(BIN)/pytest $(PARALLEL) tests/e2e

# The browser tests again, keeping a picture of each key screen (phones, themes, languages) under
# test-output/screens/ for people to look at; `make test` does not spend its minutes drawing them.
screens: setup
	SCREENSHOTS=1 $(BIN)/pytest $(PARALLEL) tests/e2e

# Lighthouse CI (lighthouserc.json) on home, game pages and scoresheet; reports under test-output/lighthouse/.
audit: runtime node_modules/.package-lock.json
	$(BIN)/python scripts/audit.py

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# The budgets of bench/README.md, each a ratio to /healthz of the same server: the app served as `make run`
# serves it, driven by wrk on kept clubs of 10,000 and 100,000 games (seeded once: bench/club.py), on SQLite
# and PostgreSQL (BENCH_DATABASE_URL).  BENCH_ARGS="--quick" (10,000 only), "--runs 3"; tables in bench/results/.
bench: setup
	@command -v wrk >/dev/null 2>&1 || { \
	  echo "bench: installing wrk (Debian package)"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq wrk; \
	  else sudo -n apt-get update -qq && sudo -n apt-get install -y -qq wrk; fi; }
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# A club evening's phones (bench/README.md, "The phones"): four phones a table polling every 3 s, a deal a
# table every 30 s, table counts stepping up, against the server of PHONES_SETUP: run (`make run`: Waitress,
# SQLite) or serve (`make serve`'s gunicorn behind nginx, PostgreSQL, Redis).  PHONES_ARGS="--tables 25,50".
PHONES_SETUP ?= run
bench-phones: setup
	$(BIN)/python bench/phones.py --setup $(PHONES_SETUP) $(PHONES_ARGS)

# After changing a message in the code or a template: re-extract the English catalog and merge it
# into the Polish and Italian ones (then translate what is new; `make test` fails on an out-of-date,
# empty or fuzzy catalog).  The app compiles the catalogs itself when it starts.
translations: setup
	$(BIN)/pybabel extract --mapping-file babel.cfg --no-location --sort-output --omit-header \
	  --add-comments NOTE --keywords _l --keywords lazy_gettext --keywords N_ --keywords NC_:1c,2 --keywords n_:1,2 --output-file scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update --input-file scorekeeper/translations/messages.pot --output-dir scorekeeper/translations \
	  --ignore-obsolete --no-fuzzy-matching

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache node_modules test-output
