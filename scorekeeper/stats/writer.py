"""The one writer of stored figures: in every write's transaction, a game's rows of ``game_results``
and ``deal_results`` become those of its replay, and its players' ``player_totals`` (all time) and
``player_year_totals`` (each year) are summed again from their own ``game_results``."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import Integer, bindparam, cast, delete, func, insert, select
from sqlalchemy.sql.elements import ColumnElement

from ..extensions import db
from ..models import DealResult, GameResult, Player, PlayerTotal, PlayerYearTotal
from ..rules import GameState
from .figures import figures
from .sums import SUMS, record_columns


def store_figures(
    state: GameState, *, game_id: str, player_ids: Sequence[int], played_on: date, from_deal: int = 1
) -> None:
    """Make the game's stored figures those of ``state`` (inside the caller's transaction).

    ``from_deal``: the first deal the write changed; the rows of the deals before it stand (a
    deal's figures depend on it and the deals before it only).
    """
    game_rows, deal_rows = figures(state, game_id=game_id, player_ids=player_ids, played_on=played_on)
    connection = db.session.connection()
    connection.execute(_DROP_DEAL_ROWS, {"game_id": game_id, "from_deal": from_deal})
    connection.execute(_DROP_GAME_ROWS, {"game_id": game_id})
    connection.execute(_ADD_GAME_ROWS, game_rows)
    changed = [row for row in deal_rows if row["number"] >= from_deal]
    if changed:
        connection.execute(_ADD_DEAL_ROWS, changed)
    refresh_totals(player_ids, game_rows[0]["ranking"])


_game_results, _deal_results = GameResult.__table__, DealResult.__table__
_DROP_GAME_ROWS = delete(_game_results).where(_game_results.c.game_id == bindparam("game_id"))
_DROP_DEAL_ROWS = delete(_deal_results).where(
    _deal_results.c.game_id == bindparam("game_id"), _deal_results.c.number >= bindparam("from_deal")
)
_ADD_GAME_ROWS = insert(_game_results)
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
