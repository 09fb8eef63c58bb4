"""Forms of the people pages: a new name, and two records of one person merged."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField

from ...rules import MAX_NAME_LENGTH, validate_name
from ..validators import AskTheEngine

#: A person's name: as long as the engine allows.
NAME_INPUT = {"maxlength": MAX_NAME_LENGTH, "autocomplete": "off", "required": True}


class RenameForm(FlaskForm):
    name = StringField(render_kw=NAME_INPUT, validators=[AskTheEngine(validate_name)])


class MergeForm(FlaskForm):
    """Two records of one person: ``duplicate``'s games move to ``keep``, then ``duplicate`` goes."""

    duplicate = StringField(render_kw=NAME_INPUT)
    keep = StringField(render_kw=NAME_INPUT)


class AdminSignInForm(FlaskForm):
    """The administrator key, to rename and merge anyone."""

    key = PasswordField(render_kw={"autocomplete": "off", "spellcheck": "false", "required": True})


class AdminSignOutForm(FlaskForm):
    """Sign out: nothing to fill in but the CSRF token."""
