"""The administrator's sign-in: the admin key (settings, or printed by ``make run``).

The sign-in is a session held on the server (``access.sign_in_admin``): signing out ends it,
and it expires after 12 hours.  The right key always signs in; past ten wrong ones a minute, from
one address or from all together, a wrong one answers 429 (``web.attempts``).
"""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ...access import is_admin, sign_in_admin, sign_out_admin
from .. import bp
from ..attempts import count_wrong_secret
from .forms import AdminSignInForm, AdminSignOutForm


@bp.route("/admin", methods=["GET", "POST"])
def admin_sign_in() -> Any:
    """Sign in with the admin key (rename and merge anyone), or sign out when signed in."""
    form = AdminSignInForm()
    error, status = None, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            error, status = gettext("The form was incomplete; try again."), 422
        elif sign_in_admin((form.key.data or "").strip()):
            flash(gettext("Signed in as the administrator."), "ok")
            return redirect(url_for("web.players"), code=303)
        else:
            count_wrong_secret("admin", "admin")
            error, status = gettext("That is not the administrator key."), 403
    return render_template(
        "web/admin.html", form=form, sign_out=AdminSignOutForm(formdata=None), admin=is_admin(), error=error
    ), status


@bp.post("/admin/sign-out")
def admin_sign_out() -> Any:
    """End the administrator's session: on the server, so a copy of the cookie no longer signs in."""
    form = AdminSignOutForm()
    if form.validate_on_submit():
        sign_out_admin()
        flash(gettext("Signed out."), "ok")
    return redirect(url_for("web.admin_sign_in"), code=303)
