"""Games: create, read, list, rematch, and the figures for rankings rebuilt from the replay."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from .. import caching, stats
from ..errors import refusal
from ..extensions import db
from ..models import NOTE_LENGTH, Game, Player, Seat, today, utcnow
from ..rules import N_, RuleError, get_ruleset, name_key, validate_note
from .keys import hash_key, new_edit_key, new_game_id
from .store import (
    Snapshot,
    commit,
    conflict_or_fault,
    keep,
    records_of,
    setup_of,
    snapshot,
)

_NEW_GAME = insert(Game.__table__)
_NEW_SEATS = insert(Seat.__table__)
_PLAYERS_CALLED = select(Player.id, Player.name, Player.name_key).where(
    Player.name_key.in_(bindparam("keys", expanding=True))
)


def get_game(game_id: str) -> Snapshot:
    """The game with its replayed state, from one query, or ``not_found``.

    The one loader: pages, the API and exports read a game this way, and a write
    handed the result (``seen=``) does not read the game again.
    """
    return snapshot(game_id)


# -- writing -----------------------------------------------------------------------


def create_game(
    ruleset_id: object,
    players: Sequence[object],
    first_dealer: object = None,
    options: Mapping[str, object] | None = None,
    *,
    played_on: object = None,
    note: object = None,
) -> tuple[Snapshot, str]:
    """Create a game; returns it with its edit key (shown once, stored as a hash).

    ``played_on`` (a date or ``YYYY-MM-DD``) defaults to today; ``note`` is optional.  The game,
    its seats and its figures go as statements built once (``stats.send``; on PostgreSQL one
    round trip), not through the ORM, and the new game is kept for its first deal (``keep``).
    """
    ruleset = get_ruleset(ruleset_id)
    setup = ruleset.make_setup(players, first_dealer, options, draw=secrets.randbelow(ruleset.player_count))
    day = parse_played_on(played_on)
    text = parse_note(note)
    key = new_edit_key()
    try:
        people = _people_named(setup.players)
        # A person who already exists keeps their spelling ("Kim" typed as "KIM"): the answer
        # shows the names exactly as every later read will.
        setup = replace(setup, players=tuple(name for _id, name in people))
        state = ruleset.replay(setup, [])
        game_id, now, player_ids = new_game_id(), utcnow(), tuple(person_id for person_id, _name in people)
        key_hash = hash_key(key)
        game = {
            "id": game_id,
            "ruleset": ruleset.id,
            "options": setup.options_dict,
            "first_dealer": setup.first_dealer,
            "edit_key_hash": key_hash,
            "version": 0,
            "created_at": now,
            "updated_at": now,
            "played_on": day,
            "note": text,
            "finished": state.finished,
        }
        seats = [
            {"game_id": game_id, "position": i, "player_id": person} for i, person in enumerate(player_ids)
        ]
        figures = stats.figures(state, game_id=game_id, player_ids=player_ids, played_on=day)
        stats.send([(_NEW_GAME, game), (_NEW_SEATS, seats), *stats.new_game_steps(figures)])
        caching.changed()
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None
    created = Snapshot(
        id=game_id,
        version=0,
        updated_at=now,
        edit_key_hash=key_hash,
        ruleset=ruleset,
        setup=setup,
        player_ids=player_ids,
        played_on=day,
        created_at=now,
        note=text,
        records=(),
        state=state,
        figures=figures,
    )
    keep(created)
    return created, key


def parse_played_on(raw: object) -> date:
    """The date a game was played: a date or ``YYYY-MM-DD``; blank means today; not in the future."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return today()
    if isinstance(raw, date):
        day = raw
    else:
        try:
            day = date.fromisoformat(str(raw).strip())
        except ValueError:
            message = N_("Give the date as year-month-day, e.g. 2026-03-14.")
            raise RuleError("invalid_date", message, "played_on") from None
    # A day of slack: the phone on the table may be a time zone ahead of the server.
    if day > today() + timedelta(days=1):
        raise RuleError(
            "invalid_date", N_("The date a game was played cannot be in the future."), "played_on"
        )
    if day.year < 1900:
        raise RuleError("invalid_date", N_("That date is too long ago."), "played_on")
    return day


def parse_note(raw: object) -> str | None:
    """An optional note (place, occasion): trimmed, at most NOTE_LENGTH characters, blank is none."""
    return validate_note(raw, limit=NOTE_LENGTH)


def refresh_results(game: Game) -> None:
    """Rewrite the game's figures for rankings from its replay, inside the writing transaction.

    Every write to a game calls this just before it commits, so the figures can
    never disagree with the deals (tests check they equal the replay).
    """
    db.session.flush()
    db.session.refresh(game, ["deals"])
    state = get_ruleset(game.ruleset).replay(setup_of(game), records_of(game.deals))
    stats.write_results(game, state)


def _people_named(names: Sequence[str]) -> list[tuple[int, str]]:
    """The ids and names of the people called ``names`` (ignoring case), in one query; any new
    name is created."""
    keys = [name_key(name) for name in names]
    known = {
        row.name_key: (row.id, row.name)
        for row in db.session.connection().execute(_PLAYERS_CALLED, {"keys": keys})
    }
    people = []
    for name, key in zip(names, keys, strict=True):
        if key not in known:
            player = _player_named(name)
            known[key] = (player.id, player.name)
        people.append(known[key])
    return people


def _player_named(name: str) -> Player:
    """The person called ``name`` (ignoring case), created on first use."""
    key = name_key(name)
    player = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one_or_none()
    if player is not None:
        return player
    # Two games started at once with a new name: the savepoint lets the loser re-read.
    try:
        with db.session.begin_nested():
            player = Player(name=name, name_key=key)
            db.session.add(player)
    except IntegrityError:
        player = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one()
    return player


def rematch(game_id: str, played_on: object = None) -> tuple[Snapshot, str]:
    """A new game with the same people in the same seats and options; the first deal moves on one seat."""
    loaded = get_game(game_id)
    if not loaded.state.finished:
        raise refusal("game_not_finished", N_("A rematch starts once this game is over."), None)
    setup = loaded.setup
    names = setup.players
    first_dealer = names[(setup.first_dealer + 1) % len(names)]
    return create_game(
        loaded.ruleset.id,
        names,
        first_dealer,
        setup.options_dict,
        played_on=played_on,
        note=loaded.note,
    )


def rebuild_results() -> int:
    """Rewrite every game's figures from its replay (after an import or a manual repair)."""
    count = 0
    for game_id in db.session.execute(select(Game.id).order_by(Game.id)).scalars().all():
        game = db.session.get(Game, game_id)
        assert game is not None
        refresh_results(game)
        caching.changed(standings=True)
        count += 1
        if count % 200 == 0:
            commit()
            db.session.expunge_all()
    commit()
    return count
