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
    session,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import access, caching, charts, services, stats
from ...access import can_edit, give_pencil
from ...errors import Kind, kind_of, status_for
from ...extensions import limit_game_creation
from ...i18n import current_language
from ...messages import say, shown, term
from ...models import today
from ...rules import N_, RULESETS, Refusal, get_ruleset
from ...services import Snapshot, keyring
from ...services.store import plausible_id
from .. import bp
from ..attempts import limit_failed_attempts
from ..loading import Redraw, load_game, open_write, require_editor
from ..validators import refusal_of
from .entry import already_stored, field_errors, forbidden_bid, seat_values
from .forms import (
    DeclareForm,
    HandOverForm,
    NewGameForm,
    RematchForm,
    TakeForm,
    TricksForm,
    UndoForm,
    number_or_raw,
    per_seat_numbers,
)
from .plan import offline_plan
from .presenters import ShareLink, game_view, name_marks, phone_game, qr_svg, share_links

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
    return render_template("web/home.html", games=games, listing=listing)


@bp.get("/this-phone/games")
def this_phone_games() -> Response:
    """This phone's games, for the home page's script to show first (the page itself is the same
    for everyone, and kept): the games its keyring holds, and of ``opened`` (ids, comma-separated,
    that the phone remembers opening) those that exist.  Never kept anywhere: it is one phone's."""
    opened = [game_id for game_id in request.args.get("opened", "").split(",") if plausible_id(game_id)]
    found = stats.phone_games(access.device(), opened[: stats.MOST_OPENED])
    response = jsonify({"games": [phone_game(found_game) for found_game in found]})
    response.headers["Cache-Control"] = "no-store, private"
    return response


@bp.route("/games/new", methods=["GET", "POST"])
@limit_game_creation
def new_game() -> Any:
    """New game: the names in seating order and the first dealer (or a random draw)."""
    ruleset_id = request.values.get("game", "mizerka")
    if ruleset_id not in RULESETS:
        ruleset_id = "mizerka"
    ruleset = get_ruleset(ruleset_id)
    form = NewGameForm()
    form.for_ruleset(ruleset)
    error: Refusal | None = None
    submitted = form.validate_on_submit()
    if request.method == "POST" and not submitted:
        error = refusal_of(form)  # the engine's word on the names, from the form's validator
    if submitted:
        names = [entry.data or "" for entry in form.players.entries[: ruleset.player_count]]
        choice = form.first_dealer.data or "random"
        first_dealer: object = None
        if choice != "random":
            seat = number_or_raw(choice)
            first_dealer = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else choice
        options = {spec.id: request.form.get(spec.id, spec.default) for spec in ruleset.options}
        try:
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
    require_editor(load_game(game_id))
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


def _render_game(
    game: Snapshot,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
    declare: DeclareForm | None = None,
    tricks: TricksForm | None = None,
    editable: bool | None = None,
) -> Response:
    """The game page; ``editable``: whether this phone holds the pencil, when already known."""
    if editable is None:
        editable = can_edit(request, game)
    # Drawn again after a refused post too: the language switch comes back to the game, not the post.
    caching.drawn_at(url_for("web.game", game_id=game.id))
    view = game_view(game, editable=editable)
    forbidden = None
    if view.turn is not None and not view.turn.pending and declare is not None:
        # Drawn again after a refusal: the bid the engine denies the dealer, given the bids typed.
        typed = seat_values(declare.bids.data, len(game.setup.players))
        forbidden = forbidden_bid(game, view.turn.number, typed)
    share = share_links(game.id) if editable else None
    offline = offline_plan(game, editable)
    last = view.last_deal
    # Right after a deal's tricks were saved: its undo, near the top for a few seconds (the script).
    # (Not in a live update, the script's poll: its answer draws no message, so it takes none.)
    saved = [] if request.headers.get(POLL_HEADER) else get_flashed_messages(category_filter=[SAVED])
    undo_now = editable and last is not None and str(last.number) in saved and not last.pending
    response = make_response(
        render_template(
            "web/game.html",
            game=view,
            errors=errors or {},
            declare=declare or DeclareForm(formdata=None),
            tricks=tricks or TricksForm(formdata=None),
            undo=UndoForm(formdata=None),
            undo_now=undo_now,
            share=share,
            chart=totals_chart(game),
            rematch=RematchForm(formdata=None) if game.state.finished and editable else None,
            hand_over=HandOverForm(formdata=None) if editable else None,
            forbidden=forbidden,
            offline=offline,
            page_etag=f'"{_etag(game.version, editable)}"',
            # Blank, whatever was typed into the page's own forms: the offline entry's copies.
            offline_forms=_blank_entry() if view.schedule else None,
        ),
        status,
    )
    if status != 200:
        response.headers["Cache-Control"] = "no-cache, private"
        response.headers["Vary"] = "Cookie"
        return response
    return _game_headers(response, game.version, editable)


