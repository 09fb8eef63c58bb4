"""The API's deal writes for the game page's own script, authorised by the phone's keyring.

The scorer's phone holds the game's pencil in its keyring on the server, named by its
HTTP-only device cookie (``scorekeeper.access``); the page never sees a key.  Deals entered
while the phone was offline are sent here when it is back, with the API's own bodies, answers and guards: the
deal ``number`` on a new deal, ``If-Match``, ``Idempotency-Key`` (the same key here and on the
API's route is the same request), ``?dry_run=true``.  The keyring
stands for the bearer key, and the views are the API's.

No CSRF token: the device cookie is ``SameSite=Lax`` (never sent with another site's POST, PUT
or DELETE), the writes take only ``application/json`` (which another site cannot send here
without a preflight this app never allows), and a browser's ``Sec-Fetch-Site`` other than
``same-origin`` is refused.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from .. import services
from ..access import device, version_and_pencil
from ..errors import not_found, refusal
from ..rules import N_, Refusal
from ..services import Replayed
from . import routes, writes

bp = Blueprint("page_api", __name__, url_prefix="/games/<game_id>/sync")
bp.register_error_handler(Refusal, routes.refusal_answer)
bp.register_error_handler(Replayed, routes.replayed_answer)


def authorised(game_id: str) -> services.Stamp:
    """The game's stamp, once this phone's keyring is shown to hold it (401 without one, 403), from
    this site only: one query, as the game page's own forms check the pencil.  The stamp names no
    key (the keyring stands for it), so the write checks none."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site != "same-origin":
        raise refusal("bad_key", "Only the game's own page may send its deals here.", None)
    known = version_and_pencil(game_id)
    if known is None:
        raise not_found()
    if device() is None:
        raise refusal(
            "auth_required", N_("Changing a game needs its edit key: Authorization: Bearer <key>."), None
        )
    version, pencil = known
    if not pencil:
        raise services.bad_key()
    return services.Stamp(version, "")


@bp.post("/deals")
def record_deal(game_id: str) -> Response:
    """As ``POST /api/v1/games/<id>/deals``."""
    return writes.record(game_id, authorised(game_id))


@bp.put("/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> Response:
    """As ``PUT /api/v1/games/<id>/deals/<number>``."""
    return writes.correct(game_id, number, authorised(game_id))


@bp.patch("/deals")
def correct_deals(game_id: str) -> Response:
    """As ``PATCH /api/v1/games/<id>/deals``."""
    return writes.correct_several(game_id, authorised(game_id))


@bp.delete("/deals/<int:number>")
def undo_deal(game_id: str, number: int) -> Response:
    """As ``DELETE /api/v1/games/<id>/deals/<number>``."""
    return writes.undo(game_id, number, authorised(game_id))
