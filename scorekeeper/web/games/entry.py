"""Entering a deal: the refusal placed at the one input it concerns, and the preview of a deal's scores.

Both ask the rules engine: which seat's value it refuses, which bid the hook rule denies the
dealer, and what the deal scores (the same service call as the save, with ``dry_run``).
Nothing here knows a rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import jsonify, request
from flask_babel import gettext
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet

from ... import services
from ...messages import say, term
from ...rules import PAIRS, TRICKS_PER_DEAL, DealState, Refusal, RuleError, every_fact
from ...services import Snapshot
from .. import bp
from ..loading import snapshot_or_404
from .forms import CODES, SAYS, blank_facts, deal_facts, number_or_raw


def deal_fields(game: Snapshot, number: object, contract: object = None) -> tuple[str, ...]:
    """The facts deal ``number`` takes where the game says: those of its contract (the one recorded,
    else ``contract``, the one posted: ``Ruleset.fields_with``); empty where the game says nothing."""
    ruleset, setup = game.ruleset, game.setup
    if not isinstance(number, int) or not 1 <= number <= ruleset.deals_in(setup):
        return ()
    # The deals as stored (no replay): the write that reads them replays them once.
    records = game.records
    chosen = records[number - 1].contract if number <= len(records) else contract
    if isinstance(chosen, str) and chosen in {option.id for option in ruleset.contracts}:
        return ruleset.fields_with(setup, number, chosen)
    return ruleset.fields_for(setup, number)


def pending_fields(game: Snapshot, number: object) -> tuple[str, ...]:
    """The facts the result of the pending deal ``number`` is entered with (``asked_when_pending``)."""
    fields = deal_fields(game, number)
    records = game.records
    if not fields or not isinstance(number, int) or not 1 <= number <= len(records):
        return game.ruleset.results(fields)
    return game.ruleset.asked_when_pending(fields, records[number - 1])


def pair_texts(game: Snapshot, deal: DealState) -> list[str]:
    """Each side bet of the complete ``deal`` with what it moves ("Celina × Bartek R: +32"), in its order."""
    ruleset, names = game.ruleset, game.setup.players
    paired = next((fact for fact in ruleset.deal_facts if fact.kind == PAIRS), None)
    if paired is None or deal.pending:
        return []
    said = []
    for (by, against, again), amount in zip(
        deal.fact(paired.id) or (), ruleset.settled(game.setup, deal), strict=True
    ):
        shown = f"+{amount}" if amount > 0 else f"\u2212{-amount}" if amount < 0 else "0"
        if again:
            # NOTE: a redoubled double (R) and what it moves to the first player, on the entry card.
            said.append(
                gettext(
                    "%(by)s × %(against)s R: %(amount)s", by=names[by], against=names[against], amount=shown
                )
            )
        else:
            # NOTE: a double and what it moves to the first player (from the second), on the entry card.
            said.append(
                gettext(
                    "%(by)s × %(against)s: %(amount)s", by=names[by], against=names[against], amount=shown
                )
            )
    return said


def _most(game: Snapshot, kind: str) -> int:
    """The largest count a player may have of ``kind`` (the game's tricks, a counted fact's total)."""
    fact = every_fact().get(kind)
    return fact.total if fact and fact.total else game.ruleset.tricks_per_deal(game.setup)


def seat_values(raw: Sequence[str | None], players: int) -> list[int | str | None]:
    """The inputs of one kind by seat, as typed: a whole number, the raw text, or None when blank."""
    return [number_or_raw(raw[seat] if seat < len(raw) else None) for seat in range(players)]


def seat_errors(
    game: Snapshot, number: int, kind: str, raw: Sequence[str | None], error: Refusal
) -> dict[int, str]:
    """The seats whose own input is wrong, each with what is wrong with it, for a refusal of ``kind``.

    Each value is put to the engine on its own, so only the box that is wrong is marked;
    the hook rule concerns the dealer's bid alone.  A refusal about the whole group
    (counts that do not add up to 13) is nobody's box: the answer is empty.
    """
    ruleset, setup = game.ruleset, game.setup
    names = setup.players
    if error.code == "hook_rule":
        return {ruleset.dealer_of(setup, number): say(error)}
    if kind not in CODES:
        return {}
    mismatch_code, range_code = CODES[kind]
    found: dict[int, str] = {}
    for seat, value in enumerate(seat_values(raw, len(names))):
        if value is None:
            found[seat] = gettext(SAYS[kind].enter_one, player=names[seat])
            continue
        alone = [value if other == seat else 0 for other in range(len(names))]
        try:
            ruleset.seat_values(
                setup,
                alone,
                kind,
                mismatch_code=mismatch_code,
                range_code=range_code,
                noun=kind,
                most=_most(game, kind),
            )
        except RuleError as refused:
            found[seat] = say(refused)
    return found


def field_errors(
    game: Snapshot, number: int | None, error: Refusal, forms: Mapping[str, Any]
) -> dict[str, str]:
    """A refusal's messages by input: ``tricks-2`` for one box, ``tricks`` for the group, else its field."""
    field = error.field or "form"
    if field in CODES and isinstance(number, int):
        raw = next((form[field].data for form in forms.values() if field in form), None)
        if raw is not None:
            seats = seat_errors(game, number, field, raw, error)
            if seats:
                return {
                    field: say(error),
                    **{f"{field}-{seat}": message for seat, message in seats.items()},
                }
    return {field: say(error)}


