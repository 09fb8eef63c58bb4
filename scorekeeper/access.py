"""Who may change a game: the holder of its edit key (cookie for pages, bearer for the API)."""

from __future__ import annotations

from flask import Request, Response

from .services import Snapshot, key_matches

KEY_COOKIE_PREFIX = "sk_edit_"
KEY_COOKIE_MAX_AGE = 400 * 24 * 3600  # about the longest browsers keep a cookie


def cookie_name(game_id: str) -> str:
    return KEY_COOKIE_PREFIX + game_id


def remember_key(response: Response, request: Request, game_id: str, key: str) -> None:
    """Give this browser the pencil for one game (a secure, HTTP-only, SameSite cookie)."""
    response.set_cookie(
        cookie_name(game_id),
        key,
        max_age=KEY_COOKIE_MAX_AGE,
        path=f"/games/{game_id}",
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
