"""Games: create, read, rematch, and the figures for rankings rebuilt from the replay."""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .. import stats
from ..errors import refusal
from ..extensions import db, game_changed
from ..models import NOTE_LENGTH, Deal, Game, Player, Seat, today, utcnow
from ..rules import (
    N_,
    DealRecord,
    GameSetup,
    RuleError,
    Ruleset,
    get_ruleset,
    name_key,
    stored_facts,
    validate_note,
)
from ..rules.ranking import ranking_key
from .keys import hash_key, new_edit_key, new_game_id
from .store import Snapshot, snapshot, transaction


def create_game(
    ruleset_id: object,
    players: Sequence[object],
    first_dealer: object = None,
    options: Mapping[str, object] | None = None,
    *,
    played_on: object = None,
    note: object = None,
) -> tuple[Snapshot, str]:
    """Create a game; returns it with its edit key (shown once, stored as a hash)."""
    ruleset = get_ruleset(ruleset_id)
    # A draw every table size divides evenly (3 and 4 players: 0..11), so no seat is likelier.
    draw = secrets.randbelow(math.lcm(*ruleset.seat_counts))
    setup = ruleset.make_setup(players, first_dealer, options, draw=draw)
    return add_game(ruleset, setup, (), played_on=parse_played_on(played_on), note=parse_note(note))


def add_game(
    ruleset: Ruleset,
    setup: GameSetup,
    records: Sequence[DealRecord],
    *,
    played_on: date,
    note: str | None,
    created_at: datetime | None = None,
) -> tuple[Snapshot, str]:
    """Store a new game with its deals (an import's, or none) and figures; returns it with its new
    edit key.  A person who exists keeps their spelling ("Kim" typed as "KIM"), as later reads show."""
    with transaction():
        return insert_game(ruleset, setup, records, played_on=played_on, note=note, created_at=created_at)


def insert_game(
    ruleset: Ruleset,
    setup: GameSetup,
    records: Sequence[DealRecord],
    *,
    played_on: date,
    note: str | None,
    created_at: datetime | None = None,
) -> tuple[Snapshot, str]:
    """``add_game`` inside the caller's transaction (a club night's round stores its tables' games
    with the round, all or none)."""
    key = new_edit_key()
    now = utcnow()
    people = _people_named(setup.players)
    setup = replace(setup, players=tuple(name for _id, name in people))
    state = ruleset.replay(setup, records)
    game_id, player_ids = new_game_id(), tuple(person_id for person_id, _name in people)
    game = Game(
        id=game_id,
        ruleset=ruleset.id,
        options=setup.options_dict,
        first_dealer=setup.first_dealer,
        edit_key_hash=hash_key(key),
        version=0,
        created_at=created_at or now,
        updated_at=now,
        played_on=played_on,
        note=note,
        finished=state.finished,
        finished_at=finished_at(played_on) if state.finished else None,
    )
    game.seats = [Seat(position=seat, player_id=person) for seat, person in enumerate(player_ids)]
    game.deals = [
        Deal(
            number=deal.number,
            contract=deal.contract,
            bids=None if record.bids is None else list(record.bids),
            tricks=None if record.tricks is None else list(record.tricks),
            facts=stored_facts(record),
            created_at=now,
            updated_at=now,
        )
        for deal, record in zip(state.deals, records, strict=True)
    ]
    db.session.add(game)
    db.session.flush()
    stats.store_figures(state, game_id=game_id, player_ids=player_ids, played_on=played_on)
    if state.finished:  # an import of a finished game: rated where its day puts it
        places = stats.ratings.places(state.standings)
        seats = list(zip(player_ids, places, strict=True))
        stats.ratings.game_finished(ranking_key(ruleset, setup), game_id, finished_at(played_on), seats)
    game_changed.send(game_id, players=player_ids, standings=state.finished)
    created = Snapshot(
        id=game_id,
        version=0,
        updated_at=now,
        edit_key_hash=hash_key(key),
        ruleset=ruleset,
        setup=setup,
        player_ids=player_ids,
        played_on=played_on,
        created_at=created_at or now,
        note=note,
        records=tuple(records),
        finished=state.finished,
        replayed=state,
    )
    return created, key


def finished_at(played_on: date) -> datetime:
    """When a game stored finished (an import) finished: at the end of the day it was played on."""
    return datetime.combine(played_on, time.max)


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


def _people_named(names: Sequence[str]) -> list[tuple[int, str]]:
    """The ids and names of the people called ``names`` (ignoring case); any new name is created."""
    keys = [name_key(name) for name in names]
    known = {
        row.name_key: (row.id, row.name)
        for row in db.session.execute(
            select(Player.id, Player.name, Player.name_key).where(Player.name_key.in_(keys))
        )
    }
    people = []
    for name, key in zip(names, keys, strict=True):
        if key not in known:
            player = _player_named(name)
            known[key] = (player.id, player.name)
        people.append(known[key])
    return people


def _player_named(name: str) -> Player:
    """A new person called ``name``, or the one a game started at the same moment just created."""
    key = name_key(name)
    # The savepoint lets the loser of that race re-read.
    try:
        with db.session.begin_nested():
            player = Player(name=name, name_key=key)
            db.session.add(player)
    except IntegrityError:
        player = db.session.execute(select(Player).where(Player.name_key == key)).scalar_one()
    return player


def rematch(game_id: str, played_on: object = None) -> tuple[Snapshot, str]:
    """A new game with the same people in the same seats and options; the first deal moves on one seat."""
    loaded = snapshot(game_id)
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
    """Store every game's figures afresh from its replay (after a manual repair), 200 games a commit."""
    game_ids = db.session.execute(select(Game.id).order_by(Game.id)).scalars().all()
    for start in range(0, len(game_ids), 200):
        with transaction():
            for game_id in game_ids[start : start + 200]:
                game = snapshot(game_id)
                stats.store_figures(
                    game.state, game_id=game.id, player_ids=game.player_ids, played_on=game.played_on
                )
                finished = game.state.finished
                db.session.execute(update(Game).where(Game.id == game.id).values(finished=finished))
            game_changed.send(None, standings=True)
    with transaction():
        stats.ratings.replay_all()
        game_changed.send(None, standings=True)
    return len(game_ids)