def forbidden_bid(game: Snapshot, number: int, bids: Sequence[int | str | None]) -> dict[str, Any] | None:
    """The bid the engine denies the dealer once the others have bid: ``{"seat", "bid", "message"}``."""
    ruleset, setup = game.ruleset, game.setup
    if not ruleset.bids_in(number):
        return None
    dealer = ruleset.dealer_of(setup, number)
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    if not all(isinstance(bid, int) for bid in others):
        return None
    known = [bid if isinstance(bid, int) and seat != dealer else 0 for seat, bid in enumerate(bids)]
    bid = ruleset.dealer_forbidden_bid(setup, number, known)
    if bid is None:
        return None
    name = setup.players[dealer]
    message = gettext(
        "%(player)s may not bid %(bid)d: the bids would add up to %(total)d.",
        player=name,
        bid=bid,
        total=TRICKS_PER_DEAL,
    )
    return {"seat": dealer, "bid": bid, "message": message}


def swapped(
    game: Snapshot, number: int, correction: dict[str, Any], swap_with: object
) -> list[dict[str, Any]]:
    """The corrections for deal ``number``, with its contract swapped with deal ``swap_with``'s if given.

    The two deals exchange their recorded contracts in one correction, checked as a whole by
    the engine (a chooser who played Spades in deal 3 and Diamonds in deal 6 can swap them).  Where the
    contract decides a deal's facts, the results go with it (as recorded in deal ``number``; deal
    ``swap_with``'s are the correction's), the side bets stay with their deal: the two deals had been
    entered the other way round (API.md: a PATCH of both).
    """
    other = number_or_raw(swap_with if isinstance(swap_with, str) else None)
    deals, ruleset, setup = game.state.deals, game.ruleset, game.setup
    if not isinstance(other, int) or other == number or not 1 <= other <= len(deals):
        return [correction]
    mine = deals[number - 1].contract
    theirs: dict[str, Any] = {"number": other, "contract": mine}
    if deal_fields(game, number):
        recorded = ruleset.deal_input(setup, game.records[number - 1])
        moved = (name for name in ruleset.fields_with(setup, other, mine) if ruleset.fact(name).kind != PAIRS)
        theirs.update({name: recorded[name] for name in moved if name in recorded})
    return [{**correction, "contract": deals[other - 1].contract}, theirs]


def swap_choices(game: Snapshot, number: int) -> list[SelectChoice]:
    """The deals deal ``number`` can swap contracts with: the same chooser's other recorded deals."""
    deals, ruleset = game.state.deals, game.ruleset
    chooser = deals[number - 1].chooser
    if not ruleset.declares_contract or chooser is None:
        return []
    return [
        SelectChoice(
            str(deal.number),
            gettext(
                "Deal %(deal)d: %(contract)s",
                deal=deal.number,
                contract=term(ruleset.contract_label(deal.contract)),
            ),
        )
        for deal in deals
        if deal.number != number and deal.chooser == chooser
    ]


@dataclass(frozen=True)
class ContractChoice:
    """A contract the correction may give a deal whose contract decides its facts: its own, one its
    chooser has not played yet, or one they played in another deal (``swap``: that deal's number,
    which takes this deal's contract and results in the same correction)."""

    id: str
    label: str
    swap: int | None = None


def contract_choices(game: Snapshot, number: int) -> list[ContractChoice]:
    """The contracts deal ``number`` may be corrected to, in the game's order (none where its
    contract does not decide its facts, or nobody chooses it)."""
    ruleset, deals = game.ruleset, game.state.deals
    deal = deals[number - 1]
    if not ruleset.declares_contract or deal.chooser is None or not deal_fields(game, number):
        return []
    played = {other.contract: other.number for other in deals if other.chooser == deal.chooser}
    left = set(game.state.remaining_contracts[deal.chooser])
    return [
        ContractChoice(contract.id, term(ruleset.contract_label(contract.id)), swap)
        for contract in ruleset.contracts
        if contract.id == deal.contract or contract.id in left or contract.id in played
        for swap in [None if contract.id == deal.contract else played.get(contract.id)]
    ]


