"""Ratings: OpenSkill's Plackett-Luce model, with its defaults (mu 25, sigma 25/3), over every finished
game of a game and house rule (``rules.ranking.rating_of``: a table of 3 and one of 4 rated together),
one update a game with the game's places (ties as ties, margins unused), in the order the games
finished (``games.finished_at``, ties by the game's id).  Shown as the ordinal mu - 3 sigma.

Stored like the totals, and brought up to date by the writes that change them, never by a read: a game that
finishes after every game its rating holds is applied on top of its players' stored ratings
(``game_finished``); a correction that moves a finished game's places, an undo that unfinishes it, a
game that finished before others already rated (an import of an old game) and a merge of two people
replay the rating's games from the first (``replay``), so the same games in the same order always
give the same ratings.  The rating's row of ``rated_games`` is taken first: writes rate in turn.
A replay of more games than ``RATINGS_REPLAY_AT_ONCE`` runs after the write commits, in a thread;
the rating is "updating" until it has (ARCHITECTURE.md, "Ratings"); a replay a process died owing is
run when the app next starts (``resume``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple, Protocol

from flask import Flask, current_app
from openskill.models import PlackettLuce
from sqlalchemy import bindparam, delete, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError

from ..extensions import db, game_changed
from ..models import Game
from ..rules import GameSetup, GameState, Ruleset
from ..rules.ranking import ranking_key, rankings_rated_as, rating_of
from ..stored_figures import GameResult, RatedGames, Rating

logger = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model as it comes: mu 25, sigma 25/3, its tau and beta."""


class Rated(NamedTuple):
    """A player's rating: OpenSkill's mu and sigma after ``games`` finished games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> Decimal:
        """mu - 3 sigma, to one decimal place (half up), as the pages show it."""
        shown = Decimal(self.mu - 3 * self.sigma).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        return shown if shown else abs(shown)  # never "-0.0"


NEW = Rated(MODEL.mu, MODEL.sigma, 0)
"""A player's rating before their first game."""

#: One finished game as rated: (player id, place) by seat, places as the game's standings give them.
Seats = Sequence[tuple[int, int]]


def rate(before: Sequence[Rated], places: Sequence[int]) -> list[Rated]:
    """The ratings after one game, seat by seat: OpenSkill's update of ``before`` by the game's places
    (1 first; equal places a tie)."""
    teams = [[MODEL.rating(mu=rated.mu, sigma=rated.sigma)] for rated in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        Rated(team[0].mu, team[0].sigma, rated.games + 1) for team, rated in zip(after, before, strict=True)
    ]


def replayed(games: Iterable[Seats], start: Mapping[int, Rated] | None = None) -> dict[int, Rated]:
    """Every player's rating after ``games`` in their order, from ``start`` (everyone new)."""
    ratings = dict(start or {})
    for seats in games:
        before = [ratings.get(player_id, NEW) for player_id, _place in seats]
        for (player_id, _place), after in zip(
            seats, rate(before, [place for _id, place in seats]), strict=True
        ):
            ratings[player_id] = after
    return ratings


def places(state_standings: Iterable[Any]) -> tuple[int, ...]:
    """A game's places by seat, from its standings (``GameState.standings``)."""
    by_seat = {standing.seat: standing.rank for standing in state_standings}
    return tuple(by_seat[seat] for seat in sorted(by_seat))


def game_finished(ranking: str, game_id: str, finished_at: datetime, seats: Seats) -> None:
    """A game of ``ranking`` has finished at ``finished_at`` (inside the write's transaction): applied
    on top of its players' stored ratings when it finished after every game the rating holds, else the
    rating's games are replayed."""
    rating = rating_of(ranking)
    connection = db.session.connection()
    last = connection.execute(_CLAIM, {"the_rating": rating, "at": finished_at, "of_game": game_id})
    if last.first() is None:  # it finished before a game already rated, or a replay is owed
        replay(rating)
        return
    ids = [player_id for player_id, _place in seats]
    stored = {
        row.player_id: Rated(row.mu, row.sigma, row.games)
        for row in connection.execute(_READ, {"the_rating": rating, "ids": ids})
    }
    after = rate([stored.get(player_id, NEW) for player_id in ids], [place for _id, place in seats])
    rows = [
        {"player_id": player_id, "rating": rating, **rated._asdict()}
        for player_id, rated in sorted(zip(ids, after, strict=True))
    ]
    connection.execute(_STORE, rows)


