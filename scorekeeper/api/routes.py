"""JSON API v1 views (../shared/API.md): parse the body, check the key, call a service, serialise.

Every game rule is the engine's, reached through ``services``; the views only
check the *shape* of a request (its model in ``shapes``: a JSON object with known
fields) and who may write, and answer with the models ``serialize`` builds.
Every refusal is a ``Refusal`` (``scorekeeper.errors``) turned into the
contract's error body by one handler, with the status the registry gives its code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, make_response, request, url_for
from pydantic import BaseModel, ValidationError

from .. import caching, services, transfer
from ..access import bearer_key
from ..errors import not_found, refusal, status_for
from ..extensions import limit_game_creation
from ..messages import say
from ..rules import N_, Refusal
from ..services import Once, Replayed, Snapshot, Written
from . import bp, shapes
from .errors import error_body
from .openapi import openapi_document
from .serialize import created_body, deal_body, game_body, rulesets_body, state_body

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


def authorised(game_id: str, *, trusted: bool = False) -> services.Snapshot:
    """The game (404 if there is none), once the bearer key is shown to be its edit key (401, 403).

    The same query reads what the write then needs, so the write does not read again.
    ``trusted``: see ``kept_copy_will_do``.
    """
    return services.authorised_snapshot(game_id, bearer_key(request), trusted=kept_copy_will_do(trusted))


def kept_copy_will_do(trusted: bool) -> bool:
    """Whether a write (``trusted``: one that needs nothing else from the game) may start from
    this worker's kept copy unread (``services.snapshot_for_write``): never with ``If-Match``,
    whose version must be the game's own.  (With an ``Idempotency-Key``, the key's look-up
    reads the game's row too: ``once``.)"""
    return trusted and not request.headers.get("If-Match")


def expected_version(seen: services.Snapshot) -> int | None:
    """The game version an ``If-Match`` header insists on (None without the header).

    RFC 9110: the condition holds when any listed tag is the current one (strong
    comparison, so a weak ``W/"v3"`` never does) or the header is ``*`` (the game
    exists, or ``authorised`` would have answered 404).  Then the write must still
    find the version read here; otherwise no version can match, and the service
    answers ``stale``.
    """
    if not request.headers.get("If-Match"):
        return None
    return seen.version if request.if_match.contains(etag(seen.version)) else -1


def dry_run() -> bool:
    """Whether ``?dry_run=true`` asks for a preview: checked and scored, nothing stored.

    Only ``true`` and ``false`` are understood, and ``dry_run`` is the only query
    parameter a write takes; anything else (a typo such as ``?dry-run=true``, or the
    parameter twice) is refused with 400 ``bad_query`` rather than taken for a real write.
    """
    for name in request.args:
        if name != "dry_run":
            raise refusal(
                "bad_query",
                N_("Unknown query parameter %(given)s; this call takes dry_run."),
                name[:40],
                given=repr(name[:40]),
            )
    values = request.args.getlist("dry_run")
    value = values[0] if len(values) == 1 else (None if not values else "")
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise refusal("bad_query", N_("dry_run must be true or false."), "dry_run")


#: What a deal write answers once made: its status and body (as sent).
Answer = Callable[[Written], tuple[int, str]]


def once(
    game_id: str, path: str, answer: Answer, seen: Snapshot, *, preview: bool = False
) -> tuple[Once | None, Snapshot]:
    """The request's ``Idempotency-Key`` (None without one, or for a dry run), once it is new, and
    the snapshot the write starts from (``seen``, the game as read when the edit key was shown).

    Called once the edit key is shown and before the request is judged.  The key's look-up
    reads the game's row too: the edit key shown must still be the game's before any kept
    answer is given, and a kept copy still the game is then known to be so
    (``services.keyed_start``).  ``path``: the write's path within the game (``deals``,
    ``deals/3``), so that the API's route and the game page's (``/games/<id>/sync/``) are the
    same request.  A key not 1-64 characters of A-Z a-z 0-9 - _
    is 400 ``bad_idempotency_key`` (a dry run's too, as the real call's would be); a key this
    game already took raises ``Replayed`` (the same request: its first answer again) or
    422 ``idempotency_key_reused`` (another request).  A dry run neither reads nor keeps keys.
    """
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None, seen
    key = services.valid_key(key)
    if preview:
        return None, seen
    fingerprint = services.fingerprint(request.method, path, request.get_data(cache=True))
    kept = Once(game_id, key, fingerprint, answer)
    return kept, services.keyed_start(seen, kept)


def answered(answer: Answer, written: Written, kept: Once | None) -> Response:
    """The answer of a write just made (the one its key keeps, when it has one)."""
    status, body = kept.given if kept is not None and kept.given is not None else answer(written)
    if not body:
        return current_app.response_class(body, status=status)
    return current_app.response_class(body, status=status, mimetype="application/json")


