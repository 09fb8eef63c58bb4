"""The API's deal writes: record, complete or correct one deal or several, undo.

Each view checks the bearer key against the game (``authorised``), reads ``If-Match``,
``Idempotency-Key`` and ``?dry_run``, parses the body into its shape and calls the service;
``api/page.py`` serves the same views to the game page's own script.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request

from .. import services
from ..access import bearer_key
from ..errors import refusal
from ..rules import COUNT, N_, every_fact
from ..services import Once, Written
from . import bp, shapes
from .routes import _per_player, etag, given, json_body, parse_body
from .serialize import deal_body, state_body


def authorised(game_id: str) -> services.Stamp:
    """The game's stamp (404 if there is none), once the bearer key is shown to be its edit key (401, 403)."""
    return services.authorised_game(game_id, bearer_key(request))


def expected_version(game: services.Stamp) -> int | None:
    """The game version an ``If-Match`` header insists on (None without the header).

    RFC 9110: the condition holds when any listed tag is the current one (strong
    comparison, so a weak ``W/"v3"`` never does) or the header is ``*`` (the game
    exists, or ``authorised`` would have answered 404).  Then the write must still
    find the version read here; otherwise no version can match, and the service
    answers ``stale``.
    """
    if not request.headers.get("If-Match"):
        return None
    return game.version if request.if_match.contains(etag(game.version)) else -1


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


def once(game_id: str, path: str, answer: Answer) -> Once | None:
    """The request's ``Idempotency-Key`` (None without one).

    ``path``: the write's path within the game (``deals``, ``deals/3``), so that the API's
    route and the game page's (``/games/<id>/sync/``) are the same request.  A key not 1-64
    characters of A-Z a-z 0-9 - _ is 400 ``bad_idempotency_key``.  The write looks the key up
    once it holds the game (``Once.check``); a dry run looks it up too, and is answered as the
    real call would be (the first answer again, or ``idempotency_key_reused``), keeping nothing.
    """
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = services.valid_key(key)
    fingerprint = services.fingerprint(request.method, path, request.get_data(cache=True))
    return Once(game_id, key, fingerprint, answer)


def answered(answer: Answer, written: Written, once: Once | None) -> Response:
    """The answer of a write just made (the one its key keeps, when it has one)."""
    status, body = once.given if once is not None and once.given is not None else answer(written)
    if not body:
        return current_app.response_class(body, status=status)
    return current_app.response_class(body, status=status, mimetype="application/json")


#: The fields whose values are keyed by player name.
PER_PLAYER = ("bids", "tricks", *(name for name, fact in every_fact().items() if fact.kind == COUNT))


def _as_given(fields: dict[str, Any]) -> dict[str, Any]:
    """Fields as the services take them (per-player values as ``_per_player``)."""
    return {field: (_per_player(value) if field in PER_PLAYER else value) for field, value in fields.items()}


def _changes(body: shapes.CorrectDeal) -> dict[str, Any]:
    """A correction's given fields as the service takes them: the game's facts under ``facts``."""
    changes = _as_given(given(body))
    facts = {field: changes.pop(field) for field in shapes.FACT_FIELDS if field in changes}
    return {**changes, "facts": facts} if facts else changes


def _facts(body: shapes.RecordDeal) -> dict[str, Any]:
    """A new deal's facts beyond tricks as the service takes them (absent ones left out)."""
    return {field: value for field, value in _as_given(given(body)).items() if field in shapes.FACT_FIELDS}


@bp.post("/games/<game_id>/deals")
def record_deal(game_id: str) -> Response:
    """201: the next deal recorded (pending without ``tricks``); answers with the deal.

    ``?dry_run=true``: 200 with the deal as it would be recorded, nothing stored.
    """
    return record(game_id, authorised(game_id))


def record(game_id: str, game: services.Stamp) -> Response:
    """Record the next deal on ``game`` (as read when its key was checked): the view's body."""
    preview = dry_run()

    def answer(written: Written) -> tuple[int, str]:
        assert written.deal is not None
        return 200 if preview else 201, json_body(deal_body(written.setup, written.deal))

    key = once(game_id, "deals", answer)
    body = parse_body(shapes.RecordDeal)
    written = services.record_deal(
        game_id,
        expected_version=expected_version(game),
        key_hash=game.edit_key_hash,
        dry_run=preview,
        once=key,
        number=body.number,
        contract=body.contract,
        bids=_per_player(body.bids),
        tricks=_per_player(body.tricks),
        facts=_facts(body),
    )
    return answered(answer, written, key)


@bp.put("/games/<game_id>/deals/<int:number>")
def correct_deal(game_id: str, number: int) -> Response:
    """200: a recorded deal completed or corrected, the whole game re-validated by replay.

    Only the fields present change; ``"tricks": null`` makes the last deal pending again.
    ``?dry_run=true``: the same answer, nothing stored.
    """
    return correct(game_id, number, authorised(game_id))


def correct(game_id: str, number: int, game: services.Stamp) -> Response:
    """Complete or correct deal ``number`` of ``game``: the view's body."""
    preview = dry_run()
    key = once(game_id, f"deals/{number}", _deal_answer)
    body = parse_body(shapes.CorrectDeal)
    written = services.update_deal(
        game_id,
        number,
        expected_version=expected_version(game),
        key_hash=game.edit_key_hash,
        dry_run=preview,
        once=key,
        **_changes(body),
    )
    return answered(_deal_answer, written, key)


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


def correct_several(game_id: str, game: services.Stamp) -> Response:
    """Correct several deals of ``game`` at once: the view's body."""
    preview = dry_run()

    def answer(written: Written) -> tuple[int, str]:
        return 200, json_body(state_body(game_id, written.setup, written.state))

    key = once(game_id, "deals", answer)
    body = parse_body(shapes.CorrectDeals)
    corrections = [{"number": item.number, **_as_given(given(item))} for item in body.deals]
    written = services.correct_deals(
        game_id,
        corrections,
        expected_version=expected_version(game),
        key_hash=game.edit_key_hash,
        dry_run=preview,
        once=key,
    )
    return answered(answer, written, key)


@bp.delete("/games/<game_id>/deals/<int:number>")
def undo_deal(game_id: str, number: int) -> Response:
    """204: the last recorded deal removed; any other deal is ``409 not_last_deal``."""
    return undo(game_id, number, authorised(game_id))


def undo(game_id: str, number: int, game: services.Stamp) -> Response:
    """Remove the last deal ``number`` of ``game``: the view's body."""
    key = once(game_id, f"deals/{number}", _undone)
    version = expected_version(game)
    written = services.undo_deal(
        game_id, number, expected_version=version, key_hash=game.edit_key_hash, once=key
    )
    return answered(_undone, written, key)


def _undone(_written: Written) -> tuple[int, str]:
    return 204, ""
