"""Page views: parse the form, call a service, redirect (or re-render with the error)."""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    get_flashed_messages,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import access, caching, charts, services, stats
from ...access import give_pencil, holds_pencil
from ...errors import status_for
from ...extensions import limit_game_creation
from ...i18n import current_language
from ...messages import say, shown, term
from ...models import today
from ...rules import N_, RULESETS, Refusal, RuleError, default_ruleset
from ...services import Snapshot
from .. import bp
from ..loading import require_pencil, snapshot_or_404
from ..validators import refusal_of
from .entry import field_errors, forbidden_bid, seat_values
from .forms import (
    DeclareForm,
    HandOverForm,
    NewGameForm,
    RematchForm,
    TricksForm,
    UndoForm,
    number_or_raw,
)
from .marks import name_marks
from .plan import offline_parts, offline_plan
from .presenters import GameView, game_view
from .sharing import phone_game, share_links

#: The flash category of a deal whose tricks were just saved (its number): the page offers its
#: undo near the top for a few seconds.  Not a message: the page does not show it as one.
SAVED = "saved"
#: Sent by the game page's script with its live updates: such an answer shows no flashed message,
#: so it leaves them in the session for the page the phone opens next (a poll landing between a
#: post and its redirect must not eat the post's message).
POLL_HEADER = "X-Scorekeeper-Poll"

# How many recent players the new-game page offers as one-tap buttons.
TAP_LIST_SIZE = 12


@bp.get("/")
@caching.club_page(caching.HOME)
def home() -> str:
    """The games in progress, then the newest finished ones, a page of each, and a button to start one.

    ``playing_after`` or ``finished_after`` (a game's id) asks for the next page of that list alone.
    """
    playing_after = request.args.get("playing_after") or None
    finished_after = request.args.get("finished_after") or None
    both = playing_after is None and finished_after is None
    games = stats.game_list(
        playing=both or playing_after is not None,
        finished=both or finished_after is not None,
        playing_after=playing_after,
        finished_after=finished_after,
        size=int(current_app.config.get("HOME_GAMES_PER_LIST") or stats.GAMES_PER_LIST),
    )
    listing = "first" if both else "playing" if playing_after is not None else "finished"
    # A button for each game the pages score, from the registry (the default first), named in the
    # reader's language: the next game registered appears here without a change to this page.
    new_games = [(ruleset.id, term(ruleset.name)) for ruleset in RULESETS.values()]
    return render_template("web/home.html", games=games, listing=listing, new_games=new_games)


@bp.get("/this-phone/games")
def this_phone_games() -> Response:
    """This phone's games, for the home page's script to show first (the page itself is the same
    for everyone, and cached): the games its keyring holds, and of ``opened`` (ids, comma-separated,
    that the phone remembers opening) those that exist.  Never cached anywhere: it is one phone's."""
    opened = [
        game_id for game_id in request.args.get("opened", "").split(",") if services.plausible_id(game_id)
    ]
    found = stats.phone_games(access.device(), opened[: stats.MOST_OPENED])
    response = jsonify({"games": [phone_game(found_game) for found_game in found]})
    response.headers["Cache-Control"] = "no-store, private"
    return response


