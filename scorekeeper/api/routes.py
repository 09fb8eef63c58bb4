"""JSON API v1 views (../shared/API.md): parse the body, check the key, call a service, serialise.

Every game rule is the engine's, reached through ``services``; the views only
check the *shape* of a request (a JSON object with known fields) and who may
write.  Every refusal is a ``Refusal`` (``scorekeeper.errors``) turned into the
contract's error body by one handler, with the status the registry gives its code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask import Response, current_app, make_response, request, url_for

from .. import pagecache, services, transfer
from ..access import bearer_key
from ..errors import not_found, refusal, status_for
from ..extensions import limiter
from ..rules import RULESETS, Refusal, RuleError
from ..services import Snapshot
from . import bp
from .errors import error_body
from .openapi import openapi_document
from .serialize import deal_json, game_json, ruleset_json, state_json

CREATE_FIELDS = ("ruleset", "players", "first_dealer", "options")
RECORD_FIELDS = ("number", "contract", "bids", "tricks")
CORRECT_FIELDS = ("contract", "bids", "tricks")
CORRECT_MANY_FIELDS = ("deals",)

ETAG_RE = re.compile(r"v(\d{1,18})")


@bp.errorhandler(Refusal)
def refusal_answer(error: Refusal) -> tuple[Response, int]:
    """Any refusal, from the engine, a service or a view: the contract's error body."""
    response, status = error_body(error.code, error.message, error.field, status_for(error.code))
    if error.code == "auth_required":
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    elif error.code == "bad_key":
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper", error="invalid_token"'
    return response, status


# -- request parsing -------------------------------------------------------------------------


class _NotPerPlayer:
    """A JSON array or scalar where an object keyed by player name belongs.

    The engine would read a list in seat order; the API speaks names only, so
    such a value is handed over as this opaque token and the engine refuses it
    with its own code (``tricks_players``, ``bids_required``, ``bids_not_allowed``).
    """


NOT_PER_PLAYER = _NotPerPlayer()


def _per_player(value: Any) -> Any:
    return value if value is None or isinstance(value, dict) else NOT_PER_PLAYER


def json_object(allowed: tuple[str, ...]) -> dict[str, Any]:
    """The request body as a JSON object whose fields are all in ``allowed``.

    Refuses (400 ``bad_json``) a body that is not ``application/json``, not
    valid JSON, or not an object, and (422 ``unknown_field``) any other field.
    A body over the size limit never gets here: reading it answers 413.
    """
    if not request.is_json:
        raise refusal("bad_json", "Send a JSON object with Content-Type: application/json.", None)
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        # ValueError covers bad syntax, bad UTF-8 and integers too long to convert.
        raise refusal("bad_json", "The request body is not valid JSON.", None) from None
    if not isinstance(body, dict):
        raise refusal("bad_json", "The request body must be a JSON object.", None)
    for key in body:
        if key not in allowed:
            raise refusal(
                "unknown_field",
                f"Unknown field {key[:40]!r}; this call takes {', '.join(allowed)}.",
                key[:40],
            )
    return body


def authorised(game_id: str) -> services.Snapshot:
    """The game (404 if there is none), once the bearer key is shown to be its edit key (401, 403).

    The same query reads what the write then needs, so the write does not read again.
    """
    return services.authorised_snapshot(game_id, bearer_key(request))


def expected_version() -> int | None:
    """The game version an ``If-Match`` header insists on (None without the header).

    A tag that is not one of ours can match no version, so it becomes -1 and the
    service answers ``stale``.
    """
    if_match = request.if_match
    if not request.headers.get("If-Match") or if_match.star_tag:
        return None
    for tag in if_match.as_set():
        # Werkzeug reads an empty tag ("") as None; like any tag not ours, it matches no version.
        match = ETAG_RE.fullmatch(tag or "")
        if match:
            return int(match.group(1))
    return -1


def dry_run() -> bool:
    """Whether ``?dry_run=true`` asks for a preview: checked and scored, nothing stored.

    Only ``true`` and ``false`` are understood; anything else (a typo) is refused with
    400 ``bad_query`` rather than taken for a real write.
    """
    value = request.args.get("dry_run")
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise refusal("bad_query", "dry_run must be true or false.", "dry_run")


def _changes(body: Mapping[str, Any]) -> dict[str, Any]:
    """A correction's fields as the service takes them (per-player values as ``_per_player``)."""
    return {
        field: (_per_player(value) if field in ("bids", "tricks") else value) for field, value in body.items()
    }


