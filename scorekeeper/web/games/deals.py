"""The game page's writes: record a deal, enter its tricks, undo the last one."""

from __future__ import annotations

from typing import Any

from flask import (
    flash,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from werkzeug.wrappers import Response

from ... import services
from ...errors import Kind, kind_of, status_for
from ...messages import say, term
from ...rules import Refusal
from ...services import Snapshot, Written
from ...services.deals import UNSET
from .. import bp
from ..loading import load_game, open_write
from .entry import already_stored, deal_fields
from .forms import (
    DeclareForm,
    TricksForm,
    UndoForm,
    deal_facts,
    per_seat_numbers,
)

#: The flash category of a deal whose tricks were just saved (its number): the page offers its
#: undo near the top for a few seconds.  Not a message: the page does not show it as one.
from .routes import SAVED, _refused_at_field, _render_game


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Any:
    """Record the next deal: the declaration (and the tricks where a deal has no declaration)."""
    form = DeclareForm()
    # The deal number is what makes a double tap or a stale form harmless: it is required here.
    write = open_write(game_id, form, _refused_at_field(declare=form), complete=form.number.data is not None)
    ruleset, names = write.game.ruleset, write.game.setup.players
    number = form.number.data
    fields: dict[str, Any] = {}
    try:
        facts = deal_fields(write.game, number)
        if facts:
            # Kierki: the deal's facts; a trump deal may be saved with its suit alone (declared).
            fields = deal_facts(request.form, names, facts, required="trumps" not in facts)
            others = {name: value for name, value in fields.items() if name != "tricks"}
            after = services.record_deal(game_id, number=number, tricks=fields.get("tricks"), facts=others)
        else:
            after = _record(game_id, form, write.game, fields)
        deal = after.deal
    except Refusal as refused:
        # Tapped twice (a contract, counts or bids): the second post, for the same deal number,
        # finds the deal stored as it asks; it is answered as the first was.  A post for an
        # older deal is compared with that deal alone, so it never reaches a newer one.
        asked = any(value is not None for value in fields.values())
        now = load_game(game_id) if asked and kind_of(refused.code) is Kind.CONFLICT else None
        if isinstance(number, int) and now is not None and already_stored(now, number, fields):
            stored = now.state.deals[number - 1]
            if stored.pending:
                return _saved_twice(game_id, _declared(number, ruleset.contract_label(stored.contract)))
            if now.state.finished and number == now.state.deal_count:
                return _saved_twice(game_id, gettext("That was the last deal: the game is over."), number)
            return _saved_twice(game_id, gettext("Deal %(deal)d recorded.", deal=number), number)
        return write.refused(refused)
    assert deal is not None
    if deal.pending:
        flash(_declared(deal.number, ruleset.contract_label(deal.contract)), "ok")
    elif after.state.finished:
        flash(gettext("That was the last deal: the game is over."), "ok")
    else:
        flash(gettext("Deal %(deal)d recorded.", deal=deal.number), "ok")
    if not deal.pending:
        flash(str(deal.number), SAVED)
    return redirect(url_for("web.game", game_id=game_id), code=303)


def _record(game_id: str, form: DeclareForm, game: Snapshot, fields: dict[str, Any]) -> Written:
    """Records the next Mizerka or Misère deal from ``form``, the fields it gave kept in ``fields``."""
    ruleset, names, number = game.ruleset, game.setup.players, form.number.data
    if ruleset.declares_contract:
        fields["contract"] = form.contract.data or None
    if isinstance(number, int) and ruleset.bids_in(number):
        fields["bids"] = per_seat_numbers(form.bids.data, names, "bids")
    # A deal without a declaration has its tricks; so has a chooser's last contract, whose
    # form asks for the counts at once (the contract travels with them).
    counts = any(f"tricks-{seat}" in request.form for seat in range(len(names)))
    if isinstance(number, int) and (counts or not ruleset.declares(number)):
        fields["tricks"] = per_seat_numbers(form.tricks.data, names, "tricks")
    return services.record_deal(game_id, number=number, **fields)


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
    write = open_write(game_id, form, _refused_at_field(tricks=form), complete=form.number.data == number)
    names = write.game.setup.players
    fields: dict[str, Any] = {}
    try:
        # Kierki: the deal's results (its suit was named when it was declared).
        results = tuple(name for name in deal_fields(write.game, number) if name != "trumps")
        if results:
            fields = deal_facts(request.form, names, results, required=True)
        else:
            fields = {"tricks": per_seat_numbers(form.tricks.data, names, "tricks")}
        facts = {name: value for name, value in fields.items() if name != "tricks"}
        tricks = fields.get("tricks", UNSET)
        after = services.update_deal(game_id, number, tricks=tricks, facts=facts, require_pending=True).state
    except Refusal as refused:
        # Save tapped twice: the second post may have read the game before the first wrote it,
        # so the game as it now is says whether these very counts are stored.
        now = load_game(game_id) if fields and kind_of(refused.code) is Kind.CONFLICT else None
        if now is not None and already_stored(now, number, fields):
            last = now.state.finished and number == now.state.deal_count
            return _saved_twice(
                game_id,
                gettext("That was the last deal: the game is over.")
                if last
                else gettext("Deal %(deal)d recorded.", deal=number),
                number,
            )
        return write.refused(refused)
    if after.finished:
        flash(gettext("That was the last deal: the game is over."), "ok")
    else:
        flash(gettext("Deal %(deal)d recorded.", deal=number), "ok")
    flash(str(number), SAVED)
    return redirect(url_for("web.game", game_id=game_id), code=303)


def _saved_twice(game_id: str, message: str, saved: int | None = None) -> Response:
    """The answer to the second post of a double tap: the success the first one had, said once
    (and the undo of the deal ``saved``, whose tricks were stored, offered once)."""
    flashed = [text for _, text in session.get("_flashes", [])]
    if message not in flashed:
        flash(message, "ok")
    if saved is not None and str(saved) not in flashed:
        flash(str(saved), SAVED)
    return redirect(url_for("web.game", game_id=game_id), code=303)


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
        return _render_game(game, errors={"undo": say(error)}, status=status_for(error.code))

    write = open_write(game_id, form, redraw, complete=form.number.data is not None)
    number = form.number.data
    assert number is not None
    try:
        services.undo_deal(game_id, number, expected_version=form.version.data)
    except Refusal as refused:
        return write.refused(refused)
    flash(gettext("Deal %(deal)d undone.", deal=number), "ok")
    return redirect(url_for("web.game", game_id=game_id), code=303)
