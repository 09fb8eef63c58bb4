"""Database models: the facts (games, their players and deals, the keyring, club nights).

Scores, roles and totals are replayed from the deals; the figures copied from the replay for the
rankings, the player pages and the ratings are ``stored_figures.py``'s tables.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def today() -> date:
    """The date a game is played on, by default (the server's local date)."""
    return date.today()


NOTE_LENGTH = 200


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person, the same across games so history can follow them."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # casefold() can lengthen a name (ß -> ss), hence the wider column.
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game: its ruleset, options, seating and first dealer, and its deals."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    first_dealer: Mapped[int]
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    # Bumped by every write, in the same transaction: the row lock that serialises
    # writers to one game, and the ETag that lets watching phones poll cheaply.
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    played_on: Mapped[date] = mapped_column(default=today)
    note: Mapped[str | None] = mapped_column(String(NOTE_LENGTH))
    # Made equal to the replay by every write (in the claim that bumps ``version``), so the home
    # page lists games in progress and finished ones from an index, without replaying them.
    finished: Mapped[bool] = mapped_column(default=False, server_default=false())
    # When it finished (the write that stored its last deal; an imported game: the end of the day it
    # was played on), None while it is not: the order its ratings are applied in (``stats.ratings``).
    finished_at: Mapped[datetime | None] = mapped_column(default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan", lazy="selectin"
    )

    __table_args__ = (
        CheckConstraint("first_dealer >= 0", name="first_dealer_seat"),
        # The home page: games in progress, then finished ones, newest first, a page at a time.
        Index("ix_games_listing", "finished", "created_at", "id"),
    )

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(seat.player.name for seat in self.seats)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """A player's place at one game's table (position in seating order)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")

    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        CheckConstraint("position >= 0", name="position_non_negative"),
    )


class Deal(db.Model):  # type: ignore[name-defined,misc]
    """What was declared in one deal and, once played, the tricks (and the game's other facts) by seat."""

    __tablename__ = "deals"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    contract: Mapped[str | None] = mapped_column(String(20))
    bids: Mapped[list[int] | None] = mapped_column(JSON)
    tricks: Mapped[list[int] | None] = mapped_column(JSON)
    facts: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The deal's facts beyond tricks its ruleset declares (``rules.stored_facts``: a suit, counts
    and takers by seat), only those the deal has; None for the games whose deals take tricks alone."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="deals")

    # The schema itself makes a second copy of a deal impossible, whatever the code does.
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )


IDEMPOTENCY_KEY_LENGTH = 64
"""The longest ``Idempotency-Key`` a write takes (API.md: 1-64 characters of A-Z a-z 0-9 - _)."""


