"""A game for a page: read through the one loader, and the opening every write view repeats.

A write view checks that this phone holds the game's pencil (one cheap query: the game's version
and this phone's grant, ``access.version_and_editable``) and that the form is whole, then calls the
service, which locks, reads and writes the game.  The view reads the game only to draw a refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf import FlaskForm

from .. import services
from ..access import can_edit, version_and_editable
from ..errors import Refusal, refusal
from ..rules import N_
from ..services import Snapshot

#: The refusal of a form that arrived without a field it needs (a tampered or truncated post).
INCOMPLETE = N_("The form was incomplete; try again.")

#: Draws the form's page again with a refusal: the game to draw it from, and the refusal.
Redraw = Callable[[Snapshot, Refusal], ResponseReturnValue]


def load_game(game_id: str) -> Snapshot:
    """The game from the one loader, or the 404 page."""
    try:
        return services.get_game(game_id)
    except Refusal:
        abort(404)


def require_editor(game: Snapshot) -> None:
    """Go on only if this browser holds the game's edit key; otherwise the read-only page (403)."""
    if not can_edit(request, game):
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
        return self.redraw(load_game(self.game_id), error)


def open_write(game_id: str, form: FlaskForm, redraw: Redraw, *, complete: bool = True) -> PageWrite:
    """Check this phone's pencil and the form; or answer for the view.

    A missing game is the 404 page, a browser without the pencil the read-only page (403),
    and a form that does not validate (CSRF) or is not ``complete`` is drawn again with
    the ``form`` refusal (422).  Otherwise the view goes on to the write; the game is not read.
    """
    known = version_and_editable(game_id)
    if known is None:
        abort(404)
    if not known[1]:
        read_only()
    if not form.validate_on_submit() or not complete:
        abort(make_response(redraw(load_game(game_id), refusal("form", INCOMPLETE))))
    return PageWrite(game_id, redraw)
