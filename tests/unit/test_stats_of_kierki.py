"""The figures of a Kierki game, whose complete deals may count no tricks (pure: no app, no database)."""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.rules import RULESETS, DealRecord
from scorekeeper.rules.kierki import KIERKI
from scorekeeper.stats import figures


@pytest.fixture(autouse=True)
def kierki_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kierki as it will be once registered (``rules.registry``)."""
    monkeypatch.setitem(RULESETS, KIERKI.id, KIERKI)


def test_a_deal_without_tricks_counts_once_complete() -> None:
    setup = KIERKI.make_setup(["Ala", "Bartek", "Celina", "Darek"], "Ala", {})
    # Deal 1, no tricks: -20 a trick; deal 2, no hearts: -20 a heart, and no tricks entered.
    state = KIERKI.replay(setup, [DealRecord(tricks=(2, 5, 0, 6)), DealRecord(hearts=(4, 0, 7, 2))])
    assert state.deals[1].tricks is None and not state.deals[1].pending
    game_rows, deal_rows = figures(state, game_id="K", player_ids=[1, 2, 3, 4], played_on=date(2026, 3, 1))
    assert [(row["number"], row["score"], row["won"], row["made"]) for row in deal_rows] == [
        (1, -40, False, None),
        (1, -100, False, None),
        (1, 0, True, None),
        (1, -120, False, None),
        (2, -80, False, None),
        (2, 0, True, None),
        (2, -140, False, None),
        (2, -40, False, None),
    ]
    assert [(row["total"], row["deals_played"], row["deals_won"]) for row in game_rows] == [
        (-120, 2, 0),
        (-100, 2, 1),
        (-140, 2, 1),
        (-160, 2, 0),
    ]
