"""A game for a page, read through the one loader, and what every page write shares.

A write view checks that this phone holds the game's pencil (one cheap query: the game's version
and this phone's pencil, ``access.version_and_pencil``) and that the form is whole, then calls the
service, which locks, reads and writes the game.  The view reads the game only to draw a refusal.

A page form's write is applied once, by the Idempotency-Key the server drew into the form: the key
and the page's answer (where it leads, what it says) are stored with the change in the store the
API's keys use (``services.Once``): the same form posted again, a double tap or a post whose answer
was lost and that the phone sends again, gets that answer and changes nothing.  The first post and
a re-send are answered by one function (``answered``); ``PageWrite.save`` makes the write and answers it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, current_app, flash, make_response, redirect, render_template, request, session
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from .. import services
from ..access import holds_pencil, version_and_pencil
from ..errors import Refusal, refusal
from ..rules import N_
from ..services import Once, Replayed, Snapshot, Written

#: The refusal of a form that arrived without a field it needs (a tampered or truncated post).
INCOMPLETE = N_("The form was incomplete; try again.")

#: Draws the form's page again with a refusal: the game to draw it from, and the refusal.
Redraw = Callable[[Snapshot, Refusal], ResponseReturnValue]


def snapshot_or_404(game_id: str) -> Snapshot:
    """The game from the one loader, or the 404 page."""
    try:
        return services.snapshot(game_id)
    except Refusal:
        abort(404)


def require_pencil(game: Snapshot) -> None:
    """Go on only if this browser holds the game's edit key; otherwise the read-only page (403)."""
    if not holds_pencil(game.id):
        read_only()


def read_only() -> None:
    """Answer with the read-only page (403): this phone watches the game."""
    abort(
        make_response(
            render_template(
                "errors/error.html",
                status=403,
                title=gettext("Read-only"),
                message=gettext(
                    "This phone can watch this game but not change it. "
                    "Ask the scorer for the hand-over link to take the pencil."
                ),
            ),
            403,
        )
    )


@dataclass(frozen=True)
class PageWrite:
    """A write view past its opening: the game's id, and how to show a refusal."""

    game_id: str
    redraw: Redraw

    def refused(self, error: Refusal) -> ResponseReturnValue:
        """The form's page again with ``error``, drawn from the game as it is now (the write that
        refused it changed nothing), so that it shows what the message speaks of."""
        return self.redraw(snapshot_or_404(self.game_id), error)

    def save(
        self, save: Callable[[Once | None], Written], location: str, says: Callable[[Written], Flashes]
    ) -> ResponseReturnValue:
        """Make the write ``save`` (``write_once``, by the posted form's key) and answer it: a redirect
        to ``location`` with what ``says`` flashes, the first answer again for a form posted again
        (a double tap, a lost answer), or the form's page again with a refusal."""
        once = page_once(self.game_id, location, says)
        try:
            written = write_once(save, once)
        except Replayed as replayed:
            return answered(replayed.status, replayed.body)
        except Refusal as refused:
            return self.refused(refused)
        if once is not None and once.given is not None:  # the answer its key keeps
            return answered(*once.given)
        return answered(303, json.dumps({"location": location, "flashes": says(written)}))


def open_write(game_id: str, form: FlaskForm, redraw: Redraw, *, complete: bool = True) -> PageWrite:
    """Check this phone's pencil and the form; or answer for the view.

    A missing game is the 404 page, a browser without the pencil the read-only page (403),
    and a form that does not validate (CSRF) or is not ``complete`` is drawn again with
    the ``form`` refusal (422).  Otherwise the view goes on to the write; the game is not read.
    """
    known = version_and_pencil(game_id)
    if known is None:
        abort(404)
    if not known[1]:
        read_only()
    if not form.validate_on_submit() or not complete:
        abort(make_response(redraw(snapshot_or_404(game_id), refusal("form", INCOMPLETE))))
    return PageWrite(game_id, redraw)


#: What a write's answer says: its flashed messages, as (category, message).
Flashes = list[tuple[str, str]]


def page_once(game_id: str, location: str, says: Callable[[Written], Flashes]) -> Once | None:
    """The posted form's key as a ``services.Once`` (None for a form without one).

    The request is the form's address and fields, but for its CSRF token (a form is the same
    change whatever session posts it) and the key itself; its answer: a 303 to ``location``
    with the messages ``says`` gives.
    """
    key = request.form.get("idempotency_key")
    if not key:
        return None
    token = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    fields = sorted(
        (name, value)
        for name, value in request.form.items(multi=True)
        if name not in (token, "idempotency_key")
    )
    fingerprint = services.fingerprint(request.method, request.path, json.dumps(fields).encode())

    def answer(written: Written) -> tuple[int, str]:
        return 303, json.dumps({"location": location, "flashes": says(written)})

    return Once(game_id, key, fingerprint, answer)


def answered(status: int, body: str) -> Response:
    """The page's answer to a deal form, first or again: its messages flashed (each once: a double
    tap's first answer may not be read yet) and its redirect."""
    first = json.loads(body)
    waiting = [tuple(pair) for pair in session.get("_flashes", [])]
    for category, message in first["flashes"]:
        if (category, message) not in waiting:
            flash(message, category)
    return redirect(first["location"], code=status)


def write_once(save: Callable[[Once | None], Written], once: Once | None) -> Written:
    """``save(once)``; a form whose key already took other values (an older copy of the page, as
    the browser's Back button shows it) is a change of its own, judged afresh without the key."""
    try:
        return save(once)
    except Refusal as refused:
        if once is None or refused.code != "idempotency_key_reused":
            raise
        return save(None)
