"""Who may change what.

A game: the holder of its edit key (cookie for pages, bearer for the API).
People (rename, merge): the instance's administrator, signed in with the admin
key, or whoever holds the edit key of every game the people concerned sat in.
The key cookie of each game is therefore also sent to the people pages
(``/players``), and only there.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Request, current_app, session
from werkzeug.wrappers import Response

from .services import Snapshot, key_matches

KEY_COOKIE_PREFIX = "sk_edit_"
KEY_COOKIE_MAX_AGE = 400 * 24 * 3600  # about the longest browsers keep a cookie
#: The people pages, where rename and merge check the keys of every game a person sat in.
PEOPLE_PATH = "/players"
ADMIN_SESSION = "admin"


def cookie_name(game_id: str) -> str:
    return KEY_COOKIE_PREFIX + game_id


def remember_key(response: Response, request: Request, game_id: str, key: str) -> None:
    """Give this browser the pencil for one game (a secure, HTTP-only, SameSite cookie).

    A copy goes to the people pages, where holding the keys of all of a person's
    games allows renaming or merging them; no other page receives it.
    """
    for path in (f"/games/{game_id}", PEOPLE_PATH):
        response.set_cookie(
            cookie_name(game_id),
            key,
            max_age=KEY_COOKIE_MAX_AGE,
            path=path,
            secure=request.is_secure,
            httponly=True,
            samesite="Lax",
        )


def page_key(request: Request, game_id: str) -> str | None:
    return request.cookies.get(cookie_name(game_id))


def can_edit(request: Request, game: Snapshot) -> bool:
    """Whether this browser holds the game's edit key (in its cookie for the game)."""
    return key_matches(game, page_key(request, game.id))


def bearer_key(request: Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def held_keys(request: Request) -> dict[str, str]:
    """Game id -> edit key, for every key cookie this request carries."""
    return {
        name[len(KEY_COOKIE_PREFIX) :]: value
        for name, value in request.cookies.items()
        if name.startswith(KEY_COOKIE_PREFIX) and value
    }


def _admin_mark() -> str:
    # What the session remembers: proof of the admin key, not the key; a new key signs everyone out.
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    admin = str(current_app.config["ADMIN_KEY"]).encode("utf-8")
    return hmac.new(secret, b"scorekeeper-admin:" + admin, hashlib.sha256).hexdigest()


def is_admin() -> bool:
    """Whether this browser is signed in as the instance's administrator."""
    mark = session.get(ADMIN_SESSION)
    return isinstance(mark, str) and hmac.compare_digest(mark, _admin_mark())


def sign_in_admin(key: str) -> bool:
    """Sign this browser in when ``key`` is the admin key (constant-time comparison)."""
    admin = str(current_app.config.get("ADMIN_KEY") or "")
    if not admin or not hmac.compare_digest(key.encode("utf-8"), admin.encode("utf-8")):
        return False
    session[ADMIN_SESSION] = _admin_mark()
    return True


def sign_out_admin() -> None:
    session.pop(ADMIN_SESSION, None)
