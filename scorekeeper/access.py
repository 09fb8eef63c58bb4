"""Who may change what.

A game: the holder of its edit key.  Through the API that is the bearer of the key.  A
phone's pages never see a key: the games a phone holds the pencil of are its keyring on the
server (``services.keyring``: a device and its pencils), named by ONE random device cookie
(HTTP-only, SameSite=Lax, path ``/``; ``__Host-sk_device`` over HTTPS, so no other site or
subdomain can set it; only its hash is stored), so no request header grows with the number of
games.  A phone gets a pencil when it creates a game (page, import, rematch), takes the pencil
through a one-time hand-over link, or shows an old per-game key cookie (``sk_edit_<id>``),
which is then taken over and expired.  Each time it gets a pencil the device value changes (its keyring
is copied to a new one, and the old value goes when the next pencil comes): a value planted in the
browser, or copied from it, never gains its keys.
A club night (its director) and a season (its maker) have a pencil held in the same keyring and
handed over the same way (``holds_club``); through the API, their key as the Bearer.
People (rename, merge): the instance's administrator, signed in with the admin key (a
session held on the server: sign-out ends it, it expires), or whoever holds the pencil of
every game the people concerned sat in (the same keyring).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from datetime import timedelta

from flask import Flask, Request, current_app, g, request, session
from werkzeug.wrappers import Response

from . import services
from .config import HAND_OVER_SECONDS
from .services import hash_key, keyring

#: The one cookie that names this browser's keyring (over HTTPS: ``SECURE_DEVICE_COOKIE``).
DEVICE_COOKIE = "sk_device"
#: Sent only to this host, over HTTPS, for every path: nothing else can set it (RFC 6265bis).
SECURE_DEVICE_COOKIE = "__Host-" + DEVICE_COOKIE
KEY_COOKIE_PREFIX = "sk_edit_"
KEY_COOKIE_MAX_AGE = 400 * 24 * 3600  # about the longest browsers keep a cookie
#: Where old per-game key cookies were sent besides their game's pages (they are expired there too).
PEOPLE_PATH = "/players"
ADMIN_SESSION = "admin"
ADMIN_SESSION_SECONDS = 12 * 3600
#: Old key cookies expired in one answer (two Set-Cookie lines each, on their two paths).
MOST_EXPIRED = 12


def init_app(app: Flask) -> None:
    app.config.setdefault("ADMIN_SESSION_SECONDS", ADMIN_SESSION_SECONDS)
    app.config.setdefault("HAND_OVER_SECONDS", HAND_OVER_SECONDS)  # the environment's, else 10 minutes
    app.before_request(take_over_key_cookies)
    app.after_request(_set_cookies)


def cookie_name(game_id: str) -> str:
    """The name of an old per-game key cookie (taken over by the keyring on the first visit)."""
    return KEY_COOKIE_PREFIX + game_id


# -- the keyring -----------------------------------------------------------------------------------


def device() -> str | None:
    """The hash of this browser's device token (the one made during this request, if any)."""
    made = g.get("device_hash")
    if isinstance(made, str):
        return made
    token = _device_token()
    return hash_key(token) if token else None


def _device_token() -> str | None:
    # Over HTTPS, the plain cookie of a phone from before ``__Host-`` counts until its next pencil.
    if request.is_secure and request.cookies.get(SECURE_DEVICE_COOKIE):
        return request.cookies[SECURE_DEVICE_COOKIE]
    return request.cookies.get(DEVICE_COOKIE)


def remember_pencil(device_hash: str, game_id: str) -> None:
    """This request has just given this browser the pencil of ``game_id``."""
    g.setdefault("pencils", {})[game_id] = True


def holds_pencil(game_id: str) -> bool:
    """Whether this browser holds the game's pencil (its keyring has the game): asked once a request."""
    asked: dict[str, bool] = g.setdefault("pencils", {})
    if game_id not in asked:
        device_hash = device()
        asked[game_id] = device_hash is not None and keyring.holds(device_hash, game_id)
    return asked[game_id]


def version_and_pencil(game_id: str) -> tuple[int, bool] | None:
    """The game's version and whether this browser holds its pencil, in one query; None: no game."""
    found = keyring.version_and_pencil(game_id, device())
    if found is None:
        return None
    version, held = found
    asked: dict[str, bool] = g.setdefault("pencils", {})
    asked[game_id] = held or asked.get(game_id, False)  # or its old key cookie let it in
    return version, asked[game_id]


