"""Lists of people: everyone with their games, and the names the new-game page offers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select

from ..extensions import db
from ..models import Game, Player, Seat
from ..stored_figures import GameResult


@dataclass(frozen=True)
class PersonLine:
    player_id: int
    name: str
    games: int
    last_played: date | None


def people() -> list[PersonLine]:
    """Every player with how many games they sat in and when they last played, most recent first."""
    last = func.max(GameResult.played_on)
    query = (
        select(Player.id, Player.name, func.count(GameResult.game_id).label("games"), last.label("last"))
        .outerjoin(GameResult, GameResult.player_id == Player.id)
        .group_by(Player.id, Player.name, Player.name_key)
        .order_by(Player.name_key)
    )
    return [PersonLine(row.id, row.name, row.games, row.last) for row in db.session.execute(query)]


def known_players() -> list[str]:
    """Every player's name, alphabetically (for the new-game type-ahead)."""
    return list(db.session.execute(select(Player.name).order_by(Player.name_key)).scalars())


def recent_players(limit: int) -> list[str]:
    """Names of the people in the most recently started games (for the new-game tap list)."""
    query = (
        select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .join(Game, Game.id == Seat.game_id)
        .order_by(Game.created_at.desc(), Seat.game_id, Seat.position)
        .limit(limit * 4)
    )
    names = dict.fromkeys(db.session.execute(query).scalars())
    return list(names)[:limit]


def latest_ranking(player_id: int | None = None) -> str | None:
    """The ranking of the game played most recently by ``player_id`` (finished or not), else of the
    game finished most recently by anyone (the rankings count finished games alone, and a game that
    finishes is what draws them again): where a player's page and the rankings open. None: no game
    counted yet."""
    query = select(GameResult.ranking).join(Game, Game.id == GameResult.game_id)
    if player_id is not None:
        query = query.where(GameResult.player_id == player_id)
    else:
        query = query.where(GameResult.finished)
    newest = query.order_by(GameResult.played_on.desc(), Game.created_at.desc()).limit(1)
    return db.session.execute(newest).scalar_one_or_none()
