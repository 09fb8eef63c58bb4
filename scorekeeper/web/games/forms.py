"""WTForms forms.  They collect raw input; the rules engine decides what is legal."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet
from wtforms.validators import Optional, Regexp, ValidationError
from wtforms.widgets import DateInput, HiddenInput, NumberInput

from ...limits import MAX_DB_INT
from ...models import NOTE_LENGTH
from ...rules import (
    COUNT,
    MAX_NAME_LENGTH,
    N_,
    ONE_PLAYER,
    ORDER,
    PAIRS,
    RULESETS,
    SEAT_VALUE_MESSAGES,
    TRICKS_PER_DEAL,
    RuleError,
    Ruleset,
    every_fact,
)
from ...services.idempotency import KEY_RE
from ..validators import AskTheEngine

MAX_PLAYERS = 4
_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,6}")


def number_or_raw(raw: str | None) -> int | str | None:
    """'7' -> 7; '' -> None; anything else stays text so the engine can name it."""
    text = (raw or "").strip()
    if not text:
        return None
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else text


#: The refusals of a per-player value, by kind: the tricks', the bids', a counted fact's own.
SAYS = SEAT_VALUE_MESSAGES | {name: fact.messages for name, fact in every_fact().items() if fact.messages}
#: The engine's codes for a per-player value that is missing or not a count, by kind.
CODES = {"tricks": ("tricks_players", "tricks_range"), "bids": ("bids_required", "bid_range")} | {
    name: ("count_players", "count_range") for name in SAYS if name not in SEAT_VALUE_MESSAGES
}


def per_seat_numbers(raw_values: list[str | None], names: tuple[str, ...], noun: str) -> list[Any]:
    """Whole numbers by seat from text inputs (``noun``: tricks or bids); a blank one is refused by name."""
    values = [number_or_raw(raw) for raw in raw_values[: len(names)]]
    missing = [names[seat] for seat, value in enumerate(values) if value is None]
    if len(values) < len(names) or missing:
        code = CODES[noun][0]
        if missing:
            # The names as typed in one list ("Ann, Bob"), as the form shows them.
            raise RuleError(code, SAYS[noun].enter_named, noun, {"players": ", ".join(missing)})
        raise RuleError(code, SAYS[noun].enter_every, noun)
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

    Held as text, so what was typed comes back as typed and the engine names what is wrong.
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
        last seats left out down to the fewest (a fourth name, or none for 3 players)."""
        names = [entry.data or "" for entry in self.players.entries[: max(self.ruleset.seat_counts)]]
        while len(names) > min(self.ruleset.seat_counts) and not names[-1].strip():
            names.pop()
        return names

    def validate_players(self, field: Any) -> None:
        """The names of the game's seats, as the engine checks a game's players (in its words)."""
        AskTheEngine(self.ruleset.validate_players)(self, _Value(self.names()))


#: The facts games declare, on the page: counted per player, naming one player (a seat), naming
#: players in an order (a seat per place).
COUNTED = ("tricks", *(name for name, fact in every_fact().items() if fact.kind == COUNT))
TAKERS = tuple(name for name, fact in every_fact().items() if fact.kind == ONE_PLAYER)
ORDERS = {name: fact for name, fact in every_fact().items() if fact.kind == ORDER}
#: The most places an order of players has in any game (its inputs ``<fact>-0``...): the form's entries.
MOST_PLACES = {
    name: max(len(ruleset.fact(name).places) for ruleset in RULESETS.values() if name in ruleset.facts)
    for name in ORDERS
}


def places_of(name: str, ruleset: Ruleset | None) -> int:
    """How many places the order ``name`` has in ``ruleset``'s deals (the first game's, without one)."""
    return len((ruleset.fact(name) if ruleset is not None else ORDERS[name]).places)


#: Side bets between two players (a double): each posted as "by-against" (seats), "by-againstR" when the
#: player bet against took it up again (redoubled), under the fact's name, one input per bet.
PAIRED = tuple(name for name, fact in every_fact().items() if fact.kind == PAIRS)
AGAIN = "R"


def pair_value(by: int, against: int, again: bool = False) -> str:
    """A side bet as the page posts it: "1-0", or "1-0R" when taken up again (redoubled)."""
    return f"{by}-{against}{AGAIN if again else ''}"


