"""Pages to take a game away (JSON export, CSV deal log) and to bring one back (import)."""

from __future__ import annotations

import json
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ... import transfer
from ...access import give_pencil
from ...extensions import limit_game_creation
from ...messages import shown, term
from ...rules import N_, Refusal, RuleError
from .. import bp
from ..loading import snapshot_or_404
from .forms import ImportForm


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """The game's facts as a JSON file (for anyone who can read the game): a backup, or to import."""
    loaded = snapshot_or_404(game_id)
    body = json.dumps(transfer.export_game(loaded), ensure_ascii=False, indent=2) + "\n"
    return _download(body, "application/json", f"scorekeeper-{loaded.ruleset.id}-{game_id}.json")


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """The deal log as CSV for a spreadsheet (UTF-8 with a byte-order mark, so Excel reads names right)."""
    loaded = snapshot_or_404(game_id)
    body = "\ufeff" + transfer.export_csv(loaded, gettext)
    return _download(body, "text/csv", f"scorekeeper-{loaded.ruleset.id}-{game_id}.csv")


def _read_export(form: ImportForm) -> Any:
    """The JSON in the uploaded file, else in the pasted text; a ``RuleError`` when there is none."""
    upload = form.file.data
    raw: bytes | str = upload.read() if upload is not None and getattr(upload, "filename", None) else b""
    if not raw:
        raw = (form.text.data or "").strip()
    if not raw:
        raise RuleError("invalid_export", N_("Choose an exported .json file, or paste its text."), "file")
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise RuleError(
            "invalid_export", N_("The file is not text in UTF-8: is it an export?"), "file"
        ) from None
    except json.JSONDecodeError as error:
        raise RuleError(
            "invalid_export",
            N_("The file is not valid JSON (line %(line)d, column %(column)d)."),
            "file",
            {"line": error.lineno, "column": error.colno},
        ) from None
    except (ValueError, RecursionError):
        raise RuleError("invalid_export", N_("The file is not valid JSON."), "file") from None


@bp.route("/games/import", methods=["GET", "POST"])
@limit_game_creation
def import_game() -> Any:
    """Import a game from an export: a new game with a new edit key, held by this browser."""
    form = ImportForm()
    error: Refusal | None = None
    already: str | None = None
    if request.method == "POST":
        if not form.validate_on_submit():
            error = RuleError("form", N_("The form was incomplete; try again."), None)
        else:
            try:
                data = _read_export(form)
                already = (
                    None
                    if form.again.data == "1"
                    else transfer.same_game_here(transfer.validate_export(data))
                )
                if already is None:
                    loaded, _key = transfer.import_game(data)
            except Refusal as refused:
                error = refused
            else:
                if already is not None:
                    # Imported twice, a game counts twice in the rankings: ask first. The file's
                    # text goes into the form, so "Import anyway" needs no second upload.
                    form.text.data = json.dumps(data, ensure_ascii=False, indent=2)
                    return render_template("web/import.html", form=form, error=None, already=already), 409

                imported = gettext(
                    "Imported the %(game)s game of %(players)s: this phone holds its pencil.",
                    game=term(loaded.ruleset.term),
                    players=", ".join(loaded.setup.players),
                )
                flash(imported, "ok")
                give_pencil([loaded.id])
                return redirect(url_for("web.game", game_id=loaded.id), code=303)
    status = 422 if request.method == "POST" else 200
    return render_template("web/import.html", form=form, error=shown(error), already=None), status
