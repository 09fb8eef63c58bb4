"""A club night's pages (CLUB.md "Screens"): thin views that parse a form, call ``services.nights``
and render. The director's page needs the night's pencil; the check-in, a player's phone and the
projector are open to whoever has the night's link (the QR code on the projector)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import abort, current_app, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet

from ... import access, caching
from ...errors import status_for
from ...extensions import limit_game_creation
from ...messages import say
from ...models import today
from ...rules import N_, Refusal, RuleError
from ...services import keyring
from ...services import nights as club
from .. import bp
from ..games.sharing import ShareLink, qr_svg
from . import pencils
from .forms import ActionForm, ClockForm, NameForm, NightForm, SwapForm, TapForm, chosen_game, game_choices


def _load(night_id: str) -> club.NightView:
    try:
        return club.load_night(night_id)
    except Refusal:
        abort(404)


def _director(night_id: str) -> club.NightView:
    """The night, for its director only (403 for any other phone)."""
    night = _load(night_id)
    if not access.holds_night(night_id):
        abort(403)
    return night


def table_link() -> club.TableLink:
    return club.TableLink(str(current_app.config["SECRET_KEY"]))


def _no_store(response: Any) -> Any:
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/nights/new", methods=["GET", "POST"])
@limit_game_creation
def new_night() -> Any:
    """A new club night: its name, game and preset, rounds, seating; the phone that makes it directs it."""
    form = NightForm()
    form.game.choices = game_choices()
    error: Refusal | None = None
    if form.validate_on_submit():
        ruleset_id, options = chosen_game(form.game.data)
        try:
            night_id, _key = club.create_night(
                form.name.data,
                ruleset_id,
                options,
                rounds=form.rounds.data,
                seating=form.seating.data,
                first_round=form.first_round.data,
                hide_standings=bool(form.hide_standings.data),
                played_on=form.played_on.data,
            )
        except Refusal as refused:
            error = refused
        else:
            access.give_club_pencil(keyring.NIGHT, night_id)
            return redirect(url_for("web.night", night_id=night_id), code=303)
    if request.method == "GET":
        form.played_on.data = today().isoformat()
    status = 200 if request.method == "GET" else 422
    return render_template(
        "web/nights/new.html", form=form, error=error, says=say(error) if error else None
    ), status


def _director_page(night: club.NightView, error: Refusal | None = None, **forms: Any) -> Any:
    upcoming = night.next_round
    swap = forms.get("swap") or SwapForm(formdata=None)
    if upcoming is not None:
        names = night.names
        seated = [SelectChoice(p, names[p]) for p in (*upcoming.as_played().seated, *upcoming.sitting_out)]
        swap.first.choices = seated
        swap.second.choices = seated
    links = {}
    link = table_link()
    for played in night.started:
        for table in played.tables:
            if table.game_id is not None and not table.done:
                token = link(night.id, played.number, table.number, table.link_generation)
                url = url_for("web.take_pencil", game_id=table.game_id, _external=True) + "#" + token
                links[(played.number, table.number)] = ShareLink(url, qr_svg(url))
    check_in = url_for("web.night_check_in", night_id=night.id, _external=True)
    status = 200 if error is None else status_for(error.code)
    response = make_response(
        render_template(
            "web/nights/director.html",
            night=night,
            error=error,
            says=say(error) if error else None,
            action=ActionForm(formdata=None),
            name_form=forms.get("name_form") or NameForm(formdata=None),
            swap=swap,
            clock=ClockForm(formdata=None, minutes=night.clock_minutes),
            links=links,
            check_in=ShareLink(check_in, qr_svg(check_in)),
            repeats=None if upcoming is None else night.repeats_of(upcoming),
        ),
        status,
    )
    return _no_store(response)


@bp.get("/nights/<night_id>")
def night(night_id: str) -> Any:
    """The night's page: its director's (players, rounds, tables, standings); other phones go to the
    player's page."""
    found = _load(night_id)
    if not access.holds_night(night_id):
        return redirect(url_for("web.night_me", night_id=night_id))
    return _director_page(found)


