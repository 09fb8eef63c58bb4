"""Use cases, each in one transaction: load the game, replay, apply, persist.

Views and the API call these and nothing lower.  Every rule is checked by the
rules engine; a rejected call raises ``RuleError`` (or ``ServiceError``, its
subclass for conflicts and access) and leaves the database as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from .extensions import db
from .models import Deal, Game, Player, Seat, utcnow
from .rules import DealRecord, DealState, GameSetup, GameState, RuleError, Ruleset, get_ruleset, name_key

UNSET: Any = object()


class ServiceError(RuleError):
    """A refusal that is not about the rules of the game (conflicts, access, missing things)."""


def not_found(what: str = "game") -> ServiceError:
    return ServiceError("not_found", f"There is no such {what}.", None)


def conflict() -> ServiceError:
    return ServiceError(
        "conflict",
        "Someone else changed this game at the same moment; nothing was saved. Look again and retry.",
        None,
    )


@dataclass(frozen=True)
class LoadedGame:
    """A game row with its replayed state."""

    game: Game
    ruleset: Ruleset
    setup: GameSetup
    state: GameState

    @property
    def id(self) -> str:
        return self.game.id

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.setup.players[seat]


# -- keys and ids ------------------------------------------------------------------


def new_game_id() -> str:
    """11 URL-safe characters, 64 random bits: unguessable, not sequential."""
    return secrets.token_urlsafe(8)


def new_edit_key() -> str:
    """A 192-bit secret; only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    # The key is high-entropy random, so a fast hash is as strong as a slow one here.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(game: Game, key: str | None) -> bool:
    """Constant-time check of an edit key against the game's stored hash."""
    return hash_matches(game.edit_key_hash, key)


def hash_matches(key_hash: str, key: str | None) -> bool:
    """Constant-time check of an edit key against a stored hash."""
    if not key:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


# -- reading -----------------------------------------------------------------------


def setup_of(game: Game) -> GameSetup:
    return GameSetup(
        ruleset=game.ruleset,
        players=game.player_names,
        first_dealer=game.first_dealer,
        options=tuple(sorted((str(k), str(v)) for k, v in (game.options or {}).items())),
    )


def records_of(deals: Sequence[Deal]) -> list[DealRecord]:
    return [
        DealRecord(
            contract=deal.contract,
            bids=None if deal.bids is None else tuple(deal.bids),
            tricks=None if deal.tricks is None else tuple(deal.tricks),
        )
        for deal in deals
    ]


def replay(game: Game) -> LoadedGame:
    """Replay a game's recorded deals through its ruleset."""
    ruleset = get_ruleset(game.ruleset)
    setup = setup_of(game)
    state = ruleset.replay(setup, records_of(game.deals))
    return LoadedGame(game=game, ruleset=ruleset, setup=setup, state=state)


def get_game(game_id: str) -> LoadedGame:
    """The game with its replayed state, or ``not_found``."""
    game = db.session.get(Game, game_id) if _plausible_id(game_id) else None
    if game is None:
        raise not_found()
    return replay(game)


def game_version(game_id: str) -> int | None:
    """The game's write counter, from one cheap query (for ETags)."""
    known = game_version_and_key(game_id)
    return None if known is None else known[0]


def game_version_and_key(game_id: str) -> tuple[int, str] | None:
    """The game's write counter and key hash, from one cheap query (for ETags)."""
    if not _plausible_id(game_id):
        return None
    row = db.session.execute(select(Game.version, Game.edit_key_hash).where(Game.id == game_id)).one_or_none()
    return None if row is None else (row[0], row[1])


def ping() -> None:
    """One trivial query: the database answers."""
    db.session.execute(select(1)).scalar_one()


def list_games(limit: int = 100) -> list[LoadedGame]:
    """Recent games replayed: in progress first, then finished, newest first within each."""
    games = db.session.execute(select(Game).order_by(Game.created_at.desc()).limit(limit)).scalars().all()
    loaded = [replay(game) for game in games]
    return sorted(loaded, key=lambda g: g.state.finished)  # stable: keeps newest first


def _plausible_id(game_id: str) -> bool:
    # Ids are URL-safe base64; anything else (a NUL byte breaks PostgreSQL) cannot be one.
    return _ID_RE.fullmatch(game_id) is not None


_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")


# -- writing -----------------------------------------------------------------------


def create_game(
    ruleset_id: object,
    players: Sequence[object],
    first_dealer: object = None,
    options: Mapping[str, object] | None = None,
) -> tuple[LoadedGame, str]:
    """Create a game; returns it with its edit key (shown once, stored as a hash)."""
    ruleset = get_ruleset(ruleset_id)
    setup = ruleset.make_setup(players, first_dealer, options, draw=secrets.randbelow(ruleset.player_count))
    key = new_edit_key()
    try:
        people = [_player_named(name) for name in setup.players]
        game = Game(
            id=new_game_id(),
            ruleset=ruleset.id,
            options=setup.options_dict,
            first_dealer=setup.first_dealer,
            edit_key_hash=hash_key(key),
        )
        game.seats = [Seat(position=i, player=person) for i, person in enumerate(people)]
        db.session.add(game)
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        raise conflict() from None
    return replay(game), key


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


