"""Export a game as facts (JSON, or a CSV deal log for spreadsheets) and import it back as a new game.

The JSON export holds only what happened at the table, like the database:
ruleset, options, seating, first dealer, when and where (date, note), and
per deal its number, contract, bids and tricks keyed by player name (and the deal's other facts
its game declares, API.md K4).
Importing replays those facts through the rules engine exactly as if they
had been entered one by one, so a file that breaks a rule is refused with
the engine's own message and nothing is stored; a good file becomes a new
game (new id, new edit key) with the same scores and the same scoresheet.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from . import services
from .errors import Kind, about_deal, kind_of
from .extensions import db
from .models import Game, utcnow
from .rules import (
    COUNT,
    N_,
    ONE_PLAYER,
    ORDER,
    PAIRS,
    SUIT,
    DealRecord,
    GameSetup,
    GameState,
    RuleError,
    Ruleset,
    every_fact,
    get_ruleset,
)
from .services import Snapshot

FORMAT = "scorekeeper-game"
VERSION = 1
#: The fields of an export, in the order they are written.
FIELDS = (
    "format",
    "version",
    "ruleset",
    "options",
    "players",
    "first_dealer",
    "created_at",
    "played_on",
    "note",
    "deals",
)


def deal_fields() -> tuple[str, ...]:
    """The fields of an exported deal, of every registered game."""
    return ("number", "contract", "bids", "tricks", *every_fact())


#: A cell starting with one of these is read as a formula by spreadsheets (OWASP, CSV injection:
#: = + - @, a tab, a line break), and the minus sign some read as "-".  Judged once the text is
#: NFKC-normalised, as spreadsheets read full-width and small forms: "＝", "﹦", "＋", "⁺", "＠", "－".
FORMULA_STARTS = frozenset("=+-@\t\r\n\u2212")


class ImportRefused(RuleError):
    """A file that cannot become a game; ``code`` is ``invalid_export`` or the engine's rule code."""


def _refuse(
    template: str, field: str | None = None, code: str = "invalid_export", **params: object
) -> ImportRefused:
    return ImportRefused(code, template, field, params)


# -- export ----------------------------------------------------------------------------------------


def export_game(loaded: Snapshot) -> dict[str, Any]:
    """The game's facts as a JSON-ready dict (no id, no key, nothing derived)."""
    ruleset, setup, state = loaded.ruleset, loaded.setup, loaded.state
    names = setup.players

    def by_name(values: Sequence[int] | None) -> dict[str, int] | None:
        return None if values is None else dict(zip(names, values, strict=True))

    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": setup.ruleset,
        "options": setup.options_dict,
        "players": list(names),
        "first_dealer": names[setup.first_dealer],
        "created_at": loaded.created_at.replace(tzinfo=UTC).isoformat(),
        "played_on": loaded.played_on.isoformat(),
        "note": loaded.note,
        "deals": [
            {
                "number": deal.number,
                "contract": deal.contract,
                "bids": by_name(deal.bids),
                "tricks": by_name(deal.tricks),
                **ruleset.named_facts(setup, record),
            }
            for deal, record in zip(state.deals, loaded.records, strict=True)
        ],
    }


def spreadsheet_safe(text: str) -> str:
    """Text as a CSV cell no spreadsheet will run as a formula (OWASP: prefix a single quote).

    A cell is guarded when its first character that is not white space is a formula's start once
    normalised (``FORMULA_STARTS``): "=SUM(A1)", "＝SUM(A1)" and "⩵1" alike.
    """
    read = unicodedata.normalize("NFKC", text).lstrip()
    return "'" + text if read[:1] in FORMULA_STARTS else text


def _cells(row: Sequence[object]) -> list[object]:
    """A CSV row with every text cell made formula-safe; numbers stay numbers (-2 is still -2)."""
    return [spreadsheet_safe(cell) if isinstance(cell, str) else cell for cell in row]


def _same(message: str) -> str:
    return message


# NOTE: column headings of the CSV deal log, one per player and figure ("Ann tricks").
PER_PLAYER = (N_("%(player)s bid"), N_("%(player)s tricks"), N_("%(player)s score"), N_("%(player)s total"))

# NOTE A redoubled double in a deal's list of doubles ("Ce×Al R"): keep it one letter.
REDOUBLED = N_("R")


def heading_of(what: str, translate: Callable[[str], str], figures: Sequence[str] = ()) -> str:
    """A per-player heading ("%(player)s score"), translated; one of a game's ``figures`` (its label,
    "Contract points") as "%(player)s " and the label translated."""
    return "%(player)s " + translate(what) if what in figures else translate(what)


