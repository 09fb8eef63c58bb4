"""The game page's writes: record a deal, enter its tricks, undo the last one."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ... import services
from ...errors import status_for
from ...messages import say, term
from ...rules import Refusal, get_ruleset
from ...services import Snapshot, Written
from ...services.deals import UNSET
from .. import bp
from ..loading import Flashes, open_write
from .entry import deal_fields, pending_fields
from .forms import (
    DeclareForm,
    TricksForm,
    UndoForm,
    deal_facts,
    per_seat_numbers,
)
from .routes import SAVED, redraw_at_field, render_game


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Any:
    """Record the next deal: the declaration (and the tricks where a deal has no declaration)."""
    form = DeclareForm()
    # The deal number keeps a stale form harmless: it is required here.
    redraw = partial(redraw_at_field, declare=form)
    write = open_write(game_id, form, redraw, complete=form.number.data is not None)
    number = form.number.data
    home = url_for("web.game", game_id=game_id)

    def says(written: Written) -> Flashes:
        deal = written.deal
        assert deal is not None
        if deal.pending:
            ruleset = get_ruleset(written.setup.ruleset)
            return [("ok", _declared(deal.number, ruleset.contract_label(deal.contract)))]
        return _saved(written, deal.number)

    # Posted again (a double tap, a lost answer): the form's key gets the first answer.
    return write.save(
        lambda key: services.record_deal(
            game_id, number=number, once=key, given=lambda game: _declaration(form, game)
        ),
        home,
        says,
    )


def _saved(written: Written, number: int) -> Flashes:
    """What a deal whose result was just saved says, and its undo offered near the top (``SAVED``)."""
    if written.state.finished:
        message = gettext("That was the last deal: the game is over.")
    else:
        message = gettext("Deal %(deal)d recorded.", deal=number)
    return [("ok", message), (SAVED, str(number))]


def _declaration(form: DeclareForm, game: Snapshot) -> dict[str, Any]:
    """What the next deal's form says, read against the game as the write holds it."""
    ruleset, names, number = game.ruleset, game.setup.players, form.number.data
    # The contract posted with its facts, where the chooser's contract decides them.
    chosen = request.form.get("contract") or None
    facts = deal_fields(game, number, chosen)
    if facts:
        # The deal's facts; a deal with a declaration (a suit named) may be saved with it alone.
        declared = len(ruleset.results(facts)) < len(facts)
        given = deal_facts(request.form, names, facts, required=not declared, ruleset=ruleset)
        return {"contract": chosen, "tricks": given.pop("tricks", None), "facts": given}
    fields: dict[str, Any] = {}
    if ruleset.declares_contract:
        fields["contract"] = form.contract.data or None
    if isinstance(number, int) and ruleset.bids_in(number):
        fields["bids"] = per_seat_numbers(form.bids.data, names, "bids")
    # A deal without a declaration has its tricks; so has a chooser's last contract, whose
    # form asks for the counts at once (the contract travels with them).
    counts = any(f"tricks-{seat}" in request.form for seat in range(len(names)))
    if isinstance(number, int) and (counts or not ruleset.declares(number)):
        fields["tricks"] = per_seat_numbers(form.tricks.data, names, "tricks")
    return fields


def _declared(number: int, contract_label: str) -> str:
    """What a declared deal's save says: its contract, and what comes next."""
    return str(
        gettext(
            "Deal %(deal)d: %(contract)s. Enter the tricks when played.",
            deal=number,
            contract=term(contract_label),
        )
    )


@bp.post("/games/<game_id>/deals/<int:number>/tricks")
def enter_tricks(game_id: str, number: int) -> Any:
    """The tricks of the declared deal ``number``."""
    form = TricksForm()
    write = open_write(
        game_id, form, partial(redraw_at_field, tricks=form), complete=form.number.data == number
    )

    def results(game: Snapshot) -> dict[str, Any]:
        """The deal's results, read against the game (its declaration, a suit named, was saved before)."""
        names = game.setup.players
        facts = pending_fields(game, number)
        if facts:
            fields = deal_facts(request.form, names, facts, required=True, ruleset=game.ruleset)
        else:
            fields = {"tricks": per_seat_numbers(form.tricks.data, names, "tricks")}
        return {"tricks": fields.pop("tricks", UNSET), "facts": fields}

    return write.save(
        lambda key: services.update_deal(game_id, number, given=results, require_pending=True, once=key),
        url_for("web.game", game_id=game_id),
        lambda written: _saved(written, number),
    )


@bp.get("/games/<game_id>/deals")
@bp.get("/games/<game_id>/deals/<int:number>/tricks")
@bp.get("/games/<game_id>/undo")
@bp.get("/games/<game_id>/rematch")
@bp.get("/games/<game_id>/hand-over")
def back_to_game(game_id: str, number: int | None = None) -> Response:
    """A write's address reloaded (the page a refused post drew again): the game page, not a 405."""
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Any:
    """Undo the last recorded deal (after the confirmation on the game page)."""
    form = UndoForm()

    def redraw(game: Snapshot, error: Refusal) -> Response:
        return render_game(game, errors={"undo": say(error)}, status=status_for(error.code))

    write = open_write(game_id, form, redraw, complete=form.number.data is not None)
    number = form.number.data
    assert number is not None
    home = url_for("web.game", game_id=game_id)

    def says(written: Written) -> Flashes:
        return [("ok", gettext("Deal %(deal)d undone.", deal=number))]

    return write.save(
        lambda key: services.undo_deal(game_id, number, expected_version=form.version.data, once=key),
        home,
        says,
    )
