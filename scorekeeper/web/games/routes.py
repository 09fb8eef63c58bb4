"""Page views: parse the form, call a service, redirect (or re-render with the error)."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import charts, pagecache, services, stats
from ...access import can_edit, page_key, remember_key
from ...errors import status_for
from ...models import today
from ...rules import RULESETS, Refusal, RuleError, get_ruleset
from ...services import LoadedGame
from .. import bp
from .forms import (
    CorrectForm,
    DeclareForm,
    HandOverForm,
    NewGameForm,
    RematchForm,
    TricksForm,
    UndoForm,
    number_or_raw,
    per_seat_numbers,
)
from .presenters import game_view, share_links

# How many recent players the new-game page offers as one-tap buttons.
TAP_LIST_SIZE = 12


def _load(game_id: str) -> LoadedGame:
    try:
        return services.get_game(game_id)
    except Refusal:
        abort(404)


def _require_editor(loaded: LoadedGame) -> None:
    if not can_edit(request, loaded.game):
        abort(
            make_response(
                render_template(
                    "errors/error.html",
                    status=403,
                    title="Read-only",
                    message="This phone can watch this game but not change it. "
                    "Ask the scorer for the hand-over link to take the pencil.",
                ),
                403,
            )
        )


@bp.get("/")
def home() -> str:
    """The list of games, in progress first, with a button to start a new one."""
    games = [game_view(loaded, editable=False) for loaded in services.list_games()]
    return render_template("web/home.html", games=games)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Any:
    """New game: the names in seating order and the first dealer (or a random draw)."""
    ruleset_id = request.values.get("game", "mizerka")
    if ruleset_id not in RULESETS:
        ruleset_id = "mizerka"
    ruleset = get_ruleset(ruleset_id)
    form = NewGameForm()
    error: Refusal | None = None
    if form.validate_on_submit():
        names = [entry.data or "" for entry in form.players.entries[: ruleset.player_count]]
        choice = form.first_dealer.data or "random"
        first_dealer: object = None
        if choice != "random":
            seat = number_or_raw(choice)
            first_dealer = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else choice
        options = {spec.id: request.form.get(spec.id, spec.default) for spec in ruleset.options}
        try:
            loaded, key = services.create_game(
                ruleset.id,
                names,
                first_dealer,
                options,
                played_on=form.played_on.data,
                note=form.note.data,
            )
        except Refusal as refused:
            error = refused
        else:
            dealer = loaded.setup.players[loaded.setup.first_dealer]
            if first_dealer is None:
                flash(f"The app drew {dealer} to deal first.", "info")
            else:
                flash(f"{dealer} deals first.", "info")
            response = redirect(url_for("web.game", game_id=loaded.id), code=303)
            remember_key(response, request, loaded.id, key)
            return response
    status = 422 if request.method == "POST" else 200
    if request.method == "GET":
        form.played_on.data = today().isoformat()
    known = stats.known_players()
    return (
        render_template(
            "web/new_game.html",
            form=form,
            ruleset=ruleset,
            rulesets=RULESETS,
            error=error,
            known_players=known,
            recent_players=stats.recent_players(TAP_LIST_SIZE),
            today=today(),
        ),
        status,
    )


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Any:
    """A new game with the same people, seats and options; the first deal moves on one seat."""
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        loaded, key = services.rematch(game_id)
    except Refusal as refused:
        if refused.code == "not_found":
            abort(404)
        flash(refused.message, "info")
        return redirect(url_for("web.game", game_id=game_id), code=303)
    dealer = loaded.setup.players[loaded.setup.first_dealer]
    flash(f"Rematch: same seats, {dealer} deals first.", "info")
    response = redirect(url_for("web.game", game_id=loaded.id), code=303)
    remember_key(response, request, loaded.id, key)
    return response


def totals_chart(loaded: LoadedGame) -> Markup | None:
    """The running-totals chart of a game, once a deal is completed."""
    totals = [deal.totals for deal in loaded.state.deals if deal.totals is not None]
    if not totals:
        return None
    return charts.running_totals_chart(loaded.setup.players, totals, loaded.state.deal_count)


def _render_game(
    loaded: LoadedGame,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
    declare: DeclareForm | None = None,
    tricks: TricksForm | None = None,
) -> Any:
    editable = can_edit(request, loaded.game)
    view = game_view(loaded, editable=editable)
    share = share_links(loaded.id, page_key(request, loaded.id)) if editable else None
    response = make_response(
        render_template(
            "web/game.html",
            game=view,
            errors=errors or {},
            declare=declare or DeclareForm(formdata=None),
            tricks=tricks or TricksForm(formdata=None),
            undo=UndoForm(formdata=None),
            share=share,
            chart=totals_chart(loaded),
            rematch=RematchForm(formdata=None) if loaded.state.finished else None,
        ),
        status,
    )
    if status != 200:
        response.headers["Cache-Control"] = "no-cache, private"
        response.headers["Vary"] = "Cookie"
        return response
    return _game_headers(response, loaded.game.version, editable)


def _game_headers(response: Any, version: int, editable: bool) -> Any:
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["Vary"] = "Cookie"
    response.set_etag(_etag(version, editable))
    return response


def _etag(version: int, editable: bool) -> str:
    return f"v{version}-{'e' if editable else 'r'}"


@bp.get("/games/<game_id>")
def game(game_id: str) -> Any:
    """The game page: whose turn it is, the form for the next step, the grid and the log.

    Answers 304 to a watching phone whose copy is current, from one cheap query, and
    serves the page already rendered for this version of the game after the same query.
    """
    known = services.game_version_and_key(game_id)
    if known is None:
        abort(404)
    version, key_hash = known
    editable = services.hash_matches(key_hash, page_key(request, game_id))
    if request.if_none_match.contains(_etag(version, editable)):
        response = make_response("", 304)
        response.set_etag(_etag(version, editable))
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    key = ("game", game_id, version, editable, request.url_root)
    reusable = pagecache.usable()
    body = pagecache.cached(key) if reusable else None
    if body is not None:
        return _game_headers(make_response(body, 200), version, editable)
    response = _render_game(_load(game_id))
    if reusable and response.status_code == 200:
        pagecache.keep(key, response.get_data(as_text=True))
    return response


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Any:
    """Record the next deal: the declaration (and the tricks where a deal has no declaration)."""
    loaded = _load(game_id)
    _require_editor(loaded)
    form = DeclareForm()
    # The deal number is what makes a double tap or a stale form harmless: it is required here.
    if not form.validate_on_submit() or form.number.data is None:
        return _render_game(loaded, errors={"form": "The form was incomplete; try again."}, status=422)
    ruleset, names = loaded.ruleset, loaded.setup.players
    number = form.number.data
    fields: dict[str, Any] = {}
    try:
        if ruleset.declares_contract:
            fields["contract"] = form.contract.data or None
        if isinstance(number, int) and ruleset.bids_in(number):
            fields["bids"] = dict(zip(names, per_seat_numbers(form.bids.data, names, "bids"), strict=True))
        if isinstance(number, int) and not ruleset.declares(number):
            fields["tricks"] = dict(
                zip(names, per_seat_numbers(form.tricks.data, names, "tricks"), strict=True)
            )
        deal = services.record_deal(game_id, number=number, **fields).deal
    except Refusal as refused:
        return _render_game(
            services.get_game(game_id),
            errors={refused.field or "form": refused.message},
            status=status_for(refused.code),
            declare=form,
        )
    assert deal is not None
    if deal.pending:
        flash(
            f"Deal {deal.number}: {ruleset.contract_label(deal.contract)}. Enter the tricks when played.",
            "ok",
        )
    else:
        flash(f"Deal {deal.number} recorded.", "ok")
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.post("/games/<game_id>/deals/<int:number>/tricks")
def enter_tricks(game_id: str, number: int) -> Any:
    """The tricks of the declared deal ``number``."""
    loaded = _load(game_id)
    _require_editor(loaded)
    form = TricksForm()
    names = loaded.setup.players
    if not form.validate_on_submit() or form.number.data != number:
        return _render_game(loaded, errors={"form": "The form was incomplete; try again."}, status=422)
    try:
        tricks = dict(zip(names, per_seat_numbers(form.tricks.data, names, "tricks"), strict=True))
        after = services.update_deal(game_id, number, tricks=tricks, require_pending=True).state
    except Refusal as refused:
        return _render_game(
            services.get_game(game_id),
            errors={refused.field or "form": refused.message},
            status=status_for(refused.code),
            tricks=form,
        )
    if after.finished:
        flash("That was the last deal: the game is over.", "ok")
    else:
        flash(f"Deal {number} recorded.", "ok")
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def correct_deal(game_id: str, number: int) -> Any:
    """Correct a recorded deal; the game is replayed and every later figure follows."""
    loaded = _load(game_id)
    _require_editor(loaded)
    deal = next((d for d in loaded.state.deals if d.number == number), None)
    if deal is None:
        abort(404)
    form = CorrectForm()
    error: Refusal | None = None
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            error = RuleError("form", "The form was incomplete; try again.", None)
        else:
            names = loaded.setup.players
            fields: dict[str, Any] = {}
            try:
                if loaded.ruleset.declares_contract:
                    fields["contract"] = form.contract.data or None
                if loaded.ruleset.bids_in(number):
                    fields["bids"] = dict(
                        zip(names, per_seat_numbers(form.bids.data, names, "bids"), strict=True)
                    )
                if not deal.pending or any((v or "").strip() for v in form.tricks.data[: len(names)]):
                    fields["tricks"] = dict(
                        zip(names, per_seat_numbers(form.tricks.data, names, "tricks"), strict=True)
                    )
                services.update_deal(game_id, number, expected_version=form.version.data, **fields)
            except Refusal as refused:
                error = refused
            else:
                flash(f"Deal {number} corrected; later totals follow.", "ok")
                return redirect(url_for("web.game", game_id=game_id, _anchor=f"deal-{number}"), code=303)
        status = status_for(error.code) if error else 422
        loaded = services.get_game(game_id)
        deal = next((d for d in loaded.state.deals if d.number == number), deal)
    else:
        form = CorrectForm(formdata=None, version=loaded.game.version, contract=deal.contract)
        for seat in range(len(loaded.setup.players)):
            if deal.bids is not None:
                form.bids.entries[seat].data = str(deal.bids[seat])
            if deal.tricks is not None:
                form.tricks.entries[seat].data = str(deal.tricks[seat])
    view = game_view(loaded, editable=True)
    return (
        render_template(
            "web/correct.html",
            game=view,
            deal=view.deal(number),
            form=form,
            error=error,
            is_last=number == len(loaded.state.deals),
        ),
        status,
    )


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Any:
    """Undo the last recorded deal (after the confirmation on the game page)."""
    loaded = _load(game_id)
    _require_editor(loaded)
    form = UndoForm()
    if not form.validate_on_submit() or form.number.data is None:
        return _render_game(loaded, errors={"undo": "The form was incomplete; try again."}, status=422)
    try:
        services.undo_deal(game_id, form.number.data, expected_version=form.version.data)
    except Refusal as refused:
        return _render_game(
            services.get_game(game_id), errors={"undo": refused.message}, status=status_for(refused.code)
        )
    flash(f"Deal {form.number.data} undone.", "ok")
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.get("/games/<game_id>/scoresheet")
def scoresheet(game_id: str) -> str:
    """The printable scoresheet: contract grid, deal log with running totals, standings."""
    version = services.game_version(game_id)
    if version is None:
        abort(404)
    key = ("scoresheet", game_id, version, request.url_root)
    reusable = pagecache.usable()
    body = pagecache.cached(key) if reusable else None
    if body is None:
        loaded = _load(game_id)
        body = render_template(
            "web/scoresheet.html", game=game_view(loaded, editable=False), chart=totals_chart(loaded)
        )
        if reusable:
            pagecache.keep(key, body)
    return body


@bp.route("/games/<game_id>/take", methods=["GET", "POST"])
def take_pencil(game_id: str) -> Any:
    """The hand-over link's landing page: the key comes in the fragment (or typed), never the URL.

    A small script posts the fragment's key here; without scripts the code can be pasted.
    """
    loaded = _load(game_id)
    form = HandOverForm()
    error = None
    if form.validate_on_submit():
        key = (form.key.data or "").strip()
        if services.key_matches(loaded.game, key):
            flash("This phone can now enter the score.", "ok")
            response = redirect(url_for("web.game", game_id=game_id), code=303)
            remember_key(response, request, game_id, key)
            return response
        error = "That hand-over code does not belong to this game."
    status = 403 if error else (422 if request.method == "POST" else 200)
    return render_template(
        "web/take.html", game=game_view(loaded, editable=False), form=form, error=error
    ), status


@bp.get("/rules")
def rules() -> str:
    """How each game is played and scored, at a glance."""
    return render_template("web/rules.html", rulesets=RULESETS)


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness and database check for hosting: one trivial query."""
    services.ping()
    response = make_response("ok\n", 200)
    response.mimetype = "text/plain"
    return response