def export_csv(loaded: Snapshot, translate: Callable[[str], str] = _same) -> str:
    """The deal log as CSV: a header row, then one row per deal.

    Columns: deal, dealer, chooser, contract, then the game's facts that are not counts (a suit, who
    took a card or a trick, an order of players: each fact's ``columns``), then for each figure in
    turn (bid, only in a game with bids; tricks; the game's counts; score; running total) one
    column per player in seating order, as on the scoresheet.  A pending deal leaves its figures
    empty.  Every text cell is made formula-safe (``spreadsheet_safe``): names, headings and
    contracts alike; numbers stay numbers, so a score of -2 is still -2 in the spreadsheet.  The
    header and the contracts are in English, or in the language ``translate`` (gettext) speaks.
    """
    ruleset, setup, state = loaded.ruleset, loaded.setup, loaded.state
    names = list(setup.players)
    with_bids = any(ruleset.bids_in(number) for number in range(1, ruleset.deal_count + 1))
    facts = [ruleset.fact(name) for name in ruleset.facts]
    counts = [fact for fact in facts if fact.kind == COUNT]
    single = [fact for fact in facts if fact.kind != COUNT]
    bid, tricks, score, total = PER_PLAYER
    # A game's figures beyond the score (contract points and doubling result, say), before the score.
    figure_columns = [label for _name, label, _short in ruleset.figure_words]
    per_player = (
        ([bid] if with_bids else [])
        + [tricks]
        + [fact.columns[0] for fact in counts]
        + figure_columns
        + [score, total]
    )

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    # NOTE: column headings of the CSV deal log.
    heading = [N_("deal"), N_("dealer"), N_("chooser"), N_("contract")]
    heading += [column for fact in single for column in fact.columns]
    writer.writerow(
        _cells(
            [translate(word) for word in heading]
            + [
                heading_of(what, translate, figure_columns) % {"player": name}
                for what in per_player
                for name in names
            ]
        )
    )

    def name(seat: int | None) -> str:
        return "" if seat is None else names[seat]

    for deal in state.deals:
        row: list[object] = [
            deal.number,
            names[deal.dealer],
            name(deal.chooser),
            translate(ruleset.contract_label(deal.contract)),
        ]
        for fact in single:
            value = deal.fact(fact.id)
            if fact.kind == SUIT:
                row.append("" if value is None else translate(dict(fact.choices)[value]))
            elif fact.kind == ORDER:
                row += [name(seat) for seat in value or (None,) * len(fact.places)]
            elif fact.kind == ONE_PLAYER:
                row.append(name(value))
            elif fact.kind == PAIRS:  # side bets: "Bartek×Ala; Celina×Ala R" (R: raised, redoubled)
                raised = translate(REDOUBLED)
                row.append(
                    "; ".join(
                        f"{names[by]}×{names[against]}" + (f" {raised}" if up else "")
                        for by, against, up in value or ()
                    )
                )
            else:  # a kind of a game's own: as the API gives it, in JSON
                given = fact.by_name(names, value)
                row.append("" if value is None else json.dumps(given, ensure_ascii=False))
        columns = (
            ([deal.bids] if with_bids else [])
            + [deal.tricks]
            + [deal.fact(fact.id) for fact in counts]
            + [dict(deal.figures).get(name) for name, _label, _short in ruleset.figure_words]
            + [deal.scores, deal.totals]
        )
        for values in columns:
            row += [""] * len(names) if values is None else list(values)
        writer.writerow(_cells(row))
    return out.getvalue()


# -- import ----------------------------------------------------------------------------------------


def import_game(data: object) -> tuple[Snapshot, str]:
    """Store the game described by an export as a new game; returns it with its new edit key.

    Everything is checked first, by replaying every deal through the rules engine; then the
    game is created with its deals, as any game is (``services.add_game``, one transaction).
    A bad file raises ``RuleError`` (``ImportRefused``) and stores nothing.
    """
    checked = validate_export(data)
    return services.add_game(
        checked.ruleset,
        checked.setup,
        checked.records,
        played_on=checked.played_on,
        note=checked.note,
        created_at=checked.created_at,
    )


# -- the checks ------------------------------------------------------------------------------------


def same_game_here(checked: CheckedExport) -> str | None:
    """The id of a game already stored that this export describes, if any.

    An export keeps its game's creation time to the microsecond, so a game with that
    time, ruleset and seating is the exported game itself (or an earlier import of it).
    """
    if checked.created_at is None:
        return None
    candidates = db.session.execute(
        db.select(Game).where(Game.ruleset == checked.ruleset.id, Game.created_at == checked.created_at)
    ).scalars()
    for game in candidates:
        if tuple(seat.player.name for seat in sorted(game.seats, key=lambda s: s.position)) == tuple(
            checked.setup.players
        ):
            return str(game.id)
    return None


@dataclass(frozen=True)
class CheckedExport:
    """An export that passed every check, ready to store."""

    ruleset: Ruleset
    setup: GameSetup
    created_at: datetime | None
    played_on: date
    note: str | None
    records: list[DealRecord]
    state: GameState


