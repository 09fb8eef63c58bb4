"""Deals: record the next one, complete or correct one, undo the last; each in one transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import about_deal, not_found, refusal
from ..rules import N_, DealRecord, RuleError, every_fact
from .idempotency import Once
from .store import Change, Snapshot, Written, write

UNSET: Any = object()

#: What a page's form says, read against the game as the write holds it: the fields as the
#: services take them (``contract``, ``bids``, ``tricks``, ``facts``).
Given = Callable[[Snapshot], Mapping[str, Any]]


def record_deal(
    game_id: str,
    *,
    number: object = None,
    contract: object = None,
    bids: object = None,
    tricks: object = None,
    facts: Mapping[str, object] | None = None,
    expected_version: int | None = None,
    key_hash: str | None = None,
    dry_run: bool = False,
    once: Once | None = None,
    given: Given | None = None,
) -> Written:
    """Record the next deal: its declaration and, optionally, its tricks (``facts``: the others its
    game declares, API.md K4, by name; ``given``: all of them, read from a form against the game as
    locked).

    ``number``, when given, must be the next deal's, so a retried or stale submission fails
    harmlessly with ``wrong_deal_number``.  The other keywords: ``store.write``.
    """

    def plan(locked: Snapshot) -> Change:
        fields: dict[str, Any] = {"contract": contract, "bids": bids, "tricks": tricks, "facts": facts}
        if given is not None:
            fields = {"contract": None, "bids": None, "tricks": None, "facts": None, **given(locked)}
        state = locked.state
        if state.finished:
            raise refusal(
                "game_finished",
                N_("The game is over: all %(count)d deals are recorded."),
                "number",
                count=state.deal_count,
            )
        pending = state.pending_deal
        next_number = state.next_number
        if number is not None:
            if isinstance(number, bool) or not isinstance(number, int):
                raise RuleError("wrong_deal_number", N_("The deal number must be a whole number."), "number")
            if number != next_number:
                if pending is not None and number == pending.number:
                    message = N_("Deal %(deal)d is already recorded; enter its tricks when played.")
                elif number < next_number:
                    message = N_("Deal %(deal)d is already recorded; the next deal is %(next)d.")
                else:
                    message = N_("The next deal is %(next)d, not %(deal)d.")
                raise refusal("wrong_deal_number", message, "number", deal=number, next=next_number)
        if pending is not None:
            raise refusal(
                "deal_pending",
                N_("Deal %(deal)d has no tricks yet; enter them before the next deal."),
                "tricks",
                deal=pending.number,
            )
        record = locked.ruleset.parse_next(
            locked.setup,
            state.deals,
            next_number,
            contract=fields["contract"],
            bids=fields["bids"],
            tricks=fields["tricks"],
            **(fields["facts"] or {}),
        )
        after = locked.ruleset.extend(state, [record])  # checks and scores the new deal alone
        return Change(after, next_number, next_number, {next_number: record})

    return write(
        game_id, plan, key_hash=key_hash, expected_version=expected_version, dry_run=dry_run, once=once
    )


def correction_fields() -> tuple[str, ...]:
    """The fields a correction may change (those of every registered game); a field left out keeps
    its recorded value."""
    return ("contract", "bids", "tricks", *every_fact())


def update_deal(
    game_id: str,
    number: int,
    *,
    contract: object = UNSET,
    bids: object = UNSET,
    tricks: object = UNSET,
    facts: Mapping[str, object] | None = None,
    expected_version: int | None = None,
    require_pending: bool = False,
    key_hash: str | None = None,
    dry_run: bool = False,
    once: Once | None = None,
    given: Given | None = None,
) -> Written:
    """Complete or correct one recorded deal (``correct_deals``; ``facts``: those its game declares, by
    name, None clearing one; ``given``: the fields, read from a form against the game as locked).
    ``require_pending`` refuses a deal that has its result, so a repeated "enter tricks" post
    cannot silently rewrite them."""

    def correction(fields: Mapping[str, Any]) -> dict[str, Any]:
        fields = {**fields, **(fields.get("facts") or {})}
        return {"number": number, **{k: v for k, v in fields.items() if k != "facts" and v is not UNSET}}

    asked = {"contract": contract, "bids": bids, "tricks": tricks, "facts": facts}
    return correct_deals(
        game_id,
        (lambda locked: [correction(given(locked))]) if given is not None else [correction(asked)],
        expected_version=expected_version,
        require_pending=require_pending,
        key_hash=key_hash,
        dry_run=dry_run,
        once=once,
    )


def correct_deals(
    game_id: str,
    corrections: Sequence[Mapping[str, object]] | Callable[[Snapshot], Sequence[Mapping[str, object]]],
    *,
    expected_version: int | None = None,
    require_pending: bool = False,
    key_hash: str | None = None,
    dry_run: bool = False,
    once: Once | None = None,
) -> Written:
    """Correct several recorded deals at once, validated together as one replay.

    Each correction names a deal once (``"number"``) and any of ``"contract"``, ``"bids"``,
    ``"tricks"`` (per player: in seat order, or keyed by name); ``"tricks": None`` makes the
    last deal pending again.  Replaying every change at once lets two deals of one chooser swap
    contracts; a refusal speaks of a corrected deal.  ``Written.deal``: the deal, if only one.
    ``corrections`` may be a function of the game as locked (a form read against it).
    """

    def plan(locked: Snapshot) -> Change:
        wanted = _corrections(corrections(locked) if callable(corrections) else corrections)
        ruleset, setup = locked.ruleset, locked.setup
        records = list(locked.records)
        several = len(wanted) > 1
        contracts: list[object] = [record.contract for record in records]  # once corrected, for swaps
        for number, fields in wanted.items():
            if 1 <= number <= len(records) and "contract" in fields:
                contracts[number - 1] = fields["contract"]
        for number, fields in wanted.items():
            if not 1 <= number <= len(records):  # deals are numbered 1, 2, ... in order
                raise not_found("deal")
            old = records[number - 1]
            if require_pending and not ruleset.is_pending(old):
                raise refusal(
                    "wrong_deal_number",
                    N_("Deal %(deal)d's tricks are already recorded; use Correct to change them."),
                    "number",
                    deal=number,
                )
            changed = {field: value for field, value in fields.items() if field != "number"}
            try:
                ruleset.check_correction(setup, number, changed, contracts)
                record = ruleset.corrected(setup, number, old, changed)
                if ruleset.is_pending(record) and number != len(records):
                    message = N_("Only the last deal can be without tricks.")
                    raise RuleError("tricks_players", message, "tricks")
            except RuleError as refused:
                raise about_deal(number, refused) if several else refused from None
            records[number - 1] = record
        first = min(wanted)
        try:
            after = ruleset.replay(setup, records)  # the game's one replay, with the corrections
        except RuleError as refused:
            raise _blamed(locked, records, set(wanted), refused) from None
        shown = None if several else first
        return Change(after, shown, first, {number: records[number - 1] for number in wanted})

    return write(
        game_id, plan, key_hash=key_hash, expected_version=expected_version, dry_run=dry_run, once=once
    )


def _corrections(corrections: Sequence[Mapping[str, object]]) -> dict[int, Mapping[str, object]]:
    """The corrections by deal number, once their shape is right (``invalid_deals`` if not)."""
    if isinstance(corrections, (str, bytes)) or not isinstance(corrections, Sequence) or not corrections:
        raise refusal(
            "invalid_deals", N_("Give a list of the deals to correct, each with its number."), "deals"
        )
    wanted: dict[int, Mapping[str, object]] = {}
    for correction in corrections:
        if not isinstance(correction, Mapping):
            raise refusal("invalid_deals", N_("Each correction must name a deal by its number."), "deals")
        number = correction.get("number")
        if isinstance(number, bool) or not isinstance(number, int):
            raise refusal(
                "invalid_deals", N_("Each correction needs the deal's number, a whole number."), "deals"
            )
        fields = correction_fields()
        for field in correction:
            if field != "number" and field not in fields:
                raise refusal(
                    "unknown_field",
                    N_("Unknown field %(given)s; a correction takes %(fields)s."),
                    str(field)[:40],
                    given=repr(str(field)[:40]),
                    fields=", ".join(("number", *fields)),
                )
        if number in wanted:
            raise refusal(
                "invalid_deals",
                N_("Deal %(deal)d is named twice; correct each deal once."),
                "deals",
                deal=number,
            )
        wanted[number] = correction
    return wanted


def _retold(refused: RuleError, template: str, **params: object) -> RuleError:
    """``refused`` (same class, code and field) with another message and more ``params``."""
    return type(refused)(refused.code, template, refused.field, {**refused.params, **params})


def _blamed(
    locked: Snapshot, records: list[DealRecord], corrected: set[int], refused: RuleError
) -> RuleError:
    """The replay's refusal, told of the corrected deal that causes it.

    The replay may stop at a later deal nobody touched: correcting deal 3 to Diamonds when its
    chooser plays Diamonds in deal 6 stops at deal 6, and the refusal says "Deal 3: Bob has
    already played Diamonds (deal 6)."  Where it stopped is found by extending deal by deal.
    """
    ruleset, setup = locked.ruleset, locked.setup
    state = ruleset.replay(setup, [])
    stopped = None
    for number, record in enumerate(records, start=1):
        try:
            state = ruleset.extend(state, [record])
        except RuleError:
            stopped = number
            break
    several = len(corrected) > 1
    if stopped is None or stopped in corrected:
        return about_deal(stopped, refused) if several and stopped is not None else refused
    contract = records[stopped - 1].contract
    chooser = locked.state.deals[stopped - 1].chooser  # who chooses depends only on the deal's number
    if refused.code == "contract_used" and contract is not None and chooser is not None:
        for number in sorted(corrected):
            same_choice = records[number - 1].contract == contract
            if number < stopped and same_choice and locked.state.deals[number - 1].chooser == chooser:
                return _retold(
                    refused,
                    N_("Deal %(deal)d: %(player)s has already played %(contract)s (deal %(played_in)d)."),
                    deal=number,
                    player=setup.players[chooser],
                    contract=ruleset.contract(contract),
                    played_in=stopped,
                )
    return about_deal(max(number for number in corrected if number < stopped), refused)


def undo_deal(
    game_id: str,
    number: int,
    *,
    expected_version: int | None = None,
    key_hash: str | None = None,
    once: Once | None = None,
) -> Written:
    """Remove the last recorded deal (and only the last)."""

    def plan(locked: Snapshot) -> Change:
        records = locked.records
        if not 1 <= number <= len(records):
            raise not_found("deal")
        if number != len(records):
            raise refusal(
                "not_last_deal",
                N_("Only the last deal (deal %(last)d) can be undone; correct deal %(deal)d instead."),
                "number",
                last=len(records),
                deal=number,
            )
        after = locked.ruleset.replay(locked.setup, records[:-1])
        return Change(after, None, number, {number: None})

    return write(game_id, plan, key_hash=key_hash, expected_version=expected_version, once=once)
