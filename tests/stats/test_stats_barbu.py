"""Barbu's stored figures (deal_results, game_results) equal its replay after every kind of write: a whole
game, a correction that changes its doubles, an undo; each deal's side bets settle to nothing in all."""

from __future__ import annotations

from flask.testing import FlaskClient
from helpers import BARBU_NAMES, barbu_game, start_barbu

from scorekeeper.extensions import db
from scorekeeper.stored_figures import DealResult, GameResult
from tests.stats.checks import replayed_and_stored


def bets_of(game_id: str) -> dict[int, list[tuple[int, int, int, int, int]]]:
    rows = db.session.execute(
        db.select(DealResult)
        .where(DealResult.game_id == game_id)
        .order_by(DealResult.number, DealResult.seat)
    ).scalars()
    by_deal: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for row in rows:
        by_deal.setdefault(row.number, []).append(
            (row.bets, row.bets_made, row.bets_won, row.bets_lost, row.bet_points)
        )
    return by_deal


def test_a_whole_game_its_correction_and_undo(client: FlaskClient) -> None:
    game_id, key = start_barbu(client, barbu_game())
    auth = {"Authorization": f"Bearer {key}"}
    app = client.application
    with app.app_context():
        stored, fresh = replayed_and_stored(game_id)
        assert stored == fresh
        bets = bets_of(game_id)
        for number, seats in bets.items():
            assert sum(seat[4] for seat in seats) == 0, number  # what one gains the other loses
            assert sum(seat[2] for seat in seats) == sum(seat[3] for seat in seats), (
                number
            )  # one won, one lost
        # Deal 4 (trumps ♥, Ala's): Bartek, Celina and Darek each double Ala: 6/2/3/2 tricks make
        # +30/+10/+15/+10, so each loses what Ala gains: 20, 15, 20.
        assert bets[4] == [(3, 0, 3, 0, 55), (1, 1, 0, 1, -20), (1, 1, 0, 1, -15), (1, 1, 0, 1, -20)]
        games = db.session.execute(db.select(GameResult).where(GameResult.game_id == game_id)).scalars()
        assert {row.ranking for row in games} == {"barbu/standard/4"}
    # Deal 4 corrected: only Bartek doubled Ala, and she redoubled (2 × (10 − 30) = −40).
    corrected = client.put(
        f"/api/v1/games/{game_id}/deals/4",
        json={"doubles": [{"by": BARBU_NAMES[1], "against": BARBU_NAMES[0], "redoubled": True}]},
        headers=auth,
    )
    assert corrected.status_code == 200, corrected.get_json()
    with app.app_context():
        stored, fresh = replayed_and_stored(game_id)
        assert stored == fresh
        assert bets_of(game_id)[4] == [(1, 0, 1, 0, 40), (1, 1, 0, 1, -40), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0)]
    assert client.delete(f"/api/v1/games/{game_id}/deals/28", headers=auth).status_code == 204
    with app.app_context():
        stored, fresh = replayed_and_stored(game_id)
        assert stored == fresh
        assert 28 not in bets_of(game_id)
