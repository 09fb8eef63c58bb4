"""What the engine raises when an input is refused: a code, a message, the field, the values."""

from __future__ import annotations

from collections.abc import Mapping


class Refusal(ValueError):
    """An input refused, with a machine-readable ``code`` (the JSON API contract's codes).

    ``message`` is a sentence a player understands, ``field`` names the input it concerns
    (``"tricks"``, ``"contract"``, ``"players"``...) and ``params`` holds the values the
    message speaks of (player, contract, deal, count), so the edge can say it again in the
    reader's language.  The engine raises ``RuleError``; the app's other refusals (access,
    missing things, conflicts) are its siblings, in ``scorekeeper.errors``.
    """

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params: Mapping[str, object] = dict(params or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"


class RuleError(Refusal):
    """A rule of the game forbids this input (or the input is not one the game can take)."""
