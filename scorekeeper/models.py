"""Database models: facts only.  Scores, roles and totals are replayed, never stored."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person, kept across games so history can follow them."""

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

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan", lazy="selectin"
    )

    __table_args__ = (CheckConstraint("first_dealer >= 0", name="first_dealer_seat"),)

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
    """What was declared in one deal and, once played, the tricks by seat."""

    __tablename__ = "deals"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    contract: Mapped[str | None] = mapped_column(String(20))
    bids: Mapped[list[int] | None] = mapped_column(JSON)
    tricks: Mapped[list[int] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="deals")

    # The schema itself makes a second copy of a deal impossible, whatever the code does.
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )
