"""The import form: an export uploaded as a file, or its text pasted."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, TextAreaField


class ImportForm(FlaskForm):
    """An export to import: an uploaded file, or its text pasted."""

    file = FileField(render_kw={"accept": ".json,application/json"})
    text = TextAreaField(render_kw={"rows": 8, "spellcheck": "false", "autocomplete": "off"})
    again = HiddenField()
    """Set when the person saw that this game is already here and imports it anyway."""
