"""The one writer of stored figures: by difference on every write, or rebuilt from the game results.

Every write to a game brings its rows of ``game_results`` and ``deal_results``, and its
players' all-time ``player_totals``, from the figures before the write to those after it,
in the same transaction (``figure_changes``, sent with the write's own statements by ``send``;
``new_game_steps`` for a game just created).
``write_results`` and ``refresh_totals`` rebuild them from a replay or from the game rows
(after an import, a merge, or when a difference cannot be applied).  Tests check the
stored figures always equal the replay.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import Integer, and_, bindparam, case, delete, func, insert, literal, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.dml import Insert, Update

from ..database import first_write
from ..extensions import db
from ..models import DealResult, Game, GameResult, Player, PlayerTotal
from ..rules import GameState
from .figures import Figures, figures
from .sums import record_columns

#: A statement and its parameters: a dict, or a list of them (one per row, sent as executemany).
Step = tuple[Any, Any]


def write_results(game: Game, state: GameState) -> None:
    """Replace the game's stored figures with those of ``state`` (inside the caller's transaction).

    The game's status (``games.finished``) follows too.
    """
    game.finished = state.finished
    game_rows, deal_rows = figures(
        state,
        game_id=game.id,
        player_ids=[seat.player_id for seat in game.seats],
        played_on=game.played_on,
    )
    db.session.execute(delete(DealResult).where(DealResult.game_id == game.id))
    db.session.execute(delete(GameResult).where(GameResult.game_id == game.id))
    # render_nulls: rows with and without a None (``pick``, ``made``) go in one batch, not one statement each.
    db.session.execute(insert(GameResult).execution_options(render_nulls=True), game_rows)
    if deal_rows:
        db.session.execute(insert(DealResult).execution_options(render_nulls=True), deal_rows)
    refresh_totals([row["player_id"] for row in game_rows], game.ruleset)


def new_game_steps(new: Figures) -> list[Step]:
    """The steps (for ``send``) that store the figures of a game just created: its rows of
    ``game_results``.

    It has no deals yet, so it adds nothing to any ``player_totals``: those rows are left as
    they are (a player with no row yet gets one when their first deal is scored).
    """
    game_rows, deal_rows = new
    return [(_INSERT_GAME_ROWS, game_rows), *([(_INSERT_DEAL_ROWS, deal_rows)] if deal_rows else [])]


@dataclass(frozen=True)
class FigureChanges:
    """The statements that bring a game's stored figures from one state to another, not yet sent.

    ``steps`` go to ``send`` after the game's own change (in the same list, so on PostgreSQL
    in the same round trip); ``settle`` then re-sums the totals a difference could not move.
    """

    steps: list[Step]
    ruleset: str
    moved: tuple[int, ...]
    """The players whose totals the last step moves by a difference."""
    resum: tuple[int, ...]
    """The players whose totals are summed again instead."""
    after: Figures
    """The figures of the state after the write (what the rows will hold)."""

    def settle(self, last_count: int) -> None:
        """After ``steps`` were sent: ``last_count`` is the rows the last one changed."""
        resum = list(self.resum)
        if self.moved and last_count != len(self.moved):
            # A totals row was not there (a concurrent re-sum replaced it): sum it afresh.
            resum.extend(self.moved)
        if resum:
            refresh_totals(resum, self.ruleset)


def figure_changes(
    *,
    game_id: str,
    player_ids: Sequence[int],
    played_on: date,
    before: GameState,
    after: GameState,
    old: Figures | None = None,
) -> FigureChanges:
    """The statements bringing the game's stored figures from those of ``before`` to those of ``after``.

    For a write to an existing game (inside its transaction): the stored rows are the
    figures of ``before`` (every write keeps them so), so only the rows that differ are
    written: recording a deal inserts that deal's rows and updates the game's, and the
    players' all-time ``player_totals`` move by the difference instead of being re-summed.
    Statements are built once (below): a deal's figures cost one round trip on PostgreSQL
    (``send``), whatever the number of deals or games.  ``old``: the figures of ``before``
    when the caller has them already (a previous write's ``after``).
    """
    if old is None:
        old = figures(before, game_id=game_id, player_ids=player_ids, played_on=played_on)
    old_games, old_deals = old
    new = figures(after, game_id=game_id, player_ids=player_ids, played_on=played_on)
    new_games, new_deals = new
    steps: list[Step] = []

    old_by_key = {(row["number"], row["seat"]): row for row in old_deals}
    new_by_key = {(row["number"], row["seat"]): row for row in new_deals}
    gone = sorted({number for number, seat in old_by_key if (number, seat) not in new_by_key})
    if gone:
        steps.append((_DELETE_DEAL_ROWS, [{"game_id": game_id, "deal_number": number} for number in gone]))
    changed = [row for key, row in new_by_key.items() if key in old_by_key and old_by_key[key] != row]
    if changed:
        steps.append((_UPDATE_DEAL_ROWS, [_keyed(row, _DEAL_ROW_KEY) for row in changed]))
    added = [row for key, row in new_by_key.items() if key not in old_by_key]
    if added:
        steps.append((_INSERT_DEAL_ROWS, added))
    if old_games != new_games:
        params: dict[str, Any] = {"of_game": game_id}
        for row in new_games:
            params.update((f"{column}_{row['seat']}", row[column]) for column in _GAME_ROW_CHANGES)
        steps.append((_update_game_rows(len(new_games)), params))
    ruleset = before.setup.ruleset
    moves, resum = _planned_moves(old_games, new_games)
    if moves:
        steps.append(_move_totals(ruleset, moves))
    return FigureChanges(
        steps=steps,
        ruleset=ruleset,
        moved=tuple(player_id for player_id, _delta, _best in moves),
        resum=tuple(resum),
        after=new,
    )


def send(steps: Sequence[Step], *, claim: bool = False) -> list[int] | None:
    """Run ``steps`` in order, each a statement with its parameters (a list of them: one per row);
    the rows each changed.

    ``claim``: the first step claims the game (an UPDATE that changes one row or none). When it
    changes none the answer is None, and what else was sent is still in the transaction: the
    caller rolls it back.

    On PostgreSQL the steps go as one statement, each a data-modifying CTE read in order
    (``WITH step_0 AS (UPDATE ... RETURNING 1), step_1 AS (INSERT ...) SELECT (SELECT count(*)
    FROM step_0), ...``): each statement is a round trip through the driver and a wake-up of
    the database's backend on the same cores, and recording a deal is otherwise five of them.
    A statement the database refuses for a unique key there (another write got in first) is a
    failed claim too.  Steps that touch one row twice must not go together; these never do
    (different tables, or different rows of one).  SQLite runs in-process, where a round trip
    costs nothing: there each step is its own statement and a failed claim stops the rest.
    A list of rows to change or delete (a correction's) cannot be a CTE: it goes alone, after
    the steps before it.  On SQLite the first step waits for the write lock in short pauses
    (``database.first_write``).
    """
    connection = db.session.connection()
    # On PostgreSQL the steps from ``together`` on go as one statement.  A list of rows to change
    # or delete (which a CTE cannot take) goes alone, and so does every step before it: the claim
    # always goes first.
    together = len(steps)
    if connection.dialect.name == "postgresql":
        together = 1 + max((i for i, step in enumerate(steps) if not _foldable(step)), default=-1)
        if len(steps) - together < 2:
            together = len(steps)
    counts: list[int] = []
    for number, send_step in enumerate([_prepared(connection, step) for step in steps[:together]]):
        counts.append(first_write(connection, send_step) if number == 0 else send_step())
        if claim and counts[0] == 0:
            return None
    if together < len(steps):
        try:
            counts.extend(_send_together(connection, steps[together:]))
        except IntegrityError:
            if not (claim and together == 0):
                raise
            return None
    return None if claim and counts[0] == 0 else counts


#: A step as compiled: its statement, the columns it inserts or sets, and the rows it inserts
#: (0 for a statement sent with one set of parameters, or once per set of a list).
Shape = tuple[Any, tuple[str, ...], int]


class Compiled(NamedTuple):
    """A statement compiled once: its SQL, its parameters' names in order, the values it
    carries, and the conversions its parameters need (a JSON or date column's), since
    ``exec_driver_sql`` applies none."""

    sql: str
    order: tuple[str, ...]
    defaults: dict[str, Any]
    processors: dict[str, Any]

    def parameters(self, values: dict[str, Any]) -> tuple[Any, ...]:
        given = {**self.defaults, **values}
        for name, process in self.processors.items():
            given[name] = process(given[name])
        return tuple(given[name] for name in self.order)


def _foldable(step: Step) -> bool:
    """Whether ``step`` can be a CTE of ``_send_together``: several rows only for an INSERT."""
    statement, params = step
    return not isinstance(params, list) or isinstance(statement, Insert)


def _shaped(
    number: int, statement: Any, params: dict[str, Any] | list[dict[str, Any]]
) -> tuple[Shape, dict[str, Any]]:
    """Step ``number`` of a statement: its shape, and the values of its parameters.

    An INSERT's rows become one ``INSERT ... VALUES (...), (...)``; an UPDATE sets the columns
    its parameters name (as when SQLAlchemy runs it).
    """
    if isinstance(statement, Insert):
        given = params if isinstance(params, list) else [params]
        rows = [_with_defaults(statement, row) for row in given]
        values = {
            f"step{number}_row{row_number}_{name}": value
            for row_number, row in enumerate(rows)
            for name, value in row.items()
        }
        return (statement, tuple(rows[0]), len(rows)), values
    first = params[0] if isinstance(params, list) else params
    set_here = isinstance(statement, Update)
    return (statement, tuple(name for name in first if set_here and name in statement.table.c), 0), first


def _prepared(connection: Any, step: Step) -> functools.partial[int]:
    """One step, ready to go as its own statement (the call answers the rows it changed).

    On SQLite through the driver, compiled once, its parameters worked out now: SQLAlchemy's
    own execution of a statement cost more than SQLite's work on it, and a write holds
    SQLite's one write lock from its first statement to its commit, so nothing is left to
    work out in between.  On PostgreSQL (a correction's rows, a claim on its own) as
    SQLAlchemy runs it.
    """
    statement, params = step
    if connection.dialect.name == "postgresql":
        return functools.partial(_rows_changed, connection.execute, statement, params)
    shape, values = _shaped(0, statement, params)
    compiled = _compiled((shape,), connection.dialect)
    if isinstance(params, list) and not isinstance(statement, Insert):  # once per set
        sent: Any = [compiled.parameters(row) for row in params]
    else:
        sent = compiled.parameters(values)
    return functools.partial(_rows_changed, connection.exec_driver_sql, compiled.sql, sent)


def _rows_changed(execute: Any, statement: Any, params: Any) -> int:
    return int(execute(statement, params).rowcount)


def _send_together(connection: Any, steps: Sequence[Step]) -> list[int]:
    """``steps`` as one statement (PostgreSQL): the rows each changed."""
    shapes = []
    values: dict[str, Any] = {}
    for number, (statement, params) in enumerate(steps):
        shape, given = _shaped(number, statement, params)
        shapes.append(shape)
        values.update(given)
    compiled = _compiled(tuple(shapes), connection.dialect)
    import psycopg

    # The statement is compiled once in PostgreSQL's own $1 form: psycopg's raw cursor sends it
    # as it is, where the usual cursor would parse its ~6,000 characters for placeholders on
    # every deal (psycopg keeps the parse of a statement that long for none).
    driver = connection.connection.driver_connection
    usual = driver.cursor_factory
    driver.cursor_factory = psycopg.RawCursor
    try:
        counts = connection.exec_driver_sql(compiled.sql, compiled.parameters(values)).one()
    finally:
        driver.cursor_factory = usual
    return [int(count) for count in counts]


def _with_defaults(statement: Any, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the values of the columns it leaves to a default made in Python (``utcnow``)."""
    made = {
        name: default.arg(None) if default.is_callable else default.arg
        for name, default in _python_defaults(statement.table)
        if name not in row
    }
    return {**row, **made} if made else row


@functools.cache
def _python_defaults(table: Any) -> tuple[tuple[str, Any], ...]:
    """The columns of ``table`` with a default made in Python (a value, or a function called)."""
    return tuple(
        (column.name, column.default)
        for column in table.c
        if column.default is not None and (column.default.is_callable or column.default.is_scalar)
    )


@functools.cache
def _compiled(shapes: tuple[Shape, ...], dialect: Any) -> Compiled:
    """One step, or several as CTEs of one statement (PostgreSQL), compiled once per shape.

    SQLAlchemy cannot cache a statement with a multi-row INSERT inside, and compiling it for
    every deal cost more than the round trips it saves.  On PostgreSQL the placeholders are
    its own ($1), for psycopg's raw cursor.
    """
    if dialect.name == "postgresql":
        numbered = type(dialect)(paramstyle="numeric_dollar")
        numbered.server_version_info = dialect.server_version_info
        compiled = _together(shapes).compile(dialect=numbered)
    else:
        (shape,) = shapes
        compiled = _built(0, shape).compile(dialect=dialect)
    processors = {}
    for name, parameter in compiled.binds.items():
        process = parameter.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            processors[name] = process
    return Compiled(str(compiled), tuple(compiled.positiontup or ()), dict(compiled.params), processors)


def _built(number: int, shape: Shape) -> Any:
    """Step ``number``'s statement with the values its shape inserts or sets."""
    statement, columns, rows = shape
    typed = statement.table.c
    if rows:
        return statement.values(
            [
                {name: bindparam(f"step{number}_row{row}_{name}", type_=typed[name].type) for name in columns}
                for row in range(rows)
            ]
        )
    if columns:
        return statement.values({name: bindparam(name, type_=typed[name].type) for name in columns})
    return statement


def _together(shapes: tuple[Shape, ...]) -> Any:
    """The one statement for ``shapes``: each step a CTE, read in order, its rows counted."""
    ctes = [
        _built(number, shape).returning(literal(1)).cte(f"step_{number}")
        for number, shape in enumerate(shapes)
    ]
    return select(*(select(func.count()).select_from(cte).scalar_subquery() for cte in ctes))


def _keyed(row: dict[str, Any], key: tuple[str, ...]) -> dict[str, Any]:
    """``row`` as parameters of an UPDATE by primary key ``key`` (``key_*`` find it, the rest is set)."""
    return {f"key_{column}" if column in key else column: value for column, value in row.items()}


def _by_key(table: Any, key: tuple[str, ...]) -> Any:
    """UPDATE ``table`` WHERE its primary key ``key`` equals the ``key_*`` parameters; SET the others."""
    return update(table).where(*(table.c[column] == bindparam(f"key_{column}") for column in key))


def _counted(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """What one game row adds to its player's totals: games, wins, deals, deals won, points."""
    finished = bool(row["finished"])
    return (
        int(finished),
        int(finished and row["rank"] == 1),
        row["deals_played"],
        row["deals_won"],
        row["total"] if finished else 0,
    )


def _planned_moves(
    old_games: list[dict[str, Any]], new_games: list[dict[str, Any]]
) -> tuple[list[tuple[int, list[int], int | None]], list[int]]:
    """How each player's ``player_totals`` moves from their old game row to the new one.

    Returns the moves (player, differences, a new best game's total) and the players to
    re-sum instead: sums move by their difference, but the best game only grows, so a
    finished game whose total changes, or that is no longer finished, re-sums that player.
    """
    resum: list[int] = []
    moves: list[tuple[int, list[int], int | None]] = []
    for old, new in zip(old_games, new_games, strict=True):
        if old["finished"] and (not new["finished"] or old["total"] != new["total"]):
            resum.append(new["player_id"])
            continue
        delta = [n - o for n, o in zip(_counted(new), _counted(old), strict=True)]
        new_best = new["total"] if new["finished"] and not old["finished"] else None
        if any(delta) or new_best is not None:
            moves.append((new["player_id"], delta, new_best))
    return moves, resum


def _move_totals(ruleset: str, moves: list[tuple[int, list[int], int | None]]) -> tuple[Any, dict[str, Any]]:
    """One UPDATE moving the players' totals (and its parameters).

    A player whose row is not there (a concurrent re-sum replaced it) is not counted in the
    rows it changes: the caller re-sums them then, so never a wrong total.
    """
    params: dict[str, Any] = {"of_ruleset": ruleset}
    for i, (player_id, delta, new_best) in enumerate(moves):
        params[f"player_{i}"] = player_id
        params[f"best_{i}"] = new_best
        params.update((f"{column}_{i}", value) for column, value in zip(_TOTALS, delta, strict=True))
    return _move_totals_statement(len(moves)), params


_DEAL_ROW_KEY = ("game_id", "number", "seat")
# render_nulls: rows with and without a None (``pick``, ``made``) go in one batch, not one statement each.
_INSERT_DEAL_ROWS = insert(DealResult.__table__).execution_options(render_nulls=True)
_UPDATE_DEAL_ROWS = _by_key(DealResult.__table__, _DEAL_ROW_KEY)
_INSERT_GAME_ROWS = insert(GameResult.__table__)
_DELETE_DEAL_ROWS = delete(DealResult.__table__).where(
    DealResult.__table__.c.game_id == bindparam("game_id"),
    DealResult.__table__.c.number == bindparam("deal_number"),
)
#: What a write to a game's deals can change in its rows of ``game_results``.
_GAME_ROW_CHANGES = ("finished", "total", "rank", "deals_played", "deals_won")
#: The sums of ``player_totals`` that move by a difference.
_TOTALS = ("games", "wins", "deals", "deal_wins", "points")


@functools.cache
def _update_game_rows(seats: int) -> Any:
    """One UPDATE for every row of a game: each column set seat by seat (CASE seat WHEN ...)."""
    table = GameResult.__table__
    values = {
        column: case(
            *(
                (table.c.seat == seat, bindparam(f"{column}_{seat}", type_=table.c[column].type))
                for seat in range(seats)
            ),
            else_=table.c[column],
        )
        for column in _GAME_ROW_CHANGES
    }
    return update(table).where(table.c.game_id == bindparam("of_game")).values(values)


@functools.cache
def _move_totals_statement(players: int) -> Any:
    """One UPDATE moving ``players`` players' totals by their differences (CASE player_id WHEN ...).

    The best game only grows: to the new total when it is higher (or there was none).
    """
    totals = PlayerTotal.__table__
    ids = [bindparam(f"player_{i}", type_=Integer) for i in range(players)]

    def per_player(value: Any, else_: Any) -> Any:
        return case(*((totals.c.player_id == ids[i], value(i)) for i in range(players)), else_=else_)

    def grown(i: int) -> Any:
        best = bindparam(f"best_{i}", type_=Integer)
        grows = and_(best.is_not(None), or_(totals.c.best.is_(None), totals.c.best < best))
        return case((grows, best), else_=totals.c.best)

    values: dict[str, Any] = {
        column: totals.c[column]
        + per_player(lambda i, column=column: bindparam(f"{column}_{i}", type_=Integer), 0)
        for column in _TOTALS
    }
    values["best"] = per_player(grown, totals.c.best)
    return (
        update(totals)
        .where(totals.c.ruleset == bindparam("of_ruleset"), totals.c.player_id.in_(ids))
        .values(values)
    )


def refresh_totals(player_ids: Sequence[int] | None = None, ruleset: str | None = None) -> None:
    """Rewrite ``player_totals`` from ``game_results``: for some players (and one ruleset), or all.

    The players' rows are locked first (PostgreSQL), so two games sharing a player that
    are written at the same moment take turns here, and the second sums what the first wrote.
    """
    ids: list[int] = []
    if player_ids is not None:
        ids = sorted(set(player_ids))
        # FOR NO KEY UPDATE: it queues writers here but not the foreign-key checks (KEY SHARE) of
        # the rows just inserted for these players; FOR UPDATE would deadlock two such writers.
        lock = select(Player.id).where(Player.id.in_(ids)).order_by(Player.id).with_for_update(key_share=True)
        db.session.execute(lock)
    stale = delete(PlayerTotal)
    sums = select(GameResult.player_id, GameResult.ruleset, *record_columns()).group_by(
        GameResult.player_id, GameResult.ruleset
    )
    if player_ids is not None:
        stale = stale.where(PlayerTotal.player_id.in_(ids))
        sums = sums.where(GameResult.player_id.in_(ids))
    if ruleset is not None:
        stale = stale.where(PlayerTotal.ruleset == ruleset)
        sums = sums.where(GameResult.ruleset == ruleset)
    db.session.execute(stale)
    columns = ["player_id", "ruleset", "games", "wins", "deals", "deal_wins", "points", "best"]
    db.session.execute(insert(PlayerTotal).from_select(columns, sums))
