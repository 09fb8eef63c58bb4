"""The one writer of stored figures: by difference on every write, or rebuilt from the game results.

Every write to a game brings its rows of ``game_results`` and ``deal_results``, and its
players' ``player_totals`` (all time, and the year the game was played), from the figures
before the write to those after it,
in the same transaction (``figure_changes``, sent with the write's own statements by ``send``;
``new_game_steps`` for a game just created).
``write_results`` and ``refresh_totals`` rebuild them from a replay or from the game rows
(after an import, a merge, or when a difference cannot be applied).  Tests check the
stored figures always equal the replay.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import (
    Date,
    Integer,
    and_,
    bindparam,
    case,
    cast,
    delete,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert, Update
from sqlalchemy.sql.elements import ColumnElement

from ..database import first_write, on_its_own
from ..extensions import db
from ..models import ALL_TIME, RECENT, DealResult, Game, GameResult, KeptWindow, Player, PlayerTotal
from ..rules import GameState
from .figures import Figures, figures
from .sums import Filters, record_columns

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
    resum: tuple[int, ...]
    """The players whose totals are summed again (``settle``) instead of moved by a difference."""
    after: Figures
    """The figures of the state after the write (what the rows will hold)."""
    emptied: tuple[int, ...] = ()
    """The players of a game left without deals (its first deal undone): a kept row of theirs
    left without deals goes (``settle``)."""

    @property
    def unsettled(self) -> bool:
        """Whether ``settle`` has statements to send after ``steps``."""
        return bool(self.resum or self.emptied)

    def settle(self) -> None:
        """After ``steps`` were sent: sum the totals of ``resum`` afresh, and remove the kept rows
        an undo left without deals (every kept row ranks: ``PlayerTotal``)."""
        if self.resum:
            refresh_totals(list(self.resum), self.ruleset)
        if self.emptied:
            db.session.execute(
                delete(PlayerTotal).where(
                    PlayerTotal.player_id.in_(self.emptied),
                    PlayerTotal.ruleset == self.ruleset,
                    PlayerTotal.deals == 0,
                )
            )


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
    players' ``player_totals`` (all time and the game's year) move by the difference instead
    of being re-summed.
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
        steps.extend(_move_totals(ruleset, moves, played_on))
    return FigureChanges(
        steps=steps,
        ruleset=ruleset,
        resum=tuple(resum),
        after=new,
        # Only a game left without deals can leave its players' totals without any.
        emptied=tuple(
            new["player_id"]
            for old, new in zip(old_games, new_games, strict=True)
            if old["deals_played"] and not new["deals_played"]
        ),
    )


def send(steps: Sequence[Step], *, claim: bool = False, whole: bool = False) -> list[int] | None:
    """Run ``steps`` in order, each a statement with its parameters (a list of them: one per row);
    the rows each changed.

    ``claim``: the first step claims the game (an UPDATE that changes one row or none). When it
    changes none the answer is None and nothing else has been written (on SQLite the claim
    still holds the write lock: the caller rolls back or goes on).

    On PostgreSQL the steps go as one statement, each a data-modifying CTE read in order
    (``WITH step_0 AS (UPDATE ... RETURNING 1), step_1 AS (INSERT ...) SELECT (SELECT count(*)
    FROM step_0), ...``): each statement is a round trip through the driver and a wake-up of
    the database's backend on the same cores, and recording a deal is otherwise five of them.
    With a claim, every later step there writes only if the claim changed its row (``WHERE
    EXISTS (SELECT 1 FROM step_0)``): a failed claim writes nothing, and the transaction can
    go on.  Steps that touch one row twice must not go together; these never do
    (different tables, or different rows of one).  SQLite runs in-process, where a round trip
    costs nothing: there each step is its own statement and a failed claim stops the rest.
    A list of rows to change or delete (a correction's) cannot be a CTE: it goes alone, after
    the steps before it.  On SQLite the first step waits for the write lock in short pauses
    (``database.first_write``).

    ``whole``: the steps are the whole write.  On PostgreSQL, when they go as one statement
    and nothing else has been sent in the transaction, that statement is committed on its
    own (one statement is atomic): no BEGIN and COMMIT, each another round trip.
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
        first = together == 0
        counts.extend(
            _send_together(connection, steps[together:], gated=claim and first, whole=whole and first)
        )
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
    return not isinstance(params, list) or isinstance(statement, Insert | Recent)


def _shaped(
    number: int, statement: Any, params: dict[str, Any] | list[dict[str, Any]]
) -> tuple[Shape, dict[str, Any]]:
    """Step ``number`` of a statement: its shape, and the values of its parameters.

    An INSERT's rows become one ``INSERT ... VALUES (...), (...)``; an UPDATE sets the columns
    its parameters name (as when SQLAlchemy runs it).
    """
    if isinstance(statement, Recent):
        assert isinstance(params, dict)
        (_, columns, count), values = _shaped(number, statement.statement, params["rows"])
        return (statement, columns, count), {**values, f"step{number}_played_on": params["played_on"]}
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
    if connection.dialect.name == "postgresql" and not isinstance(statement, Recent):
        return functools.partial(_rows_changed, connection.execute, statement, params)
    shape, values = _shaped(0, statement, params)
    if connection.dialect.name == "postgresql":
        return functools.partial(_rows_changed, connection.execute, _built(0, shape), values)
    compiled = _compiled((shape,), connection.dialect)
    if isinstance(params, list) and not isinstance(statement, Insert):  # once per set
        sent: Any = [compiled.parameters(row) for row in params]
    else:
        sent = compiled.parameters(values)
    return functools.partial(_rows_changed, connection.exec_driver_sql, compiled.sql, sent)


def _rows_changed(execute: Any, statement: Any, params: Any) -> int:
    return int(execute(statement, params).rowcount)


def _send_together(
    connection: Any, steps: Sequence[Step], *, gated: bool = False, whole: bool = False
) -> list[int]:
    """``steps`` as one statement (PostgreSQL): the rows each changed.

    ``gated``: the first step is a claim, and the others write only if it changed its row.
    ``whole``: the statement is the whole write, committed on its own if no transaction has
    begun (``send``).
    """
    shapes = []
    values: dict[str, Any] = {}
    for number, (statement, params) in enumerate(steps):
        shape, given = _shaped(number, statement, params)
        shapes.append(shape)
        values.update(given)
    compiled = _compiled(tuple(shapes), connection.dialect, gated)
    import psycopg

    # The statement is compiled once in PostgreSQL's own $1 form: psycopg's raw cursor sends it
    # as it is, where the usual cursor would parse its ~6,000 characters for placeholders on
    # every deal (psycopg keeps the parse of a statement that long for none).
    driver = connection.connection.driver_connection
    usual = driver.cursor_factory
    driver.cursor_factory = psycopg.RawCursor
    try:
        # ``whole``: no BEGIN and COMMIT when nothing came before (the statement is its own transaction).
        with on_its_own(connection) if whole else contextlib.nullcontext():
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
def _compiled(shapes: tuple[Shape, ...], dialect: Any, gated: bool = False) -> Compiled:
    """One step, or several as CTEs of one statement (PostgreSQL), compiled once per shape.

    SQLAlchemy cannot cache a statement with a multi-row INSERT inside, and compiling it for
    every deal cost more than the round trips it saves.  On PostgreSQL the placeholders are
    its own ($1), for psycopg's raw cursor.
    """
    if dialect.name == "postgresql":
        numbered = type(dialect)(paramstyle="numeric_dollar")
        numbered.server_version_info = dialect.server_version_info
        compiled = _together(shapes, gated).compile(dialect=numbered)
    else:
        (shape,) = shapes
        compiled = _built(0, shape).compile(dialect=dialect)
    processors = {}
    for name, parameter in compiled.binds.items():
        process = parameter.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            processors[name] = process
    return Compiled(str(compiled), tuple(compiled.positiontup or ()), dict(compiled.params), processors)


def _built(number: int, shape: Shape, only_if: Any = None) -> Any:
    """Step ``number``'s statement with the values its shape inserts or sets.

    ``only_if``: a condition the step writes under (its rows inserted from a SELECT ... WHERE
    it holds, an UPDATE or DELETE narrowed by it).
    """
    statement, columns, rows = shape
    if isinstance(statement, Recent):
        played_on = bindparam(f"step{number}_played_on", type_=Date())
        within = played_on >= select(KeptWindow.since).scalar_subquery()
        return _built(number, (statement.statement, columns, rows), and_(within, *_also(only_if)))
    typed = statement.table.c

    def row_values(row: int) -> list[Any]:
        return [bindparam(f"step{number}_row{row}_{name}", type_=typed[name].type) for name in columns]

    if rows and only_if is not None:
        # Each value cast to its column's type: in a SELECT (and across UNION ALL) a NULL's type
        # is not taken from the column it goes to.
        chosen = [
            select(*(cast(value, value.type) for value in row_values(row))).where(only_if)
            for row in range(rows)
        ]
        return statement.from_select(columns, chosen[0] if rows == 1 else union_all(*chosen))
    if rows:
        return statement.values([dict(zip(columns, row_values(row), strict=True)) for row in range(rows)])
    if columns:
        statement = statement.values({name: bindparam(name, type_=typed[name].type) for name in columns})
    return statement if only_if is None else statement.where(only_if)


def _also(condition: Any) -> tuple[Any, ...]:
    return () if condition is None else (condition,)


def _together(shapes: tuple[Shape, ...], gated: bool = False) -> Any:
    """The one statement for ``shapes``: each step a CTE, read in order, its rows counted.

    ``gated``: every step after the first writes only if the first (a claim) changed a row.
    """
    ctes: list[Any] = []
    for number, shape in enumerate(shapes):
        claimed = exists(select(literal(1)).select_from(ctes[0])) if gated and ctes else None
        ctes.append(_built(number, shape, claimed).returning(literal(1)).cte(f"step_{number}"))
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


class Move(NamedTuple):
    """How one player's kept sums move: by ``delta`` (``_TOTALS``), and up to a new best game."""

    player_id: int
    year: int
    """The year the game was played: its sums move with the all-time ones."""
    delta: list[int]
    new_best: int | None


def _planned_moves(
    old_games: list[dict[str, Any]], new_games: list[dict[str, Any]]
) -> tuple[list[Move], list[int]]:
    """How each player's ``player_totals`` moves from their old game row to the new one.

    Returns the moves and the players to re-sum instead: sums move by their difference, but
    the best game only grows, so a finished game whose total changes, or that is no longer
    finished, re-sums that player.
    """
    resum: list[int] = []
    moves: list[Move] = []
    for old, new in zip(old_games, new_games, strict=True):
        if old["finished"] and (not new["finished"] or old["total"] != new["total"]):
            resum.append(new["player_id"])
            continue
        delta = [n - o for n, o in zip(_counted(new), _counted(old), strict=True)]
        new_best = new["total"] if new["finished"] and not old["finished"] else None
        if any(delta) or new_best is not None:
            moves.append(Move(new["player_id"], new["played_on"].year, delta, new_best))
    return moves, resum


def _move_totals(ruleset: str, moves: list[Move], played_on: date) -> list[Step]:
    """The statements moving the players' totals by their differences (and their rows): each
    player's all-time row and the row of the game's year, then their row of the last 30 days,
    moved only if the game was played within the kept window (``Recent``).

    An upsert: a player with no row yet (their first deal, of all time or of the year) gets
    one holding the difference, which is then their whole total, since a missing row sums
    games that added nothing.  A re-sum running at the same moment (``refresh_totals``)
    cannot lose the difference: the row it inserts is waited for and then moved, or the
    re-sum waits and counts the game.
    """

    def rows(*years: int | None) -> list[dict[str, Any]]:
        return [
            {
                "player_id": move.player_id,
                "ruleset": ruleset,
                "year": move.year if year is None else year,
                **dict(zip(_TOTALS, move.delta, strict=True)),
                "best": move.new_best,
            }
            for move in moves
            for year in years
        ]

    # Most deals move only the deal columns, which no index holds: the upsert then sets only
    # those, so the database rewrites no index entry (SQLite updates the indexes of the
    # columns an UPDATE sets, whether or not their values change).
    only_deals = all(
        move.new_best is None and not any(move.delta[_TOTALS.index(column)] for column in _GAME_TOTALS)
        for move in moves
    )
    statement = _move_totals_statement(db.session.get_bind().dialect.name, only_deals)
    return [
        (statement, rows(ALL_TIME, None)),
        (Recent(statement), {"played_on": played_on, "rows": rows(RECENT)}),
    ]


class Recent(NamedTuple):
    """A step's INSERT whose rows go in only for a game played within the kept window: on or after
    ``kept_window.since``, which the statement reads itself, so that it agrees with the rows it
    moves whenever the window was rolled (``keep_recent``).  Its parameters: ``{"played_on": the
    game's date, "rows": [...]}``.
    """

    statement: Any


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
#: Those a finished game moves (and the best game): the rankings' indexes hold them.
_GAME_TOTALS = ("games", "wins", "points")


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
def _move_totals_statement(dialect: str, only_deals: bool = False) -> Any:
    """INSERT a row of differences per player; ON CONFLICT add them to the row there.

    The best game only grows: to the new total when it is higher (or there was none).
    PostgreSQL and SQLite write the upsert alike (``excluded``: the row that was to go in).
    ``only_deals``: the differences are in the deal columns alone, and only those are set.
    """
    totals = PlayerTotal.__table__
    upsert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(totals)
    excluded = upsert.excluded
    moving = [column for column in _TOTALS if not (only_deals and column in _GAME_TOTALS)]
    moved: dict[str, Any] = {column: totals.c[column] + excluded[column] for column in moving}
    if not only_deals:
        grows = and_(excluded.best.is_not(None), or_(totals.c.best.is_(None), totals.c.best < excluded.best))
        moved["best"] = case((grows, excluded.best), else_=totals.c.best)
    return upsert.on_conflict_do_update(
        index_elements=[totals.c.player_id, totals.c.ruleset, totals.c.year], set_=moved
    )


def refresh_totals(player_ids: Sequence[int] | None = None, ruleset: str | None = None) -> None:
    """Rewrite ``player_totals`` from ``game_results``: for some players (and one ruleset), or all;
    all time, every year, and the kept window of the last 30 days (``keep_recent``).

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
    chosen: list[ColumnElement[bool]] = []
    if player_ids is not None:
        stale = stale.where(PlayerTotal.player_id.in_(ids))
        chosen.append(GameResult.player_id.in_(ids))
    if ruleset is not None:
        stale = stale.where(PlayerTotal.ruleset == ruleset)
        chosen.append(GameResult.ruleset == ruleset)
    # All time, year by year (the year's sums are those of its games), and the kept window.
    played_in = cast(func.extract("year", GameResult.played_on), Integer)
    within = GameResult.played_on >= select(KeptWindow.since).scalar_subquery()
    sums = [
        _summed(literal(ALL_TIME, Integer), chosen),
        _summed(played_in, chosen, played_in),
        _summed(literal(RECENT, Integer), [*chosen, within]),
    ]
    db.session.execute(stale)
    db.session.execute(insert(PlayerTotal).from_select(_KEPT_COLUMNS, union_all(*sums)))


_KEPT_COLUMNS = ["player_id", "ruleset", "year", "games", "wins", "deals", "deal_wins", "points", "best"]


def _summed(year: Any, where: list[Any], *grouped: Any) -> Any:
    """Rows of ``player_totals`` (``_KEPT_COLUMNS``) summed from the ``game_results`` ``where`` holds."""
    return (
        select(GameResult.player_id, GameResult.ruleset, year, *record_columns())
        .where(*where)
        .group_by(GameResult.player_id, GameResult.ruleset, *grouped)
        .having(func.sum(GameResult.deals_played) > 0)  # every kept row ranks: a player with a deal
    )


def keep_recent(today: date) -> None:
    """Make the kept window the last 30 days as of ``today``: roll it forward if it is not yet.

    Usually one read of ``kept_window``.  Once a day (at the first view of the rankings of
    the last 30 days) the rows of ``RECENT`` are summed again from the
    new period's ``game_results``, in a transaction of their own, committed here.  Writers
    wait meanwhile: on PostgreSQL the table is locked against their upserts (which read the
    window's first day in the same statement, so each either moved the rows before the roll,
    which then sums its committed game, or moves them after it, from the new day on); on
    SQLite the roll holds the write lock.
    """
    since = Filters(period="30d").since(today)
    if db.session.scalar(select(KeptWindow.since)) == since:
        return
    db.session.rollback()  # a transaction of its own, begun by a write
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        db.session.execute(text("LOCK TABLE player_totals IN SHARE ROW EXCLUSIVE MODE"))
    else:
        first_write(connection, lambda: db.session.execute(update(KeptWindow).values(since=KeptWindow.since)))
    rolled = db.session.scalar(select(KeptWindow.since)) != since  # not by another meanwhile
    if rolled:
        db.session.execute(delete(PlayerTotal).where(PlayerTotal.year == RECENT))
        recent = _summed(literal(RECENT, Integer), [GameResult.played_on >= since])
        db.session.execute(insert(PlayerTotal).from_select(_KEPT_COLUMNS, recent))
        db.session.execute(delete(KeptWindow))
        db.session.execute(insert(KeptWindow).values(id=1, since=since))
    db.session.commit()
    if rolled and connection.dialect.name == "postgresql":
        # The planner's figures of the rows by period, after all of the window's rows changed:
        # without them it took the new rows for one and sorted every one of them to cut a page
        # (25 ms against 4 at 100,000 games) until autovacuum analysed the table.  Some 25 ms,
        # once a day, after the lock is let go (ANALYZE does not keep writers waiting).
        db.session.execute(text("ANALYZE player_totals (ruleset, year)"))
        db.session.commit()
