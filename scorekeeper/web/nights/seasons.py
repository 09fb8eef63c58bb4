"""Seasons' pages (CLUB.md "Seasons"): the list, a new season, a season's table (printable), changing
and deleting one. Thin views: the form's raw input goes to ``services.nights``, which decides."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import abort, redirect, render_template, request, url_for

from ...extensions import limit_game_creation
from ...messages import say
from ...models import today
from ...rules import Refusal
from ...services import nights as club
from .. import bp
from .forms import SeasonForm, chosen_game, game_choices


@bp.get("/seasons")
def seasons() -> Any:
    """Every season, the latest first, and a link to start one."""
    return render_template("web/nights/seasons.html", seasons=club.list_seasons())


@bp.route("/seasons/new", methods=["GET", "POST"])
@limit_game_creation
def new_season() -> Any:
    """A new season: anyone may make one (it counts against the creation limit, as a night)."""
    form = SeasonForm()
    form.game.choices = game_choices()
    error: Refusal | None = None
    if form.validate_on_submit():
        ruleset_id, options = chosen_game(form.game.data)
        try:
            season_id = club.create_season(
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
            return redirect(url_for("web.season", season_id=season_id), code=303)
    if request.method == "GET":
        now = today()
        form.starts_on.data = date(now.year, 1, 1).isoformat()
        form.ends_on.data = date(now.year, 12, 31).isoformat()
    status = 200 if request.method == "GET" else 422
    return render_template(
        "web/nights/new_season.html", form=form, error=error, says=say(error) if error else None, season=None
    ), status


@bp.get("/seasons/<season_id>")
def season(season_id: str) -> Any:
    """A season's table: players from their third night, by their best nights' points (printable)."""
    try:
        found = club.load_season(season_id)
    except Refusal:
        abort(404)
    return render_template("web/nights/season.html", season=found)


def _found(season_id: str) -> club.SeasonView:
    try:
        return club.load_season(season_id)
    except Refusal:
        abort(404)


@bp.route("/seasons/<season_id>/edit", methods=["GET", "POST"])
def edit_season(season_id: str) -> Any:
    """Change a season's name, game and preset, dates or best nights: anyone may, as anyone may make
    one; a refusal shows at its field and changes nothing."""
    found = _found(season_id)
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
    """Ask, then delete a season (its nights and their games stay); anyone may, as anyone may make one."""
    found = _found(season_id)
    if request.method == "POST":
        club.delete_season(season_id)
        return redirect(url_for("web.seasons"), code=303)
    return render_template("web/nights/delete_season.html", season=found)
