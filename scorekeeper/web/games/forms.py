"""WTForms forms.  They collect raw input; the rules engine decides what is legal."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, IntegerField, PasswordField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet
from wtforms.validators import ValidationError
from wtforms.widgets import DateInput, HiddenInput, NumberInput

from ...limits import MAX_DB_INT
from ...models import NOTE_LENGTH
from ...rules import MAX_NAME_LENGTH, N_, TRICKS_PER_DEAL, RuleError, Ruleset
from ..validators import AskTheEngine

MAX_PLAYERS = 4
_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,6}")


def number_or_raw(raw: str | None) -> int | str | None:
    """'7' -> 7; '' -> None; anything else stays text so the engine can name it."""
    text = (raw or "").strip()
    if not text:
        return None
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else text


#: A blank count refused, by kind: (the players named, every player).
ENTER = {
    "tricks": (N_("Enter the tricks for %(players)s."), N_("Enter the tricks for every player.")),
    "bids": (N_("Enter the bids for %(players)s."), N_("Enter the bids for every player.")),
}


def per_seat_numbers(raw_values: list[str | None], names: tuple[str, ...], noun: str) -> list[Any]:
    """Whole numbers by seat from text inputs (``noun``: tricks or bids); a blank one is refused by name."""
    values = [number_or_raw(raw) for raw in raw_values[: len(names)]]
    missing = [names[seat] for seat, value in enumerate(values) if value is None]
    if len(values) < len(names) or missing:
        named, everyone = ENTER[noun]
        code = "tricks_players" if noun == "tricks" else "bids_required"
        if missing:
            # The names as typed in one list ("Ann, Bob"), as the form shows them.
            raise RuleError(code, named, noun, {"players": ", ".join(missing)})
        raise RuleError(code, everyone, noun)
    return values


class BoundedIntegerField(IntegerField):
    """A whole number the database can hold (0..2**31-1): anything else makes the form invalid.

    Deal numbers and versions travel in hidden inputs; a forged one must not reach SQL.
    """

    widget = HiddenInput()

    def pre_validate(self, form: Any) -> None:
        if self.data is not None and not 0 <= self.data <= MAX_DB_INT:
            self.data = None
            raise ValidationError(gettext("Not a valid number."))


class _Value:
    """A value to check, shaped as a field (what a validator reads)."""

    def __init__(self, data: object) -> None:
        self.data = data


def count_field() -> StringField:
    """One player's count (tricks or a bid): a number input 0..13, the bounds the engine's.

    Kept as text, so what was typed comes back as typed and the engine names what is wrong.
    """
    return StringField(
        widget=NumberInput(step=1, min=0, max=TRICKS_PER_DEAL),
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "required": True},
    )


def seat_counts() -> SeatList:
    """A count for every seat: entry ``i`` is the input ``<name>-i``."""
    return SeatList(count_field(), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)


class SeatList(FieldList):  # type: ignore[type-arg]  # generic only in the stubs
    """A list of per-seat inputs where entry ``i`` always reads the input named ``<name>-i``.

    WTForms renumbers the inputs it finds, so without this an absent ``tricks-0`` would let
    seat 1's count slide into seat 0 instead of being refused as missing.
    """

    def _extract_indices(self, prefix: str, formdata: Any) -> Any:
        return iter(range(self.max_entries or 0))


class NewGameForm(FlaskForm):
    players = SeatList(
        StringField(
            render_kw={
                "maxlength": MAX_NAME_LENGTH,
                "autocomplete": "off",
                "autocapitalize": "words",
                "required": True,
            }
        ),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    first_dealer = RadioField(default="random", validate_choice=False)
    """A draw, or a seat: its choices follow the game's number of players (``seat_choices``)."""
    # Plain text: the service parses and refuses the date, so the message is the same everywhere.
    played_on = StringField(widget=DateInput())
    note = StringField(render_kw={"maxlength": NOTE_LENGTH, "autocomplete": "off"})

    def for_ruleset(self, ruleset: Ruleset) -> None:
        """Fit the form to a game of ``ruleset``: its seats, and its check of the players' names."""
        self.ruleset = ruleset
        self.first_dealer.choices = [
            SelectChoice("random", gettext("Draw at random")),
            *(
                SelectChoice(str(seat), gettext("Seat %(seat)d deals", seat=seat + 1))
                for seat in range(max(ruleset.seat_counts))
            ),
        ]

    def names(self) -> list[str]:
        """The names in seat order: a seat for each of the most players the game takes, the empty
        last seats left out down to the fewest (Kierki: a fourth name, or none for 3 players)."""
        names = [entry.data or "" for entry in self.players.entries[: max(self.ruleset.seat_counts)]]
        while len(names) > min(self.ruleset.seat_counts) and not names[-1].strip():
            names.pop()
        return names

    def validate_players(self, field: Any) -> None:
        """The names of the game's seats, as the engine checks a game's players (in its words)."""
        AskTheEngine(self.ruleset.validate_players)(self, _Value(self.names()))


class DeclareForm(FlaskForm):
    """The next deal: the contract chosen (Mizerka) or the bids (Misère), maybe the tricks too."""

    number = BoundedIntegerField()
    contract = HiddenField()
    bids = seat_counts()
    tricks = seat_counts()


class TricksForm(FlaskForm):
    """The tricks of a declared (pending) deal."""

    number = BoundedIntegerField()
    tricks = seat_counts()


class CorrectForm(FlaskForm):
    """A correction of a recorded deal: its declaration and its tricks."""

    version = BoundedIntegerField()
    contract = RadioField(choices=[], validate_choice=False)
    """The contracts of the game (set per page from the ruleset)."""
    swap_with = SelectField(
        _l("Or swap contracts with"), choices=[SelectChoice("", _l("No swap"))], validate_choice=False
    )
    """Another deal of the same chooser: the two deals exchange contracts, in one correction."""
    bids = seat_counts()
    tricks = seat_counts()


class UndoForm(FlaskForm):
    number = BoundedIntegerField()
    version = BoundedIntegerField()


class HandOverForm(FlaskForm):
    """Make a new hand-over link: nothing to fill in but the CSRF token."""


class TakeForm(FlaskForm):
    """The hand-over link's one-time code (filled in from the link's fragment by the page's script)."""

    key = PasswordField(render_kw={"autocomplete": "off", "spellcheck": "false", "required": True})


class RematchForm(FlaskForm):
    """A rematch of a finished game: nothing to fill in but the CSRF token."""