class ReadGame(Protocol):
    """A game as a write read it (``services.store.Snapshot``): what ``rerate`` needs of it."""

    @property
    def id(self) -> str: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def setup(self) -> GameSetup: ...
    @property
    def player_ids(self) -> tuple[int, ...]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def figures(self) -> tuple[dict[str, Any], ...] | None: ...


def rerate(game: ReadGame, after: GameState, finished_at: datetime | None) -> None:
    """What a write to a game does to its rating, from its places before (its stored figures, if it
    was finished) and after (the state ``after``, finished at ``finished_at``): a game that finishes is
    rated; a finished game whose places moved (or whose figures were not stored whole), or that is no
    longer finished, has its rating replayed; else nothing."""
    ranking = ranking_key(game.ruleset, game.setup)
    now = places(after.standings) if after.finished else None
    if not game.finished:
        if now is not None and finished_at is not None:
            game_finished(ranking, game.id, finished_at, list(zip(game.player_ids, now, strict=True)))
        return
    was = None if game.figures is None else tuple(row["rank"] for row in game.figures)
    if now is None or now != was:
        replay(rating_of(ranking))


def replay(rating: str, *, at_once: bool = False) -> None:
    """Replay one rating's games from the first, in the order they finished, and store what they give
    (inside the caller's transaction, the rating's row taken first).  A rating of more games than
    ``RATINGS_REPLAY_AT_ONCE`` is marked as updating instead, and replayed once the write has
    committed, by a thread of its own (``at_once``: now, whatever its size)."""
    connection = db.session.connection()
    held = connection.execute(_claim(connection.dialect.name), {"the_rating": rating}).one()
    limit = int(current_app.config.get("RATINGS_REPLAY_AT_ONCE", REPLAY_AT_ONCE))
    if at_once or held.games <= limit:
        games, last = _games(rating)
        _store(rating, replayed(games), last, len(games))
        return
    connection.execute(_OWED, {"the_rating": rating})  # a replay reading before this must read again
    session = db.session()
    owed = session.info.setdefault(_LATER, set())
    if not owed:  # heard by this session alone: the writes that owe no replay run none of this
        db.event.listen(session, "after_commit", _start_owed, once=True)
        db.event.listen(session, "after_rollback", _forget_owed, once=True)
    owed.add(rating)


REPLAY_AT_ONCE = 20_000
"""The most games a rating may hold to be replayed inside the write that changes it (bench/ratings.py:
a replay of the club's 100,000 games takes longer than a write should)."""
_LATER = "scorekeeper_ratings_later"  # in db.session.info: the ratings to replay once it commits
_THREADS: list[threading.Thread] = []
_TRIES = 3
"""How often a replay left to a thread computes without holding the rating's row before it holds it."""


def _games(rating: str) -> tuple[list[list[tuple[int, int]]], tuple[Any, str] | None]:
    """The rating's finished games in their order, (player id, place) by seat, and the last's (finish
    time, id)."""
    rows = db.session.connection().execute(_GAMES, {"rankings": list(rankings_rated_as(rating))})
    games: list[list[tuple[int, int]]] = []
    last: tuple[Any, str] | None = None
    for row in rows:  # a row per seat, the game's seats together
        if last is None or row.game_id != last[1]:
            games.append([])
            last = (row.finished_at, row.game_id)
        games[-1].append((row.player_id, row.rank))
    return games, last


