"""People: finding a player, renaming a person, and merging two records of one person; allowed to
the administrator or whoever holds the edit key of every game the people concerned sat in."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update

from .. import stats
from ..errors import Refusal, not_found, refusal
from ..extensions import db, game_changed
from ..models import Game, Player, Seat, utcnow
from ..rules import N_, RuleError, n_, name_key, validate_name
from ..stored_figures import DealResult, GameResult, Rating
from . import keyring
from .store import transaction


@dataclass(frozen=True)
class Authority:
    """What a visitor holds: the administrator's sign-in, and a device whose keyring holds some keys."""

    admin: bool = False
    device: str | None = None
    """The hash of this browser's device token (``services.keyring``), if it has one."""


def not_allowed() -> Refusal:
    return refusal(
        "not_allowed",
        N_(
            "Only the administrator, or whoever holds the edit key of every game these players sat in, "
            "may rename or merge them. Nothing was changed."
        ),
    )


def may_manage(player_ids: Iterable[int], authority: Authority) -> bool:
    """Whether ``authority`` may rename or merge the people ``player_ids``."""
    if authority.admin:
        return True
    # Holding no key at all, nobody's games need looking at (a player's page stays within budget).
    return authority.device is not None and keyring.holds_every_game_of(authority.device, list(player_ids))


def _require(player_ids: Iterable[int], authority: Authority | None) -> None:
    # None: a caller on the server itself (the command line, a script), trusted as the administrator.
    if authority is not None and not may_manage(player_ids, authority):
        raise not_allowed()


def get_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        raise not_found("player")
    return player


def find_player(name: object) -> Player:
    """The player called ``name`` (ignoring case), or ``not_found``."""
    if not isinstance(name, str) or not name.strip():
        raise RuleError("unknown_player", N_("Give a player's name."), "name")
    # The name is checked like any name before it is looked up: no stored name has a NUL or an
    # invisible character, and PostgreSQL would refuse the NUL where SQLite does not.
    wanted = validate_name(name)
    player = db.session.execute(
        select(Player).where(Player.name_key == name_key(wanted))
    ).scalar_one_or_none()
    if player is None:
        raise RuleError(
            "unknown_player", N_("There is no player called %(player)s."), "name", {"player": wanted}
        )
    return player


def _touch_games_of(player_id: int) -> None:
    # Names show on every page of the player's games, and on the club's pages: bump the games'
    # versions (their cached pages' key) and drop the club's cached pages.
    game_changed.send(None, standings=True)
    games = select(Seat.game_id).where(Seat.player_id == player_id)
    db.session.execute(
        update(Game)
        .where(Game.id.in_(games))
        .values(version=Game.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )


def rename_player(player_id: int, new_name: object, authority: Authority | None = None) -> Player:
    """Give a player a new name; their games and figures follow (they point at the person)."""
    with transaction():
        player = get_player(player_id)
        _require([player.id], authority)
        name = validate_name(new_name)
        key = name_key(name)
        if key != player.name_key:
            other = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one_or_none()
            if other is not None:
                raise refusal(
                    "name_taken",
                    N_(
                        "%(other)s is already a player. If %(player)s and %(other)s are the same person, "
                        "merge the two records instead."
                    ),
                    "name",
                    other=other.name,
                    player=player.name,
                )
        player.name = name
        player.name_key = key
        _touch_games_of(player.id)
    return player


def merge_players(duplicate_id: int, keep_id: int, authority: Authority | None = None) -> Player:
    """Fold the record ``duplicate_id`` into ``keep_id``: one person, all their games.  Refused
    when the two sat in the same game: they are then two people."""
    with transaction():
        duplicate = get_player(duplicate_id)
        keep = get_player(keep_id)
        _require([duplicate.id, keep.id], authority)
        if duplicate.id == keep.id:
            raise refusal("same_player", N_("Choose two different players to merge."), "keep")
        shared = db.session.execute(
            select(func.count()).where(
                Seat.player_id == keep.id,
                Seat.game_id.in_(select(Seat.game_id).where(Seat.player_id == duplicate.id)),
            )
        ).scalar_one()
        if shared:
            raise refusal(
                "players_share_game",
                N_(
                    "%(duplicate)s and %(keep)s played together in %(games)s, so they are two people: "
                    "merging them would seat one person twice at the same table. Nothing was changed."
                ),
                "keep",
                duplicate=duplicate.name,
                keep=keep.name,
                # NOTE: how many games two players sat in together ("played together in 2 games").
                games=n_("a game", "%(num)d games", shared),
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
        db.session.execute(delete(Rating).where(Rating.player_id == duplicate.id))
        stats.ratings.replay_player(keep.id)  # their games, now one person's, rated again
        db.session.delete(duplicate)
        db.session.flush()
    return keep
