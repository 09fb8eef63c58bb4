"""A small fixed season, written through the services, whose every figure is worked out by hand.

Mizerka games, first dealer seat 0, so in deal k the dealer is seat (k-1) % 3, the forehand
(chooser) seat k % 3 and the middlehand seat (k+1) % 3.  Unless a game says otherwise, each
chooser picks clubs, diamonds, hearts, spades, no-trumps, mizerka in that order, so deals 1-3
are clubs, 4-6 diamonds, 7-9 hearts, 10-12 spades, 13-15 no-trumps and 16-18 mizerka.  A
deal not listed is played exactly to the quotas: every score 0, so all three tie and each
counts it as a deal won.  The listed deals give the scores by seat; the tricks are derived
from them (trumps: quota + score; mizerka: quota - score).

  G1 2025-12-20 Ann Bob Cid  d1 (+1 -1 0) d4 (+1 0 -1)           totals +2 -1 -1   Ann wins
  G2 2026-01-10 Ann Bob Dan  d2 (+1 0 -1) d5 (0 +1 -1)           totals +1 +1 -2   Ann & Bob win
  G3 2026-03-05 Bob Cid Dan  d3 (-1 +2 -1) d8 (+1 0 -1) d11 (0 +1 -1)  totals 0 +3 -3  Cid wins
  G4 2026-03-20 Ann Cid Dan  d1 (0 +1 -1) d2 (0 -1 +1)           totals 0 0 0      all three win
  G5 2026-03-28 Ann Bob Cid  Ann picks in reverse order (deal 3 mizerka ... deal 18 clubs);
                             d3 mizerka (-2 +2 0): Ann fails her Mizerka; d4 (+1 0 -1)
                                                                 totals -1 +2 -1   Bob wins
  G6 2026-03-29 Ann Bob Eve  four deals only (unfinished): d1 (0 +1 -1)
  G7 2026-03-30 Ann Cid Dan  d7 (0 -1 +1)                        totals 0 -1 +1    Dan wins
  M1 2026-02-14 Ann Bob Cid Dan (Misère, standard scoring, seat 0 deals first): deals 1-6 everyone
                bids 3, tricks 4 3 3 3 (Ann -10, the others +30); deal 7 ciapa-ciapa tricks
                13 0 0 0 (Ann +130); deal 8 misère tricks 0 13 0 0 (Bob -130).
                                                        totals 70 50 180 180  Cid & Dan win
"""

from __future__ import annotations

from datetime import date

from scorekeeper import services

CONTRACTS = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"]
QUOTAS = {"forehand": (7, 1), "middlehand": (5, 5), "dealer": (1, 7)}
TODAY = date(2026, 3, 31)


def roles(number: int) -> dict[int, str]:
    """Seat -> role in deal ``number`` when seat 0 deals first."""
    return {(number - 1) % 3: "dealer", number % 3: "forehand", (number + 1) % 3: "middlehand"}


def play_mizerka(
    names: list[str],
    played_on: date,
    scores: dict[int, tuple[int, int, int]],
    *,
    deals: int = 18,
    orders: dict[int, list[str]] | None = None,
    note: str | None = None,
) -> str:
    """Start a game and record ``deals`` deals; returns the game id."""
    loaded, _key = services.create_game("mizerka", names, names[0], played_on=played_on, note=note)
    picks = {seat: list((orders or {}).get(seat, CONTRACTS)) for seat in range(3)}
    for number in range(1, deals + 1):
        role = roles(number)
        chooser = number % 3
        contract = picks[chooser].pop(0)
        wanted = scores.get(number, (0, 0, 0))
        tricks = []
        for seat in range(3):
            trumps_quota, mizerka_quota = QUOTAS[role[seat]]
            if contract == "mizerka":
                tricks.append(mizerka_quota - wanted[seat])
            else:
                tricks.append(trumps_quota + wanted[seat])
        assert sum(tricks) == 13 and min(tricks) >= 0, (number, tricks)
        services.record_deal(loaded.id, number=number, contract=contract, tricks=tricks)
    return loaded.id


def play_misere(names: list[str], played_on: date) -> str:
    loaded, _key = services.create_game(
        "misere", names, names[0], {"scoring": "standard"}, played_on=played_on
    )
    for number in range(1, 7):
        services.record_deal(loaded.id, number=number, bids=[3, 3, 3, 3], tricks=[4, 3, 3, 3])
    services.record_deal(loaded.id, number=7, tricks=[13, 0, 0, 0])
    services.record_deal(loaded.id, number=8, tricks=[0, 13, 0, 0])
    return loaded.id


def build_season() -> dict[str, str]:
    """Write the season above; returns game ids by label (G1 ... G7, M1)."""
    ids = {
        "G1": play_mizerka(["Ann", "Bob", "Cid"], date(2025, 12, 20), {1: (1, -1, 0), 4: (1, 0, -1)}),
        "G2": play_mizerka(["Ann", "Bob", "Dan"], date(2026, 1, 10), {2: (1, 0, -1), 5: (0, 1, -1)}),
        "G3": play_mizerka(
            ["Bob", "Cid", "Dan"], date(2026, 3, 5), {3: (-1, 2, -1), 8: (1, 0, -1), 11: (0, 1, -1)}
        ),
        "G4": play_mizerka(["Ann", "Cid", "Dan"], date(2026, 3, 20), {1: (0, 1, -1), 2: (0, -1, 1)}),
        "G5": play_mizerka(
            ["Ann", "Bob", "Cid"],
            date(2026, 3, 28),
            {3: (-2, 2, 0), 4: (1, 0, -1)},
            orders={0: list(reversed(CONTRACTS))},
            note="Friday at Bob's",
        ),
        "G6": play_mizerka(["Ann", "Bob", "Eve"], date(2026, 3, 29), {1: (0, 1, -1)}, deals=4),
        "G7": play_mizerka(["Ann", "Cid", "Dan"], date(2026, 3, 30), {7: (0, -1, 1)}),
        "M1": play_misere(["Ann", "Bob", "Cid", "Dan"], date(2026, 2, 14)),
    }
    return ids