def give_pencil(game_ids: Iterable[str]) -> None:
    """Give this browser the pencil of ``game_ids``; a browser without a device gets one (its cookie)."""
    game_ids = list(game_ids)
    if not game_ids:
        return
    with services.transaction():
        device_hash, token = keyring.device_for_pencil(device())
        keyring.add_pencils(device_hash, game_ids)
    _made_device(device_hash, token)
    for game_id in game_ids:
        remember_pencil(device_hash, game_id)


def _made_device(device_hash: str, token: str) -> None:
    """This browser's device value is now ``token`` (sent as its cookie)."""
    g.device_hash, g.device_token = device_hash, token


def take_hand_over(game_id: str, token: str) -> keyring.HandOverOutcome:
    """Spend a hand-over token and, if it was good, give this browser the game's pencil (one transaction)."""
    with services.transaction():
        outcome = keyring.use_hand_over(game_id, token)
        if outcome is keyring.HandOverOutcome.TAKEN:
            device_hash, made = keyring.device_for_pencil(device())
            keyring.add_pencils(device_hash, [game_id])
    if outcome is keyring.HandOverOutcome.TAKEN:
        _made_device(device_hash, made)
        remember_pencil(device_hash, game_id)
    return outcome


def new_hand_over(game_id: str) -> str:
    """A one-time hand-over token for the game (the caller holds its pencil)."""
    lifetime = timedelta(seconds=float(current_app.config["HAND_OVER_SECONDS"]))
    with services.transaction():
        return keyring.new_hand_over(game_id, lifetime)


def take_over_key_cookies() -> None:
    """Old per-game key cookies: each right key becomes a pencil, once, and every one is expired.

    Runs before a game's pages and the people pages (the only paths those cookies were sent
    to), so the request itself already finds the keyring holding them.  A browser without a
    stored device is let in on its cookies alone and given a device value made for exactly
    those cookies (signed, not stored); only when it shows that value back is the device
    stored.  So a client that keeps no cookie writes nothing however often it comes, and a
    value made for other cookies (planted here) takes nothing.
    """
    if not request.path.startswith(("/games/", PEOPLE_PATH)):
        return
    names = [name for name in request.cookies if name.startswith(KEY_COOKIE_PREFIX)]
    if not names:
        return
    held = {name[len(KEY_COOKIE_PREFIX) :]: request.cookies[name] for name in names if request.cookies[name]}
    games = keyring.games_with_keys(held) if held else []
    token = _device_token() or ""
    device_hash = hash_key(token) if token else None
    holding = keyring.held_of(device_hash, games) if device_hash and games else None
    lacking = [game_id for game_id in games if holding is not None and game_id not in holding]
    if holding is not None and lacking and device_hash and keyring.taken_over_since(device_hash, lacking):
        # Taken over already, into the value this browser was given then: nothing more to store.
        g.setdefault("pencils", {}).update(dict.fromkeys(lacking, True))
    elif holding is not None:  # a stored device: the keys it lacks become pencils (and a new value)
        give_pencil(lacking)
    elif games and device_hash and hmac.compare_digest(token, _made_for(held, token)):
        with services.transaction():  # the value made for these very cookies, shown back
            keyring.add_device(device_hash)
            keyring.add_pencils(device_hash, games)
        g.setdefault("pencils", {}).update(dict.fromkeys(games, True))
    elif games:  # let in on the cookies alone, for this request, and given a value made for them
        g.setdefault("pencils", {}).update(dict.fromkeys(games, True))
        made = _made_for(held, secrets.token_urlsafe(32))
        g.device_hash, g.device_token = hash_key(made), made
        return
    # All are taken over at once; a few are expired per answer, so that its headers stay small
    # (the people pages receive every game's copy): the rest come again, already held.
    g.expired_key_cookies = [name[len(KEY_COOKIE_PREFIX) :] for name in names][:MOST_EXPIRED]


def _made_for(held: dict[str, str], nonce: str) -> str:
    """A device value made for these old key cookies: ``nonce`` (its first part) and a signature."""
    nonce = nonce.split(".", 1)[0]
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    cookies = "\n".join(f"{game_id}={key}" for game_id, key in sorted(held.items()))
    mark = hmac.new(secret, f"scorekeeper-device:{nonce}\n{cookies}".encode(), hashlib.sha256).hexdigest()
    return f"{nonce}.{mark}"


