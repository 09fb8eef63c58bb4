"""The API's deal writes for the game page's own script, authorised by the page's key cookie.

The scorer's phone holds the game's edit key in an HTTP-only cookie sent to the game's pages
(``/games/<id>``) only; the page never sees the key.  Deals entered while the phone was
offline are sent here when it is back, with the API's own bodies, answers and guards: the
deal ``number`` on a new deal, ``If-Match``, ``Idempotency-Key`` (the same key here and on the
API's route is the same request), ``?dry_run=true``.  The cookie is
the bearer key, and the views are the API's.

No CSRF token: the key cookie is ``SameSite=Lax`` (never sent with another site's POST, PUT
or DELETE), the writes take only ``application/json`` (which another site cannot send here
without a preflight this app never grants), and a browser's ``Sec-Fetch-Site`` other than
``same-origin`` is refused.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from .. import services
from ..access import page_key
from ..errors import refusal
from ..rules import Refusal
from ..services import Replayed
from . import routes

bp = Blueprint("page_api", __name__, url_prefix="/games/<game_id>/sync")
bp.register_error_handler(Refusal, routes.refusal_answer)
bp.register_error_handler(Replayed, routes.replayed_answer)


def authorised(game_id: str, *, trusted: bool = False) -> services.Snapshot:
    """The game, once the page's key cookie is shown to be its edit key (401, 403), from this site only.

    ``trusted``: as ``routes.authorised``.
    """
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site != "same-origin":
        raise refusal("bad_key", "Only the game's own page may send its deals here.", None)
    trusted = routes.kept_copy_will_do(trusted)
    return services.authorised_snapshot(game_id, page_key(request, game_id), trusted=trusted)


@bp.post("/deals")
def record_deal(game_id: str) -> Response:
    """As ``POST /api/v1/games/<id>/deals``."""
    return routes.record(game_id, authorised(game_id, trusted=True))


@bp.put("/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> Response:
    """As ``PUT /api/v1/games/<id>/deals/<number>``."""
    return routes.correct(game_id, number, authorised(game_id, trusted=True))


@bp.delete("/deals/<int:number>")
def undo_deal(game_id: str, number: int) -> Response:
    """As ``DELETE /api/v1/games/<id>/deals/<number>``."""
    return routes.undo(game_id, number, authorised(game_id))