def posted_pairs(values: Sequence[str], names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Side bets as posted ("1-0", "1-0R"), as the engine takes them: ``{by, against, redoubled}`` by
    name, in the order first posted; a redouble posted without its bet is the bet redoubled.  What is
    not two seats of the game is given as it came, for the engine to name."""
    bets: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in values:
        text = (raw or "").strip()
        again = text.endswith(AGAIN)
        by, _, against = text.removesuffix(AGAIN).partition("-")
        pair = (by, against)
        bet = bets.setdefault(
            pair, {"by": _player(by, names), "against": _player(against, names), "redoubled": False}
        )
        bet["redoubled"] = bet["redoubled"] or again
    return list(bets.values())


def stored_pairs(value: Any) -> list[str]:
    """A deal's side bets as stored ((by, against, redoubled) seats) as the page posts them: each bet, and
    its redouble where there is one."""
    posted: list[str] = []
    for by, against, again in value or ():
        posted.append(pair_value(by, against))
        if again:
            posted.append(pair_value(by, against, True))
    return posted


def fresh_key() -> str:
    """A new Idempotency-Key (32 characters of A-Z a-z 0-9 - _) for a form the server draws."""
    return secrets.token_urlsafe(24)


class OnceForm(FlaskForm):
    """A deal write's form: it carries the Idempotency-Key the server drew into it, so the same
    form posted again (a double tap, a post whose answer was lost and that the phone sends
    again) is that same change, answered as the first time and never applied twice.  A form
    drawn without one (a page from an older release) is posted without it."""

    idempotency_key = HiddenField(default=fresh_key, validators=[Optional(), Regexp(KEY_RE.pattern + r"\Z")])


class DealFacts(OnceForm):
    """A deal's facts beyond tricks, as the page posts them: each player's count by seat
    (``<fact>-0``...), a player by seat (``<fact>=2``), the suit, players in an order by
    place (``places-0``, ``places-1``): a field for each fact a game declares (below).  Read by
    ``deal_facts``; the engine says what is legal."""


for _name, _fact in every_fact().items():
    if _fact.kind == COUNT:
        setattr(DealFacts, _name, seat_counts())
    elif _fact.kind == PAIRS:
        setattr(DealFacts, _name, SelectMultipleField(choices=[], validate_choice=False))
    elif _fact.kind == ORDER:
        setattr(
            DealFacts,
            _name,
            SeatList(StringField(), min_entries=MOST_PLACES[_name], max_entries=MOST_PLACES[_name]),
        )
    else:
        setattr(DealFacts, _name, StringField())


def _blank(raw: str | None) -> bool:
    return not (raw or "").strip()


def _player(raw: str | None, names: tuple[str, ...]) -> object:
    """A player posted by seat ("2"), as the engine takes it (the name); anything else as it came."""
    seat = number_or_raw(raw)
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else seat


def _inputs(name: str, names: tuple[str, ...], ruleset: Ruleset | None = None) -> list[str]:
    """The inputs a fact is posted in: a count's by seat, an order's by place (its game's places), a
    side bet's none to require (no bet is an answer too), else its own."""
    if name in PAIRED:
        return []
    if name in COUNTED:
        return [f"{name}-{seat}" for seat in range(len(names))]
    if name in ORDERS:
        return [f"{name}-{place}" for place in range(places_of(name, ruleset))]
    return [name]


def blank_facts(
    data: Mapping[str, str], names: tuple[str, ...], fields: Sequence[str], ruleset: Ruleset | None = None
) -> list[str]:
    """The facts of ``fields`` with an input still blank (a count, a player, the suit)."""
    return [name for name in fields if any(_blank(data.get(key)) for key in _inputs(name, names, ruleset))]


def deal_facts(
    data: Mapping[str, str],
    names: tuple[str, ...],
    fields: Sequence[str],
    *,
    required: bool,
    ruleset: Ruleset | None = None,
) -> dict[str, Any]:
    """The facts of ``fields`` (the engine's list for the deal) as the services take them.

    ``required``: the deal's results must all be there (a deal without a declaration); else
    results left wholly blank are not given (a trump deal saved with its suit alone, a pending
    deal corrected as still played).  A count left blank beside others is refused by name.
    """
    given: dict[str, Any] = {}
    for name in fields:
        raw = [data.get(key) for key in _inputs(name, names, ruleset)]
        if name in COUNTED:
            if required or not all(map(_blank, raw)):
                given[name] = per_seat_numbers(raw, names, name)
        elif name in ORDERS:
            if any(map(_blank, raw)) and (required or not all(map(_blank, raw))):
                raise RuleError(*(ruleset.fact(name) if ruleset else ORDERS[name]).refusal, name)
            if not any(map(_blank, raw)):
                given[name] = [_player(value, names) for value in raw]
        elif name in PAIRED:
            posted = data.getlist(name) if hasattr(data, "getlist") else [data.get(name) or ""]
            given[name] = posted_pairs([value for value in posted if value], names)
        elif name in TAKERS:
            if not _blank(raw[0]):
                given[name] = _player(raw[0], names)
            elif required:
                # NOTE: said at a fact naming one player ("Who took the king of hearts") left blank.
                raise RuleError("field_required", N_("Tap the player who took it."), name)
        elif not _blank(raw[0]):
            given[name] = (raw[0] or "").strip()
    return given


class DeclareForm(DealFacts):
    """The next deal: the contract chosen or the bids, maybe the tricks and other facts too."""

    number = BoundedIntegerField()
    contract = HiddenField()
    bids = seat_counts()
    tricks = seat_counts()


class TricksForm(DealFacts):
    """The tricks (or the results its game declares) of a declared (pending) deal."""

    number = BoundedIntegerField()
    tricks = seat_counts()


class CorrectForm(DealFacts):
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


class UndoForm(OnceForm):
    number = BoundedIntegerField()
    version = BoundedIntegerField()


class HandOverForm(FlaskForm):
    """Make a new hand-over link: nothing to fill in but the CSRF token."""


class TakeForm(FlaskForm):
    """The hand-over link's one-time code (filled in from the link's fragment by the page's script)."""

    key = PasswordField(render_kw={"autocomplete": "off", "spellcheck": "false", "required": True})


class RematchForm(FlaskForm):
    """A rematch of a finished game: nothing to fill in but the CSRF token."""
