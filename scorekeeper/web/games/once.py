"""A page form's write applied once, by the Idempotency-Key the server drew into the form.

The key and the page's answer (where it leads, what it says) are kept with the change in the
store the API's keys use (``services.Once``): the same form posted again, a double tap or a post
whose answer was lost and that the phone sends again, gets that answer and changes nothing.  The
first post and a re-send are answered by one function (``answered``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import current_app, flash, redirect, request, session
from werkzeug.wrappers import Response

from ... import services
from ...rules import Refusal
from ...services import Once, Written

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
    kept = json.loads(body)
    waiting = [tuple(pair) for pair in session.get("_flashes", [])]
    for category, message in kept["flashes"]:
        if (category, message) not in waiting:
            flash(message, category)
    return redirect(kept["location"], code=status)


def done(once: Once | None, written: Written, location: str, says: Callable[[Written], Flashes]) -> Response:
    """The answer of a form's write just made (the one its key keeps, when it has one)."""
    if once is not None and once.given is not None:
        return answered(*once.given)
    return answered(303, json.dumps({"location": location, "flashes": says(written)}))


def write_once(save: Callable[[Once | None], Written], once: Once | None) -> Written:
    """``save(once)``; a form whose key already took other values (an older copy of the page, as
    the browser's Back button shows it) is a change of its own, judged afresh without the key."""
    try:
        return save(once)
    except Refusal as refused:
        if once is None or refused.code != "idempotency_key_reused":
            raise
        return save(None)