class IdempotencyKey(db.Model):  # type: ignore[name-defined,misc]
    """A deal write's ``Idempotency-Key`` and the answer it got, stored for the life of the game.

    Written in the same transaction as the change it answers (a key is stored if and only if
    its change was committed); the same key again is answered from here and changes nothing.
    The primary key makes a key unique within its game, so two requests racing with one key
    cannot both store it.
    """

    __tablename__ = "idempotency_keys"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(IDEMPOTENCY_KEY_LENGTH), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the request's method, path within the game and canonical JSON body."""
    status: Mapped[int]
    answer: Mapped[bytes] = mapped_column(LargeBinary)
    """The answer's body as sent (empty for a 204), compressed (zlib): a game's whole state, which
    a ``PATCH`` answers, is some kilobytes of JSON and a few hundred bytes compressed."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PageVersion(db.Model):  # type: ignore[name-defined,misc]
    """How many committed writes changed one kind of club page (``caching``): its copies' key.

    Bumped in the same transaction as the write, so a cached copy never outlives the data it
    shows, whatever happens to the cache.  A name's version is the sum of its ``SHARDS`` rows,
    and each write bumps one of them at random: writes to different games seldom wait on one row.
    """

    __tablename__ = "page_versions"
    SHARDS = 16

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    shard: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    version: Mapped[int]


class Device(db.Model):  # type: ignore[name-defined,misc]
    """A browser that holds game keys: known by the hash of the random token in its one device cookie.

    The keys a phone holds are its pencils (``Pencil``), stored here and not in cookies, so that no request
    header grows with the number of games a phone has scored (``scorekeeper.access``).
    """

    __tablename__ = "devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The value this one was made from at a new pencil (``keyring.device_for_pencil``): it holds
    #: its keys until this one's own next pencil shows the phone has it.
    replaces: Mapped[str | None] = mapped_column(String(64), index=True, default=None)


class Pencil(db.Model):  # type: ignore[name-defined,misc]
    """One device holds one game's pencil: made when the device created the game (page, import,
    rematch), took the pencil through a hand-over link, or showed the game's old key cookie."""

    __tablename__ = "grants"

    device_hash: Mapped[str] = mapped_column(
        ForeignKey("devices.token_hash", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandOver(db.Model):  # type: ignore[name-defined,misc]
    """A hand-over link's one-time token (its hash): good for one phone, until it expires."""

    __tablename__ = "hand_overs"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class AdminSession(db.Model):  # type: ignore[name-defined,misc]
    """The administrator signed in on one browser: its session holds the token, the server its hash.

    Signing out deletes the row, so a copied session cookie stops working with it; ``key_mark``
    proves which admin key signed it in (a new key signs everyone out).
    """

    __tablename__ = "admin_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    key_mark: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)


NIGHT_NAME_LENGTH = 80


class Night(db.Model):  # type: ignore[name-defined,misc]
    """A club night (CLUB.md): one game and preset, the players present, its rounds of tables.

    Its facts only: who came (``night_players``), how each round was seated (``night_rounds``,
    ``night_tables``) and each table's ordinary game; its standings are derived from those games'
    stored figures when read, so a correction at a table moves them at once.
    """

    __tablename__ = "nights"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(NIGHT_NAME_LENGTH))
    ruleset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The table games' options (the preset), as a game's."""
    rounds: Mapped[int | None]
    """How many rounds the night has (Mix plans them all at once); None: not set."""
    seating: Mapped[str] = mapped_column(String(10))
    """``mix`` or ``swiss`` (from round 2)."""
    first_round: Mapped[str] = mapped_column(String(10))
    """``random`` (from ``seed``), ``order`` (the director's order of the players) or ``rating`` (the
    ordinal of the night's rating, highest first; the players without one after, in the seed's draw)."""
    seed: Mapped[int]
    hide_standings: Mapped[bool] = mapped_column(default=False)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=0)
    """Bumped by every write to the night (its lock), and its pages' ETag."""
    played_on: Mapped[date] = mapped_column(default=today)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    clock_started_at: Mapped[datetime | None]
    clock_minutes: Mapped[int] = mapped_column(default=45)

    __table_args__ = (
        CheckConstraint("seating IN ('mix', 'swiss')", name="night_seating"),
        CheckConstraint("first_round IN ('random', 'order', 'rating')", name="night_first_round"),
        CheckConstraint("rounds IS NULL OR rounds >= 1", name="night_rounds_positive"),
        Index("ix_nights_created_at", "created_at"),
        Index("ix_nights_ruleset_played_on", "ruleset", "played_on"),
    )


class Season(db.Model):  # type: ignore[name-defined,misc]
    """A season (CLUB.md "Seasons"): the nights of one game and preset played between two dates, each
    player ranked by their ``best`` nights.  Only its definition is stored: its table is read from the
    nights' standings, so a correction at any table moves it."""

    __tablename__ = "seasons"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(NIGHT_NAME_LENGTH))
    ruleset: Mapped[str] = mapped_column(String(20))
    preset: Mapped[str] = mapped_column(String(20))
    """The preset whose nights count (a night's ``options`` name it, or the ruleset's first)."""
    starts_on: Mapped[date]
    ends_on: Mapped[date]
    best: Mapped[int] = mapped_column(default=10)
    """How many of a player's nights count."""
    edit_key_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """Its key's hash (as a night's); None: made before seasons had one, so nobody may change it."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        CheckConstraint("best >= 1", name="season_best_positive"),
        CheckConstraint("ends_on >= starts_on", name="season_dates_in_order"),
        Index("ix_seasons_created_at", "created_at"),
    )


class NightPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player present at a night: from which round, and after which round they left."""

    __tablename__ = "night_players"

    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    position: Mapped[int]
    """The director's order (check-in order unless moved): round 1's order when seated in order."""
    from_round: Mapped[int] = mapped_column(default=1)
    left_after: Mapped[int | None]
    """The last round they played before leaving; None: still here."""


class NightRound(db.Model):  # type: ignore[name-defined,misc]
    """A round of a night: seated (planned, may still change) or started (its tables' games made)."""

    __tablename__ = "night_rounds"

    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    sitting_out: Mapped[list[int]] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime | None]

    __table_args__ = (CheckConstraint("number >= 1", name="night_round_positive"),)


class NightTable(db.Model):  # type: ignore[name-defined,misc]
    """A table of a round: its seats (player ids in seat order), its first dealer and, once the round
    starts, its ordinary game."""

    __tablename__ = "night_tables"

    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    seats: Mapped[list[int]] = mapped_column(JSON)
    first_dealer: Mapped[int]
    """The first dealer's player id."""
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), unique=True, default=None
    )
    closed_at: Mapped[datetime | None]
    """Set when the director closed the table before its game ended: it scores as it stands."""
    link_generation: Mapped[int] = mapped_column(default=0)
    """Which of the table's scoring links is good (the director renews it: the next one)."""

    __table_args__ = (CheckConstraint("number >= 1", name="night_table_positive"),)


class NightPencil(db.Model):  # type: ignore[name-defined,misc]
    """One device holds one night's pencil (the director's): as a game's pencil is held, for a night."""

    __tablename__ = "night_pencils"

    device_hash: Mapped[str] = mapped_column(
        ForeignKey("devices.token_hash", ondelete="CASCADE"), primary_key=True
    )
    night_id: Mapped[str] = mapped_column(
        ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class NightHandOver(db.Model):  # type: ignore[name-defined,misc]
    """A night's hand-over link's one-time token (its hash), as a game's."""

    __tablename__ = "night_hand_overs"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class SeasonPencil(db.Model):  # type: ignore[name-defined,misc]
    """One device holds one season's pencil (its creator's, or handed over): as a night's."""

    __tablename__ = "season_pencils"

    device_hash: Mapped[str] = mapped_column(
        ForeignKey("devices.token_hash", ondelete="CASCADE"), primary_key=True
    )
    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SeasonHandOver(db.Model):  # type: ignore[name-defined,misc]
    """A season's hand-over link's one-time token (its hash), as a night's."""

    __tablename__ = "season_hand_overs"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    season_id: Mapped[str] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