def json_body(payload: Any) -> str:
    """``payload`` as JSON text, keys in the order built (per-player maps in seat order)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"


def json_response(payload: Any, status: int = 200) -> Response:
    """``payload`` as a JSON response."""
    return current_app.response_class(json_body(payload), status=status, mimetype="application/json")


def etag(version: int) -> str:
    return f"v{version}"


def no_cache(response: Response) -> Response:
    """Clients may keep a copy but must revalidate it (If-None-Match) every time."""
    response.headers["Cache-Control"] = "no-cache"
    return response


# -- views ---------------------------------------------------------------------------------------


@bp.get("/rulesets")
def rulesets() -> Response:
    """200: every ruleset with its contracts, player and deal counts, and options."""
    return json_response({"rulesets": [ruleset_json(ruleset) for ruleset in RULESETS.values()]})


@bp.get("/openapi.json")
def openapi() -> Response:
    """200: the OpenAPI 3.1 document describing this API."""
    return json_response(openapi_document())


def game_create_rate_limit() -> str:
    """Games one client address may create (config ``GAME_CREATE_RATE_LIMIT``); over it: 429 rate_limited."""
    return str(current_app.config["GAME_CREATE_RATE_LIMIT"])


# One budget for every way of creating a game (create and import), per client address.
limit_game_creation = limiter.shared_limit(game_create_rate_limit, scope="game_creation")


@bp.post("/games")
@limit_game_creation
def create_game() -> Response:
    """201: a new game's state plus its ``edit_key`` (shown only here), with a Location header."""
    body = json_object(CREATE_FIELDS)
    options = body.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise RuleError(
            "invalid_options", 'Options must be an object, e.g. {"scoring": "variant"}.', "options"
        )
    ruleset = body.get("ruleset")
    loaded, key = services.create_game(
        "mizerka" if ruleset is None else ruleset,
        body.get("players", ()),  # the engine refuses anything but a list of names
        body.get("first_dealer"),
        options,
    )
    return created(loaded, key)


def created(loaded: Snapshot, key: str) -> Response:
    """201 with a new game's state, its edit key and a Location header."""
    location = url_for("api.game", game_id=loaded.id)
    response = json_response({**game_json(loaded), "edit_key": key}, 201)
    response.headers["Location"] = location
    response.headers["Cache-Control"] = "no-store"  # the edit key is a secret
    return response


@bp.post("/games/import")
@limit_game_creation
def import_game() -> Response:
    """201: a new game (new id, new edit key) from an export, every deal replayed; like create.

    A file that breaks a rule or is not an export is refused (422) and nothing is stored.
    """
    body = json_object(transfer.FIELDS)
    loaded, key = transfer.import_game(body)
    return created(loaded, key)


@bp.get("/games/<game_id>")
def game(game_id: str) -> Response:
    """200: the whole game state with an ETag; 304 when ``If-None-Match`` holds the current one."""
    version = services.game_version(game_id)
    if version is None:
        raise not_found()
    if request.if_none_match.contains(etag(version)):
        response = make_response("", 304)
        response.set_etag(etag(version))
        return no_cache(response)
    # The state of one version never changes: kept per worker (see pagecache), no session involved.
    key = ("api-game", game_id, version)
    body = pagecache.cached(key)
    if body is None:
        body = json_body(game_json(services.get_game(game_id)))
        pagecache.keep(key, body)
    response = current_app.response_class(body, status=200, mimetype="application/json")
    response.set_etag(etag(version))
    return no_cache(response)


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    """200: the game's facts (format ``scorekeeper-game``, version 1), the body ``/games/import`` takes."""
    return no_cache(json_response(transfer.export_game(services.get_game(game_id))))


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Response:
    """201: the next deal recorded (pending without ``tricks``); answers with the deal.

    ``?dry_run=true``: 200 with the deal as it would be recorded, nothing stored.
    """
    seen = authorised(game_id)
    body = json_object(RECORD_FIELDS)
    preview = dry_run()
    written = services.record_deal(
        game_id,
        seen=seen,
        dry_run=preview,
        number=body.get("number"),
        contract=body.get("contract"),
        bids=_per_player(body.get("bids")),
        tricks=_per_player(body.get("tricks")),
    )
    assert written.deal is not None
    return json_response(deal_json(written.setup, written.deal), 200 if preview else 201)


@bp.put("/games/<game_id>/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> Response:
    """200: a recorded deal completed or corrected, the whole game re-validated by replay.

    Only the fields present change; ``"tricks": null`` makes the last deal pending again.
    ``?dry_run=true``: the same answer, nothing stored.
    """
    seen = authorised(game_id)
    body = json_object(CORRECT_FIELDS)
    written = services.update_deal(
        game_id, number, expected_version=expected_version(), seen=seen, dry_run=dry_run(), **_changes(body)
    )
    assert written.deal is not None
    return json_response(deal_json(written.setup, written.deal))


@bp.patch("/games/<game_id>/deals")
def correct_deals(game_id: str) -> Response:
    """200: several recorded deals corrected at once, replayed together; answers the whole game state.

    Any refusal changes nothing.  ``?dry_run=true``: the same answer, nothing stored.
    """
    seen = authorised(game_id)
    body = json_object(CORRECT_MANY_FIELDS)
    items = body.get("deals")
    if not isinstance(items, list) or not items:
        raise refusal("invalid_deals", "Give the deals to correct as a list, each with its number.", "deals")
    corrections = []
    for item in items:
        if not isinstance(item, dict):
            raise refusal(
                "invalid_deals", "Each correction must be an object with the deal's number.", "deals"
            )
        corrections.append(_changes(item))  # the service refuses a field it does not take
    written = services.correct_deals(
        game_id, corrections, expected_version=expected_version(), seen=seen, dry_run=dry_run()
    )
    return json_response(state_json(game_id, written.setup, written.state))


@bp.delete("/games/<game_id>/deals/<int:number>")
def undo_deal(game_id: str, number: int) -> tuple[str, int]:
    """204: the last recorded deal removed; any other deal is ``409 not_last_deal``."""
    seen = authorised(game_id)
    services.undo_deal(game_id, number, expected_version=expected_version(), seen=seen)
    return "", 204