def _changes(body: shapes.CorrectDeal) -> dict[str, Any]:
    """A correction's given fields as the service takes them (per-player values as ``_per_player``)."""
    return {
        field: (_per_player(value) if field in ("bids", "tricks") else value)
        for field, value in given(body).items()
    }


def json_body(payload: BaseModel | dict[str, Any]) -> str:
    """``payload`` (a model of ``shapes``, or the OpenAPI document) as JSON text.

    Keys come in the order declared and built (per-player maps in seat order).
    """
    plain = payload.model_dump() if isinstance(payload, BaseModel) else payload
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
        "mizerka" if body.ruleset is None else body.ruleset,
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
    # The state of one version never changes: kept by the game's id and version (``caching``).
    body = caching.kept(("api-game", game_id, version))
    if body is None:
        loaded = services.get_game(game_id)
        body = json_body(game_body(loaded))
        caching.keep(("api-game", game_id, loaded.version), body)
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
    return record(game_id, authorised(game_id, trusted=True))


def record(game_id: str, seen: Snapshot) -> Response:
    """Record the next deal on ``seen`` (the game as read once its key was checked): the view's body."""
    preview = dry_run()

    def answer(written: Written) -> tuple[int, str]:
        assert written.deal is not None
        return 200 if preview else 201, json_body(deal_body(written.setup, written.deal))

    kept, seen = once(game_id, "deals", answer, seen, preview=preview)
    body = parse_body(shapes.RecordDeal)
    written = services.record_deal(
        game_id,
        expected_version=expected_version(seen),
        seen=seen,
        dry_run=preview,
        once=kept,
        number=body.number,
        contract=body.contract,
        bids=_per_player(body.bids),
        tricks=_per_player(body.tricks),
    )
    return answered(answer, written, kept)


@bp.put("/games/<game_id>/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> Response:
    """200: a recorded deal completed or corrected, the whole game re-validated by replay.

    Only the fields present change; ``"tricks": null`` makes the last deal pending again.
    ``?dry_run=true``: the same answer, nothing stored.
    """
    return correct(game_id, number, authorised(game_id, trusted=True))


def correct(game_id: str, number: int, seen: Snapshot) -> Response:
    """Complete or correct deal ``number`` on ``seen``: the view's body."""
    preview = dry_run()
    kept, seen = once(game_id, f"deals/{number}", _deal_answer, seen, preview=preview)
    body = parse_body(shapes.CorrectDeal)
    written = services.update_deal(
        game_id,
        number,
        expected_version=expected_version(seen),
        seen=seen,
        dry_run=preview,
        once=kept,
        **_changes(body),
    )
    return answered(_deal_answer, written, kept)


def _deal_answer(written: Written) -> tuple[int, str]:
    """200 and the deal written."""
    assert written.deal is not None
    return 200, json_body(deal_body(written.setup, written.deal))


@bp.patch("/games/<game_id>/deals")
def correct_deals(game_id: str) -> Response:
    """200: several recorded deals corrected at once, replayed together; answers the whole game state.

    Any refusal changes nothing.  ``?dry_run=true``: the same answer, nothing stored.
    """
    return correct_several(game_id, authorised(game_id))


def correct_several(game_id: str, seen: Snapshot) -> Response:
    """Correct several deals at once on ``seen``: the view's body."""
    preview = dry_run()

    def answer(written: Written) -> tuple[int, str]:
        return 200, json_body(state_body(game_id, written.setup, written.state))

    kept, seen = once(game_id, "deals", answer, seen, preview=preview)
    body = parse_body(shapes.CorrectDeals)
    corrections = [{"number": item.number, **_changes(item)} for item in body.deals]
    written = services.correct_deals(
        game_id, corrections, expected_version=expected_version(seen), seen=seen, dry_run=preview, once=kept
    )
    return answered(answer, written, kept)


@bp.delete("/games/<game_id>/deals/<int:number>")
def undo_deal(game_id: str, number: int) -> Response:
    """204: the last recorded deal removed; any other deal is ``409 not_last_deal``."""
    return undo(game_id, number, authorised(game_id))


def undo(game_id: str, number: int, seen: Snapshot) -> Response:
    """Remove the last deal ``number`` from ``seen``: the view's body."""
    kept, seen = once(game_id, f"deals/{number}", _undone, seen)
    version = expected_version(seen)
    written = services.undo_deal(game_id, number, expected_version=version, seen=seen, once=kept)
    return answered(_undone, written, kept)


def _undone(_written: Written) -> tuple[int, str]:
    return 204, ""
