"""The club night's forms: they collect raw input; the night's services and the seating decide."""

from __future__ import annotations

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # not in the stubs yet
from wtforms.validators import Optional
from wtforms.widgets import DateInput, NumberInput

from ...models import NIGHT_NAME_LENGTH
from ...nights.points import SEASON_BEST_NIGHTS
from ...rules import MAX_NAME_LENGTH, RULESETS
from ...services.nights import CLOCK_MINUTES, MOST_BEST_NIGHTS, MOST_ROUNDS, night_seat_counts


def game_choices() -> list[SelectChoice]:
    """Every game and preset a night can seat, as ``ruleset`` or ``ruleset:preset`` (its label)."""
    choices: list[SelectChoice] = []
    for ruleset in RULESETS.values():
        for preset in ruleset.presets:
            options = {ruleset.preset_option: preset.id} if ruleset.preset_option else {}
            sizes = night_seat_counts(ruleset, options)
            if not sizes:
                continue
            value = f"{ruleset.id}:{preset.id}" if ruleset.preset_option else ruleset.id
            seats = "/".join(str(size) for size in sizes)
            label = f"{gettext(ruleset.name)} · {gettext(preset.label)} ({seats})"
            if len(ruleset.presets) == 1:
                label = f"{gettext(ruleset.name)} ({seats})"
            choices.append(SelectChoice(value, label))
    return choices


def chosen_game(value: str | None) -> tuple[str, dict[str, str]]:
    """The ruleset id and options of a ``game_choices`` value (the preset as the ruleset's option)."""
    ruleset_id, _, preset = (value or "").partition(":")
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None or not ruleset.preset_option or not preset:
        return ruleset_id, {}
    return ruleset_id, {ruleset.preset_option: preset}


class NightForm(FlaskForm):
    """A new club night."""

    name = StringField(_l("Name of the night"), render_kw={"maxlength": NIGHT_NAME_LENGTH, "required": True})
    game = SelectField(_l("Game and house rules"), validate_choice=False)
    rounds = IntegerField(
        _l("Rounds"),
        validators=[Optional()],
        widget=NumberInput(min=1, max=MOST_ROUNDS),
        render_kw={"inputmode": "numeric"},
    )
    seating = RadioField(
        _l("Seating from round 2"),
        choices=[
            SelectChoice("mix", _l("Mix: meet new opponents")),
            SelectChoice("swiss", _l("Swiss: by the standings")),
        ],
        default="mix",
        validate_choice=False,
    )
    first_round = RadioField(
        _l("Round 1"),
        choices=[
            SelectChoice("random", _l("Drawn at random")),
            SelectChoice("order", _l("In the order players are listed")),
            SelectChoice("rating", _l("By rating: the highest first")),
        ],
        default="random",
        validate_choice=False,
    )
    hide_standings = BooleanField(_l("Hide the standings until every table of the round has finished"))
    played_on = StringField(_l("Date"), widget=DateInput())


class ActionForm(FlaskForm):
    """A button that changes the night: nothing to fill in but the CSRF token."""


class NameForm(FlaskForm):
    """A player's name (checking in, or the director adding one)."""

    name = StringField(
        _l("Name"), render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off", "required": True}
    )


class TapForm(FlaskForm):
    """A name tapped in a list (the check-in page's known names)."""

    name = HiddenField()


class SwapForm(FlaskForm):
    """Two players of the next round whose places are exchanged."""

    first = SelectField(_l("Swap"), coerce=int, validate_choice=False)
    second = SelectField(_l("with"), coerce=int, validate_choice=False)


class ClockForm(FlaskForm):
    """The round clock's length."""

    minutes = IntegerField(
        _l("Minutes"),
        default=45,
        widget=NumberInput(min=CLOCK_MINUTES[0], max=CLOCK_MINUTES[1]),
        render_kw={"inputmode": "numeric"},
    )


class SeasonForm(FlaskForm):
    """A new season: its name, its game and preset, its dates, how many nights count."""

    name = StringField(_l("Name of the season"), render_kw={"maxlength": NIGHT_NAME_LENGTH, "required": True})
    game = SelectField(_l("Game and house rules"), validate_choice=False)
    starts_on = StringField(_l("From"), widget=DateInput(), render_kw={"required": True})
    ends_on = StringField(_l("Until"), widget=DateInput(), render_kw={"required": True})
    best = StringField(
        _l("Best nights that count"),
        default=str(SEASON_BEST_NIGHTS),
        widget=NumberInput(min=1, max=MOST_BEST_NIGHTS),
        render_kw={"inputmode": "numeric"},
    )
