"""JSON API v1 for club nights (CLUB.md) and seasons: the same services as their pages.

Reading a night and checking in need no key (as the night's pages and its check-in QR code); every
other write needs the night's key as ``Authorization: Bearer``, the key the creation answered with.
A season the same: anyone reads or creates one; changing or deleting it needs its key.
"""

from __future__ import annotations

from flask import Response, current_app, request, url_for

from .. import access
from ..errors import refusal
from ..extensions import limit_game_creation
from ..rules import N_
from ..services import nights as club
from ..services.keys import hash_matches
from . import bp, club_answers, shapes
from .routes import given, json_response, no_cache, parse_body


def _state(night: club.NightView, director: bool) -> club_answers.NightState:
    names = night.names
    link = club.TableLink(str(current_app.config["SECRET_KEY"]))
    rounds = []
    for seated in night.rounds:
        tables = []
        for table in seated.tables:
            if table.finished:
                state = "finished"
            elif table.closed:
                state = "unfinished"
            else:
                state = "playing" if table.game_id else "seated"
            scoring = None
            if director and table.game_id is not None and not table.done:
                token = link(night.id, seated.number, table.number, table.link_generation)
                scoring = url_for("web.take_pencil", game_id=table.game_id, _external=True) + "#" + token
            tables.append(
                club_answers.NightTable(
                    number=table.number,
                    players=[names[p] for p in table.seats],
                    first_dealer=names[table.first_dealer],
                    game_id=table.game_id,
                    state=state,
                    scoring_link=scoring,
                )
            )
        rounds.append(
            club_answers.NightRound(
                number=seated.number,
                started=seated.started,
                repeats=night.repeats_of(seated),
                sitting_out=[names[p] for p in seated.sitting_out],
                tables=tables,
            )
        )
    standings = None
    if director or not night.standings_hidden:
        standings = [
            club_answers.NightStanding(
                rank=row.rank,
                player=names[row.player],
                points=row.points,
                margin=round(float(row.margin), 4),
                tables=row.tables,
                unfinished=any(score.unfinished for score in row.scores),
            )
            for row in night.standings
        ]
    return club_answers.NightState(
        id=night.id,
        name=night.name,
        ruleset=night.ruleset.id,
        options=dict(night.options),
        seat_counts=list(night.seat_counts),
        rounds=night.rounds_planned,
        seating=night.seating,
        first_round=night.first_round,
        seed=night.seed,
        hide_standings=night.hide_standings,
        version=night.version,
        players=[
            club_answers.NightPlayer(id=p.id, name=p.name, from_round=p.from_round, left_after=p.left_after)
            for p in night.players
        ],
        rounds_seated=rounds,
        standings=standings,
    )


def _director(night_id: str) -> club.NightView:
    """The night once the request shows its key (401 without one, 403 with another)."""
    night = club.load_night(night_id)
    key = access.bearer_key(request)
    if key is None:
        raise refusal(
            "auth_required", N_("Changing a night needs its key: Authorization: Bearer <key>."), None
        )
    if not hash_matches(night.edit_key_hash, key):
        raise refusal("bad_key", N_("That key does not belong to this night."), None)
    return night


def _answer(night_id: str, status: int = 200) -> Response:
    return no_cache(json_response(_state(club.load_night(night_id), director=True), status))


@bp.post("/nights")
@limit_game_creation
def create_night() -> Response:
    """A new night; its key comes once, in this answer (the API's director holds it)."""
    body = given(parse_body(shapes.CreateNight))
    night_id, key = club.create_night(
        body.get("name"),
        body.get("ruleset"),
        body.get("options"),
        rounds=body.get("rounds"),
        seating=body.get("seating") or "mix",
        first_round=body.get("first_round") or "random",
        hide_standings=bool(body.get("hide_standings")),
        played_on=body.get("played_on"),
        seed=body.get("seed"),
    )
    state = _state(club.load_night(night_id), director=True)
    created = club_answers.NightCreated(**state.model_dump(), key=key)
    response = no_cache(json_response(created, 201))
    response.headers["Location"] = url_for("api.night", night_id=night_id)
    return response


@bp.get("/nights/<night_id>")
def night(night_id: str) -> Response:
    """The night: players, rounds and tables, standings (null while hidden, unless the key is shown)."""
    found = club.load_night(night_id)
    key = access.bearer_key(request)
    director = key is not None and hash_matches(found.edit_key_hash, key)
    return no_cache(json_response(_state(found, director)))


@bp.post("/nights/<night_id>/players")
def night_check_in(night_id: str) -> Response:
    """Check a player in (from the next round), as the check-in page does: no key needed."""
    body = given(parse_body(shapes.CheckIn))
    club.load_night(night_id)
    club.check_in(night_id, body.get("name"))
    return _answer(night_id)


