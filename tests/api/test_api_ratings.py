"""The API's writes keep the ratings as the pages' do: the deal that finishes a game rates it, a
correction that moves a finished game's places and the import of an earlier game replay the rating;
a refused write changes no rating.  (The API answers no rankings or players: the rating is read on
the pages.)"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.stored_figures import Rating
from tests.perf.perf_support import DEALS

OPENSKILL = PlackettLuce()
PLAYERS = ["Cid", "Ann", "Bob"]


def api_game(client: FlaskClient, players: list[str] = PLAYERS) -> tuple[str, dict[str, str]]:
    """A Mizerka game of DEALS played through the API (finished at deal 18); its id and bearer header."""
    created = client.post(
        "/api/v1/games", json={"ruleset": "mizerka", "players": players, "first_dealer": players[0]}
    )
    assert created.status_code == 201
    game_id, bearer = created.get_json()["id"], {"Authorization": f"Bearer {created.get_json()['edit_key']}"}
    for number, (contract, tricks) in enumerate(DEALS, start=1):
        body = {"number": number, "contract": contract, "tricks": dict(zip(players, tricks, strict=True))}
        assert client.post(f"/api/v1/games/{game_id}/deals", json=body, headers=bearer).status_code == 201
    return game_id, bearer


def stored(app: Flask) -> dict[str, tuple[float, float, int]]:
    with app.app_context():
        rows = db.session.execute(
            select(Player.name, Rating.mu, Rating.sigma, Rating.games).join(
                Player, Player.id == Rating.player_id
            )
        )
        found = {row.name: (row.mu, row.sigma, row.games) for row in rows}
        db.session.remove()
    return found


def by_openskill(games: list[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    found: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for places in games:
        names = list(places)
        after = OPENSKILL.rate(
            [[found.get(n) or OPENSKILL.rating()] for n in names], ranks=[places[n] for n in names]
        )
        for name, team in zip(names, after, strict=True):
            found[name], counts[name] = team[0], counts.get(name, 0) + 1
    return {name: (rating.mu, rating.sigma, counts[name]) for name, rating in found.items()}


def test_finishing_and_correcting_through_the_api(app: Flask) -> None:
    client = app.test_client()
    game_id, bearer = api_game(client)
    # DEALS leave Cid and Ann tied first on +3, Bob on -6.
    assert stored(app) == by_openskill([{"Cid": 1, "Ann": 1, "Bob": 3}])
    corrected = client.put(
        f"/api/v1/games/{game_id}/deals/18", json={"tricks": {"Cid": 0, "Ann": 0, "Bob": 13}}, headers=bearer
    )
    assert corrected.status_code == 200
    # Totals -2, -4, +6: Bob first, Cid second, Ann last.
    assert stored(app) == by_openskill([{"Cid": 2, "Ann": 3, "Bob": 1}])
    # A refused correction (the tricks do not add up to 13) changes no rating.
    before = stored(app)
    refused = client.put(
        f"/api/v1/games/{game_id}/deals/18",
        json={"tricks": {"Cid": 13, "Ann": 13, "Bob": 13}},
        headers=bearer,
    )
    assert refused.status_code == 422
    assert stored(app) == before
    # Undoing the last deal unfinishes the game: no one is rated any more.
    assert client.delete(f"/api/v1/games/{game_id}/deals/18", headers=bearer).status_code in (200, 204)
    assert stored(app) == {}


def test_an_imported_earlier_game_is_rated_first(app: Flask) -> None:
    client = app.test_client()
    api_game(client)
    other, _bearer = api_game(client, ["Dan", "Cid", "Ann"])
    exported = client.get(f"/api/v1/games/{other}/export").get_json()
    earlier = (date.today() - timedelta(days=3)).isoformat()
    imported = client.post(
        "/api/v1/games/import", json={**exported, "played_on": earlier, "created_at": None}
    )
    assert imported.status_code == 201, imported.get_json()
    # The import finished at the end of three days ago: rated before the two played today.
    assert stored(app) == by_openskill(
        [{"Dan": 1, "Cid": 1, "Ann": 3}, {"Cid": 1, "Ann": 1, "Bob": 3}, {"Dan": 1, "Cid": 1, "Ann": 3}]
    )
