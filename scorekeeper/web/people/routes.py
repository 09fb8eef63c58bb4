"""People across games: the rankings, the list of players (rename, merge) and a player's page."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import caching, charts, services, stats
from ...access import device, is_admin
from ...errors import status_for
from ...limits import query_int
from ...messages import say, shown
from ...models import today
from ...rules import N_, Refusal, RuleError
from ...rules.ranking import Ranking, every_ranking, find_ranking
from .. import bp
from ..validators import refusal_of
from .forms import MergeForm, RenameForm

bp.add_app_template_filter(charts.signed, "signed")
bp.add_app_template_filter(charts.number, "number")


def filters_from_args(args: Any, player_id: int | None = None) -> stats.Filters:
    """The filters of a query string: ``game`` (a ranking's key, or a ruleset's id: its default
    ranking) and ``period``; anything unknown falls back to the default. Without ``game``: the
    ranking of the game the player (``player_id``, else the club) played most recently."""
    period = args.get("period", "all")
    game = args.get("game") or stats.latest_ranking(player_id) or ""
    return stats.Filters(
        ranking=find_ranking(game).key,
        period=period if period in stats.PERIODS else "all",
    )


#: Every ``game`` a URL may name: a ranking's key, or a ruleset's id.
GAMES = frozenset(name for ranking in every_ranking() for name in (ranking.key, ranking.ruleset.id))
#: The query strings of the club's cached pages (``caching.club_page``); any other is drawn afresh.
FILTERS = {"game": GAMES, "period": stats.PERIODS}
ORDERS = {**FILTERS, "sort": stats.COLUMNS, "dir": ("asc", "desc")}


def _game_arg(ranking: Ranking) -> str:
    """A ranking as a URL's ``game`` names it: a ruleset's default ranking by the ruleset alone (as
    links made before rankings had presets did), any other by its key."""
    return ranking.ruleset.id if find_ranking(ranking.ruleset.id) == ranking else ranking.key


def _ranking_choices() -> list[tuple[str, str, str]]:
    """Every ranking the pages offer: (key, ``game`` in a URL, name in the request's language)."""
    return [(ranking.key, _game_arg(ranking), stats.ranking_name(ranking)) for ranking in every_ranking()]


def _filter_args(filters: stats.Filters) -> dict[str, str]:
    """The query string's ``game`` and ``period`` for ``filters``, the default period left out."""
    # The ranking always: a page without it opens on the latest game's, which may be another.
    args = {"game": _game_arg(filters.chosen)}
    if filters.period != "all":
        args["period"] = filters.period
    return args


def _filters_url(endpoint: str, filters: stats.Filters, **values: Any) -> str:
    """A URL for ``endpoint`` keeping the ranking and period chosen (defaults left out)."""
    args: dict[str, Any] = _filter_args(filters)
    args.update({key: value for key, value in values.items() if value is not None})
    return url_for(endpoint, **args)


@bp.get("/rankings")
@caching.club_page(caching.STANDINGS, query=ORDERS)
def rankings() -> str:
    """Every player's games and deals won, points and best game, under the chosen filters.

    ``game`` picks the ranking (a ruleset, preset and number of players; the first registered by default),
    ``period`` all time, this year or the last 30 days; ``sort`` and ``dir`` order the table by
    any column.
    """
    filters = filters_from_args(request.args)
    sort = request.args.get("sort", stats.DEFAULT_SORT)
    direction = request.args.get("dir")
    descending = None if direction not in ("asc", "desc") else direction == "desc"
    page = query_int(request.args, "page", 1)
    per_page = int(current_app.config.get("RANKINGS_PER_PAGE") or stats.PER_PAGE)
    table = stats.rankings(filters, today(), sort, descending, page, per_page)

    def sort_url(column: str) -> str:
        # Clicking the sorted column again turns it round; another column starts its natural way.
        if column == table.sort:
            flip = "asc" if table.descending else "desc"
        else:
            flip = "desc" if stats.COLUMNS[column][1] else "asc"
        return _filters_url("web.rankings", filters, sort=column, dir=flip)

    def page_url(number: int) -> str:
        direction = "desc" if table.descending else "asc"
        return _filters_url("web.rankings", filters, sort=table.sort, dir=direction, page=number)

    # One url_for for the 100 rows: the player links differ only by id (and carry the filters).
    player_url = _filters_url("web.player", filters, player_id=0)

    return render_template(
        "web/rankings.html",
        table=table,
        filters=filters,
        columns=stats.COLUMNS,
        choices=_ranking_choices(),
        filter_args=_filter_args(filters),
        periods=stats.PERIODS,
        sort_url=sort_url,
        page_url=page_url,
        player_url=lambda player_id: player_url.replace("/players/0", f"/players/{player_id}", 1),
        filters_url=_filters_url,
        min_for_percent=stats.MIN_FOR_PERCENT,
    )


def authority() -> services.Authority:
    """What this visitor holds: the administrator's sign-in, and its device (its keyring of game keys)."""
    return services.Authority(admin=is_admin(), device=device())


def _render_players(
    merge: MergeForm | None = None, error: Refusal | None = None, status: int = 200
) -> tuple[str, int]:
    held = authority()
    return (
        render_template(
            "web/players.html",
            people=stats.people(),
            merge=merge or MergeForm(formdata=None),
            error=shown(error),
            # Merging by name is offered to whoever may manage someone: the admin or a key holder.
            can_merge=held.admin or held.device is not None,
            admin=held.admin,
        ),
        status,
    )


@bp.get("/players")
def players() -> tuple[str, int]:
    """Everyone who has played, with the form that merges two records of one person."""
    return _render_players()


@bp.post("/players/merge")
def merge_players() -> Any:
    """Merge two records named in the form: the first one's games move to the second."""
    form = MergeForm()
    if not form.validate_on_submit():
        return _render_players(form, RuleError("form", N_("The form was incomplete; try again."), None), 422)
    held = authority()
    if not held.admin and held.device is None:  # holds no key at all: may manage nobody
        return _render_players(form, services.not_allowed(), 403)
    try:
        duplicate = services.find_player(form.duplicate.data)
    except Refusal as refused:
        return _render_players(form, refused.at("duplicate"), 422)
    if not services.may_manage([duplicate.id], held):
        return _render_players(form, services.not_allowed(), 403)
    try:
        keep = services.find_player(form.keep.data)
        merged = services.merge_players(duplicate.id, keep.id, held)
    except Refusal as refused:
        field = None if refused.code == "not_allowed" else "keep"
        return _render_players(form, refused.at(field), status_for(refused.code))
    flash(gettext("Merged: all the games are now %(player)s's.", player=merged.name), "ok")
    return redirect(url_for("web.player", player_id=merged.id), code=303)


def _render_player(
    player_id: int,
    *,
    rename: RenameForm | None = None,
    merge: MergeForm | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    filters = filters_from_args(request.args, player_id)
    figures = stats.player_stats(player_id, filters, today())
    if figures is None:
        abort(404)
    manage = services.may_manage([player_id], authority())
    chart = (
        charts.points_per_game_chart(figures.name, [(line.played_on, line.total) for line in figures.series])
        if len(figures.series) > 1
        else None
    )
    player_url = _filters_url("web.player", filters, player_id=0)
    game_url = url_for("web.game", game_id="-")
    return (
        render_template(
            "web/player.html",
            # One url_for each for the many links that differ only by id.
            player_url=lambda other: player_url.replace("/players/0", f"/players/{other}", 1),
            game_url=lambda game_id: game_url.replace("/games/-", f"/games/{game_id}", 1),
            player=figures,
            chart=chart,
            filters=filters,
            choices=_ranking_choices(),
            periods=stats.PERIODS,
            filters_url=_filters_url,
            rename=rename or RenameForm(formdata=None, name=figures.name),
            merge=merge or MergeForm(formdata=None),
            errors=errors or {},
            manage=manage,
            admin=is_admin(),
            min_for_percent=stats.MIN_FOR_PERCENT,
        ),
        status,
    )


def _holds_pencils() -> bool:
    return device() is not None


@bp.get("/players/<int:player_id>")
@caching.club_page(caching.PLAYERS, caching.PLAYER, query=FILTERS, bypass=_holds_pencils, variant=is_admin)
def player(player_id: int) -> str:
    """One player: record, contracts, head to head, recent games and points per game over time.

    A phone with a keyring may be offered to rename or merge this player: its page is its own
    alone, never cached; the others' is cached apart for the administrator and everyone else.
    """
    return _render_player(player_id)[0]


@bp.post("/players/<int:player_id>/rename")
def rename_player(player_id: int) -> Any:
    """A new name for a player; their games and figures follow."""
    form = RenameForm()
    valid = form.validate_on_submit()
    refused = refusal_of(form)  # the engine's word on the new name, from the form's validator
    if not valid and refused is None:
        errors = {"name": gettext("The form was incomplete.")}
        return _render_player(player_id, rename=form, errors=errors, status=422)
    if not services.may_manage([player_id], authority()):
        return _render_player(player_id, errors={"form": say(services.not_allowed())}, status=403)
    if refused is not None:
        return _render_player(player_id, rename=form, errors={"name": say(refused)}, status=422)
    try:
        renamed = services.rename_player(player_id, form.name.data, authority())
    except Refusal as error:
        if error.code == "not_found":
            abort(404)
        errors = {"form" if error.code == "not_allowed" else "name": say(error)}
        return _render_player(player_id, rename=form, errors=errors, status=status_for(error.code))
    flash(gettext("Renamed: %(player)s.", player=renamed.name), "ok")
    return redirect(url_for("web.player", player_id=player_id), code=303)


@bp.post("/players/<int:player_id>/merge")
def merge_into(player_id: int) -> Any:
    """This record is a duplicate of the player named in the form: its games move there."""
    form = MergeForm()
    if not form.validate_on_submit():
        errors = {"keep": gettext("The form was incomplete.")}
        return _render_player(player_id, merge=form, errors=errors, status=422)
    if not services.may_manage([player_id], authority()):
        return _render_player(player_id, errors={"form": say(services.not_allowed())}, status=403)
    try:
        keep = services.find_player(form.keep.data)
        merged = services.merge_players(player_id, keep.id, authority())
    except Refusal as refused:
        if refused.code == "not_found":
            abort(404)
        errors = {"form" if refused.code == "not_allowed" else "keep": say(refused)}
        return _render_player(player_id, merge=form, errors=errors, status=status_for(refused.code))
    flash(gettext("Merged: all the games are now %(player)s's.", player=merged.name), "ok")
    return redirect(url_for("web.player", player_id=merged.id), code=303)