def _blank_entry() -> dict[str, Any]:
    """The per-seat fields of the page's forms, blank (the offline entry's copies of its counts)."""
    return {"bids": DeclareForm(formdata=None).bids, "tricks": TricksForm(formdata=None).tricks}


def _refused_at_field(**forms: Any) -> Redraw:
    """Draws the game page again with a refusal shown at its field, keeping what was typed."""

    def redraw(game: Snapshot, error: Refusal) -> Response:
        number = next((form.number.data for form in forms.values()), None)
        errors = field_errors(game, number, error, forms)
        return _render_game(game, errors=errors, status=status_for(error.code), **forms)

    return redraw


def _game_headers(response: Response, version: int, editable: bool) -> Response:
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["Vary"] = "Cookie, Accept-Language"
    response.set_etag(_etag(version, editable))
    return _access(response, editable)


def _access(response: Response, editable: bool) -> Response:
    """Says whether this phone holds the game's key: the service worker drops what it kept for a
    game (its page, the deals kept on the phone) once the server says the phone only watches."""
    response.headers["Scorekeeper-Access"] = "edit" if editable else "watch"
    return response


def _etag(version: int, editable: bool) -> str:
    """The page's tag: the game's version, whether it can be edited, and the language it speaks."""
    return f"v{version}-{'e' if editable else 'r'}-{current_language()}"


@bp.get("/games/<game_id>")
def game(game_id: str) -> Any:
    """The game page: whose turn it is, the form for the next step, the grid and the log.

    Answers 304 to a phone whose copy is current, from one cheap query, and serves a watcher the
    page kept for this version of the game after the same query (``caching``); a scorer's page,
    with its forms, is rendered for each request.
    """
    known = access.version_and_editable(game_id)
    if known is None:
        abort(404)
    version, editable = known
    if request.if_none_match.contains(_etag(version, editable)):
        response: Response = make_response("", 304)
        response.set_etag(_etag(version, editable))
        response.headers["Cache-Control"] = "no-cache, private"
        return _access(response, editable)
    reusable = not editable and caching.keepable()
    body = caching.kept(("game", game_id, version)) if reusable else None
    if body is not None:
        return _game_headers(make_response(body, 200), version, editable)
    game = load_game(game_id)
    response = _render_game(game, editable=editable)
    if reusable and response.status_code == 200:
        caching.keep(("game", game_id, game.version), response.get_data(as_text=True))
    return response


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Any:
    """Record the next deal: the declaration (and the tricks where a deal has no declaration)."""
    form = DeclareForm()
    # The deal number is what makes a double tap or a stale form harmless: it is required here.
    write = open_write(
        game_id, form, _refused_at_field(declare=form), complete=form.number.data is not None, trusted=True
    )
    ruleset, names = write.game.ruleset, write.game.setup.players
    number = form.number.data
    fields: dict[str, Any] = {}
    try:
        if ruleset.declares_contract:
            fields["contract"] = form.contract.data or None
        if isinstance(number, int) and ruleset.bids_in(number):
            fields["bids"] = per_seat_numbers(form.bids.data, names, "bids")
        # A deal without a declaration has its tricks; so has a chooser's last contract, whose
        # form asks for the counts at once (the contract travels with them).
        counts = any(f"tricks-{seat}" in request.form for seat in range(len(names)))
        if isinstance(number, int) and (counts or not ruleset.declares(number)):
            fields["tricks"] = per_seat_numbers(form.tricks.data, names, "tricks")
        after = services.record_deal(game_id, number=number, seen=write.game, **fields)
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
        game_id, form, _refused_at_field(tricks=form), complete=form.number.data == number, trusted=True
    )
    tricks: list[Any] = []
    try:
        tricks = per_seat_numbers(form.tricks.data, write.game.setup.players, "tricks")
        after = services.update_deal(
            game_id, number, tricks=tricks, require_pending=True, seen=write.game
        ).state
    except Refusal as refused:
        # Save tapped twice: the second post may have read the game before the first wrote it,
        # so the game as it now is says whether these very counts are stored.
        now = load_game(game_id) if tricks and kind_of(refused.code) is Kind.CONFLICT else None
        if now is not None and already_stored(now, number, {"tricks": tricks}):
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
        services.undo_deal(game_id, number, expected_version=form.version.data, seen=write.game)
    except Refusal as refused:
        return write.refused(refused)
    flash(gettext("Deal %(deal)d undone.", deal=number), "ok")
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.get("/games/<game_id>/scoresheet")
def scoresheet(game_id: str) -> str:
    """The printable scoresheet: contract grid, deal log with running totals, standings."""
    version = services.game_version(game_id)
    if version is None:
        abort(404)
    caching.drawn_at(url_for("web.scoresheet", game_id=game_id))
    reusable = caching.keepable()
    body = caching.kept(("scoresheet", game_id, version)) if reusable else None
    if body is None:
        game = load_game(game_id)
        body = render_template(
            "web/scoresheet.html", game=game_view(game, editable=False), chart=totals_chart(game)
        )
        if reusable:
            caching.keep(("scoresheet", game_id, game.version), body)
    return body


