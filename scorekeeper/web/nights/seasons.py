"""Seasons' pages (CLUB.md "Seasons"): the list, a new season, a season's table (printable), changing
and deleting one. Thin views: the form's raw input goes to ``services.nights``, which decides.

The phone that makes a season holds its pencil (the keyring's, ``keyring.SEASON``, as a night's
director holds the night's): only it changes or deletes the season, or hands the pencil over with a
one-time link (the night's hand-over pages, for a season)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import access, caching
from ...extensions import limit_game_creation
from ...messages import say
from ...models import today
from ...rules import N_, Refusal
from ...services import keyring
from ...services import nights as club
from .. import bp
from . import pencils
from .forms import ActionForm, SeasonForm, chosen_game, game_choices


@bp.get("/seasons")
def seasons() -> Any:
    """Every season, the latest first, and a link to start one."""
    return render_template("web/nights/seasons.html", seasons=club.list_seasons())


@bp.route("/seasons/new", methods=["GET", "POST"])
@limit_game_creation
def new_season() -> Any:
    """A new season: anyone may make one (it counts against the creation limit, as a night); the
    phone that makes it holds its pencil."""
    form = SeasonForm()
    form.game.choices = game_choices()
    error: Refusal | None = None
    if form.validate_on_submit():
        ruleset_id, options = chosen_game(form.game.data)
        try:
            season_id, _key = club.create_season(
                form.name.data,
                ruleset_id,
                options,
                starts_on=form.starts_on.data,
                ends_on=form.ends_on.data,
                best=form.best.data,
            )
        except Refusal as refused:
            error = refused
        else:
            access.give_club_pencil(keyring.SEASON, season_id)
            return redirect(url_for("web.season", season_id=season_id), code=303)
    if request.method == "GET":
        now = today()
        form.starts_on.data = date(now.year, 1, 1).isoformat()
        form.ends_on.data = date(now.year, 12, 31).isoformat()
    status = 200 if request.method == "GET" else 422
    return render_template(
        "web/nights/new_season.html", form=form, error=error, says=say(error) if error else None, season=None
    ), status


def _holds_the_season() -> bool:
    return access.holds_club(keyring.SEASON, str((request.view_args or {}).get("season_id", "")))


@bp.get("/seasons/<season_id>")
@caching.club_page(caching.HOME, caching.NIGHTS, bypass=_holds_the_season)
def season(season_id: str) -> Any:
    """A season's table: players from their third night, by their best nights' points (printable);
    for the phone holding its pencil, the links that change, delete or hand it over."""
    found = _found(season_id)
    pencil = access.holds_club(keyring.SEASON, season_id)
    drawn = render_template(
        "web/nights/season.html", season=found, pencil=pencil, action=ActionForm(formdata=None)
    )
    if not pencil:
        return drawn  # the same page for every other phone: cached (``caching.club_page``)
    response = make_response(drawn)
    response.headers["Cache-Control"] = "no-store"  # the holder's links are not for a shared cache
    return response


def _found(season_id: str) -> club.SeasonView:
    try:
        return club.load_season(season_id)
    except Refusal:
        abort(404)


def _held(season_id: str) -> club.SeasonView:
    """The season, for the phone holding its pencil only: 403 for any other phone, said plainly for a
    season made before seasons had an owner (nobody holds its pencil)."""
    found = _found(season_id)
    if not access.holds_club(keyring.SEASON, season_id):
        try:
            club.refuse_keyless(found)
        except Refusal as refused:
            abort(403, say(refused))
        abort(403)
    return found


@bp.route("/seasons/<season_id>/edit", methods=["GET", "POST"])
def edit_season(season_id: str) -> Any:
    """Change a season's name, game and preset, dates or best nights (its pencil's holder only); a
    refusal shows at its field and changes nothing."""
    found = _held(season_id)
    form = SeasonForm()
    form.game.choices = game_choices()
    error: Refusal | None = None
    if form.validate_on_submit():
        ruleset_id, options = chosen_game(form.game.data)
        changes = {
            "name": form.name.data or "",
            "ruleset": ruleset_id,
            "options": options,
            "starts_on": form.starts_on.data or "",
            "ends_on": form.ends_on.data or "",
            "best": form.best.data or "",
        }
        try:
            club.edit_season(season_id, changes)
        except Refusal as refused:
            error = refused
        else:
            return redirect(url_for("web.season", season_id=season_id), code=303)
    if request.method == "GET":
        form.name.data = found.name
        preset = f":{found.preset}" if found.ruleset.preset_option else ""
        form.game.data = found.ruleset.id + preset
        form.starts_on.data = found.starts_on.isoformat()
        form.ends_on.data = found.ends_on.isoformat()
        form.best.data = str(found.best)
    status = 200 if request.method == "GET" else 422
    return render_template(
        "web/nights/new_season.html", form=form, error=error, says=say(error) if error else None, season=found
    ), status


@bp.route("/seasons/<season_id>/delete", methods=["GET", "POST"])
def delete_season(season_id: str) -> Any:
    """Ask, then delete a season (its nights and their games stay): its pencil's holder only."""
    found = _held(season_id)
    if request.method == "POST":
        club.delete_season(season_id)
        return redirect(url_for("web.seasons"), code=303)
    return render_template("web/nights/delete_season.html", season=found)


@bp.post("/seasons/<season_id>/hand-over")
def season_hand_over(season_id: str) -> Any:
    """A one-time link handing the season's pencil to another phone (as a night's)."""
    found = _held(season_id)
    address = url_for("web.season_take", season_id=season_id, _external=True)
    return pencils.hand_over(keyring.SEASON, season_id, address, season=found)


TAKE_REFUSED = {
    keyring.HandOverOutcome.USED: N_("This hand-over link has already been used. Ask for a new one."),
    keyring.HandOverOutcome.EXPIRED: N_("This hand-over link has expired. Ask for a new one."),
    keyring.HandOverOutcome.UNKNOWN: N_("That hand-over code does not belong to this season."),
}


@bp.route("/seasons/<season_id>/take", methods=["GET", "POST"])
def season_take(season_id: str) -> Any:
    """The season's hand-over link's landing page (the code in the fragment, as a night's)."""
    return pencils.take(
        keyring.SEASON,
        season_id,
        taken=gettext("This phone now holds the season's pencil."),
        landing=url_for("web.season", season_id=season_id),
        refused=TAKE_REFUSED,
        season=_found(season_id),
    )
