"""JSON API v1 views (../shared/API.md): parse the body, check the key, call a service, serialise.

Every game rule is the engine's, reached through ``services``; the views only
check the *shape* of a request (its model in ``shapes``: a JSON object with known
fields) and who may write, and answer with the models ``serialize`` builds.
Every refusal is a ``Refusal`` (``scorekeeper.errors``) turned into the
contract's error body by one handler, with the status the registry gives its code.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from flask import Response, current_app, make_response, request, url_for
from pydantic import BaseModel, ValidationError

from .. import caching, services, transfer
from ..errors import not_found, refusal, status_for
from ..extensions import limit_game_creation
from ..messages import say
from ..rules import N_, Refusal, default_ruleset
from ..services import Replayed, Snapshot
from . import bp, shapes
from .errors import error_body
from .openapi import openapi_document
from .serialize import created_body, game_body, rulesets_body

Body = TypeVar("Body", bound=shapes.Request)


@bp.errorhandler(Refusal)
def refusal_answer(error: Refusal) -> tuple[Response, int]:
    """Any refusal, from the engine, a service or a view: the contract's error body.

    The message is in English, or in the language the client asks for with ``Accept-Language``.
    """
    response, status = error_body(error.code, say(error), error.field, status_for(error.code))
    if error.code == "auth_required":
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    elif error.code == "bad_key":
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper", error="invalid_token"'
    return response, status


@bp.errorhandler(Replayed)
def replayed_answer(replayed: Replayed) -> Response:
    """A deal write whose ``Idempotency-Key`` was already applied: the answer it got then, again."""
    response = current_app.response_class(
        replayed.body, status=replayed.status, mimetype="application/json" if replayed.body else None
    )
    response.headers["Idempotent-Replayed"] = "true"
    return response


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


def parse_body(shape: type[Body]) -> Body:
    """The request body as ``shape`` (a model of ``shapes``): a JSON object with its fields only.

    Refuses (400 ``bad_json``) a body that is not ``application/json``, not valid
    JSON, or not an object; (422 ``unknown_field``) a field the shape does not have;
    and a field whose value has the wrong shape with the refusal the shape names.
    Values the rules judge come through as sent, for the engine to refuse.  A body
    over the size limit never gets here: reading it answers 413.
    """
    if not request.is_json:
        raise refusal("bad_json", N_("Send a JSON object with Content-Type: application/json."), None)
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        # ValueError covers bad syntax, bad UTF-8 and integers too long to convert.
        raise refusal("bad_json", N_("The request body is not valid JSON."), None) from None
    if not isinstance(body, dict):
        raise refusal("bad_json", N_("The request body must be a JSON object."), None)
    try:
        return shape.model_validate(body)
    except ValidationError as invalid:
        raise shape_refusal(shape, invalid) from None


def shape_refusal(shape: type[shapes.Request], invalid: ValidationError) -> Refusal:
    """The refusal for a body ``shape`` does not fit: an unknown field first, else the field's own."""
    errors = invalid.errors()
    # (where, name) of each unknown field; a name that is not valid Unicode (a lone surrogate,
    # which JSON allows) cannot even be compared with the field names, so it is unknown too.
    unknown = [
        (error["loc"][:-1], str(error["loc"][-1])) for error in errors if error["type"] == "extra_forbidden"
    ]
    unknown += [(error["loc"], str(error["input"])) for error in errors if error["type"] == "string_unicode"]
    if unknown:
        where, name = min(unknown, key=lambda found: len(found[0]))
        fields = ", ".join(shapes.fields_at(shape, where))
        return refusal(
            "unknown_field",
            N_("Unknown field %(given)s; this call takes %(fields)s."),
            name[:40],
            given=repr(name[:40]),
            fields=fields,
        )
    field = str(errors[0]["loc"][0])
    code, message = shape.shape_refusals[field]
    return refusal(code, message, field)


def given(body: shapes.Request) -> dict[str, Any]:
    """The fields the request gave (absent ones left out), values as sent."""
    return {name: getattr(body, name) for name in type(body).model_fields if name in body.model_fields_set}


def json_body(payload: BaseModel | dict[str, Any]) -> str:
    """``payload`` (a model of ``shapes``, or the OpenAPI document) as JSON text.

    Keys come in the order declared and built (per-player maps in seat order).  A field left unset
    is left out: a game's facts are set on its own deals alone.
    """
    plain = payload.model_dump(exclude_unset=True) if isinstance(payload, BaseModel) else payload
    return json.dumps(plain, ensure_ascii=False, separators=(",", ":")) + "\n"


def json_response(payload: BaseModel | dict[str, Any], status: int = 200) -> Response:
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
    return json_response(rulesets_body())


@bp.get("/openapi.json")
def openapi() -> Response:
    """200: the OpenAPI 3.1 document describing this API."""
    return json_response(openapi_document())


@bp.post("/games")
@limit_game_creation
def create_game() -> Response:
    """201: a new game's state plus its ``edit_key`` (shown only here), with a Location header."""
    body = parse_body(shapes.CreateGame)
    loaded, key = services.create_game(
        default_ruleset().id if body.ruleset is None else body.ruleset,
        # The engine refuses anything but a list of names (an absent list is an empty one).
        body.players if "players" in body.model_fields_set else (),
        body.first_dealer,
        body.options,
    )
    return created(loaded, key)


def created(loaded: Snapshot, key: str) -> Response:
    """201 with a new game's state, its edit key and a Location header."""
    location = url_for("api.game", game_id=loaded.id)
    response = json_response(created_body(loaded, key), 201)
    response.headers["Location"] = location
    response.headers["Cache-Control"] = "no-store"  # the edit key is a secret
    return response


@bp.post("/games/import")
@limit_game_creation
def import_game() -> Response:
    """201: a new game (new id, new edit key) from an export, every deal replayed; like create.

    A file that breaks a rule or is not an export is refused (422) and nothing is stored.
    """
    loaded, key = transfer.import_game(given(parse_body(shapes.GameExport)))
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
    # The state of one version never changes: cached by the game's id and version (``caching``).
    body = caching.cached(("api-game", game_id, version))
    if body is None:
        loaded = services.snapshot(game_id)
        body = json_body(game_body(loaded))
        caching.put(("api-game", game_id, loaded.version), body)
    response = current_app.response_class(body, status=200, mimetype="application/json")
    response.set_etag(etag(version))
    return no_cache(response)


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    """200: the game's facts (format ``scorekeeper-game``, version 1), the body ``/games/import`` takes."""
    return no_cache(json_response(transfer.export_game(services.snapshot(game_id))))