@bp.post("/games/<game_id>/hand-over")
def hand_over(game_id: str) -> Any:
    """A new hand-over link: a one-time token, good for one phone and a few minutes.

    Made on demand and shown on a page of its own that no cache keeps, so that the game
    page (which the phone keeps for offline use) never carries a key or a token.
    """
    game = load_game(game_id)
    require_editor(game)
    form = HandOverForm()
    if not form.validate_on_submit():
        abort(400)
    token = access.new_hand_over(game_id)
    link = url_for("web.take_pencil", game_id=game_id, _external=True) + "#" + token
    seconds = int(current_app.config["HAND_OVER_SECONDS"])
    response = make_response(
        render_template(
            "web/hand_over.html",
            game=game_view(game, editable=True),
            link=ShareLink(link, qr_svg(link)),
            minutes=max(1, (seconds + 59) // 60),
            again=HandOverForm(formdata=None),
        )
    )
    response.headers["Cache-Control"] = "no-store"
    return response


#: Why a hand-over code was refused, by what became of it.
TAKE_REFUSED = {
    keyring.HandOverOutcome.USED: N_(
        "This hand-over link has already been used. Ask the scorer to make a new one."
    ),
    keyring.HandOverOutcome.EXPIRED: N_("This hand-over link has expired. Ask the scorer to make a new one."),
    keyring.HandOverOutcome.UNKNOWN: N_("That hand-over code does not belong to this game."),
}


@bp.route("/games/<game_id>/take", methods=["GET", "POST"])
@limit_failed_attempts("take")
def take_pencil(game_id: str) -> Any:
    """The hand-over link's landing page: the one-time code comes in the fragment (or typed),
    never the URL.  It works once, and only until it expires.

    A small script posts the fragment's code here; without scripts the code can be pasted.
    """
    game = load_game(game_id)
    form = TakeForm()
    error = None
    if form.validate_on_submit():
        outcome = access.take_hand_over(game_id, (form.key.data or "").strip())
        if outcome is keyring.HandOverOutcome.TAKEN:
            flash(gettext("This phone can now enter the score."), "ok")
            return redirect(url_for("web.game", game_id=game_id), code=303)
        error = gettext(TAKE_REFUSED[outcome])
    status = 403 if error else (422 if request.method == "POST" else 200)
    response = make_response(
        render_template("web/take.html", game=game_view(game, editable=False), form=form, error=error),
        status,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


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
