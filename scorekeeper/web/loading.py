"""A game for a page: read through the one loader, and the opening every write view repeats.

A write view reads the game (``services.get_game``), checks that this phone holds its pencil
and that the form is whole, then calls the service, which locks the game and writes.  A
refused write shows the form again, drawn from the game as the view read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf import FlaskForm

from .. import services
from ..access import can_edit
from ..errors import Kind, Refusal, kind_of, refusal
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
    """A write view past its opening: the game as read (once), and how to show a refusal."""

    game: Snapshot
    redraw: Redraw

    def refused(self, error: Refusal) -> ResponseReturnValue:
        """The form's page again with ``error``, drawn from the snapshot the write was refused on.

        A conflict (the table moved on, 409) may have been found on a newer state than
        the snapshot (the write re-reads when it loses a race), so that page is drawn
        from a fresh read, and shows what the message speaks of.
        """
        if kind_of(error.code) is Kind.CONFLICT:
            return self.redraw(load_game(self.game.id), error)
        return self.redraw(self.game, error)


def open_write(game_id: str, form: FlaskForm, redraw: Redraw, *, complete: bool = True) -> PageWrite:
    """Load the game, require the editor's key, validate the form; or answer for the view.

    A missing game is the 404 page, a browser without the key the read-only page (403),
    and a form that does not validate (CSRF) or is not ``complete`` is drawn again with
    the ``form`` refusal (422).  Otherwise the view goes on with the game it read.
    """
    game = load_game(game_id)
    require_editor(game)
    if not form.validate_on_submit() or not complete:
        abort(make_response(redraw(game, refusal("form", INCOMPLETE))))
    return PageWrite(game, redraw)
