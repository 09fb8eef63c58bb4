"""Kierki's rankings (one a preset and a number of players) and the figures of a game, whose
complete deals may count no tricks (pure: no app, no database)."""

from __future__ import annotations

from datetime import date

from scorekeeper.rules import DealRecord
from scorekeeper.rules.kierki import KIERKI
from scorekeeper.rules.ranking import default_ranking, every_ranking, find_ranking, ranking_key, rankings_of
from scorekeeper.stats import figures

KIERKI_RANKINGS = [
    "kierki/standard/4",  # the usual game first
    "kierki/standard/3",
    "kierki/no-fan-tan/4",
    "kierki/no-fan-tan/3",
    "kierki/no-robber/4",
    "kierki/no-robber/3",
    "kierki/short/4",  # the short game is for four
]


def test_a_ranking_for_each_preset_and_number_of_players() -> None:
    assert [ranking.key for ranking in rankings_of(KIERKI)] == KIERKI_RANKINGS
    assert [ranking.key for ranking in every_ranking()] == [
        "mizerka/standard/3",
        "misere/standard/4",
        "misere/variant/4",
        *KIERKI_RANKINGS,
        # Barbu's quick rotation ranks with its standard game (RULES.md 4.8).
        "barbu/standard/4",
        "barbu/domino-10/4",
    ]
    assert default_ranking(KIERKI).key == "kierki/standard/4"
    three = KIERKI.make_setup(["Ala", "Bartek", "Celina"], "Ala", {"preset": "no-robber"})
    assert ranking_key(KIERKI, three) == "kierki/no-robber/3"
    # A page's ``game``: a key, a ruleset (its default ranking), else the default ruleset's.
    assert find_ranking("kierki/short/4").preset.id == "short"
    assert find_ranking("kierki").key == "kierki/standard/4"
    assert find_ranking("kierki/short/3").key == find_ranking("").key == "mizerka/standard/3"


def test_a_deal_without_tricks_counts_once_complete() -> None:
    setup = KIERKI.make_setup(["Ala", "Bartek", "Celina", "Darek"], "Ala", {})
    # Deal 1, no tricks: -20 a trick; deal 2, no hearts: -20 a heart, and no tricks entered.
    state = KIERKI.replay(
        setup, [DealRecord(tricks=(2, 5, 0, 6)), DealRecord(facts={"hearts": (4, 0, 7, 2)})]
    )
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
