"""Seasons (CLUB.md "Seasons"): the nights of one game and preset played between two dates, each
player ranked by their best nights.

Only a season's definition is stored; its table is read from the nights' tables and their games'
stored figures (``game_results``) in three queries, whatever the number of nights, and
ranked by the pure ``nights.points``: each night's standings, as the night's own page shows them,
become a line per player who played a table, and ``season_table`` keeps each one's best nights and
sets each row's trend since the table before the latest night.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from ...errors import not_found, refusal
from ...extensions import db, game_changed
from ...models import Night, NightTable, Player, Season, utcnow
from ...nights.points import (
    SEASON_BEST_NIGHTS,
    SEASON_LISTED_FROM,
    SeasonStanding,
    TableResult,
    night_lines,
    night_standings,
    season_table,
)
from ...rules import N_, RULESETS, RuleError, Ruleset, get_ruleset
from ...stored_figures import GameResult
from ..keys import hash_key, new_edit_key, new_game_id
from ..store import plausible_id, transaction
from .create import parse_night_name, whole_number
from .view import night_seat_counts, preset_of

MOST_BEST_NIGHTS = 100
"""The most nights a season may count per player."""
MOST_SEASONS_LISTED = 200


@dataclass(frozen=True)
class SeasonNight:
    """A night of the season, as its table names it."""

    id: str
    name: str
    played_on: date


@dataclass(frozen=True)
class SeasonView:
    id: str
    name: str
    ruleset: Ruleset
    preset: str
    starts_on: date
    ends_on: date
    best: int
    edit_key_hash: str | None = None
    """Its key's hash; None: made before seasons had a key, so nobody holds its pencil."""
    nights: tuple[SeasonNight, ...] = ()
    standings: tuple[SeasonStanding, ...] = ()
    names: Mapping[int, str] | None = None
    listed_from: int = SEASON_LISTED_FROM

    @property
    def options(self) -> dict[str, str]:
        return {self.ruleset.preset_option: self.preset} if self.ruleset.preset_option else {}

    @property
    def preset_label(self) -> str:
        return preset_of(self.ruleset, self.options)

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return night_seat_counts(self.ruleset, self.options)


def _preset_id(ruleset: Ruleset, options: Mapping[str, object]) -> str:
    chosen = options.get(ruleset.preset_option or "", ruleset.presets[0].id)
    return str(chosen)


def _season_date(raw: object, field_name: str) -> date:
    if isinstance(raw, date):
        return raw
    try:
        day = date.fromisoformat(str(raw or "").strip())
    except ValueError:
        raise RuleError(
            "invalid_season", N_("Give the date as year-month-day, e.g. 2026-03-14."), field_name
        ) from None
    if day.year < 1900:
        raise RuleError("invalid_season", N_("That date is too long ago."), field_name)
    return day


@dataclass(frozen=True)
class _Definition:
    name: str
    ruleset: str
    preset: str
    starts_on: date
    ends_on: date
    best: int


def _checked(
    name: object,
    ruleset_id: object,
    options: Mapping[str, object] | None,
    starts_on: object,
    ends_on: object,
    best: object,
) -> _Definition:
    """A season's settings as given, checked in the order of its form; a ``RuleError`` at the field."""
    ruleset = get_ruleset(ruleset_id)
    checked = dict(ruleset.validate_options(dict(options or {})))
    if not night_seat_counts(ruleset, checked):
        raise RuleError("invalid_options", N_("This preset cannot be played at a club night."), "options")
    try:
        title = parse_night_name(name)
    except RuleError:
        raise RuleError("invalid_season", N_("Give the season a name."), "name") from None
    first = _season_date(starts_on, "starts_on")
    last = _season_date(ends_on, "ends_on")
    if last < first:
        raise RuleError("invalid_season", N_("The season cannot end before it starts."), "ends_on")
    message = N_("Best nights: a whole number from %(low)d to %(high)d.")
    try:
        counted = whole_number(
            SEASON_BEST_NIGHTS if best is None or not str(best).strip() else best,
            "best",
            1,
            MOST_BEST_NIGHTS,
            message,
        )
    except RuleError:
        raise RuleError("invalid_season", message, "best", {"low": 1, "high": MOST_BEST_NIGHTS}) from None
    return _Definition(title, ruleset.id, _preset_id(ruleset, checked), first, last, counted)


def create_season(
    name: object,
    ruleset_id: object,
    options: Mapping[str, object] | None = None,
    *,
    starts_on: object,
    ends_on: object,
    best: object = SEASON_BEST_NIGHTS,
) -> tuple[str, str]:
    """A new season of ``ruleset_id`` played with ``options`` (the preset) from ``starts_on`` to
    ``ends_on`` (both included), each player's ``best`` nights counting: its id and its key, shown
    once (the API's Bearer key; the page's creator holds the season's pencil instead), as a night's."""
    given = _checked(name, ruleset_id, options, starts_on, ends_on, best)
    season_id, key = new_game_id(), new_edit_key()
    with transaction():
        db.session.add(Season(id=season_id, **vars(given), edit_key_hash=hash_key(key), created_at=utcnow()))
    return season_id, key


