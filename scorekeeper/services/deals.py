"""Deals: record the next one, complete or correct one, undo the last; each in one transaction."""

from __future__ import annotations

from typing import Any

from ..errors import not_found, refusal
from ..models import utcnow
from ..rules import DealRecord, RuleError
from .store import (
    ADD_DEAL,
    CHANGE_DEAL,
    DROP_DEAL,
    Change,
    Snapshot,
    Written,
    write,
)

UNSET: Any = object()


def deal_values(record: DealRecord, contract: str) -> dict[str, Any]:
    return {
        "contract": contract,
        "bids": None if record.bids is None else list(record.bids),
        "tricks": None if record.tricks is None else list(record.tricks),
    }


def record_deal(
    game_id: str,
    *,
    number: object = None,
    contract: object = None,
    bids: object = None,
    tricks: object = None,
    seen: Snapshot | None = None,
) -> Written:
    """Record the next deal: its declaration and, optionally, its tricks.

    ``number``, when given, must be the next deal's: a retried or stale
    submission then fails harmlessly with ``wrong_deal_number``.
    """

    def plan(locked: Snapshot) -> Change:
        state = locked.state
        if state.finished:
            raise refusal(
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
                raise refusal("wrong_deal_number", message, "number")
        if pending is not None:
            raise refusal(
                "deal_pending",
                f"Deal {pending.number} has no tricks yet; enter them before the next deal.",
                "tricks",
            )
        record = locked.ruleset.parse_deal(
            locked.setup, next_number, contract=contract, bids=bids, tricks=tricks
        )
        after = locked.ruleset.extend(locked.state, [record])  # checks and scores the new deal alone
        values = deal_values(record, after.deals[-1].contract)
        return Change(after, next_number, ADD_DEAL, {"game_id": locked.id, "number": next_number, **values})

    return write(game_id, None, plan, seen)


def update_deal(
    game_id: str,
    number: int,
    *,
    contract: object = UNSET,
    bids: object = UNSET,
    tricks: object = UNSET,
    expected_version: int | None = None,
    require_pending: bool = False,
    seen: Snapshot | None = None,
) -> Written:
    """Complete or correct a recorded deal; the whole game is re-validated by replay.

    ``require_pending`` refuses the call unless the deal still waits for its
    tricks, so a repeated "enter tricks" post cannot silently rewrite them.
    """

    def plan(locked: Snapshot) -> Change:
        records = list(locked.records)
        if not 1 <= number <= len(records):  # deals are numbered 1, 2, ... in order
            raise not_found("deal")
        index = number - 1
        old = records[index]
        if require_pending and old.tricks is not None:
            raise refusal(
                "wrong_deal_number",
                f"Deal {number}'s tricks are already recorded; use Correct to change them.",
                "number",
            )
        ruleset, setup = locked.ruleset, locked.setup
        new_contract = old.contract if contract is UNSET else ruleset.parse_contract(setup, number, contract)
        new_bids = old.bids if bids is UNSET else ruleset.parse_bids(setup, number, bids)
        new_tricks = (
            old.tricks if tricks is UNSET else (None if tricks is None else ruleset.tricks_for(setup, tricks))
        )
        if new_tricks is None and index != len(records) - 1:
            raise RuleError("tricks_players", "Only the last deal can be without tricks.", "tricks")
        record = DealRecord(contract=new_contract, bids=new_bids, tricks=new_tricks)
        records[index] = record
        after = ruleset.replay(setup, records)
        values = deal_values(record, after.deals[index].contract)
        params = {"of_game": locked.id, "deal_number": number, "updated_at": utcnow(), **values}
        return Change(after, number, CHANGE_DEAL, params)

    return write(game_id, expected_version, plan, seen)


def undo_deal(
    game_id: str, number: int, *, expected_version: int | None = None, seen: Snapshot | None = None
) -> Written:
    """Remove the last recorded deal (and only the last)."""

    def plan(locked: Snapshot) -> Change:
        records = locked.records
        if not 1 <= number <= len(records):
            raise not_found("deal")
        if number != len(records):
            raise refusal(
                "not_last_deal",
                f"Only the last deal (deal {len(records)}) can be undone; correct deal {number} instead.",
                "number",
            )
        after = locked.ruleset.replay(locked.setup, records[:-1])
        return Change(after, None, DROP_DEAL, {"of_game": locked.id, "deal_number": number})

    return write(game_id, expected_version, plan, seen)


# -- people and rematches --------------------------------------------------------------------------
