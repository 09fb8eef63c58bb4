"""Barbu through the JSON API (API.md B1-B6): RULES.md 4.9 played deal by deal, its refusals, a dry run,
a pending deal completed, and two contracts swapped by one PATCH.  The ruleset is registered in a
process of its own (barbu_api_game.py), so every other test's games stay the registry's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from scorekeeper.config import normalise_database_url

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()

A, B, C, D = "Ala", "Bartek", "Celina", "Darek"


def by_name(values: tuple[int, ...]) -> dict[str, int]:
    return dict(zip((A, B, C, D), values, strict=True))


# RULES 4.9, each row Ala / Bartek / Celina / Darek: contract points, doubling result, deal score,
# running total.  Worked by hand in RULES.md (and re-checked there); written out here once more.
EXPECTED = [
    [(-6, 0, -6, -12), (-6, 24, -6, -12), (-12, 24, -12, -24), (-12, 24, -12, -24)],
    [(25, 15, 5, 20), (5, 0, 0, -5), (30, 15, 5, 15), (18, 39, -7, -9)],
    [(-4, -16, 0, -10), (-4, -32, 36, 0), (-8, -48, 36, -10), (10, -9, 29, -19)],
    [(0, 0, 0, -20), (0, 0, 0, 0), (0, 0, 0, -20), (10, -9, 29, -39)],
    [(20, -5, 45, 5), (50, -50, 0, 0), (70, -55, 45, 5), (80, -64, 74, -34)],
    [(-8, -4, -6, -8), (0, 0, 0, 0), (-8, -4, -6, -8), (72, -68, 68, -42)],
    [(0, -30, 0, 0), (0, -30, 0, 30), (0, -60, 0, 30), (72, -128, 68, -12)],
    [(-6, -2, -10, -8), (4, 20, -12, -12), (-2, 18, -22, -20), (70, -110, 46, -32)],
]
STATUSES = [201, 201, 201, 201, 201, 201, 200, 201]


def played(*database: str) -> dict[str, Any]:
    script = Path(__file__).with_name("barbu_api_game.py")
    run = subprocess.run(
        [sys.executable, str(script), *database], capture_output=True, text=True, timeout=180, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answer: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return answer


def check(said: dict[str, Any]) -> None:
    # Checked against the OpenAPI document in the script: a dry run, the deal, a refusal, the state.
    assert said["documented"] == [200, 200, 201, 422, 200]
    check_whole_games(said["whole_games"])
    assert said["rulesets"] == [
        {
            "id": "barbu",
            "player_count": 4,
            "deal_count": 28,
            "declares_contract": True,
            "positive": ["trumps", "domino"],
        }
    ]
    assert said["three_players"] == [422, "invalid_players"]
    assert said["bad_preset"] == [422, "invalid_options"]
    status, options, deal_count, declarers = said["created"]
    assert (status, options, deal_count) == (201, {"preset": "standard"}, 28)
    assert declarers == [A] * 7 + [B] * 7 + [C] * 7 + [D] * 7
    first = said["first_next"]
    assert (first["number"], first["dealer"], first["chooser"], first["contract"]) == (1, A, A, None)
    assert first["must_double"] == []
    assert first["fields"]["no-hearts"] == ["hearts", "ace_of_hearts"]
    assert first["fields"]["trumps"] == ["trumps", "tricks"]
    assert first["fields"]["no-last-two"] == ["penultimate_trick", "last_trick"]

    refusals = said["refusals"]
    assert refusals["double_not_allowed"] == [
        422,
        "double_not_allowed",
        "doubles",
        "In trumps only the declarer (Ala) may be doubled: Celina cannot double Bartek.",
        True,
    ]
    for code, field in [
        ("doubles_invalid", "doubles"),
        ("double_twice", "doubles"),
        ("hearts_inconsistent", "ace_of_hearts"),
        ("field_not_allowed", "tricks"),
        ("field_required", "ace_of_hearts"),
        ("unknown_contract", "contract"),
        ("places_invalid", "places"),
        ("unknown_field", "seventh_trick"),
        ("bids_not_allowed", "bids"),
        ("unknown_suit", "trumps"),
        ("tricks_sum", "tricks"),
        ("count_sum", "queens"),
        ("unknown_player", "doubles"),
    ]:
        status, got, got_field, message, unchanged = refusals[code]
        assert (status, got, got_field, unchanged) == (422, code, field, True), code
        assert message.endswith("."), code

    assert said["dry_run"] == [
        200,
        [{"by": C, "against": A, "redoubled": False}, {"by": C, "against": B, "redoubled": True}],
        2,
    ]
    for number, (got, expected, status) in enumerate(zip(said["deals"], EXPECTED, STATUSES, strict=True), 1):
        assert got == [status, *(by_name(row) for row in expected)], number
    assert sum(said["deals"][6][4].values()) == 0  # after Ala's seven

    # B5: the contract already declared answers before the facts the body gives for it.
    assert said["contract_used"] == [422, "contract_used", True]
    must, available = said["before_7"]
    assert must == [D]
    assert available == ["no-last-two"]  # Ala's seventh contract, the one left
    status, pending, warnings = said["pending_7"]
    assert (status, pending) == (201, True)
    assert warnings == [{"code": "double_obligation", "declarer": A, "player": D, "doubles": 1}]
    assert said["warnings"] == [[]] * 6 + [warnings] + [[]]

    deal_3 = said["deal_3"]
    assert deal_3["contract"] == "no-hearts" and deal_3["ace_of_hearts"] == B
    assert deal_3["hearts"] == by_name((2, 6, 0, 5))
    assert deal_3["tricks"] is None and deal_3["queens"] is None and deal_3["places"] is None
    assert deal_3["penultimate_trick"] is None and deal_3["pending"] is False
    assert (deal_3["dealer"], deal_3["chooser"]) == (A, A)

    assert said["double_counts"] == {
        A: {B: 2, C: 2, D: 1},
        B: {A: 0, C: 1, D: 1},
        C: {A: 0, B: 0, D: 0},
        D: {A: 0, B: 0, C: 0},
    }
    assert said["standings"] == [[A, 70, 1], [C, 46, 2], [D, -32, 3], [B, -110, 4]]
    assert said["next"] == {"number": 9, "dealer": B, "chooser": B, "contract": None, "must_double": []}
    assert said["remaining"][A] == []
    assert said["remaining"][B] == [
        "no-hearts",
        "no-queens",
        "no-king-of-hearts",
        "no-last-two",
        "trumps",
        "domino",
    ]
    assert (
        said["remaining"][C]
        == said["remaining"][D]
        == [
            "no-tricks",
            "no-hearts",
            "no-queens",
            "no-king-of-hearts",
            "no-last-two",
            "trumps",
            "domino",
        ]
    )

    assert said["put_swap_refused"] == [422, "contract_used"]
    status, contracts, totals = said["swapped"]
    assert status == 200
    assert contracts[3] == "no-tricks" and contracts[5] == "no-king-of-hearts"
    assert totals == by_name((70, -110, 46, -32))  # deals 4 and 6 were not doubled: same totals
    assert said["swapped_back"] == [200, by_name((70, -110, 46, -32))]
    assert said["contract_used_before_required"] == [422, "contract_used"]
    assert said["contract_change_without_facts"] == [422, "field_required"]
    totals, doubles, exported = said["imported"]
    assert totals == by_name((70, -110, 46, -32))
    assert (
        doubles
        == exported
        == [
            {"by": C, "against": A, "redoubled": False},
            {"by": C, "against": B, "redoubled": True},
        ]
    )
    # Kierki's no-tricks deal 1: −20 a trick.
    assert said["kierki_imported"] == [201, by_name((-80, -60, -60, -60))]


def turned(values: tuple[int, int, int, int], by: int) -> tuple[int, ...]:
    """Per-player figures of a deal turned ``by`` seats to the left (what Ala had, Bartek has for 1)."""
    return tuple(values[(seat - by) % 4] for seat in range(4))


def plus(*rows: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(column) for column in zip(*rows, strict=True))


def check_whole_games(games: dict[str, Any]) -> None:
    """Each declarer's seven are RULES 4.9's deals 1-7 turned to that declarer (barbu_api_game.py)."""
    seven = EXPECTED[6][3]  # Ala's seven in 4.9: +72 / −128 / +68 / −12
    standard = games["standard"]
    assert standard["status"] == "finished"
    assert standard["declarers"] == [A] * 7 + [B] * 7 + [C] * 7 + [D] * 7
    assert standard["totals"]["7"] == by_name(seven)
    assert standard["totals"]["14"] == by_name(plus(seven, turned(seven, 1)))  # 60 / −56 / −60 / 56
    assert standard["totals"]["14"] == by_name((60, -56, -60, 56))
    assert standard["totals"]["21"] == by_name((128, -68, 12, -72))
    assert standard["totals"]["28"] == by_name((0, 0, 0, 0))  # everyone had each of the four places

    # domino-10, deal 5: Domino out Celina, Ala, Darek, Bartek: +45 / +20 / +10 / −10, so contract
    # points Ala 20, Bartek −10, Celina 45, Darek 10; Bartek × Ala redoubled: 2 × (−10 − 20) = −60.
    # Deal 5's scores: 80 / −70 / 45 / 10 instead of standard's 70 / −55 / 45 / 5.
    seven_10 = plus(seven, (80 - 70, -70 + 55, 0, 10 - 5))
    assert seven_10 == (82, -143, 68, -7)
    domino_10 = games["domino-10"]
    assert domino_10["totals"]["7"] == by_name(seven_10)
    assert domino_10["totals"]["14"] == by_name((75, -61, -75, 61))
    assert domino_10["totals"]["21"] == by_name((143, -68, 7, -82))
    assert domino_10["totals"]["28"] == by_name((0, 0, 0, 0))

    # quick-rotation: deal k is declared by seat k − 1 (mod 4), each seat's n-th deal being 4.9's deal n.
    quick = games["quick-rotation"]
    assert quick["declarers"] == [A, B, C, D] * 7
    deal_1, deal_2 = EXPECTED[0][2], EXPECTED[1][2]  # −12 / 24 / −12 / −24; 30 / 15 / 5 / 15
    after_4 = plus(*(turned(deal_1, by) for by in range(4)))
    assert after_4 == (-24, -24, -24, -24)
    assert quick["totals"]["4"] == by_name(after_4)
    after_7 = plus(after_4, *(turned(deal_2, by) for by in range(3)))
    assert after_7 == (26, 36, 26, 11)
    assert quick["totals"]["7"] == by_name(after_7)
    assert quick["totals"]["28"] == by_name((0, 0, 0, 0))

    # RULES 4.8: standard and quick-rotation ranked together, domino-10 apart.
    assert standard["rankings"] == quick["rankings"] == ["barbu/standard/4"]
    assert domino_10["rankings"] == ["barbu/domino-10/4"]

    # The obligation: the player three seats on from each declarer doubled them once in their seven.
    for preset, lasts in (
        ("standard", (7, 14, 21, 28)),
        ("domino-10", (7, 14, 21, 28)),
        ("quick-rotation", (25, 26, 27, 28)),
    ):
        game = games[preset]
        owing = [[D], [A], [B], [C]]
        assert game["must_double"] == {str(number): who for number, who in zip(lasts, owing, strict=True)}
        assert game["warnings"] == {
            str(number): [{"code": "double_obligation", "declarer": declarer, "player": who[0], "doubles": 1}]
            for number, declarer, who in zip(lasts, (A, B, C, D), owing, strict=True)
        }
        assert game["double_counts"] == {
            A: {B: 2, C: 2, D: 1},
            B: {C: 2, D: 2, A: 1},
            C: {D: 2, A: 2, B: 1},
            D: {A: 2, B: 2, C: 1},
        }
        assert game["standings"] == [[A, 0, 1], [B, 0, 1], [C, 0, 1], [D, 0, 1]]


def test_the_worked_example_through_the_api_on_sqlite(tmp_path: Path) -> None:
    check(played(f"sqlite:///{tmp_path / 'barbu.sqlite3'}"))


@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set")
def test_the_worked_example_through_the_api_on_postgresql() -> None:
    url = normalise_database_url(PG_URL)
    schema = f"barbu_test_{os.getpid()}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        check(played(url, schema))
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()
