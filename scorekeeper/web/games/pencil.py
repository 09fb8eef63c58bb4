"""Handing the pencil over: a one-time link made on demand, and the page that takes it."""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from ... import access
from ...rules import N_
from ...services import keyring
from .. import bp
from ..attempts import count_wrong_secret
from ..loading import require_pencil, snapshot_or_404
from .forms import (
    HandOverForm,
    TakeForm,
)
from .presenters import game_view
from .sharing import ShareLink, qr_svg

#: The flash category of a deal whose tricks were just saved (its number): the page offers its
#: undo near the top for a few seconds.  Not a message: the page does not show it as one.


@bp.post("/games/<game_id>/hand-over")
def hand_over(game_id: str) -> Any:
    """A new hand-over link: a one-time token, good for one phone and a few minutes.

    Made on demand and shown on a page of its own that no cache keeps, so that the game
    page (which the phone keeps for offline use) never carries a key or a token.
    """
    game = snapshot_or_404(game_id)
    require_pencil(game)
    form = HandOverForm()
    if not form.validate_on_submit():
        abort(400)
    token = access.new_hand_over(game_id)
    link = url_for("web.take_pencil", game_id=game_id, _external=True) + "#" + token
    seconds = int(current_app.config["HAND_OVER_SECONDS"])
    response = make_response(
        render_template(
            "web/hand_over.html",
            game=game_view(game, pencil=True),
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
def take_pencil(game_id: str) -> Any:
    """The hand-over link's landing page: the one-time code comes in the fragment (or typed),
    never the URL.  It works once, and only until it expires.  A right code always works; past
    ten wrong ones a minute, from one address or for this game, a wrong one answers 429.

    A small script posts the fragment's code here; without scripts the code can be pasted.
    """
    game = snapshot_or_404(game_id)
    form = TakeForm()
    error = None
    if form.validate_on_submit():
        outcome = access.take_hand_over(game_id, (form.key.data or "").strip())
        if outcome is keyring.HandOverOutcome.TAKEN:
            flash(gettext("This phone can now enter the score."), "ok")
            return redirect(url_for("web.game", game_id=game_id), code=303)
        count_wrong_secret("take", game_id)
        error = gettext(TAKE_REFUSED[outcome])
    status = 403 if error else (422 if request.method == "POST" else 200)
    response = make_response(
        render_template("web/take.html", game=game_view(game, pencil=False), form=form, error=error),
        status,
    )
    response.headers["Cache-Control"] = "no-store"
    return response
