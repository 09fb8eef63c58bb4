"""What the engine raises when an input is refused: a code, a message template, the field, the values."""

from __future__ import annotations

from collections.abc import Mapping

from .words import ENGLISH, Plural, Speech, Term


class Refusal(ValueError):
    """An input refused, with a machine-readable ``code`` (the JSON API contract's codes).

    ``template`` is the sentence a player reads, as an English message id with named
    placeholders (``"%(player)s has already played %(contract)s."``, marked with ``N_``),
    ``params`` the values it speaks of (player, contract, deal, count), and ``field`` names
    the input it concerns (``"tricks"``, ``"contract"``, ``"players"``...).  ``message`` is
    the sentence in English; ``say`` says it in another language, which the app does at its
    edge (``scorekeeper.messages``).  The engine raises ``RuleError``; the app's other
    refusals (access, missing things, conflicts) are its siblings, in ``scorekeeper.errors``.

    A param is said as it is, except a ``Term`` (said as its label, translated), a ``Plural``
    (a count with its noun: "2 games"), a list or tuple of names (joined: "Ann, Bob and Cid")
    and another ``Refusal`` (said in the same language: "Deal 3: ...").
    """

    def __init__(
        self,
        code: str,
        template: str,
        field: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(code, template, field)
        self.code = code
        self.template = template
        self.field = field
        self.params: Mapping[str, object] = dict(params or {})

    @property
    def message(self) -> str:
        """The refusal in English."""
        return self.say(ENGLISH)

    def say(self, speech: Speech) -> str:
        """The refusal in the language ``speech`` speaks: its template translated, the params put in."""
        text = speech.translate(self.template)
        if not self.params:
            return text
        return text % {name: _said(value, speech) for name, value in self.params.items()}

    def at(self, field: str | None) -> Refusal:
        """The same refusal (class, code, message) concerning another ``field``."""
        return type(self)(self.code, self.template, field, self.params)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, field={self.field!r})"


def _said(value: object, speech: Speech) -> object:
    if isinstance(value, Refusal):
        return value.say(speech)
    if isinstance(value, Term):
        return speech.translate(value.label)
    if isinstance(value, Plural):
        return speech.plural(value)
    if isinstance(value, (list, tuple)):
        return speech.join([str(_said(item, speech)) for item in value])
    return value


class RuleError(Refusal):
    """A rule of the game forbids this input (or the input is not one the game can take)."""