@bp.route("/games/new", methods=["GET", "POST"])
@limit_game_creation
def new_game() -> Any:
    """New game: the names in seating order and the first dealer (or a random draw)."""
    ruleset = RULESETS.get(request.values.get("game", "")) or default_ruleset()
    form = NewGameForm()
    form.for_ruleset(ruleset)
    error: Refusal | None = None
    submitted = form.validate_on_submit()
    if request.method == "POST" and not submitted:
        error = refusal_of(form)  # the engine's word on the names, from the form's validator
    if submitted:
        names = form.names()
        choice = form.first_dealer.data or "random"
        seat = None if choice == "random" else number_or_raw(choice)
        first_dealer: object = None
        if seat is not None:
            first_dealer = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else choice
        options = {spec.id: request.form.get(spec.id, spec.default) for spec in ruleset.options}
        try:
            if isinstance(seat, int) and len(names) <= seat < max(ruleset.seat_counts):
                # A seat left empty for a smaller table (the fourth, with 3 players).
                raise RuleError(
                    "unknown_player",
                    N_("Seat %(number)d is empty: choose a player's seat, or a draw."),
                    "first_dealer",
                    {"number": seat + 1},
                )
            game, _key = services.create_game(
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
            dealer = game.setup.players[game.setup.first_dealer]
            if first_dealer is None:
                flash(gettext("The app drew %(player)s to deal first.", player=dealer), "info")
            else:
                flash(gettext("%(player)s deals first.", player=dealer), "info")
            give_pencil([game.id])
            return redirect(url_for("web.game", game_id=game.id), code=303)
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
            error=shown(error),
            known_players=known,
            recent_players=stats.recent_players(TAP_LIST_SIZE),
            today=today(),
        ),
        status,
    )


@bp.post("/games/<game_id>/rematch")
@limit_game_creation
def rematch(game_id: str) -> Any:
    """A new game with the same people, seats and options; the first deal moves on one seat.

    Only the scorer (the holder of the game's edit key) may start it: a watching phone
    would otherwise take the pencil of the table's next game.
    """
    require_pencil(snapshot_or_404(game_id))
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        game, _key = services.rematch(game_id)
    except Refusal as refused:
        if refused.code == "not_found":
            abort(404)
        flash(say(refused), "info")
        return redirect(url_for("web.game", game_id=game_id), code=303)
    dealer = game.setup.players[game.setup.first_dealer]
    flash(gettext("Rematch: same seats, %(player)s deals first.", player=dealer), "info")
    give_pencil([game.id])
    return redirect(url_for("web.game", game_id=game.id), code=303)


def totals_chart(game: Snapshot) -> Markup | None:
    """The running-totals chart of a game, once a deal is completed."""
    totals = [deal.totals for deal in game.state.deals if deal.totals is not None]
    if not totals:
        return None
    names = game.setup.players
    return charts.running_totals_chart(names, totals, game.state.deal_count, name_marks(names))


def render_game(
    game: Snapshot,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
    declare: DeclareForm | None = None,
    tricks: TricksForm | None = None,
    pencil: bool | None = None,
) -> Response:
    """The game page; ``pencil``: whether this phone holds the pencil, when already known."""
    if pencil is None:
        pencil = holds_pencil(game.id)
    # Drawn again after a refused post too: the language switch comes back to the game, not the post.
    caching.drawn_at(url_for("web.game", game_id=game.id))
    # The contract the chooser tapped (a link), or posted with a refused deal: its facts are asked.
    view = game_view(game, pencil=pencil, chosen=request.values.get("contract"))
    forbidden = None
    if view.turn is not None and not view.turn.pending and declare is not None:
        # Drawn again after a refusal: the bid the engine denies the dealer, given the bids typed.
        typed = seat_values(declare.bids.data, len(game.setup.players))
        forbidden = forbidden_bid(game, view.turn.number, typed)
    share = share_links(game.id) if pencil else None
    offline = offline_plan(game, pencil)
    last = view.last_deal
    # Right after a deal's tricks were saved: its undo, near the top for a few seconds (the script).
    # (Not in a live update, the script's poll: its answer draws no message, so it takes none.)
    saved = [] if request.headers.get(POLL_HEADER) else get_flashed_messages(category_filter=[SAVED])
    undo_now = pencil and last is not None and str(last.number) in saved and not last.pending
    response = make_response(
        render_template(
            "web/game.html",
            game=view,
            errors=errors or {},
            **_page_forms(view, declare, tricks),
            undo_now=undo_now,
            share=share,
            chart=totals_chart(game),
            forbidden=forbidden,
            offline=offline,
            tricks_per_deal=view.tricks_per_deal,
            page_etag=f'"{_etag(game.version, pencil)}"',
            offline_parts=offline_parts(view) if view.schedule else None,
        ),
        status,
    )
    if status != 200:
        response.headers["Cache-Control"] = "no-cache, private"
        response.headers["Vary"] = "Cookie"
        return response
    return _game_headers(response, game.version, pencil)