def chosen_contract(game: Snapshot, number: int, asked: object) -> ContractChoice | None:
    """Of ``contract_choices``, the one ``asked`` names (the recorded contract's if none)."""
    choices = contract_choices(game, number)
    recorded = game.state.deals[number - 1].contract
    return next((c for c in choices if c.id == asked), next((c for c in choices if c.id == recorded), None))


def preview(game: Snapshot, number: int, form: str, data: Mapping[str, str]) -> dict[str, Any]:
    """What saving ``data`` on ``form`` (declare, tricks or correct) would give deal ``number``.

    The same service call as the save, with ``dry_run``: its scores and running totals by
    seat, or its refusal (with the seats it concerns); and the bid the dealer may not make.
    Inputs still blank give no scores, only what can be said already.
    """
    ruleset, players = game.ruleset, len(game.setup.players)
    tricks = seat_values([data.get(f"tricks-{seat}") for seat in range(players)], players)
    bids = seat_values([data.get(f"bids-{seat}") for seat in range(players)], players)
    answer: dict[str, Any] = {
        "number": number,
        "scores": None,
        "totals": None,
        "forbidden": None,
        "error": None,
        "pairs": [],
    }
    fields: dict[str, Any] = {}
    facts = (
        pending_fields(game, number) if form == "tricks" else deal_fields(game, number, data.get("contract"))
    )
    swap_with = data.get("swap_with")
    chosen = chosen_contract(game, number, data.get("contract")) if form == "correct" else None
    if chosen is not None:
        # As the correction page saves it: another contract's facts, a swap with the deal that has it.
        facts = ruleset.fields_with(game.setup, number, chosen.id)
        swap_with = None if chosen.swap is None else str(chosen.swap)
    if facts:
        # Scored once every fact the deal takes is in (what the save would send).
        if blank_facts(data, game.setup.players, facts, game.ruleset):
            return answer
        fields = deal_facts(data, game.setup.players, facts, required=True, ruleset=game.ruleset)
    elif ruleset.bids_in(number) and form != "tricks":
        answer["forbidden"] = forbidden_bid(game, number, bids)
        fields["bids"] = bids
    counted = any(f"tricks-{seat}" in data for seat in range(players))  # a last contract's counts
    if not facts and (form != "declare" or not ruleset.declares(number) or counted):
        fields["tricks"] = tricks
    if form != "tricks" and ruleset.declares_contract:
        fields["contract"] = data.get("contract") or None
    if any(value is None for values in fields.values() if isinstance(values, list) for value in values):
        return answer
    plain = {name: value for name, value in fields.items() if name in ("contract", "bids", "tricks")}
    others = {name: value for name, value in fields.items() if name not in plain}
    try:
        if form == "declare":
            written = services.record_deal(game.id, number=number, dry_run=True, facts=others, **plain)
        elif form == "tricks":
            written = services.update_deal(
                game.id, number, require_pending=True, dry_run=True, facts=others, **plain
            )
        else:
            corrections = swapped(game, number, {"number": number, **fields}, swap_with)
            written = services.correct_deals(game.id, corrections, dry_run=True)
    except Refusal as refused:
        kind = refused.field or "form"
        raw = [data.get(f"{kind}-{seat}") for seat in range(players)]
        seats = seat_errors(game, number, kind, raw, refused) if kind in CODES else {}
        answer["error"] = {
            "code": refused.code,
            "field": kind,
            "message": say(refused),
            "seats": {str(seat): message for seat, message in seats.items()},
        }
        return answer
    deal = written.state.deals[number - 1] if len(written.state.deals) >= number else None
    if deal is not None and deal.scores is not None:
        answer["scores"] = list(deal.scores)
        answer["totals"] = list(deal.totals or ())
        answer["pairs"] = pair_texts(game, deal)
    return answer


@bp.post("/games/<game_id>/deals/<int:number>/preview")
def preview_deal(game_id: str, number: int) -> Response:
    """A deal's scores before it is saved, for the page's script: JSON, nothing stored.

    The form's own fields are posted as they stand (``form`` says which form: declare,
    tricks or correct); the answer comes from the same service call as the save.
    """
    game = snapshot_or_404(game_id)
    form = request.form.get("form", "tricks")
    if form not in ("declare", "tricks", "correct"):
        form = "tricks"
    response = jsonify(preview(game, number, form, request.form))
    response.headers["Cache-Control"] = "no-store"
    return response
