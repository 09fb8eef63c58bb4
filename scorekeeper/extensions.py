"""Flask extensions, created at import and bound to an app in ``create_app``."""

from __future__ import annotations

from blinker import Namespace
from flask import current_app
from flask_babel import gettext
from flask_compress import Compress
from flask_limiter import Limiter
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from .limits import client_address

# Named constraints make migrations reproducible on SQLite and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
# Registered by hand (COMPRESS_REGISTER off): ``scorekeeper.compression`` calls it.
compress = Compress()
# Keyed by the client's address in one spelling, an IPv6 client by its /64 (``limits.client_address``;
# behind a proxy, set SCOREKEEPER_PROXY_HOPS so it is the real one).
# Storage, limits and on/off come from the app's config (RATELIMIT_*, GAME_CREATE_RATE_LIMIT).
limiter = Limiter(key_func=client_address)
#: Sent by every write that changes a game or a name, in its transaction, with ``players`` (the ids
#: whose pages change) and ``standings`` (whether the rankings do), and by every write to a club night
#: with ``nights``: ``caching`` listens.
game_changed = Namespace().signal("game-changed")


def game_create_rate_limit() -> str:
    """Games one client address may create (config ``GAME_CREATE_RATE_LIMIT``); over it: 429 rate_limited."""
    return str(current_app.config["GAME_CREATE_RATE_LIMIT"])


def too_many_games() -> str:
    """What a client over the creation budget is told (the page, or the API's error message)."""
    return str(
        gettext(
            "Too many games have been started from this connection in a short time. "
            "Wait a while and try again; the games already started are safe."
        )
    )


#: One budget for every way of creating a game, counted together per client address: the API's
#: create and import, the new-game and import pages, the rematch. A shared limit (one scope), on
#: the POST only, checked before the view reads the body: a refused request costs no parsing, and
#: every post counts, a refused one too. Stored where RATELIMIT_STORAGE_URI says.
limit_game_creation = limiter.shared_limit(
    game_create_rate_limit, scope="game_creation", methods=["POST"], error_message=too_many_games
)