def _set_cookies(response: Response) -> Response:
    token = g.get("device_token")
    if isinstance(token, str):
        secure = request.is_secure
        name = SECURE_DEVICE_COOKIE if secure else DEVICE_COOKIE
        response.set_cookie(
            name, token, max_age=KEY_COOKIE_MAX_AGE, path="/", secure=secure, httponly=True, samesite="Lax"
        )
        if secure and DEVICE_COOKIE in request.cookies:  # the phone's cookie from before __Host-
            response.delete_cookie(DEVICE_COOKIE, path="/", secure=True, httponly=True, samesite="Lax")
    for game_id in g.get("expired_key_cookies", ()):
        for path in (f"/games/{game_id}", PEOPLE_PATH):
            response.delete_cookie(
                cookie_name(game_id), path=path, secure=request.is_secure, httponly=True, samesite="Lax"
            )
    return response


# -- the API ---------------------------------------------------------------------------------------


def bearer_key(request: Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


# -- the administrator -----------------------------------------------------------------------------


def _admin_mark() -> str:
    # Which admin key signed a session in: proof of the key, not the key; a new key signs everyone out.
    secret = str(current_app.config["SECRET_KEY"]).encode("utf-8")
    admin = str(current_app.config["ADMIN_KEY"]).encode("utf-8")
    return hmac.new(secret, b"scorekeeper-admin:" + admin, hashlib.sha256).hexdigest()


def is_admin() -> bool:
    """Whether this browser is signed in as the instance's administrator (an open session on the server)."""
    answer = g.get("is_admin")
    if isinstance(answer, bool):
        return answer
    token = session.get(ADMIN_SESSION)
    answer = isinstance(token, str) and bool(token) and keyring.admin_session_valid(token, _admin_mark())
    g.is_admin = answer
    return answer


def sign_in_admin(key: str) -> bool:
    """Sign this browser in when ``key`` is the admin key (constant-time comparison)."""
    admin = str(current_app.config.get("ADMIN_KEY") or "")
    if not admin or not hmac.compare_digest(key.encode("utf-8"), admin.encode("utf-8")):
        return False
    lifetime = timedelta(seconds=float(current_app.config["ADMIN_SESSION_SECONDS"]))
    before = session.get(ADMIN_SESSION)
    with services.transaction():
        if isinstance(before, str) and before:  # signed in again: the session it replaces ends
            keyring.close_admin_session(before)
        token = keyring.open_admin_session(_admin_mark(), lifetime)
    session[ADMIN_SESSION] = token
    g.is_admin = True
    return True


def sign_out_admin() -> None:
    """End the session on the server (a copy of the cookie no longer works) and in this browser."""
    token = session.pop(ADMIN_SESSION, None)
    if isinstance(token, str) and token:
        with services.transaction():
            keyring.close_admin_session(token)
    g.is_admin = False


# -- a club night's pencil (its director's) and a season's, held in the same keyring -------------------


def holds_club(kind: keyring.Held, owner_id: str) -> bool:
    """Whether this browser holds the pencil of the night or season (``keyring.NIGHT``,
    ``keyring.SEASON``): asked once a request."""
    asked: dict[tuple[str, str], bool] = g.setdefault("club_pencils", {})
    if (kind.owner, owner_id) not in asked:
        asked[(kind.owner, owner_id)] = keyring.holds_club(kind, device(), owner_id)
    return asked[(kind.owner, owner_id)]


def holds_night(night_id: str) -> bool:
    """Whether this browser holds the night's pencil (its director's)."""
    return holds_club(keyring.NIGHT, night_id)


def give_club_pencil(kind: keyring.Held, owner_id: str) -> None:
    """Give this browser the night's or season's pencil (its creator's phone), as ``give_pencil`` a
    game's."""
    with services.transaction():
        device_hash, token = keyring.device_for_pencil(device())
        keyring.add_club_pencil(kind, device_hash, owner_id)
    _made_device(device_hash, token)
    g.setdefault("club_pencils", {})[(kind.owner, owner_id)] = True


def new_club_hand_over(kind: keyring.Held, owner_id: str) -> str:
    """A one-time token handing the night's or season's pencil to another phone (the caller holds it)."""
    lifetime = timedelta(seconds=float(current_app.config["HAND_OVER_SECONDS"]))
    with services.transaction():
        return keyring.new_hand_over(owner_id, lifetime, kind)


def take_club_hand_over(kind: keyring.Held, owner_id: str, token: str) -> keyring.HandOverOutcome:
    """Spend a night's or season's hand-over token and, if it was good, give this browser its pencil."""
    with services.transaction():
        outcome = keyring.use_hand_over(owner_id, token, kind)
        if outcome is keyring.HandOverOutcome.TAKEN:
            device_hash, made = keyring.device_for_pencil(device())
            keyring.add_club_pencil(kind, device_hash, owner_id)
    if outcome is keyring.HandOverOutcome.TAKEN:
        _made_device(device_hash, made)
        g.setdefault("club_pencils", {})[(kind.owner, owner_id)] = True
    return outcome
