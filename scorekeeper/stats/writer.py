"""The one writer of stored figures: in every write's transaction, a game's rows of ``game_results``
and ``deal_results`` become those of its replay, and its players' ``player_totals`` (all time) and
``player_year_totals`` (each year) follow.

A write that read the game's rows as stored (``stored``) writes only what changed: the game's
rows whose figures moved, the deals' rows from the first deal it touched, and, while the game was
not finished, what its rows add to its players' sums (a deal in a game in progress adds to their
deals played and won; the deal that finishes it adds the game, its points, its win, a best game).
A write that may take away a finished game's figures (a best game among them) sums them again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import Integer, TextClause, bindparam, cast, delete, func, insert, select, text, update
from sqlalchemy.sql.elements import ColumnElement

from ..extensions import db
from ..models import Player
from ..rules import GameState
from ..stored_figures import DealResult, GameResult, PlayerTotal, PlayerYearTotal
from .figures import figures
from .sums import SUMS, record_columns


def store_figures(
    state: GameState,
    *,
    game_id: str,
    player_ids: Sequence[int],
    played_on: date,
    from_deal: int = 1,
    stored: Sequence[Mapping[str, Any]] | None = None,
    scored_from: bool = True,
) -> None:
    """Make the game's stored figures those of ``state`` (inside the caller's transaction).

    ``from_deal``: the first deal the write changed; the rows of the deals before it stand (a
    deal's figures depend on it and the deals before it only).  ``stored``: the game's rows of
    ``game_results`` as the write read them (None: rewritten whole, the sums summed again);
    ``scored_from``: whether a deal from ``from_deal`` on had rows (else there are none to drop).
    """
    game_rows, deal_rows = figures(state, game_id=game_id, player_ids=player_ids, played_on=played_on)
    connection = db.session.connection()
    if scored_from:
        connection.execute(_DROP_DEAL_ROWS, {"game_id": game_id, "from_deal": from_deal})
    changed = [row for row in deal_rows if row["number"] >= from_deal]
    if changed:
        connection.execute(_ADD_DEAL_ROWS, changed)
    before = {row["seat"]: row for row in stored or ()}
    if len(before) != len(game_rows) or any(
        row["seat"] not in before or any(before[row["seat"]][name] != row[name] for name in STAYING)
        for row in game_rows
    ):  # a new game, or rows that are not the game's own as it stands: written whole
        connection.execute(_DROP_GAME_ROWS, {"game_id": game_id})
        connection.execute(_ADD_GAME_ROWS, game_rows)
        refresh_totals(player_ids, game_rows[0]["ranking"])
        return
    moved = [row for row in game_rows if any(row[name] != before[row["seat"]][name] for name in MOVING)]
    if moved:
        connection.execute(
            _MOVE_GAME_ROWS,
            [
                {"of_game": game_id, "of_seat": row["seat"], **{name: row[name] for name in MOVING}}
                for row in moved
            ],
        )
    if any(row["finished"] for row in before.values()):
        refresh_totals(player_ids, game_rows[0]["ranking"])  # a finished game's figures may shrink
    elif moved:
        _add_to_totals([(before[row["seat"]], row) for row in moved])


#: The columns of a game's ``game_results`` rows that its deals move, and those they keep.
MOVING = ("finished", "total", "rank", "deals_played", "deals_won")
STAYING = ("player_id", "ranking", "played_on")


def _sums(row: Mapping[str, Any]) -> dict[str, Any]:
    """What one game's row adds to its player's sums (``record_columns``, row by row)."""
    finished = bool(row["finished"])
    return {
        "games": int(finished),
        "wins": int(finished and row["rank"] == 1),
        "deals": row["deals_played"],
        "deal_wins": row["deals_won"],
        "points": row["total"] if finished else 0,
    }


def _add_to_totals(moves: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> None:
    """Add what each moved row of a game not finished before adds now to its player's sums, all time
    and in the game's year: the upsert adds to a player's row (made at their first deal) under its
    lock, so two games sharing a player add in turn, without a re-sum; players in one order."""
    rows = []
    for old, new in sorted(moves, key=lambda move: move[1]["player_id"]):
        was, now = _sums(old), _sums(new)
        added = {name: now[name] - was[name] for name in now}
        best = new["total"] if new["finished"] else None
        if best is None and not any(added.values()):
            continue
        rows.append({"player_id": new["player_id"], "ranking": new["ranking"], **added, "best": best})
    if not rows:
        return
    year = moves[0][1]["played_on"].year
    connection = db.session.connection()
    connection.execute(_ADD_TO_TOTALS, rows)
    connection.execute(_ADD_TO_YEAR_TOTALS, [{**row, "year": year} for row in rows])
    if any(row["deals"] < 0 for row in rows):  # an undo: a row left without deals goes
        ids = [row["player_id"] for row in rows]
        for table, extra in ((PlayerTotal.__table__, {}), (PlayerYearTotal.__table__, {"year": year})):
            extras = (table.c[name] == value for name, value in extra.items())
            emptied = (table.c.player_id.in_(ids), table.c.ranking == rows[0]["ranking"], table.c.deals == 0)
            connection.execute(delete(table).where(*emptied, *extras))


_game_results, _deal_results = GameResult.__table__, DealResult.__table__


def _upsert_sums(table: str, keys: tuple[str, ...]) -> TextClause:
    """The upsert that adds a row of sums (``SUMS``: ``best`` the higher) to a player's row of
    ``table``, made by it at their first deal.  Written out, in the words SQLite and PostgreSQL share:
    SQLAlchemy's own ON CONFLICT construct has no cache key, so it was compiled again for every
    deal (half of a deal's time in Python)."""
    columns = (*keys, *SUMS)
    added = [f"{name} = {table}.{name} + excluded.{name}" for name in SUMS if name != "best"]
    best = (
        f"best = CASE WHEN excluded.best IS NULL THEN {table}.best"
        f" WHEN {table}.best IS NULL OR excluded.best > {table}.best THEN excluded.best"
        f" ELSE {table}.best END"
    )
    return text(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + name for name in columns)})"
        f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(added)}, {best}"
    )