def _store(rating: str, ratings: Mapping[int, Rated], last: tuple[Any, str] | None, count: int) -> None:
    """The rating's players' ratings as a replay gave them, and its row marked up to date."""
    connection = db.session.connection()
    connection.execute(_DROP, {"the_rating": rating})
    if ratings:
        connection.execute(
            insert(_ratings),
            [
                {"player_id": pid, "rating": rating, **rated._asdict()}
                for pid, rated in sorted(ratings.items())
            ],
        )
    finished_at, game_id = last or (None, None)
    mark = {"the_rating": rating, "at": finished_at, "of_game": game_id, "count": count}
    connection.execute(_MARK, mark)


def _replay_later(app: Flask, rating: str) -> None:
    """A thread's replay of a rating left updating by a write that has committed.  It reads and
    computes holding nothing (other writes go on), then takes the rating's row as any write takes it
    and stores what it computed if no write changed the rating meanwhile (its ``changes``), else it
    tries again; after ``_TRIES`` it replays holding the row.  Nothing to do if another replay got
    there first."""
    with app.app_context():
        try:
            connection = db.session.connection()
            claim = _claim(connection.dialect.name)
            for _try in range(_TRIES):
                seen = db.session.connection().execute(_SEEN, {"the_rating": rating}).one_or_none()
                if seen is None or not seen.updating:
                    return
                games, last = _games(rating)
                ratings = replayed(games)
                db.session.rollback()  # the read ends: nothing held while the replay was computed
                held = db.session.connection().execute(claim, {"the_rating": rating}).one()
                if not held.updating or held.changes == seen.changes:
                    if held.updating:
                        _store(rating, ratings, last, len(games))
                        game_changed.send(None, standings=True)  # the pages show the ratings anew
                    db.session.commit()
                    return
                db.session.rollback()
            held = db.session.connection().execute(claim, {"the_rating": rating}).one()
            if held.updating:
                games, last = _games(rating)
                _store(rating, replayed(games), last, len(games))
                game_changed.send(None, standings=True)
            db.session.commit()
        except Exception:
            db.session.rollback()
            logger.exception("The replay of the rating %s failed; its next change replays it.", rating)
        finally:
            db.session.remove()


def _start_owed(session: Any) -> None:
    owed = session.info.pop(_LATER, None)
    if not owed:
        return
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    for rating in sorted(owed):
        thread = threading.Thread(target=_replay_later, args=(app, rating), name=f"rating {rating}")
        _THREADS.append(thread)
        thread.start()


def _forget_owed(session: Any) -> None:
    session.info.pop(_LATER, None)


def resume(app: Flask) -> None:
    """Replay, in a thread, the ratings a process left owed: the write that owes a replay marks the
    rating's row ``updating`` in its own transaction, so a process that died before its thread had
    replayed it (a restart, a crash, a deploy) leaves the mark, and the next start replays it (each
    process at its first request: ``resume_in_each_process``).  Several workers starting at once may
    each compute it: each stores only while the mark is still there, under the rating's row, so one
    stores and the rest find it done."""
    thread = threading.Thread(target=_resume_owed, args=(app,), name="ratings owed")
    _THREADS.append(thread)
    thread.start()


def resume_in_each_process(app: Flask) -> None:
    """``resume`` once in each process that serves, when it takes its first request: not while the
    app is built, since a server that builds it before forking its workers (gunicorn's ``--preload``)
    would open a database connection in the parent, which every worker would then share."""
    started = threading.Lock()

    def resume_once() -> None:
        if not started.locked() and started.acquire(blocking=False):
            resume(app)

    app.before_request(resume_once)


def _resume_owed(app: Flask) -> None:
    with app.app_context():
        try:
            owed = db.session.execute(_OWING).scalars().all()
        except DBAPIError:  # no schema yet (a new database being created): nothing can be owed
            logger.warning("The ratings owed a replay could not be read; their next change replays them.")
            return
        finally:
            db.session.remove()
    for rating in owed:
        _replay_later(app, rating)


def wait() -> None:
    """Wait for the replays left to threads (the tests, a command that exits)."""
    while _THREADS:
        _THREADS.pop().join()


def replay_player(player_id: int) -> None:
    """Replay every rating ``player_id`` has a game in (after a merge moved games to them)."""
    rankings = db.session.execute(
        select(GameResult.ranking).where(GameResult.player_id == player_id).distinct()
    ).scalars()
    for rating in sorted({rating_of(ranking) for ranking in rankings}):
        replay(rating)


