"""Forms of the people pages: a new name, and two records of one person merged."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField

from ...rules import MAX_NAME_LENGTH


class RenameForm(FlaskForm):
    name = StringField(render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off"})


class MergeForm(FlaskForm):
    """Two records of one person: ``duplicate``'s games move to ``keep``, then ``duplicate`` goes."""

    duplicate = StringField(render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off"})
    keep = StringField(render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off"})