#: Run once per player's row (executemany), in the players' order.
_ADD_TO_TOTALS = _upsert_sums(PlayerTotal.__tablename__, ("player_id", "ranking"))
_ADD_TO_YEAR_TOTALS = _upsert_sums(PlayerYearTotal.__tablename__, ("player_id", "ranking", "year"))
_DROP_GAME_ROWS = delete(_game_results).where(_game_results.c.game_id == bindparam("game_id"))
_DROP_DEAL_ROWS = delete(_deal_results).where(
    _deal_results.c.game_id == bindparam("game_id"), _deal_results.c.number >= bindparam("from_deal")
)
_ADD_GAME_ROWS = insert(_game_results)
_MOVE_GAME_ROWS = update(_game_results).where(
    _game_results.c.game_id == bindparam("of_game"), _game_results.c.seat == bindparam("of_seat")
)
# render_nulls: rows with and without a None (``pick``, ``made``) go in one batch.
_ADD_DEAL_ROWS = insert(_deal_results).execution_options(render_nulls=True)


def refresh_totals(player_ids: Sequence[int] | None = None, ranking: str | None = None) -> None:
    """Sum the players' totals, all time and each year, again from ``game_results``: for some
    players (and one ranking), or all.  The players' rows are locked first (PostgreSQL), so two
    games sharing a player that are written at the same moment take turns here, and the second
    sums what the first wrote."""
    params: dict[str, Any] = {"ranking": ranking}
    if player_ids is not None:
        params["ids"] = sorted(set(player_ids))
        db.session.connection().execute(_LOCK_PLAYERS, params)
    for statement in _resum(player_ids is not None, ranking is not None):
        db.session.connection().execute(statement, params)


# FOR NO KEY UPDATE: it queues writers here but not the foreign-key checks (KEY SHARE) of the rows
# just inserted for these players; FOR UPDATE would deadlock two such writers.
_LOCK_PLAYERS = (
    select(Player.id)
    .where(Player.id.in_(bindparam("ids", expanding=True)))
    .order_by(Player.id)
    .with_for_update(key_share=True)
)


@functools.cache
def _resum(by_players: bool, by_ranking: bool) -> tuple[Any, ...]:
    """The DELETEs of the stale totals and the INSERTs summing them again, all time and by year, for
    some players (``ids``) and one ranking (``ranking``) or all: built once, as every write runs them."""
    played_in = cast(func.extract("year", GameResult.played_on), Integer)
    statements = []
    for totals, years in ((PlayerTotal.__table__, ()), (PlayerYearTotal.__table__, (played_in,))):
        stale = delete(totals)
        chosen: list[ColumnElement[bool]] = []
        if by_players:
            stale = stale.where(totals.c.player_id.in_(bindparam("ids", expanding=True)))
            chosen.append(GameResult.player_id.in_(bindparam("ids", expanding=True)))
        if by_ranking:
            stale = stale.where(totals.c.ranking == bindparam("ranking"))
            chosen.append(GameResult.ranking == bindparam("ranking"))
        sums = (
            select(GameResult.player_id, GameResult.ranking, *years, *record_columns())
            .where(*chosen)
            .group_by(GameResult.player_id, GameResult.ranking, *years)
            .having(func.sum(GameResult.deals_played) > 0)  # every stored row ranks: a player with a deal
        )
        columns = ["player_id", "ranking", *(["year"] if years else []), *SUMS]
        statements += [stale, insert(totals).from_select(columns, sums)]
    return tuple(statements)