def validate_export(data: object) -> CheckedExport:
    """Check an export completely (shape, then every rule by replay) without writing anything."""
    if not isinstance(data, Mapping):
        raise _refuse(N_("The file must hold one JSON object (a Scorekeeper game export)."))
    unknown = [str(key) for key in data if key not in FIELDS]
    if unknown:
        raise _refuse(
            N_("Unknown field %(given)s in the file; an export has %(fields)s."),
            given=repr(unknown[0][:40]),
            fields=", ".join(FIELDS),
        )
    if data.get("format") != FORMAT:
        raise _refuse(
            N_('This is not a Scorekeeper game export (its "format" must be "%(format)s").'),
            "format",
            format=FORMAT,
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        raise _refuse(
            N_("This file is export version %(given)s; this Scorekeeper reads version %(version)d."),
            "version",
            given=str(version)[:20],
            version=VERSION,
        )
    ruleset = get_ruleset(data.get("ruleset"))
    options = data.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise _refuse(N_("The options must be an object, e.g. {}."), "options")
    players = data.get("players")
    if not isinstance(players, list):
        raise RuleError("invalid_players", N_("The players must be a list of names."), "players")
    first_dealer = data.get("first_dealer")
    if not isinstance(first_dealer, str):
        raise RuleError("unknown_player", N_("The file must name the first dealer."), "first_dealer")
    setup = ruleset.make_setup(players, first_dealer, options)
    created_at = _timestamp(data.get("created_at"))
    # An export without a date (written by hand) was played the day it was started, else today.
    played_on = data.get("played_on")
    if played_on is None and created_at is not None:
        played_on = created_at.date()
    day = services.parse_played_on(played_on)
    note = services.parse_note(data.get("note"))

    deals = data.get("deals")
    if not isinstance(deals, list):
        raise _refuse(N_("The deals must be a list (it may be empty)."), "deals")
    if len(deals) > ruleset.deals_in(setup):
        raise _refuse(
            N_("%(game)s has %(count)d deals; this file has %(got)d."),
            "deals",
            game=ruleset.term,
            count=ruleset.deals_in(setup),
            got=len(deals),
        )
    records: list[DealRecord] = []
    state = ruleset.replay(setup, records)
    for number, raw in enumerate(deals, start=1):
        try:
            records.append(_deal_record(ruleset, setup, number, raw))
            # Replaying after each deal names the deal that breaks a rule (18 deals: cheap).
            state = ruleset.replay(setup, records)
        except RuleError as refused:
            # Codes that mean "the table moved on" in a live game: in a file they are just a bad file.
            code = "invalid_export" if kind_of(refused.code) is Kind.CONFLICT else refused.code
            said = about_deal(number, refused)
            raise ImportRefused(code, said.template, "deals", said.params) from None
    return CheckedExport(ruleset, setup, created_at, day, note, records, state)


def _deal_record(ruleset: Ruleset, setup: GameSetup, number: int, raw: object) -> DealRecord:
    if not isinstance(raw, Mapping):
        raise _refuse(N_("each deal must be an object with number, contract, bids and tricks."))
    fields = deal_fields()
    unknown = [str(key) for key in raw if key not in fields]
    if unknown:
        raise _refuse(
            N_("unknown field %(given)s; a deal has %(fields)s."),
            given=repr(unknown[0][:40]),
            fields=", ".join(fields),
        )
    given = raw.get("number")
    if not isinstance(given, int) or isinstance(given, bool) or given != number:
        raise _refuse(
            N_("the deals must be numbered 1, 2, 3... in order (found %(given)s)."), given=str(given)[:20]
        )
    bids, tricks = raw.get("bids"), raw.get("tricks")
    # The file keys every per-player value by name, never by position.
    if bids is not None and not isinstance(bids, Mapping):
        raise RuleError("bids_required", N_("the bids must be an object keyed by player name."), "bids")
    if tricks is not None and not isinstance(tricks, Mapping):
        raise RuleError("tricks_players", N_("the tricks must be an object keyed by player name."), "tricks")
    # Each game's own facts, and any other given (refused as a fact its game does not take).
    facts = {
        name: raw.get(name) for name in every_fact() if name in ruleset.facts or raw.get(name) is not None
    }
    for name, fact in every_fact().items():
        if fact.messages and facts.get(name) is not None and not isinstance(facts[name], Mapping):
            raise RuleError("count_players", fact.messages.each, name)
    return ruleset.parse_deal(setup, number, contract=raw.get("contract"), bids=bids, tricks=tricks, **facts)


def _timestamp(raw: object) -> datetime | None:
    """``created_at`` as stored (naive UTC); absent or null means "now".

    Checked like ``played_on``: not in the future (a day's slack for time zones), not
    before 1900; a game from year 9999 would head the list of games forever.
    """
    if raw is None:
        return None
    if isinstance(raw, str) and len(raw) <= 40:
        try:
            moment = datetime.fromisoformat(raw)
            if moment.tzinfo is not None:
                moment = moment.astimezone(UTC).replace(tzinfo=None)
        except (ValueError, OverflowError):
            pass
        else:
            if moment > utcnow() + timedelta(days=1):
                raise _refuse(N_("created_at cannot be in the future."), "created_at")
            if moment.year < 1900:
                raise _refuse(N_("created_at is too long ago."), "created_at")
            return moment
    raise _refuse(N_("created_at must be a date and time like 2025-11-22T17:15:03+00:00."), "created_at")
