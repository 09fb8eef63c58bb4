"""The one writer of stored figures: a game's rows and its players' sums, equal to its replay.

Every write to a game calls ``store_figures`` in its own transaction: the game's rows of
``game_results`` and ``deal_results`` become those of the replayed state, and its players' rows
of ``player_totals`` (all time, and year by year) are summed again from their ``game_results``.
A player's sums cost the same whatever the size of the club: they read that player's games
only.  Tests check the stored figures always equal the replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import Integer, cast, delete, func, insert, literal, select, union_all
from sqlalchemy.sql.elements import ColumnElement

from ..extensions import db
from ..models import ALL_TIME, DealResult, GameResult, Player, PlayerTotal
from ..rules import GameState
from .figures import figures
from .sums import record_columns


def store_figures(state: GameState, *, game_id: str, player_ids: Sequence[int], played_on: date) -> None:
    """Make the game's stored figures those of ``state`` (inside the caller's transaction)."""
    game_rows, deal_rows = figures(state, game_id=game_id, player_ids=player_ids, played_on=played_on)
    db.session.execute(delete(DealResult).where(DealResult.game_id == game_id))
    db.session.execute(delete(GameResult).where(GameResult.game_id == game_id))
    # render_nulls: rows with and without a None (``pick``, ``made``) go in one batch.
    db.session.execute(insert(GameResult).execution_options(render_nulls=True), game_rows)
    if deal_rows:
        db.session.execute(insert(DealResult).execution_options(render_nulls=True), deal_rows)
    refresh_totals(player_ids, state.setup.ruleset)


def refresh_totals(player_ids: Sequence[int] | None = None, ruleset: str | None = None) -> None:
    """Sum ``player_totals`` again from ``game_results``: for some players (and one ruleset), or all;
    all time and every year.

    The players' rows are locked first (PostgreSQL), so two games sharing a player that are
    written at the same moment take turns here, and the second sums what the first wrote.
    """
    chosen: list[ColumnElement[bool]] = []
    stale = delete(PlayerTotal)
    if player_ids is not None:
        ids = sorted(set(player_ids))
        # FOR NO KEY UPDATE: it queues writers here but not the foreign-key checks (KEY SHARE) of
        # the rows just inserted for these players; FOR UPDATE would deadlock two such writers.
        db.session.execute(
            select(Player.id).where(Player.id.in_(ids)).order_by(Player.id).with_for_update(key_share=True)
        )
        stale = stale.where(PlayerTotal.player_id.in_(ids))
        chosen.append(GameResult.player_id.in_(ids))
    if ruleset is not None:
        stale = stale.where(PlayerTotal.ruleset == ruleset)
        chosen.append(GameResult.ruleset == ruleset)
    year = cast(func.extract("year", GameResult.played_on), Integer)
    sums = union_all(_summed(literal(ALL_TIME, Integer), chosen), _summed(year, chosen, year))
    db.session.execute(stale)
    db.session.execute(insert(PlayerTotal).from_select(_TOTAL_COLUMNS, sums))


_TOTAL_COLUMNS = ["player_id", "ruleset", "year", "games", "wins", "deals", "deal_wins", "points", "best"]


def _summed(year: Any, where: list[Any], *grouped: Any) -> Any:
    """Rows of ``player_totals`` summed from the ``game_results`` that ``where`` holds."""
    return (
        select(GameResult.player_id, GameResult.ruleset, year, *record_columns())
        .where(*where)
        .group_by(GameResult.player_id, GameResult.ruleset, *grouped)
        .having(func.sum(GameResult.deals_played) > 0)  # every stored row ranks: a player with a deal
    )
