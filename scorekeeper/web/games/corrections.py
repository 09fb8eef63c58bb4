"""Correcting a recorded deal: its contract, bids or tricks, or a swap of two deals' contracts.

The whole game is replayed with the correction (``services.correct_deals``), so every later
figure follows; a swap changes two deals of the same chooser in one correction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import abort, make_response, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet

from ... import services
from ...errors import status_for
from ...messages import shown, term
from ...rules import PAIRS, Refusal
from ...services import Once, Snapshot, Written
from .. import bp
from ..loading import Flashes, open_write, require_pencil, snapshot_or_404
from .entry import (
    chosen_contract,
    contract_choices,
    deal_fields,
    field_errors,
    forbidden_bid,
    seat_values,
    swap_choices,
    swapped,
)
from .forms import COUNTED, ORDERS, PAIRED, TAKERS, CorrectForm, deal_facts, per_seat_numbers, stored_pairs
from .presenters import game_view


def _correction_page(
    game: Snapshot, number: int, form: CorrectForm, error: Refusal | None, asked: object = None
) -> Response:
    """The correction form of deal ``number`` (the 404 page if the game has no such deal), asking the
    facts of the contract ``asked`` where the contract decides them."""
    if not 1 <= number <= len(game.state.deals):
        abort(404)
    view = game_view(game, pencil=True)
    deal = view.deal(number)
    chosen = chosen_contract(game, number, asked)
    if chosen is not None and chosen.id != deal.contract:
        ruleset, setup = game.ruleset, game.setup
        fields = ruleset.fields_with(setup, number, chosen.id)
        paired = any(ruleset.fact(name).kind == PAIRS for name in fields)
        deal = replace(
            deal, fields=fields, pairs=ruleset.pairs_allowed(setup, number, chosen.id) if paired else ()
        )
    status = 200 if error is None else status_for(error.code)
    form.swap_with.choices = [SelectChoice("", gettext("No swap")), *swap_choices(game, number)]
    form.contract.choices = [SelectChoice(contract.id, term(contract)) for contract in game.ruleset.contracts]
    if form.contract.data is None:
        form.contract.data = game.state.deals[number - 1].contract
    errors = {} if error is None else field_errors(game, number, error, {"correct": form})
    # As on the game page: the bid the engine denies the dealer, given the bids as they stand.
    forbidden = forbidden_bid(game, number, seat_values(form.bids.data, len(game.setup.players)))
    page = render_template(
        "web/correct.html",
        game=view,
        deal=deal,
        choices=contract_choices(game, number),
        chosen=chosen,
        form=form,
        error=shown(error),
        errors=errors,
        is_last=number == len(game.state.deals),
        tricks_per_deal=view.tricks_per_deal,
        forbidden=forbidden,
    )
    return make_response(page, status)


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def correct_deal(game_id: str, number: int) -> Any:
    """Correct a recorded deal; the game is replayed and every later figure follows."""
    if request.method == "GET":
        game = snapshot_or_404(game_id)
        require_pencil(game)
        if not 1 <= number <= len(game.state.deals):
            abort(404)
        deal = game.state.deals[number - 1]
        asked = request.args.get("contract")
        chosen = chosen_contract(game, number, asked)
        # Another contract: its results start blank, or as recorded in the deal that swaps with this.
        source = deal if chosen is None or chosen.id == deal.contract else None
        if chosen is not None and chosen.swap is not None:
            source = game.state.deals[chosen.swap - 1]
        form = CorrectForm(formdata=None, version=game.version, contract=deal.contract)
        for seat in range(len(game.setup.players)):
            for name in ("bids", *COUNTED):
                values = deal.bids if name == "bids" else None if source is None else source.fact(name)
                if values is not None:
                    form[name].entries[seat].data = str(values[seat])
        # The game's other facts: a suit as it is, each player named by seat, as the page posts them;
        # the side bets are the deal's own, whatever its contract.
        for name in game.ruleset.facts:
            paired = name in PAIRED
            value = deal.fact(name) if paired else None if source is None else source.fact(name)
            if name in ORDERS:
                for entry, seat in zip(form[name].entries, value or (), strict=False):
                    entry.data = str(seat)
            elif name in TAKERS:
                form[name].data = None if value is None else str(value)
            elif name in PAIRED:
                form[name].data = stored_pairs(value)
            elif name not in COUNTED:
                form[name].data = value
        return _correction_page(game, number, form, None, asked)
    form = CorrectForm()

    def redraw(game: Snapshot, error: Refusal) -> Response:
        return _correction_page(game, number, form, error, request.form.get("contract"))

    write = open_write(game_id, form, redraw)
    game = snapshot_or_404(game_id)
    if not 1 <= number <= len(game.state.deals):
        abort(404)
    corrections: list[dict[str, Any]] = []

    def says(written: Written) -> Flashes:
        if len(corrections) > 1:
            other = corrections[1]["number"]
            message = gettext(
                "Deals %(deal)d and %(other)d swapped contracts; later totals follow.",
                deal=number,
                other=other,
            )
        else:
            message = gettext("Deal %(deal)d corrected; later totals follow.", deal=number)
        return [("ok", message)]

    there = url_for("web.game", game_id=game_id, _anchor=_entry(game))

    def correct(key: Once | None) -> Written:
        """The correction the form gives (with the swapped deal's: ``swapped``), read and made."""
        nonlocal corrections
        fields = _corrected(game, number, form)
        chosen = chosen_contract(game, number, form.contract.data)
        swap_with = (
            form.swap_with.data if chosen is None else None if chosen.swap is None else str(chosen.swap)
        )
        corrections = swapped(game, number, {"number": number, **fields}, swap_with)
        return services.correct_deals(game_id, corrections, expected_version=form.version.data, once=key)

    # Posted again (a lost answer): the form's key gets the first answer.
    return write.save(correct, there, says)


def _corrected(game: Snapshot, number: int, form: CorrectForm) -> dict[str, Any]:
    """The fields the correction of deal ``number`` gives, as the services take them."""
    deal, names = game.state.deals[number - 1], game.setup.players
    facts = deal_fields(game, number)
    chosen = chosen_contract(game, number, form.contract.data)
    if chosen is not None and chosen.id != deal.contract:
        # Another contract: its facts, and the contract, in the one correction (a swap: ``swapped``).
        facts = game.ruleset.fields_with(game.setup, number, chosen.id)
        given = deal_facts(request.form, names, facts, required=not deal.pending, ruleset=game.ruleset)
        return {"contract": chosen.id, **given}
    if facts:
        # A game that counts more than tricks: the given facts replace the recorded ones (a pending
        # deal's results may stay out).
        return deal_facts(request.form, names, facts, required=not deal.pending, ruleset=game.ruleset)
    fields: dict[str, Any] = {}
    if game.ruleset.declares_contract:
        fields["contract"] = form.contract.data or None
    if game.ruleset.bids_in(number):
        fields["bids"] = per_seat_numbers(form.bids.data, names, "bids")
    if not deal.pending or any((value or "").strip() for value in form.tricks.data[: len(names)]):
        fields["tricks"] = per_seat_numbers(form.tricks.data, names, "tricks")
    return fields


def _entry(game: Snapshot) -> str:
    """Where the game page opens after a correction: at its entry card (the standings, once over)."""
    return "final" if game.state.finished else "turn"
