"""The club's games for the home page: in progress first, then the newest finished, a page at a time.

Drawn from stored figures, never by replaying a game.  Each list is paged by its last game
(keyset) on the index ``ix_games_listing``, so a page costs the same whatever the club's size.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, exists, false, or_, select, true, union, union_all

from ..extensions import db
from ..models import Game, Pencil, Player, Seat
from ..rules import GameSetup, Ruleset, get_ruleset
from ..stored_figures import GameResult

GAMES_PER_LIST = 20
#: A phone's games: the newest it holds the pencil of, and at most this many it remembers opening.
MOST_HELD = 20
MOST_OPENED = 20


@dataclass(frozen=True)
class ListedGame:
    """One game as the home page lists it."""

    id: str
    ruleset: Ruleset
    created_at: datetime
    played_on: date
    finished: bool
    names: tuple[str, ...]
    """The players in seating order."""
    totals: tuple[int, ...] | None
    """Each seat's total; None where the game has no stored figures."""
    leaders: tuple[str, ...]
    """Everyone on the highest total (the winners, once finished); empty before a deal is scored."""
    deals_played: int
    deal_count: int
    """Deals in the whole game (its preset's and its players', where they decide)."""

    @property
    def deal_now(self) -> int:
        """The deal being played now (in progress), 1-based."""
        return min(self.deals_played + 1, self.deal_count)

    @property
    def lead(self) -> int | None:
        """The leaders' total, once a deal is scored."""
        if not self.leaders or self.totals is None:
            return None
        return max(self.totals)


@dataclass(frozen=True)
class GameList:
    playing: list[ListedGame]
    finished: list[ListedGame]
    more_playing: str | None
    """The id of the last game in progress shown, when there are more: the next page starts after it."""
    more_finished: str | None


def _page(finished: bool, after: str | None, size: int) -> Any:
    """The ids of one list's page: ``size + 1`` games (the extra one says there are more)."""
    games = Game.__table__
    query = select(games.c.id).where(games.c.finished == (true() if finished else false()))
    if after is not None:
        # Keyset: the games listed after ``after`` (newest first; equal times by id, descending).
        mark = select(games.c.created_at).where(games.c.id == after).scalar_subquery()
        query = query.where(games.c.created_at <= mark, or_(games.c.created_at < mark, games.c.id < after))
    return query.order_by(games.c.created_at.desc(), games.c.id.desc()).limit(size + 1).subquery()


def game_list(
    *,
    playing: bool = True,
    finished: bool = True,
    playing_after: str | None = None,
    finished_after: str | None = None,
    size: int = GAMES_PER_LIST,
) -> GameList:
    """One page of the games in progress and one of the finished games (either may be left out),
    in one query."""
    pages = []
    if playing:
        pages.append(select(_page(False, playing_after, size)))
    if finished:
        pages.append(select(_page(True, finished_after, size)))
    if not pages:
        return GameList([], [], None, None)
    listed = (pages[0] if len(pages) == 1 else union_all(*pages)).subquery()
    lists: dict[bool, list[ListedGame]] = {False: [], True: []}
    for game, _row in _listed_games(listed):
        lists[game.finished].append(game)
    return GameList(
        playing=lists[False][:size],
        finished=lists[True][:size],
        more_playing=lists[False][size - 1].id if len(lists[False]) > size else None,
        more_finished=lists[True][size - 1].id if len(lists[True]) > size else None,
    )


def _listed_games(listed: Any, *extra: Any) -> list[tuple[ListedGame, Any]]:
    """The games whose ids ``listed`` (a subquery) holds, in progress first, newest first; each with
    its first row (for ``extra`` columns)."""
    games, seats, players, results = Game.__table__, Seat.__table__, Player.__table__, GameResult.__table__
    query = (
        select(
            games.c.id,
            games.c.ruleset,
            games.c.options,
            games.c.created_at,
            games.c.played_on,
            games.c.finished,
            seats.c.position,
            players.c.name,
            results.c.total,
            results.c.rank,
            results.c.deals_played,
            *extra,
        )
        .join(listed, listed.c.id == games.c.id)
        .join(seats, seats.c.game_id == games.c.id)
        .join(players, players.c.id == seats.c.player_id)
        .outerjoin(results, and_(results.c.game_id == games.c.id, results.c.seat == seats.c.position))
        .order_by(games.c.finished, games.c.created_at.desc(), games.c.id.desc(), seats.c.position)
    )
    by_game: dict[str, list[Any]] = {}
    for row in db.session.execute(query):
        by_game.setdefault(row.id, []).append(row)
    return [(_listed(rows), rows[0]) for rows in by_game.values()]


@dataclass(frozen=True)
class PhoneGame:
    """One of a phone's games: as the home page lists it, and whether the phone holds its pencil."""

    game: ListedGame
    held: bool


def phone_games(device_hash: str | None, opened: Collection[str]) -> list[PhoneGame]:
    """A phone's games: the newest ``MOST_HELD`` its keyring holds and those of ``opened`` (plausible
    ids; the first ``MOST_OPENED``) that exist; in progress first, newest first."""
    opened = list(dict.fromkeys(opened))[:MOST_OPENED]
    if device_hash is None and not opened:
        return []
    games, pencils = Game.__table__, Pencil.__table__
    parts = []
    if device_hash is not None:
        newest = (
            select(pencils.c.game_id.label("id"))
            .where(pencils.c.device_hash == device_hash)
            .order_by(pencils.c.created_at.desc(), pencils.c.game_id.desc())
            .limit(MOST_HELD)
            .subquery()
        )
        parts.append(select(newest.c.id))
    if opened:
        parts.append(select(games.c.id).where(games.c.id.in_(opened)))
    listed = (parts[0] if len(parts) == 1 else union(*parts)).subquery()
    held: Any = false()
    if device_hash is not None:
        held = exists().where(pencils.c.game_id == games.c.id, pencils.c.device_hash == device_hash)
    return [PhoneGame(game, bool(row.held)) for game, row in _listed_games(listed, held.label("held"))]


def _listed(rows: list[Any]) -> ListedGame:
    first = rows[0]
    names = tuple(row.name for row in rows)
    scored = all(row.total is not None for row in rows)
    totals = tuple(int(row.total) for row in rows) if scored else None
    deals_played = int(first.deals_played or 0) if scored else 0
    leaders = tuple(row.name for row in rows if row.rank == 1) if scored and deals_played else ()
    ruleset = get_ruleset(first.ruleset)
    options = tuple(sorted((str(key), str(value)) for key, value in (first.options or {}).items()))
    setup = GameSetup(ruleset=ruleset.id, players=names, first_dealer=0, options=options)
    return ListedGame(
        id=first.id,
        ruleset=ruleset,
        created_at=first.created_at,
        played_on=first.played_on,
        finished=bool(first.finished),
        names=names,
        totals=totals,
        leaders=leaders,
        deals_played=deals_played,
        deal_count=ruleset.deals_in(setup),
    )
