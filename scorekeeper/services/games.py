"""Games: create, read, list, rematch, and the figures for rankings rebuilt from the replay."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from .. import stats
from ..errors import refusal
from ..extensions import db
from ..models import NOTE_LENGTH, Game, Player, Seat, today
from ..rules import N_, RuleError, get_ruleset, name_key, validate_note
from .keys import hash_key, new_edit_key, new_game_id
from .store import (
    Snapshot,
    commit,
    conflict_or_fault,
    records_of,
    setup_of,
    snapshot,
    snapshot_of_new,
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

    ``played_on`` (a date or ``YYYY-MM-DD``) defaults to today; ``note`` is optional.
    """
    ruleset = get_ruleset(ruleset_id)
    setup = ruleset.make_setup(players, first_dealer, options, draw=secrets.randbelow(ruleset.player_count))
    day = parse_played_on(played_on)
    text = parse_note(note)
    key = new_edit_key()
    try:
        people = _players_named(setup.players)
        # A person who already exists keeps their spelling ("Kim" typed as "KIM"): the answer
        # shows the names exactly as every later read will.
        setup = replace(setup, players=tuple(person.name for person in people))
        state = ruleset.replay(setup, [])
        game = Game(
            id=new_game_id(),
            ruleset=ruleset.id,
            options=setup.options_dict,
            first_dealer=setup.first_dealer,
            edit_key_hash=hash_key(key),
            played_on=day,
            note=text,
        )
        game.seats = [Seat(position=i, player=person) for i, person in enumerate(people)]
        db.session.add(game)
        db.session.flush()
        # A game without deals adds nothing to anyone's totals: only its rows of figures are new.
        stats.write_new(
            game_id=game.id, player_ids=[person.id for person in people], played_on=day, state=state
        )
        created = snapshot_of_new(game, ruleset, setup, [], state)
        db.session.commit()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise conflict_or_fault(error) from None
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


def _players_named(names: Sequence[str]) -> list[Player]:
    """The people called ``names`` (ignoring case), in one query; any new name is created."""
    keys = [name_key(name) for name in names]
    known = {
        player.name_key: player
        for player in db.session.execute(select(Player).where(Player.name_key.in_(keys))).scalars()
    }
    return [known.get(key) or _player_named(name) for name, key in zip(names, keys, strict=True)]


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
        count += 1
        if count % 200 == 0:
            commit()
            db.session.expunge_all()
    commit()
    return count