def replay_all() -> int:
    """Replay every rating that has a game (``flask rebuild-stats``); how many were replayed."""
    rankings = db.session.execute(select(GameResult.ranking).distinct()).scalars()
    ratings = sorted({rating_of(ranking) for ranking in rankings})
    for rating in ratings:
        replay(rating, at_once=True)
    return len(ratings)


_ratings, _rated = Rating.__table__, RatedGames.__table__
_READ = select(_ratings.c.player_id, _ratings.c.mu, _ratings.c.sigma, _ratings.c.games).where(
    _ratings.c.rating == bindparam("the_rating"), _ratings.c.player_id.in_(bindparam("ids", expanding=True))
)
_DROP = delete(_ratings).where(_ratings.c.rating == bindparam("the_rating"))
_MARK = (
    update(_rated)
    .where(_rated.c.rating == bindparam("the_rating"))
    .values(
        finished_at=bindparam("at"), game_id=bindparam("of_game"), games=bindparam("count"), updating=False
    )
)
_OWED = (
    update(_rated)
    .where(_rated.c.rating == bindparam("the_rating"))
    .values(updating=True, changes=_rated.c.changes + 1)
)
_OWING = select(_rated.c.rating).where(_rated.c.updating).order_by(_rated.c.rating)
_SEEN = select(_rated.c.changes, _rated.c.updating).where(_rated.c.rating == bindparam("the_rating"))
_GAMES = (
    select(GameResult.game_id, GameResult.player_id, GameResult.rank, Game.finished_at)
    .join(Game, Game.id == GameResult.game_id)
    .where(GameResult.ranking.in_(bindparam("rankings", expanding=True)), GameResult.finished)
    .order_by(Game.finished_at, Game.id, GameResult.seat)
)


def _dialect(name: str) -> Any:
    return postgresql if name == "postgresql" else sqlite


def _claim(dialect: str) -> Any:
    """A replay's claim of the rating's row of ``rated_games`` (made at its first game), so that
    writes rate in turn: taken whatever it holds; it answers its games and whether a replay is owed."""
    upsert = _dialect(dialect).insert(_rated).values(rating=bindparam("the_rating"))
    taken = upsert.on_conflict_do_update(index_elements=["rating"], set_={"rating": upsert.excluded.rating})
    return taken.returning(_rated.c.games, _rated.c.updating, _rated.c.changes)


# The statements of a game that finishes are written out, in the words SQLite and PostgreSQL share:
# SQLAlchemy's ON CONFLICT construct has no cache key, so it was compiled again for every game.
_RATED = RatedGames.__tablename__
#: A game's claim of its rating's row: moves it on to the game and answers a row only when the game
#: finished after the last one rated and no replay is owed (the row is made at the rating's first game).
_CLAIM = text(
    f"INSERT INTO {_RATED} (rating, finished_at, game_id, games, updating, changes)"
    " VALUES (:the_rating, :at, :of_game, 1, :no, 0)"
    f" ON CONFLICT (rating) DO UPDATE SET finished_at = excluded.finished_at, game_id = excluded.game_id,"
    f" games = {_RATED}.games + 1, changes = {_RATED}.changes + 1"
    f" WHERE ({_RATED}.finished_at IS NULL"
    f" OR ({_RATED}.finished_at, {_RATED}.game_id) < (excluded.finished_at, excluded.game_id))"
    f" AND NOT {_RATED}.updating"
    f" RETURNING {_RATED}.rating"
).bindparams(
    bindparam("at", type_=_rated.c.finished_at.type), bindparam("no", False, type_=_rated.c.updating.type)
)
#: The players' ratings after a game, one row each (executemany), in the players' order.
_STORE = text(
    f"INSERT INTO {Rating.__tablename__} (player_id, rating, mu, sigma, games)"
    " VALUES (:player_id, :rating, :mu, :sigma, :games)"
    " ON CONFLICT (player_id, rating)"
    " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games"
)