def _lock(game_id: str, expected_version: int | None = None) -> LoadedGame:
    """Start a write: lock the game row (by bumping its version) and replay it.

    The UPDATE comes first so that concurrent writers to one game queue up here
    (a row lock on PostgreSQL, the write lock on SQLite) and each then reads
    the state its predecessor committed.
    """
    if not _plausible_id(game_id):
        raise not_found()
    stmt = update(Game).where(Game.id == game_id)
    if expected_version is not None:
        stmt = stmt.where(Game.version == expected_version)
    result = db.session.execute(stmt.values(version=Game.version + 1, updated_at=utcnow()))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        db.session.rollback()
        if expected_version is not None and game_version(game_id) is not None:
            raise ServiceError(
                "stale",
                "This game changed since you opened the form; nothing was saved. Look again and retry.",
                None,
            )
        raise not_found()
    game = db.session.get(Game, game_id, populate_existing=True)
    assert game is not None
    db.session.refresh(game, ["deals", "seats"])
    return replay(game)


def _commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        raise conflict() from None


def _write(game_id: str, expected_version: int | None, action: Any) -> Any:
    """Run ``action(loaded)`` inside a locked write; roll back on any refusal."""
    try:
        loaded = _lock(game_id, expected_version)
        result = action(loaded)
    except RuleError:
        db.session.rollback()
        raise
    except (IntegrityError, OperationalError):
        db.session.rollback()
        raise conflict() from None
    except BaseException:
        db.session.rollback()
        raise
    _commit()
    return result


def record_deal(
    game_id: str,
    *,
    number: object = None,
    contract: object = None,
    bids: object = None,
    tricks: object = None,
) -> DealState:
    """Record the next deal: its declaration and, optionally, its tricks.

    ``number``, when given, must be the next deal's: a retried or stale
    submission then fails harmlessly with ``wrong_deal_number``.
    """

    def action(loaded: LoadedGame) -> DealState:
        state = loaded.state
        if state.finished:
            raise ServiceError(
                "game_finished", f"The game is over: all {state.deal_count} deals are recorded.", "number"
            )
        pending = state.pending_deal
        next_number = pending.number + 1 if pending is not None else len(state.deals) + 1
        if number is not None:
            if isinstance(number, bool) or not isinstance(number, int):
                raise RuleError("wrong_deal_number", "The deal number must be a whole number.", "number")
            if number != next_number:
                if number < next_number:
                    message = f"Deal {number} is already recorded; the next deal is {next_number}."
                else:
                    message = f"The next deal is {next_number}, not {number}."
                if pending is not None and number == pending.number:
                    message = f"Deal {number} is already recorded; enter its tricks when played."
                raise ServiceError("wrong_deal_number", message, "number")
        if pending is not None:
            raise ServiceError(
                "deal_pending",
                f"Deal {pending.number} has no tricks yet; enter them before the next deal.",
                "tricks",
            )
        record = loaded.ruleset.parse_deal(
            loaded.setup, next_number, contract=contract, bids=bids, tricks=tricks
        )
        new_state = loaded.ruleset.replay(loaded.setup, [*records_of(loaded.game.deals), record])
        db.session.add(
            Deal(
                game_id=loaded.game.id,
                number=next_number,
                contract=new_state.deals[-1].contract,
                bids=None if record.bids is None else list(record.bids),
                tricks=None if record.tricks is None else list(record.tricks),
            )
        )
        db.session.flush()
        return new_state.deals[-1]

    result: DealState = _write(game_id, None, action)
    return result


def update_deal(
    game_id: str,
    number: int,
    *,
    contract: object = UNSET,
    bids: object = UNSET,
    tricks: object = UNSET,
    expected_version: int | None = None,
    require_pending: bool = False,
) -> DealState:
    """Complete or correct a recorded deal; the whole game is re-validated by replay.

    ``require_pending`` refuses the call unless the deal still waits for its
    tricks, so a repeated "enter tricks" post cannot silently rewrite them.
    """

    def action(loaded: LoadedGame) -> DealState:
        deals = loaded.game.deals
        index = next((i for i, deal in enumerate(deals) if deal.number == number), None)
        if index is None:
            raise not_found("deal")
        old = records_of(deals)[index]
        if require_pending and old.tricks is not None:
            raise ServiceError(
                "wrong_deal_number",
                f"Deal {number}'s tricks are already recorded; use Correct to change them.",
                "number",
            )
        ruleset, setup = loaded.ruleset, loaded.setup
        new_contract = old.contract if contract is UNSET else ruleset.parse_contract(setup, number, contract)
        new_bids = old.bids if bids is UNSET else ruleset.parse_bids(setup, number, bids)
        new_tricks = (
            old.tricks if tricks is UNSET else (None if tricks is None else ruleset.tricks_for(setup, tricks))
        )
        if new_tricks is None and index != len(deals) - 1:
            raise RuleError("tricks_players", "Only the last deal can be without tricks.", "tricks")
        record = DealRecord(contract=new_contract, bids=new_bids, tricks=new_tricks)
        records = records_of(deals)
        records[index] = record
        new_state = ruleset.replay(setup, records)
        deal = deals[index]
        deal.contract = new_state.deals[index].contract
        deal.bids = None if record.bids is None else list(record.bids)
        deal.tricks = None if record.tricks is None else list(record.tricks)
        deal.updated_at = utcnow()
        db.session.flush()
        return new_state.deals[index]

    result: DealState = _write(game_id, expected_version, action)
    return result


def undo_deal(game_id: str, number: int, *, expected_version: int | None = None) -> None:
    """Remove the last recorded deal (and only the last)."""

    def action(loaded: LoadedGame) -> None:
        deals = loaded.game.deals
        if not any(deal.number == number for deal in deals):
            raise not_found("deal")
        if deals[-1].number != number:
            raise ServiceError(
                "not_last_deal",
                f"Only the last deal (deal {deals[-1].number}) can be undone; correct deal {number} instead.",
                "number",
            )
        db.session.delete(deals[-1])
        db.session.flush()

    _write(game_id, expected_version, action)