def _page_forms(view: GameView, declare: DeclareForm | None, tricks: TricksForm | None) -> dict[str, Any]:
    """The page's forms: the scorer's alone (a watcher's page has none), and of the two that enter a
    deal only the one the step at hand takes (a pending deal's tricks, else the next deal)."""
    turn = view.turn if view.pencil else None
    return {
        "declare": declare or (DeclareForm(formdata=None) if turn and not turn.pending else None),
        "tricks": tricks or (TricksForm(formdata=None) if turn and turn.pending else None),
        "undo": UndoForm(formdata=None) if view.pencil else None,
        "hand_over": HandOverForm(formdata=None) if view.pencil else None,
        "rematch": RematchForm(formdata=None) if view.pencil and view.finished else None,
    }


def redraw_at_field(game: Snapshot, error: Refusal, **forms: Any) -> Response:
    """The game page again with a refusal shown at its field, keeping what was typed in ``forms``
    (a write view's ``Redraw``, its forms bound with ``functools.partial``)."""
    number = next((form.number.data for form in forms.values()), None)
    errors = field_errors(game, number, error, forms)
    return render_game(game, errors=errors, status=status_for(error.code), **forms)


def _game_headers(response: Response, version: int, pencil: bool) -> Response:
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["Vary"] = "Cookie, Accept-Language"
    response.set_etag(_etag(version, pencil))
    return _access(response, pencil)


def _access(response: Response, pencil: bool) -> Response:
    """Says whether this phone holds the game's key: the service worker drops what it saved offline for a
    game (its page, the deals queued on the phone) once the server says the phone only watches."""
    response.headers["Scorekeeper-Access"] = "edit" if pencil else "watch"
    return response


def _etag(version: int, pencil: bool) -> str:
    """The page's tag: the game's version, whether it can be edited, and the language it speaks."""
    return f"v{version}-{'e' if pencil else 'r'}-{current_language()}"


@bp.get("/games/<game_id>")
def game(game_id: str) -> Any:
    """The game page: whose turn it is, the form for the next step, the grid and the log.

    Answers 304 to a phone whose copy is current, from one cheap query, and serves a watcher the
    page cached for this version of the game after the same query (``caching``); a scorer's page,
    with its forms, is rendered for each request.
    """
    known = access.version_and_pencil(game_id)
    if known is None:
        abort(404)
    version, pencil = known
    if request.if_none_match.contains(_etag(version, pencil)):
        response: Response = make_response("", 304)
        response.set_etag(_etag(version, pencil))
        response.headers["Cache-Control"] = "no-cache, private"
        return _access(response, pencil)
    reusable = not pencil and caching.cacheable()
    body = caching.cached(("game", game_id, version)) if reusable else None
    if body is not None:
        return _game_headers(make_response(body, 200), version, pencil)
    game = snapshot_or_404(game_id)
    response = render_game(game, pencil=pencil)
    if reusable and response.status_code == 200:
        caching.put(("game", game_id, game.version), response.get_data(as_text=True))
    return response


@bp.get("/games/<game_id>/scoresheet")
def scoresheet(game_id: str) -> str:
    """The printable scoresheet: contract grid, deal log with running totals, standings."""
    version = services.game_version(game_id)
    if version is None:
        abort(404)
    caching.drawn_at(url_for("web.scoresheet", game_id=game_id))
    reusable = caching.cacheable()
    body = caching.cached(("scoresheet", game_id, version)) if reusable else None
    if body is None:
        game = snapshot_or_404(game_id)
        body = render_template(
            "web/scoresheet.html", game=game_view(game, pencil=False), chart=totals_chart(game)
        )
        if reusable:
            caching.put(("scoresheet", game_id, game.version), body)
    return body


@bp.get("/rules")
def rules() -> str:
    """How each game is played and scored, at a glance: every game the engine plays, whether the
    pages score it yet or not."""
    return render_template("web/rules.html")
