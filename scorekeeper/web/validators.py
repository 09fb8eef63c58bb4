"""WTForms validators that ask the rules engine, so a form refuses what the engine refuses, in its words.

The engine's ``RuleError`` becomes the field's ``ValidationError`` (in the request's language)
and is held on the form (``refusal_of``), so the view shows the engine's message at the field,
with its code's status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wtforms.validators import ValidationError

from ..messages import say
from ..rules import Refusal, RuleError


class AskTheEngine:
    """Checks a field's value with ``check`` (an engine function that raises ``RuleError``)."""

    def __init__(self, check: Callable[[Any], object]) -> None:
        self.check = check

    def __call__(self, form: Any, field: Any) -> None:
        try:
            self.check(field.data)
        except RuleError as refused:
            if refusal_of(form) is None:
                form.refusal = refused
            raise ValidationError(say(refused)) from None


def refusal_of(form: Any) -> Refusal | None:
    """The engine's refusal a validator of ``form`` met first, if any."""
    found = getattr(form, "refusal", None)
    return found if isinstance(found, Refusal) else None
