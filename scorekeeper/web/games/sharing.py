"""What a phone shares or remembers: the watch link and its QR code, and this phone's games."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import segno
from flask import url_for
from flask_babel import format_date, gettext
from markupsafe import Markup

from ...charts import signed
from ...stats import PhoneGame


@dataclass(frozen=True)
class ShareLink:
    url: str
    qr_svg: Markup


def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG, titled in the request's language."""
    return _qr_svg(url, str(gettext("QR code")))


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, title: str) -> Markup:
    """A QR code of ``url`` as inline SVG, drawn on the server.

    Memoized per process: drawing one takes milliseconds, and a game's link stays the same
    for the whole game.
    """
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff", title=title, omitsize=True)
    return Markup(svg)


def share_links(game_id: str) -> dict[str, ShareLink]:
    """The watch link (read-only).  The hand-over link is made on demand, on a page of its own
    (``routes.hand_over``): the game page, which the phone may keep, carries no key or token."""
    watch = url_for("web.game", game_id=game_id, _external=True)
    return {"watch": ShareLink(watch, qr_svg(watch))}


def phone_game(found: PhoneGame) -> dict[str, object]:
    """One of this phone's games as the home page's script fills it in: the texts the home list
    shows for a game, in the request's language (``templates/web/home.html``: ``game_items``)."""
    game = found.game
    leader = ""
    if game.leaders:
        names, lead = " & ".join(game.leaders), signed(game.lead) if game.lead is not None else "–"
        if game.finished:
            leader = gettext("Won by: %(names)s (%(lead)s)", names=names, lead=lead)
        else:
            leader = gettext("Leader: %(names)s (%(lead)s)", names=names, lead=lead)
    return {
        "id": game.id,
        "url": url_for("web.game", game_id=game.id),
        "players": " · ".join(game.names),
        "ruleset": str(game.ruleset.name),
        "finished": game.finished,
        "deal": ""
        if game.finished
        else gettext("Deal %(number)s/%(count)s", number=game.deal_now, count=game.deal_count),
        "leader": leader,
        "date": str(format_date(game.played_on, "medium")),
        "datetime": game.played_on.isoformat(),
        "held": found.held,
    }