def _act(night_id: str, change: Any, done: str | None = None) -> Any:
    """Run a director's change; on a refusal the page again with the reason, nothing changed."""
    _director(night_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        change()
    except Refusal as refused:
        return _director_page(_load(night_id), refused)
    if done:
        flash(done, "ok")
    return redirect(url_for("web.night", night_id=night_id), code=303)


@bp.post("/nights/<night_id>/players")
def night_add_player(night_id: str) -> Any:
    """The director adds a name (an existing person by the name key, else a new one)."""
    _director(night_id)
    form = NameForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        club.check_in(night_id, form.name.data)
    except Refusal as refused:
        return _director_page(_load(night_id), refused, name_form=form)
    return redirect(url_for("web.night", night_id=night_id) + "#players", code=303)


@bp.post("/nights/<night_id>/players/<int:player_id>/remove")
def night_remove_player(night_id: str, player_id: int) -> Any:
    """A player leaves (before the next round); gone altogether when they have not played yet."""
    return _act(night_id, lambda: club.remove_player(night_id, player_id))


@bp.post("/nights/<night_id>/players/<int:player_id>/up")
def night_move_up(night_id: str, player_id: int) -> Any:
    """A player one place up the director's order (round 1 in that order)."""
    return _act(night_id, lambda: club.move_player(night_id, player_id, -1))


@bp.post("/nights/<night_id>/seat")
def night_seat(night_id: str) -> Any:
    """Seat the next round (Mix: every round left, planned at once)."""
    return _act(night_id, lambda: club.seat_next_round(night_id))


@bp.post("/nights/<night_id>/start")
def night_start(night_id: str) -> Any:
    """Start the seated round: the tables' games are made, their scoring links shown."""
    return _act(night_id, lambda: club.start_round(night_id, table_link()))


@bp.post("/nights/<night_id>/swap")
def night_swap(night_id: str) -> Any:
    """Exchange two players' places in the next round."""
    _director(night_id)
    form = SwapForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        club.swap_players(night_id, form.first.data, form.second.data)
    except Refusal as refused:
        return _director_page(_load(night_id), refused, swap=form)
    return redirect(url_for("web.night", night_id=night_id) + "#next", code=303)


@bp.post("/nights/<night_id>/tables/<int:round_number>/<int:table>/close")
def night_close_table(night_id: str, round_number: int, table: int) -> Any:
    """Close a table that did not finish: it scores as it stands, marked unfinished."""
    return _act(night_id, lambda: club.close_table(night_id, round_number, table))


@bp.post("/nights/<night_id>/tables/<int:round_number>/<int:table>/renew")
def night_renew_link(night_id: str, round_number: int, table: int) -> Any:
    """A new scoring link for a table (the old one stops working)."""
    return _act(night_id, lambda: club.renew_table_link(night_id, round_number, table, table_link()))


@bp.post("/nights/<night_id>/clock")
def night_clock(night_id: str) -> Any:
    """Start the round clock on the projector."""
    _director(night_id)
    form = ClockForm()
    if not form.validate_on_submit():
        return _director_page(
            _load(night_id),
            RuleError(
                "invalid_night",
                N_("Minutes: a whole number from %(low)d to %(high)d."),
                "minutes",
                {"low": club.CLOCK_MINUTES[0], "high": club.CLOCK_MINUTES[1]},
            ),
        )
    try:
        club.start_clock(night_id, form.minutes.data)
    except Refusal as refused:
        return _director_page(_load(night_id), refused)
    return redirect(url_for("web.night", night_id=night_id), code=303)


@bp.post("/nights/<night_id>/hide")
def night_hide(night_id: str) -> Any:
    """Hide the standings during a round, or show them."""
    found = _director(night_id)
    return _act(night_id, lambda: club.set_hidden(night_id, not found.hide_standings))


@bp.route("/nights/<night_id>/check-in", methods=["GET", "POST"])
def night_check_in(night_id: str) -> Any:
    """Check in: tap your name or add it (the QR code on the projector leads here)."""
    found = _load(night_id)
    form = NameForm()
    tap = TapForm()
    error: Refusal | None = None
    if request.method == "POST":
        name = tap.name.data if tap.validate_on_submit() and tap.name.data else None
        if name is None and form.validate_on_submit():
            name = form.name.data
        if name is None:
            abort(400)
        try:
            player_id = club.check_in(night_id, name)
        except Refusal as refused:
            error = refused
        else:
            flash(gettext("You are checked in."), "ok")
            return redirect(url_for("web.night_player", night_id=night_id, player_id=player_id), code=303)
    response = make_response(
        render_template(
            "web/nights/check_in.html",
            night=found,
            form=form,
            tap=TapForm(formdata=None),
            known=club.regulars(found),
            error=error,
            says=say(error) if error else None,
        ),
        200 if error is None else status_for(error.code),
    )
    return _no_store(response)


@bp.get("/nights/<night_id>/me")
def night_me(night_id: str) -> Any:
    """A player's phone: tap your name to see your table and seat."""
    found = _load(night_id)
    return render_template("web/nights/me.html", night=found)


@bp.get("/nights/<night_id>/me/<int:player_id>")
def night_player(night_id: str, player_id: int) -> Any:
    """One player's table and seat this round, and the table's game."""
    found = _load(night_id)
    person = next((p for p in found.players if p.id == player_id), None)
    if person is None:
        abort(404)
    shown = found.shown
    table = shown.table_of(player_id) if shown is not None else None
    row = next((row for row in found.standings if row.player == player_id), None)
    return render_template(
        "web/nights/player.html", night=found, person=person, shown=shown, table=table, row=row
    )


@bp.get("/nights/<night_id>/screen")
@caching.club_page(caching.HOME, caching.NIGHTS)
def night_screen(night_id: str) -> Any:
    """The projector: the round's tables and seats, the first dealers, the clock, the standings."""
    found = _load(night_id)
    check_in = url_for("web.night_check_in", night_id=night_id, _external=True)
    ends = None
    if found.clock_started_at is not None:
        ends = found.clock_started_at + timedelta(minutes=found.clock_minutes)
    return render_template(
        "web/nights/screen.html", night=found, check_in=ShareLink(check_in, qr_svg(check_in)), ends=ends
    )


@bp.get("/nights/<night_id>/cards")
@caching.club_page(caching.HOME, caching.NIGHTS)
def night_cards(night_id: str) -> Any:
    """Paper: a card per table of the round shown, and the night's standings."""
    found = _load(night_id)
    return render_template("web/nights/cards.html", night=found, shown=found.shown)


@bp.post("/nights/<night_id>/hand-over")
def night_hand_over(night_id: str) -> Any:
    """A one-time link handing the night's pencil (its direction) to another phone."""
    found = _director(night_id)
    address = url_for("web.night_take", night_id=night_id, _external=True)
    return pencils.hand_over(keyring.NIGHT, night_id, address, night=found)


TAKE_REFUSED = {
    keyring.HandOverOutcome.USED: N_(
        "This hand-over link has already been used. Ask the director to make a new one."
    ),
    keyring.HandOverOutcome.EXPIRED: N_(
        "This hand-over link has expired. Ask the director to make a new one."
    ),
    keyring.HandOverOutcome.UNKNOWN: N_("That hand-over code does not belong to this night."),
}


@bp.route("/nights/<night_id>/take", methods=["GET", "POST"])
def night_take(night_id: str) -> Any:
    """The night's hand-over link's landing page (the code in the fragment, as a game's)."""
    return pencils.take(
        keyring.NIGHT,
        night_id,
        taken=gettext("This phone now directs the night."),
        landing=url_for("web.night", night_id=night_id),
        refused=TAKE_REFUSED,
        night=_load(night_id),
    )
