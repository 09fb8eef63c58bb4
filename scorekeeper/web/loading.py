"""A game for a page: read once, through the one loader, and the opening every write view repeats.

A write view reads the game once (``services.snapshot_for_write``: one query, or one cheap
one when this worker's last write to the game left it as it is, or none for recording a
deal or its tricks), checks this browser's edit key against what that read found, checks
the form, and hands the same snapshot to the service (``seen=``), which claims the game
only if nobody wrote since.  A refused write shows the form again, drawn from that
snapshot once it is known to be the game: the same statements as the API.
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


def load_game(game_id: str, *, to_write: bool = False, trusted: bool = False) -> Snapshot:
    """The game from the one loader, or the 404 page.

    ``to_write``: the game as a write starts from it (``services.snapshot_for_write``, which
    may hand out this worker's kept copy unread when ``trusted``).
    """
    try:
        if to_write:
            return services.snapshot_for_write(game_id, trusted=trusted)
        return services.get_game(game_id)
    except Refusal:
        abort(404)


def checked(game: Snapshot) -> Snapshot:
    """``game`` known to be the game as it is (``services.checked``), or the 404 page."""
    try:
        return services.checked(game)
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
        return self.redraw(checked(self.game), error)


def open_write(
    game_id: str, form: FlaskForm, redraw: Redraw, *, complete: bool = True, trusted: bool = False
) -> PageWrite:
    """Load the game, require the editor's key, validate the form; or answer for the view.

    A missing game is the 404 page, a browser without the key the read-only page (403),
    and a form that does not validate (CSRF) or is not ``complete`` is drawn again with
    the ``form`` refusal (422).  Otherwise the view goes on with the game it read.
    ``trusted``: the write needs nothing else from the game (recording a deal, its tricks),
    so it may start from this worker's kept copy unread; a key that copy refuses is
    checked again on the game as it is.
    """
    game = load_game(game_id, to_write=True, trusted=trusted)
    if not game.checked and not can_edit(request, game):
        game = checked(game)
    require_editor(game)
    if not form.validate_on_submit() or not complete:
        abort(make_response(redraw(checked(game), refusal("form", INCOMPLETE))))
    return PageWrite(game, redraw)
