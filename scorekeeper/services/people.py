"""People: a player's name, renaming a person, and merging two records of one person."""

from __future__ import annotations

from sqlalchemy import func, select, update

from .. import stats
from ..errors import not_found, refusal
from ..extensions import db
from ..models import DealResult, Game, GameResult, Player, Seat
from ..rules import RuleError, name_key, normalise_name, validate_name
from .store import transaction


def get_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        raise not_found("player")
    return player


def find_player(name: object) -> Player:
    """The player called ``name`` (ignoring case), or ``not_found``."""
    if not isinstance(name, str) or not name.strip():
        raise RuleError("unknown_player", "Give a player's name.", "name")
    player = db.session.execute(select(Player).where(Player.name_key == name_key(name))).scalar_one_or_none()
    if player is None:
        raise RuleError("unknown_player", f"There is no player called {normalise_name(name)}.", "name")
    return player


def _touch_games_of(player_id: int) -> None:
    # Names show on every page of the player's games: bump their versions so cached copies refresh.
    games = select(Seat.game_id).where(Seat.player_id == player_id)
    db.session.execute(
        update(Game)
        .where(Game.id.in_(games))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )


def rename_player(player_id: int, new_name: object) -> Player:
    """Give a player a new name; their games and figures follow (they point at the person)."""
    with transaction():
        player = get_player(player_id)
        name = validate_name(new_name)
        key = name_key(name)
        if key != player.name_key:
            other = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one_or_none()
            if other is not None:
                raise refusal(
                    "name_taken",
                    f"{other.name} is already a player. If {player.name} and {other.name} are the same "
                    "person, merge the two records instead.",
                    "name",
                )
        player.name = name
        player.name_key = key
        _touch_games_of(player.id)
    return player


def merge_players(duplicate_id: int, keep_id: int) -> Player:
    """Fold the record ``duplicate_id`` into ``keep_id``: one person, all their games.

    Refused when the two sat in the same game: they are then two people, and
    one game would have the same person in two seats.
    """
    with transaction():
        duplicate = get_player(duplicate_id)
        keep = get_player(keep_id)
        if duplicate.id == keep.id:
            raise refusal("same_player", "Choose two different players to merge.", "keep")
        shared = db.session.execute(
            select(func.count()).where(
                Seat.player_id == keep.id,
                Seat.game_id.in_(select(Seat.game_id).where(Seat.player_id == duplicate.id)),
            )
        ).scalar_one()
        if shared:
            games = "a game" if shared == 1 else f"{shared} games"
            raise refusal(
                "players_share_game",
                f"{duplicate.name} and {keep.name} played together in {games}, so they are two people: "
                "merging them would seat one person twice at the same table. Nothing was changed.",
                "keep",
            )
        _touch_games_of(duplicate.id)
        for table in (Seat, GameResult, DealResult):
            db.session.execute(
                update(table)
                .where(table.player_id == duplicate.id)
                .values(player_id=keep.id)
                .execution_options(synchronize_session=False)
            )
        stats.refresh_totals([keep.id, duplicate.id])
        db.session.delete(duplicate)
        db.session.flush()
    return keep