@bp.delete("/nights/<night_id>/players/<int:player_id>")
def night_player_leaves(night_id: str, player_id: int) -> Response:
    """A player leaves before the next round (removed if they never played)."""
    _director(night_id)
    club.remove_player(night_id, player_id)
    return _answer(night_id)


@bp.post("/nights/<night_id>/rounds")
def night_seat(night_id: str) -> Response:
    """Seat the next round (Mix with a number of rounds: every round left)."""
    _director(night_id)
    club.seat_next_round(night_id)
    return _answer(night_id)


@bp.post("/nights/<night_id>/rounds/start")
def night_start(night_id: str) -> Response:
    """Start the seated round: its tables' games are made."""
    _director(night_id)
    club.start_round(night_id, club.TableLink(str(current_app.config["SECRET_KEY"])))
    return _answer(night_id)


@bp.post("/nights/<night_id>/swap")
def night_swap(night_id: str) -> Response:
    """Exchange two players' places in the next round."""
    _director(night_id)
    body = given(parse_body(shapes.SwapPlayers))
    first, second = body.get("first"), body.get("second")
    if not isinstance(first, int) or not isinstance(second, int) or isinstance(first, bool):
        raise refusal("invalid_swap", N_("Choose two different players of the round."), "second")
    club.swap_players(night_id, first, second)
    return _answer(night_id)


@bp.post("/nights/<night_id>/tables/<int:round_number>/<int:table>/close")
def night_close_table(night_id: str, round_number: int, table: int) -> Response:
    """Close a table that did not finish: it scores as it stands, marked unfinished."""
    _director(night_id)
    club.close_table(night_id, round_number, table)
    return _answer(night_id)


# --- seasons ---------------------------------------------------------------------------------------


def _trend(moved: int | None) -> str:
    if moved is None:
        return "new"
    return "up" if moved > 0 else "down" if moved < 0 else "same"


def _season(season: club.SeasonView) -> club_answers.SeasonState:
    names = season.names or {}
    return club_answers.SeasonState(
        id=season.id,
        name=season.name,
        ruleset=season.ruleset.id,
        options=season.options,
        seat_counts=list(season.seat_counts),
        starts_on=season.starts_on.isoformat(),
        ends_on=season.ends_on.isoformat(),
        best=season.best,
        nights=[
            club_answers.SeasonNight(id=night.id, name=night.name, played_on=night.played_on.isoformat())
            for night in season.nights
        ],
        standings=[
            club_answers.SeasonStanding(
                rank=row.rank,
                player=names[row.player],
                points=row.points,
                margin=round(float(row.margin), 4),
                nights=row.nights,
                tables=row.tables,
                average=round(float(row.average), 4),
                previous_rank=row.previous,
                trend=_trend(row.moved),
                moved=row.moved or 0,
            )
            for row in season.standings
        ],
    )


@bp.post("/seasons")
@limit_game_creation
def create_season() -> Response:
    """A new season (anyone may make one; it counts as a creation); its key comes once, in this answer."""
    body = given(parse_body(shapes.CreateSeason))
    season_id, key = club.create_season(
        body.get("name"),
        body.get("ruleset"),
        body.get("options"),
        starts_on=body.get("starts_on"),
        ends_on=body.get("ends_on"),
        best=body.get("best"),
    )
    created = club_answers.SeasonCreated(**_season(club.load_season(season_id)).model_dump(), key=key)
    response = no_cache(json_response(created, 201))
    response.headers["Location"] = url_for("api.season", season_id=season_id)
    return response


@bp.get("/seasons/<season_id>")
def season(season_id: str) -> Response:
    """A season's table, read from its nights."""
    return no_cache(json_response(_season(club.load_season(season_id))))


def _season_holder(season_id: str) -> None:
    """The request shows the season's key (401 without one, 403 with another, or for a season made
    before seasons had a key: nobody holds it)."""
    season = club.load_season(season_id)
    key = access.bearer_key(request)
    if key is None:
        raise refusal(
            "auth_required", N_("Changing a season needs its key: Authorization: Bearer <key>."), None
        )
    club.refuse_keyless(season)
    if not hash_matches(season.edit_key_hash or "", key):
        raise refusal("bad_key", N_("That key does not belong to this season."), None)


@bp.patch("/seasons/<season_id>")
def edit_season(season_id: str) -> Response:
    """Change a season's settings (its key, as on its page its pencil)."""
    _season_holder(season_id)
    body = given(parse_body(shapes.EditSeason))
    club.edit_season(season_id, body)
    return no_cache(json_response(_season(club.load_season(season_id))))


@bp.delete("/seasons/<season_id>")
def delete_season(season_id: str) -> Response:
    """Delete a season (its key); its nights and their games stay."""
    _season_holder(season_id)
    club.delete_season(season_id)
    return no_cache(Response(status=204))