def _stored(season_id: str) -> Season:
    if not plausible_id(season_id):
        raise not_found("season")
    row = db.session.get(Season, season_id)
    if row is None or row.ruleset not in RULESETS:
        raise not_found("season")
    return row


def refuse_keyless(season: SeasonView) -> None:
    """Refuse a change to a season made before seasons had a key (nobody holds its pencil): 403."""
    if season.edit_key_hash is None:
        raise refusal(
            "bad_key",
            N_(
                "This season was created before seasons had an owner: nobody holds its pencil, "
                "so it cannot be changed or deleted."
            ),
            None,
        )


def edit_season(season_id: str, changes: Mapping[str, object]) -> None:
    """Change a season's settings: any of ``name``, ``ruleset`` with ``options`` (its ranking),
    ``starts_on``, ``ends_on``, ``best``; a setting absent or None stays as it is (``options`` absent
    with the same ruleset: the same preset; with another ruleset: its first preset). Checked as a new
    season's, all at once: a refusal changes nothing. Only the definition changes: the table is read
    from the nights again. ``not_found`` for an unknown season."""
    with transaction():
        row = _stored(season_id)

        def given(key: str, current: object) -> object:
            value = changes.get(key)
            return current if value is None else value

        ruleset_id = given("ruleset", row.ruleset)
        options = changes.get("options")
        if options is None:
            same = ruleset_id == row.ruleset
            ranking = get_ruleset(ruleset_id)
            options = {ranking.preset_option: row.preset} if same and ranking.preset_option else {}
        checked = _checked(
            given("name", row.name),
            ruleset_id,
            options,  # type: ignore[arg-type]
            given("starts_on", row.starts_on),
            given("ends_on", row.ends_on),
            given("best", row.best),
        )
        for key, value in vars(checked).items():
            setattr(row, key, value)
        game_changed.send(None, nights=True)  # its cached page is drawn again


def delete_season(season_id: str) -> None:
    """Delete a season's definition; its nights and their games stay as they are. ``not_found``."""
    with transaction():
        db.session.delete(_stored(season_id))
        game_changed.send(None, nights=True)


def list_seasons(most: int = MOST_SEASONS_LISTED) -> list[SeasonView]:
    """The seasons, the latest ending first (one query); their tables are not read."""
    rows = db.session.execute(
        select(Season).order_by(Season.ends_on.desc(), Season.created_at.desc()).limit(most)
    ).scalars()
    return [_view(row) for row in rows if row.ruleset in RULESETS]


def _view(row: Season, **read: object) -> SeasonView:
    return SeasonView(
        id=row.id,
        name=row.name,
        ruleset=get_ruleset(row.ruleset),
        preset=row.preset,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        best=row.best,
        edit_key_hash=row.edit_key_hash,
        **read,  # type: ignore[arg-type]
    )


def load_season(season_id: str) -> SeasonView:
    """The season with its nights and its table (three queries, whatever its nights); ``not_found``."""
    row = _stored(season_id)
    ruleset = get_ruleset(row.ruleset)
    nights = [
        night
        for night in db.session.execute(
            select(Night)
            .where(Night.ruleset == row.ruleset, Night.played_on.between(row.starts_on, row.ends_on))
            .order_by(Night.played_on, Night.created_at)
        ).scalars()
        if _preset_id(ruleset, night.options or {}) == row.preset
    ]
    ids = [night.id for night in nights]
    # Every started table with its game's figures and its players' names, in one query.
    tables: dict[tuple[str, int, int], tuple[int, ...]] = {}
    figures: dict[tuple[str, int, int], dict[int, tuple[int, int, bool]]] = {}
    names: dict[int, str] = {}
    if ids:
        for found in db.session.execute(
            select(
                NightTable.night_id,
                NightTable.round,
                NightTable.number,
                NightTable.seats,
                GameResult.player_id,
                GameResult.total,
                GameResult.rank,
                GameResult.finished,
                Player.name,
            )
            .join(GameResult, GameResult.game_id == NightTable.game_id)
            .join(Player, Player.id == GameResult.player_id)
            .where(NightTable.night_id.in_(ids))
        ):
            key = (found.night_id, found.round, found.number)
            tables[key] = tuple(int(player) for player in found.seats)
            figures.setdefault(key, {})[found.player_id] = (found.total, found.rank, found.finished)
            names[found.player_id] = found.name
    results: dict[str, list[TableResult]] = {}
    for (night_id, round_number, number), seats in sorted(tables.items()):
        got = figures[(night_id, round_number, number)]
        if not all(player in got for player in seats):
            continue
        results.setdefault(night_id, []).append(
            TableResult(
                round=round_number,
                table=number,
                players=seats,
                places=tuple(got[player][1] for player in seats),
                totals=tuple(got[player][0] for player in seats),
                finished=all(got[player][2] for player in seats),
            )
        )
    # A night's position in the season stands for it in the lines (the earlier night first on ties).
    lines = []
    for position, night in enumerate(nights):
        played = results.get(night.id, [])
        players = {player for result in played for player in result.players}
        lines.extend(night_lines(position, night_standings(players, played)))
    standings = season_table(lines, best=row.best)
    return _view(
        row,
        nights=tuple(SeasonNight(night.id, night.name, night.played_on) for night in nights),
        standings=standings,
        names=names,
    )
