"""What one write costs: the tricks of a declared deal entered on the game page and through the API.

The request is traced (``sys.setprofile``: every Python function the request runs whose module is
``scorekeeper.*``) and its SQL statements counted (``perf_support.StatementCounter``: the keyring's
and the Idempotency-Key's reads included).  Both paths must stay within ``MODULES`` product modules
and ``STATEMENTS`` statements, read the game once (``store.snapshot``'s query) and replay it once
(the engine's one replay loop, ``Ruleset.replay_after``).  The modules are printed (``-s``), the walk
ARCHITECTURE.md follows.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, parse_html
from perf_support import DEALS, PLAYERS, StatementCounter, is_full_read, new_game, with_pencil

import scorekeeper
from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.services.store import Change

#: At most this many distinct ``scorekeeper.*`` modules run code during the request, by path (28 and
#: 23 before the write was shortened; the aim is 8: the app's own hooks on every request, the
#: engine and the write's layers make the rest).
MODULES = {"page": 25, "API": 23}
#: At most this many SQL statements, on either database, by path (17 and 16 before; the aim is 8).
STATEMENTS = {"page": 10, "API": 10}
#: The game is read whole once, and replayed once.
READS, REPLAYS = 1, 1
#: The deals recorded before the one whose tricks are entered.
BEFORE = 6


@dataclass
class Trace:
    """What one request ran: the product's modules and functions, and its SQL statements."""

    modules: set[str] = field(default_factory=set)
    functions: set[tuple[str, str]] = field(default_factory=set)
    replays: int = 0
    statements: list[str] = field(default_factory=list)

    @property
    def reads(self) -> int:
        """How many times the game was read whole (``store.snapshot``'s query)."""
        return sum(is_full_read(statement) for statement in self.statements)

    def report(self, label: str) -> str:
        lines = [
            f"{label}: {len(self.modules)} modules, {len(self.functions)} functions, "
            f"{len(self.statements)} statements, {self.reads} reads, {self.replays} replays",
            *(
                f"  module {name}: {sorted(f for m, f in self.functions if m == name)}"
                for name in sorted(self.modules)
            ),
            *(f"  SQL {statement}" for statement in self.statements),
        ]
        return "\n".join(lines)


@contextmanager
def traced(counter: StatementCounter) -> Iterator[Trace]:
    """Trace the product code and count the statements run inside the block."""
    trace = Trace()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module == "scorekeeper" or module.startswith("scorekeeper."):
            trace.modules.add(module)
            trace.functions.add((module, frame.f_code.co_name))
            if frame.f_code.co_name == "replay_after" and module == "scorekeeper.rules.base":
                trace.replays += 1

    with counter.counting() as statements:
        sys.setprofile(profile)
        try:
            yield trace
        finally:
            sys.setprofile(None)
    trace.statements = list(statements)


def declared_game(app: Flask) -> tuple[str, str, int, dict[str, int]]:
    """A Mizerka game with ``BEFORE`` deals and the next one declared: its id, edit key, the pending
    deal's number and its tricks by name."""
    game_id, key = new_game(app, BEFORE)
    number = BEFORE + 1
    contract, tricks = DEALS[number - 1]
    with app.app_context():
        services.record_deal(game_id, number=number, contract=contract)
        db.session.remove()
    return game_id, key, number, dict(zip(PLAYERS, tricks, strict=True))


def page_post(app: Flask) -> Callable[[], Any]:
    """The scorer's tricks form for a new declared game, filled in: a callable that posts it."""
    game_id, key, number, tricks = declared_game(app)
    client: FlaskClient = with_pencil(app.test_client(), game_id, key)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    action = f"/games/{game_id}/deals/{number}/tricks"
    form = parse_html(html).find("form", action=action)
    once = form.first("input", name="idempotency_key")
    assert once is not None, "the form carries its Idempotency-Key"
    data = {"csrf_token": csrf_from(html), "number": str(number), "idempotency_key": once.attrs["value"]}
    data.update({f"tricks-{seat}": str(tricks[name]) for seat, name in enumerate(PLAYERS)})

    def post() -> Any:
        response = client.post(action, data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        return response

    return post


def api_put(app: Flask) -> Callable[[], Any]:
    """The API's completion of a new declared game's pending deal, with an Idempotency-Key."""
    game_id, key, number, tricks = declared_game(app)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": f"tricks-{game_id}"}

    def put() -> Any:
        response = client.put(
            f"/api/v1/games/{game_id}/deals/{number}", json={"tricks": tricks}, headers=headers
        )
        assert response.status_code == 200, response.get_data(as_text=True)
        return response

    return put


PATHS = {"page": page_post, "API": api_put}


def trace_of(app: Flask, path: str) -> Trace:
    """The trace of the path's request, once a first one (another game) has warmed the app up: the
    imports, the compiled templates and statements a running server has."""
    make = PATHS[path]
    make(app)()
    request = make(app)
    counter = StatementCounter(app)
    with traced(counter) as trace:
        request()
    return trace


@pytest.mark.parametrize("path", list(PATHS))
def test_entering_tricks_is_a_short_write(app: Flask, path: str) -> None:
    trace = trace_of(app, path)
    with app.app_context():
        label = f"tricks POST, {path} path, {db.engine.dialect.name}"
    print("\n" + trace.report(label))
    assert trace.reads <= READS, trace.report(label)
    assert trace.replays <= REPLAYS, trace.report(label)
    assert len(trace.statements) <= STATEMENTS[path], trace.report(label)
    assert len(trace.modules) <= MODULES[path], trace.report(label)


def imported_names(path: Path) -> list[tuple[str, str]]:
    """Every ``from X import name`` of a module: (X as written, name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            found += [("." * node.level + (node.module or ""), alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return found


def test_the_write_is_shaped_as_one_block() -> None:
    """The services announce a change and never name a cached page; the plan says which deals
    change, never how (the store chooses the statements); the page's write views use only public
    names of the game page's module."""
    package = Path(scorekeeper.__file__).parent
    for module in sorted((package / "services").glob("*.py")):
        names = imported_names(module)
        assert not [found for found in names if "caching" in found[0] or found[1] == "caching"], module
    assert [field.name for field in dataclasses.fields(Change)] == ["after", "number", "first", "deals"]
    privates = [
        name for where, name in imported_names(package / "web/games/deals.py") if name.startswith("_")
    ]
    assert not privates, privates
