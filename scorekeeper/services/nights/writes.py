"""A club night's writes, each one transaction that first locks the night (bumps its version):
check-in, leavers, the director's order, seating, swaps, starting a round, closing a table, the clock."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from sqlalchemy import delete, select, update

from ...errors import not_found, refusal
from ...extensions import db, game_changed
from ...models import (
    HandOver,
    Night,
    NightPlayer,
    NightRound,
    NightTable,
    utcnow,
)
from ...nights.mix import plan_night
from ...nights.seating import Round, by_rating, seat_swiss, swap
from ...rules import N_, RuleError, validate_name
from ..games import _people_named, insert_game
from ..keys import hash_key
from ..store import plausible_id, transaction
from .create import whole_number
from .view import CLOCK_MINUTES, MOST_PLAYERS, TABLE_LINK_LIFETIME, NightView, ordinals, read_night

# --- writes ---------------------------------------------------------------------------------------


def _lock(night_id: str, expected_version: int | None = None) -> Night:
    """The night, its version bumped first (the lock every write to it takes), and the nights' cached
    pages noted as changed; ``not_found``."""
    if not plausible_id(night_id):
        raise not_found("night")
    game_changed.send(None, nights=True)
    bumped = db.session.execute(
        update(Night).where(Night.id == night_id).values(version=Night.version + 1).returning(Night.version)
    ).first()
    if bumped is None:
        raise not_found("night")
    if expected_version is not None and bumped[0] != expected_version + 1:
        raise refusal("stale", N_("The night has changed since this page was loaded. Look again."))
    night = db.session.get(Night, night_id, populate_existing=True)
    assert night is not None
    return night


def check_in(night_id: str, name: object, *, expected_version: int | None = None) -> int:
    """``name`` is present from the next round (an existing person by the app's name key, else a new
    one); the rounds not started are planned again. Returns the player's id. Checking in twice is
    once; a player who had left is back from the next round."""
    with transaction():
        night = _lock(night_id, expected_version)
        ((person_id, _name),) = _people_named([_player_name(name)])
        view = read_night(night)
        number = view.next_number
        found = db.session.get(NightPlayer, (night_id, person_id))
        if found is None:
            if len(view.players) >= MOST_PLAYERS:
                raise RuleError(
                    "invalid_night",
                    N_("A night takes at most %(most)d players."),
                    "name",
                    {"most": MOST_PLAYERS},
                )
            position = max((p.position for p in view.players), default=0) + 1
            db.session.add(
                NightPlayer(night_id=night_id, player_id=person_id, position=position, from_round=number)
            )
        elif found.left_after is not None:
            found.left_after = None
            found.from_round = number
        db.session.flush()
        _replan(night)
    return person_id


def _player_name(raw: object) -> str:
    return validate_name(raw, in_game=True)


def remove_player(night_id: str, player_id: int, *, expected_version: int | None = None) -> None:
    """The player leaves before the next round: gone from the night when they played no round yet,
    else marked as having left after the current round. The rounds not started are planned again."""
    with transaction():
        night = _lock(night_id, expected_version)
        found = db.session.get(NightPlayer, (night_id, player_id))
        if found is None:
            raise not_found("player")
        view = read_night(night)
        played = any(player_id in r.as_played().seated for r in view.started)
        if not played and not any(player_id in r.sitting_out for r in view.started):
            db.session.delete(found)
        else:
            found.left_after = len(view.started)
        db.session.flush()
        _replan(night)


def move_player(night_id: str, player_id: int, places: int, *, expected_version: int | None = None) -> None:
    """Move a player up (negative ``places``) or down the director's order; before round 1 only
    does it seat anyone (round 1 in the director's order)."""
    with transaction():
        night = _lock(night_id, expected_version)
        rows = list(
            db.session.execute(
                select(NightPlayer).where(NightPlayer.night_id == night_id).order_by(NightPlayer.position)
            ).scalars()
        )
        index = next((i for i, row in enumerate(rows) if row.player_id == player_id), None)
        if index is None:
            raise not_found("player")
        target = max(0, min(len(rows) - 1, index + places))
        moved = rows.pop(index)
        rows.insert(target, moved)
        for position, row in enumerate(rows, start=1):
            row.position = -position  # two passes: no clash while the positions change hands
        db.session.flush()
        for row in rows:
            row.position = -row.position
        db.session.flush()
        _replan(night)


def _replan(night: Night) -> None:
    """The rounds not started, planned anew from who is present now (Mix: all the rounds left at
    once; Swiss: nothing planned ahead). Only where a round was already seated ahead."""
    view = read_night(night)
    if view.next_round is None:
        return
    _drop_unstarted(night.id)
    db.session.flush()
    _seat(night, read_night(night))


def _drop_unstarted(night_id: str) -> None:
    started = select(NightRound.number).where(
        NightRound.night_id == night_id, NightRound.started_at.is_not(None)
    )
    db.session.execute(
        delete(NightTable).where(NightTable.night_id == night_id, NightTable.round.not_in(started))
    )
    db.session.execute(
        delete(NightRound).where(NightRound.night_id == night_id, NightRound.started_at.is_(None))
    )


def _seat(night: Night, view: NightView) -> int:
    """Seat the next round (and, under Mix with a number of rounds, every round left); the number of
    rounds seated (0: too few present for a table)."""
    number = view.next_number
    if view.rounds_planned is not None and number > view.rounds_planned:
        return 0
    present = [p.id for p in view.present_for(number)]
    history = tuple(r.as_played() for r in view.started)
    counts = view.seat_counts
    planned: tuple[Round, ...]
    if view.seating == "swiss" and history:
        standing = [row.player for row in view.standings if row.player in present]
        swiss = seat_swiss(standing, counts, history, seed=view.seed)
        planned = () if swiss is None else (swiss,)
    else:
        left = (
            1
            if view.rounds_planned is None or view.seating == "swiss"
            else view.rounds_planned - len(history)
        )
        order = None
        if view.first_round == "order":
            order = [p.id for p in view.present_for(number)]
        elif view.first_round == "rating" and not history:
            order = by_rating(present, ordinals(view.rating, present), view.seed)
        planned = plan_night(present, counts, left, history, seed=view.seed, order=order)
    _store_rounds(night.id, number, planned)
    return len(planned)


def _store_rounds(night_id: str, first: int, rounds: Sequence[Round]) -> None:
    for offset, seated in enumerate(rounds):
        number = first + offset
        db.session.add(NightRound(night_id=night_id, number=number, sitting_out=list(seated.sitting_out)))
        for table in seated.tables:
            db.session.add(
                NightTable(
                    night_id=night_id,
                    round=number,
                    number=table.number,
                    seats=list(table.seats),
                    first_dealer=table.first_dealer,
                    link_generation=0,
                )
            )
    db.session.flush()


def seat_next_round(night_id: str, *, expected_version: int | None = None) -> int:
    """Seat the next round (it starts when the director says): its number. Refused while the current
    round has tables playing, once the planned rounds are all seated, or with fewer present than a
    table takes."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = read_night(night)
        upcoming = view.next_round
        if upcoming is not None:
            return upcoming.number
        if view.rounds_planned is not None and view.next_number > view.rounds_planned:
            raise refusal(
                "night_over", N_("All %(rounds)d rounds have been played."), rounds=view.rounds_planned
            )
        current = view.current
        if view.seating == "swiss" and current is not None and not current.done:
            raise refusal(
                "round_in_progress",
                N_("Round %(round)d is still being played: Swiss seats the next one from its results."),
                round=current.number,
            )
        if not _seat(night, view):
            raise refusal(
                "too_few_players",
                N_("Too few players are present for a table (%(fewest)d or more)."),
                fewest=min(view.seat_counts),
            )
        return view.next_number


def swap_players(night_id: str, first: int, second: int, *, expected_version: int | None = None) -> None:
    """Exchange two players' places in the next round (not started); under Mix the rounds after it are
    planned again around it."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = read_night(night)
        upcoming = view.next_round
        if upcoming is None:
            raise refusal("invalid_swap", N_("Seat the next round first."), "first")
        history = view.history_before(upcoming.number)
        try:
            swapped = swap(upcoming.as_played(), first, second, history)
        except ValueError:
            raise refusal(
                "invalid_swap", N_("Choose two different players of the round."), "second"
            ) from None
        _drop_unstarted(night_id)
        db.session.flush()
        _store_rounds(night_id, upcoming.number, [swapped])
        if view.seating == "mix" and view.rounds_planned is not None:
            left = view.rounds_planned - upcoming.number
            if left > 0:
                present = [p.id for p in view.present_for(upcoming.number + 1)]
                later = plan_night(present, view.seat_counts, left, (*history, swapped), seed=view.seed)
                _store_rounds(night_id, upcoming.number + 1, later)


def start_round(night_id: str, table_link: TableLink, *, expected_version: int | None = None) -> int:
    """Start the next seated round: each table's ordinary game is stored (its players in seat order,
    its first dealer the seating's), with a scoring link for the table's first phone. Refused while
    the current round has a table playing."""
    with transaction():
        night = _lock(night_id, expected_version)
        view = read_night(night)
        upcoming = view.next_round
        if upcoming is None:
            raise refusal("round_in_progress", N_("Seat the next round first."))
        current = view.current
        if current is not None and not current.done:
            raise refusal(
                "round_in_progress",
                N_("Round %(round)d is still being played: close its unfinished tables first."),
                round=current.number,
            )
        names = view.names
        for table in upcoming.tables:
            setup = view.ruleset.make_setup(
                [names[player] for player in table.seats], names[table.first_dealer], dict(view.options)
            )
            game, _key = insert_game(
                view.ruleset,
                setup,
                (),
                played_on=view.played_on,
                note=f"{view.name} · {upcoming.number}/{table.number}"[:200],
            )
            db.session.execute(
                update(NightTable)
                .where(
                    NightTable.night_id == night_id,
                    NightTable.round == upcoming.number,
                    NightTable.number == table.number,
                )
                .values(game_id=game.id)
            )
            _hand_over_for(game.id, table_link(night_id, upcoming.number, table.number, 0))
        db.session.execute(
            update(NightRound)
            .where(NightRound.night_id == night_id, NightRound.number == upcoming.number)
            .values(started_at=utcnow())
        )
        night.clock_started_at = None
        return upcoming.number


class TableLink:
    """The token of a table's scoring link, made from the server's secret, the night, the round, the
    table and the link's generation: the director's page shows it again without the token being
    stored (only its hash is, as any hand-over's), and a renewed link is a new generation."""

    def __init__(self, secret: str) -> None:
        self.secret = secret.encode("utf-8")

    def __call__(self, night_id: str, round_number: int, table: int, generation: int) -> str:
        message = f"scorekeeper-table:{night_id}:{round_number}:{table}:{generation}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()


def _hand_over_for(game_id: str, token: str) -> None:
    """The table's game hands its pencil to the first phone that brings ``token`` (its earlier
    tokens no longer work)."""
    db.session.execute(delete(HandOver).where(HandOver.game_id == game_id))
    db.session.add(
        HandOver(token_hash=hash_key(token), game_id=game_id, expires_at=utcnow() + TABLE_LINK_LIFETIME)
    )


def renew_table_link(night_id: str, round_number: int, table_number: int, table_link: TableLink) -> None:
    """A new scoring link for a table (the old one stops working); the phones that hold the table's
    pencil keep it."""
    with transaction():
        _lock(night_id)
        table = db.session.get(NightTable, (night_id, round_number, table_number))
        if table is None or table.game_id is None:
            raise not_found("game")
        table.link_generation += 1
        _hand_over_for(table.game_id, table_link(night_id, round_number, table_number, table.link_generation))


def close_table(night_id: str, round_number: int, table_number: int) -> None:
    """The director closes a table whose game did not finish: it scores as it stands, marked
    unfinished, and no longer holds the round up."""
    with transaction():
        night = _lock(night_id)
        view = read_night(night)
        found = next(
            (
                t
                for r in view.started
                if r.number == round_number
                for t in r.tables
                if t.number == table_number
            ),
            None,
        )
        if found is None:
            raise not_found("game")
        if found.finished:
            return
        db.session.execute(
            update(NightTable)
            .where(
                NightTable.night_id == night_id,
                NightTable.round == round_number,
                NightTable.number == table_number,
            )
            .values(closed_at=utcnow())
        )


def start_clock(night_id: str, minutes: object) -> None:
    """Start the round clock: ``minutes`` from now."""
    length = whole_number(
        minutes, "minutes", *CLOCK_MINUTES, N_("Minutes: a whole number from %(low)d to %(high)d.")
    )
    with transaction():
        night = _lock(night_id)
        night.clock_minutes = length
        night.clock_started_at = utcnow()


def set_hidden(night_id: str, hidden: bool) -> None:
    """Hide (or show) the standings while a round's tables are playing."""
    with transaction():
        night = _lock(night_id)
        night.hide_standings = hidden
