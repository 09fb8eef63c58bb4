"""Checks shared by the statistics tests: the stored figures of a game equal its replay."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorekeeper import services, stats
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.stored_figures import DealResult, GameResult


def stored(game_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    games = [
        {column.name: getattr(row, column.name) for column in GameResult.__table__.c}
        for row in db.session.execute(
            select(GameResult).where(GameResult.game_id == game_id).order_by(GameResult.seat)
        ).scalars()
    ]
    deals = [
        {column.name: getattr(row, column.name) for column in DealResult.__table__.c}
        for row in db.session.execute(
            select(DealResult)
            .where(DealResult.game_id == game_id)
            .order_by(DealResult.number, DealResult.seat)
        ).scalars()
    ]
    return games, deals


def replayed(game_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The figures computed afresh from the deals, as a reader who trusts nothing stored would."""
    db.session.expire_all()
    loaded = services.snapshot(game_id)
    return stats.figures(
        loaded.state, game_id=loaded.id, player_ids=list(loaded.player_ids), played_on=loaded.played_on
    )


def assert_figures_match(game_id: str) -> None:
    db.session.expire_all()
    games, deals = stored(game_id)
    assert (games, deals) == replayed(game_id)
    state = services.snapshot(game_id).state
    # And independently of figures(): totals, ranks and deals played straight from the state.
    assert [row["total"] for row in games] == list(state.totals)
    assert [row["rank"] for row in games] == [
        next(s.rank for s in state.standings if s.seat == seat) for seat in range(len(games))
    ]
    assert {row["deals_played"] for row in games} == {state.completed_deals}
    assert all(row["finished"] == state.finished for row in games)
    assert db.session.get(Game, game_id).finished == state.finished  # the status the home page lists by
    assert sum(row["score"] for row in deals) == 0  # Mizerka is zero-sum, deal by deal
    assert_totals_match()


def assert_totals_match() -> None:
    """Every stored total, all time and of each year, equals the sums of its player's game
    figures in its ranking, for everyone; and only those with a deal have a stored row (every
    stored row ranks).
    """
    from scorekeeper.stored_figures import PlayerTotal, PlayerYearTotal

    def sums(row: Any) -> tuple[Any, ...]:
        return (row.games, row.wins, row.deals, row.deal_wins, row.points, row.best)

    kept = {(row.player_id, row.ranking, None): sums(row) for row in db.session.scalars(select(PlayerTotal))}
    for row in db.session.scalars(select(PlayerYearTotal)):
        kept[(row.player_id, row.ranking, row.year)] = sums(row)
    summed: dict[tuple[int, str, int | None], list[Any]] = {}
    for row in db.session.execute(select(GameResult)).scalars():
        for year in (None, row.played_on.year):
            total = summed.setdefault((row.player_id, row.ranking, year), [0, 0, 0, 0, 0, None])
            total[0] += row.finished
            total[1] += row.finished and row.rank == 1
            total[2] += row.deals_played
            total[3] += row.deals_won
            total[4] += row.total if row.finished else 0
            if row.finished:
                total[5] = row.total if total[5] is None else max(total[5], row.total)
    expected = {key: tuple(value) for key, value in summed.items() if value[2] > 0}
    assert kept == expected


def replayed_and_stored(game_id: str) -> tuple[Any, Any]:
    """A game's stored figures and its replay's (for a game whose deals are not zero-sum: Barbu's)."""
    db.session.expire_all()
    return stored(game_id), replayed(game_id)
