"""A night's and a season's pencil handed over to another phone: the one-time link made on the
holding phone, and the page that takes it (the code in the link's fragment), as a game's is
(``web/games/pencil.py``).  The two kinds differ in their words and pages alone: ``kind`` says which
(``keyring.NIGHT``, ``keyring.SEASON``), ``page`` is what their templates are drawn with (``night=``
or ``season=``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, current_app, flash, make_response, redirect, render_template
from flask_babel import gettext
from werkzeug.wrappers import Response

from ... import access
from ...services import keyring
from ..attempts import count_wrong_secret
from ..games.forms import TakeForm
from ..games.sharing import ShareLink, qr_svg
from .forms import ActionForm


def hand_over(kind: keyring.Held, owner_id: str, take_address: str, **page: Any) -> Response:
    """The page with a new one-time link to ``take_address`` (and its QR code), for the phone holding
    the pencil (the caller has checked); 400 without the form's token."""
    if not ActionForm().validate_on_submit():
        abort(400)
    link = take_address + "#" + access.new_club_hand_over(kind, owner_id)
    seconds = int(current_app.config["HAND_OVER_SECONDS"])
    drawn = render_template(
        "web/nights/hand_over.html",
        link=ShareLink(link, qr_svg(link)),
        minutes=max(1, (seconds + 59) // 60),
        **page,
    )
    return _no_store(make_response(drawn))


def take(
    kind: keyring.Held,
    owner_id: str,
    *,
    taken: str,
    landing: str,
    refused: Mapping[keyring.HandOverOutcome, str],
    **page: Any,
) -> Response | Any:
    """The link's landing page: its form sends the code; taken, the phone holds the pencil and goes to
    ``landing`` with ``taken`` said; refused (used, expired, another's code: ``refused``'s message by
    outcome), 403 with the message, and the wrong code counted as a wrong secret."""
    form = TakeForm()
    error = None
    if form.validate_on_submit():
        outcome = access.take_club_hand_over(kind, owner_id, (form.key.data or "").strip())
        if outcome is keyring.HandOverOutcome.TAKEN:
            flash(taken, "ok")
            return redirect(landing, code=303)
        count_wrong_secret("take", owner_id)
        error = gettext(refused[outcome])
    status = 403 if error else (422 if form.is_submitted() else 200)
    return _no_store(
        make_response(render_template("web/nights/take.html", form=form, error=error, **page), status)
    )


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response
