"""Unit tests for the Mizerka ruleset (RULES.md section 1 is the decision).

Expected scores and totals below are literal numbers worked out by hand from
the quota table in RULES.md; the tests never ask the engine (or a copy of its
formula) what the answer should be.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import DealRecord, GameSetup, GameState, RuleError, get_ruleset

MIZERKA = get_ruleset("mizerka")
CONTRACT_IDS = ("clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka")
PLAYERS = ("Ann", "Bob", "Cid")


def setup_for(players: Sequence[object] = PLAYERS, first_dealer: object = "Ann") -> GameSetup:
    return MIZERKA.make_setup(list(players), first_dealer)


def replay(setup: GameSetup, records: Sequence[DealRecord]) -> GameState:
    return MIZERKA.replay(setup, list(records))


def names(setup: GameSetup, by_seat: Sequence[int]) -> dict[str, int]:
    return dict(zip(setup.players, by_seat, strict=True))


def rule_error(excinfo: pytest.ExceptionInfo[RuleError]) -> tuple[str, str | None, str]:
    err = excinfo.value
    return err.code, err.field, err.message


# ---------------------------------------------------------------------------------------------
# The ruleset's description
# ---------------------------------------------------------------------------------------------


def test_ruleset_shape() -> None:
    assert MIZERKA.id == "mizerka"
    assert MIZERKA.player_count == 3
    assert MIZERKA.deal_count == 18
    assert MIZERKA.seating_direction == "clockwise"
    assert tuple(c.id for c in MIZERKA.contracts) == CONTRACT_IDS
    assert [c.trumps for c in MIZERKA.contracts] == ["clubs", "diamonds", "hearts", "spades", None, None]
    assert MIZERKA.contract_label("no-trumps") == "No trumps"
    assert MIZERKA.contract_label("hearts") == "Hearts"
    assert MIZERKA.options == ()


def test_new_game_state() -> None:
    setup = setup_for(first_dealer="Cid")
    state = replay(setup, [])
    assert state.deals == ()
    assert state.totals == (0, 0, 0)
    assert not state.finished
    assert state.pending_deal is None
    assert state.completed_deals == 0
    assert state.current_number == 1
    assert state.remaining_contracts == (CONTRACT_IDS,) * 3
    assert [(s.seat, s.total, s.rank) for s in state.standings] == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]
    assert state.leaders == (0, 1, 2)
    nxt = state.next_deal
    assert nxt is not None
    assert (nxt.number, nxt.dealer, nxt.chooser, nxt.contract) == (1, 2, 0, None)
    assert nxt.roles == ("forehand", "middlehand", "dealer")
    assert nxt.available_contracts == CONTRACT_IDS
    assert nxt.bidding_order == ()


# ---------------------------------------------------------------------------------------------
# RULES.md worked example
# ---------------------------------------------------------------------------------------------


def test_rules_md_worked_example() -> None:
    # Seating clockwise C, A, B; C deals first.
    setup = MIZERKA.make_setup(["C", "A", "B"], "C")
    assert setup.players == ("C", "A", "B")
    assert setup.first_dealer == 0

    deal1 = MIZERKA.parse_deal(setup, 1, contract="hearts", tricks={"A": 5, "B": 4, "C": 4})
    deal2 = MIZERKA.parse_deal(setup, 2, contract="mizerka", tricks={"B": 2, "C": 6, "A": 5})
    state = replay(setup, [deal1, deal2])

    first, second = state.deals
    # deal 1: dealer C, forehand A (chooses), middlehand B
    assert setup.players[first.dealer] == "C"
    assert first.chooser is not None and setup.players[first.chooser] == "A"
    assert dict(zip(setup.players, first.roles, strict=True)) == {
        "C": "dealer",
        "A": "forehand",
        "B": "middlehand",
    }
    assert first.contract == "hearts"
    assert first.quotas is not None
    assert dict(zip(setup.players, first.quotas, strict=True)) == {"A": 7, "B": 5, "C": 1}
    assert first.scores is not None
    assert dict(zip(setup.players, first.scores, strict=True)) == {"A": -2, "B": -1, "C": 3}

    # deal 2: dealer A, forehand B (chooses), middlehand C
    assert setup.players[second.dealer] == "A"
    assert second.chooser is not None and setup.players[second.chooser] == "B"
    assert dict(zip(setup.players, second.roles, strict=True)) == {
        "A": "dealer",
        "B": "forehand",
        "C": "middlehand",
    }
    assert second.contract == "mizerka"
    assert second.quotas is not None
    assert dict(zip(setup.players, second.quotas, strict=True)) == {"B": 1, "C": 5, "A": 7}
    assert second.scores is not None
    assert dict(zip(setup.players, second.scores, strict=True)) == {"B": -1, "C": -1, "A": 2}

    assert dict(zip(setup.players, state.totals, strict=True)) == {"A": 0, "B": -2, "C": 2}
    assert second.totals == state.totals
    assert [(setup.players[s.seat], s.total, s.rank) for s in state.standings] == [
        ("C", 2, 1),
        ("A", 0, 2),
        ("B", -2, 3),
    ]
    # Deal 3: dealer B, forehand C.
    assert state.next_deal is not None
    assert setup.players[state.next_deal.dealer] == "B"
    assert state.next_deal.chooser is not None
    assert setup.players[state.next_deal.chooser] == "C"
    assert state.remaining_contracts == (
        CONTRACT_IDS,
        ("clubs", "diamonds", "spades", "no-trumps", "mizerka"),
        ("clubs", "diamonds", "hearts", "spades", "no-trumps"),
    )


# ---------------------------------------------------------------------------------------------
# A full game, worked out by hand
# ---------------------------------------------------------------------------------------------
#
# Seating Ann, Bob, Cid (clockwise); Bob deals first.  So every third deal has the same roles:
#   deals 1, 4, 7, 10, 13, 16: dealer Bob, forehand Cid, middlehand Ann
#   deals 2, 5, 8, 11, 14, 17: dealer Cid, forehand Ann, middlehand Bob
#   deals 3, 6, 9, 12, 15, 18: dealer Ann, forehand Bob, middlehand Cid
# Every tuple is in seat order (Ann, Bob, Cid).

# fmt: off
FULL_GAME = (
    # deal, dealer, chooser, contract,  tricks,        quotas,     scores,       totals after the deal
    (1,  "Bob", "Cid", "hearts",    (4, 2, 7),   (5, 1, 7), (-1, 1, 0),   (-1, 1, 0)),
    (2,  "Cid", "Ann", "mizerka",   (0, 6, 7),   (1, 5, 7), (1, -1, 0),   (0, 0, 0)),
    (3,  "Ann", "Bob", "no-trumps", (2, 8, 3),   (1, 7, 5), (1, 1, -2),   (1, 1, -2)),
    (4,  "Bob", "Cid", "clubs",     (6, 1, 6),   (5, 1, 7), (1, 0, -1),   (2, 1, -3)),
    (5,  "Cid", "Ann", "diamonds",  (9, 3, 1),   (7, 5, 1), (2, -2, 0),   (4, -1, -3)),
    (6,  "Ann", "Bob", "spades",    (0, 6, 7),   (1, 7, 5), (-1, -1, 2),  (3, -2, -1)),
    (7,  "Bob", "Cid", "mizerka",   (4, 6, 3),   (5, 7, 1), (1, 1, -2),   (4, -1, -3)),
    (8,  "Cid", "Ann", "clubs",     (5, 6, 2),   (7, 5, 1), (-2, 1, 1),   (2, 0, -2)),
    (9,  "Ann", "Bob", "diamonds",  (1, 10, 2),  (1, 7, 5), (0, 3, -3),   (2, 3, -5)),
    (10, "Bob", "Cid", "spades",    (3, 0, 10),  (5, 1, 7), (-2, -1, 3),  (0, 2, -2)),
    (11, "Cid", "Ann", "no-trumps", (7, 5, 1),   (7, 5, 1), (0, 0, 0),    (0, 2, -2)),
    (12, "Ann", "Bob", "hearts",    (3, 4, 6),   (1, 7, 5), (2, -3, 1),   (2, -1, -1)),
    (13, "Bob", "Cid", "no-trumps", (2, 3, 8),   (5, 1, 7), (-3, 2, 1),   (-1, 1, 0)),
    (14, "Cid", "Ann", "hearts",    (8, 4, 1),   (7, 5, 1), (1, -1, 0),   (0, 0, 0)),
    (15, "Ann", "Bob", "mizerka",   (7, 0, 6),   (7, 1, 5), (0, 1, -1),   (0, 1, -1)),
    (16, "Bob", "Cid", "diamonds",  (5, 0, 8),   (5, 1, 7), (0, -1, 1),   (0, 0, 0)),
    (17, "Cid", "Ann", "spades",    (13, 0, 0),  (7, 5, 1), (6, -5, -1),  (6, -5, -1)),
    (18, "Ann", "Bob", "clubs",     (0, 13, 0),  (1, 7, 5), (-1, 6, -5),  (5, 1, -6)),
)
# Standings (seat, total, rank) after some deals, ties included.
STANDINGS_AFTER = {
    2: [(0, 0, 1), (1, 0, 1), (2, 0, 1)],
    3: [(0, 1, 1), (1, 1, 1), (2, -2, 3)],
    9: [(1, 3, 1), (0, 2, 2), (2, -5, 3)],
    12: [(0, 2, 1), (1, -1, 2), (2, -1, 2)],
    13: [(1, 1, 1), (2, 0, 2), (0, -1, 3)],
    15: [(1, 1, 1), (0, 0, 2), (2, -1, 3)],
    17: [(0, 6, 1), (2, -1, 2), (1, -5, 3)],
    18: [(0, 5, 1), (1, 1, 2), (2, -6, 3)],
}
# Contracts still open for the forehand of each deal, before it is declared.
AVAILABLE_BEFORE = {
    1: ("clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"),
    13: ("diamonds", "no-trumps"),
    14: ("hearts", "spades"),
    15: ("clubs", "mizerka"),
    16: ("diamonds",),
    17: ("spades",),
    18: ("clubs",),
}
# fmt: on

SEAT = {name: seat for seat, name in enumerate(PLAYERS)}


def full_game_setup() -> GameSetup:
    return setup_for(PLAYERS, "Bob")


def full_game_records(rows: Sequence[tuple[object, ...]] = FULL_GAME) -> list[DealRecord]:
    return [DealRecord(contract=row[3], tricks=row[4]) for row in rows]  # type: ignore[arg-type]


def test_full_game_table_is_a_legal_order() -> None:
    # Sanity of the hand-made data itself: each player is forehand 6 times, each contract once.
    chosen: dict[str, list[str]] = {name: [] for name in PLAYERS}
    for _, _, chooser, contract, tricks, quotas, scores, _ in FULL_GAME:
        chosen[chooser].append(contract)
        assert sum(tricks) == 13
        assert sum(quotas) == 13
        assert sum(scores) == 0
    assert {name: sorted(c) for name, c in chosen.items()} == {n: sorted(CONTRACT_IDS) for n in PLAYERS}


def test_full_game_deal_by_deal() -> None:
    setup = full_game_setup()
    assert setup.first_dealer == 1
    records = full_game_records()
    for index, (number, dealer, chooser, contract, tricks, quotas, scores, totals) in enumerate(FULL_GAME):
        before = replay(setup, records[:index])
        nxt = before.next_deal
        assert nxt is not None
        assert nxt.number == number
        assert PLAYERS[nxt.dealer] == dealer
        assert nxt.chooser is not None and PLAYERS[nxt.chooser] == chooser
        assert contract in nxt.available_contracts
        assert nxt.available_contracts == before.remaining_contracts[SEAT[chooser]]
        assert len(nxt.available_contracts) == 6 - index // 3
        if number in AVAILABLE_BEFORE:
            assert nxt.available_contracts == AVAILABLE_BEFORE[number]

        after = replay(setup, records[: index + 1])
        deal = after.deals[-1]
        assert deal.number == number
        assert PLAYERS[deal.dealer] == dealer
        assert deal.chooser is not None and PLAYERS[deal.chooser] == chooser
        assert deal.contract == contract
        assert deal.bids is None
        assert deal.roles[SEAT[dealer]] == "dealer"
        assert deal.roles[SEAT[chooser]] == "forehand"
        assert sorted(deal.roles) == ["dealer", "forehand", "middlehand"]
        assert deal.roles == nxt.roles
        assert deal.tricks == tricks
        assert deal.quotas == quotas
        assert deal.scores == scores
        assert deal.totals == totals
        assert not deal.pending
        assert after.totals == totals
        assert contract not in after.remaining_contracts[SEAT[chooser]]
        if number in STANDINGS_AFTER:
            assert [(s.seat, s.total, s.rank) for s in after.standings] == STANDINGS_AFTER[number]


def test_full_game_final_state() -> None:
    setup = full_game_setup()
    state = replay(setup, full_game_records())
    assert len(state.deals) == 18
    assert [d.totals for d in state.deals] == [row[7] for row in FULL_GAME]
    assert state.totals == (5, 1, -6)
    assert state.finished
    assert state.next_deal is None
    assert state.pending_deal is None
    assert state.completed_deals == 18
    assert state.current_number == 18
    assert state.remaining_contracts == ((), (), ())
    assert [(s.seat, s.total, s.rank) for s in state.standings] == [(0, 5, 1), (1, 1, 2), (2, -6, 3)]
    assert state.leaders == (0,)


def test_full_game_through_named_input() -> None:
    # The same game entered the way the API does it: names (any case, stray spaces) as keys.
    setup = MIZERKA.make_setup(["  Ann ", "Bob", "Cid"], " bob")
    assert setup.players == PLAYERS
    records = [
        MIZERKA.parse_deal(
            setup, row[0], contract=row[3], tricks={"ANN": row[4][0], " cid ": row[4][2], "bob": row[4][1]}
        )
        for row in FULL_GAME
    ]
    assert records == full_game_records()
    assert replay(setup, records).totals == (5, 1, -6)


def test_sixth_turn_has_exactly_one_contract() -> None:
    setup = full_game_setup()
    records = full_game_records()
    for number, chooser, only in ((16, "Cid", "diamonds"), (17, "Ann", "spades"), (18, "Bob", "clubs")):
        state = replay(setup, records[: number - 1])
        assert state.next_deal is not None
        assert state.next_deal.chooser == SEAT[chooser]
        assert state.next_deal.available_contracts == (only,)
        # any other contract is refused for that player's last turn
        for other in CONTRACT_IDS:
            if other == only:
                continue
            with pytest.raises(RuleError) as excinfo:
                replay(setup, [*records[: number - 1], DealRecord(contract=other, tricks=(4, 4, 5))])
            assert excinfo.value.code == "contract_used"


def test_pending_deal() -> None:
    setup = full_game_setup()
    records = full_game_records()[:4]
    state = replay(setup, [*records, DealRecord(contract="diamonds")])
    deal = state.deals[-1]
    assert deal.pending
    assert (deal.number, deal.contract, deal.tricks, deal.scores, deal.totals) == (
        5,
        "diamonds",
        None,
        None,
        None,
    )
    assert deal.quotas == (7, 5, 1)
    assert state.pending_deal is deal
    assert state.next_deal is None
    assert not state.finished
    assert state.completed_deals == 4
    assert state.current_number == 5
    assert state.totals == (2, 1, -3)  # totals after deal 4
    # the declared contract is already used up
    assert "diamonds" not in state.remaining_contracts[0]


def test_pending_last_deal_is_not_finished() -> None:
    setup = full_game_setup()
    records = full_game_records()
    state = replay(setup, [*records[:17], DealRecord(contract="clubs")])
    assert not state.finished
    assert state.next_deal is None
    assert state.pending_deal is not None
    assert state.remaining_contracts == ((), (), ())
    assert state.current_number == 18


def test_other_players_use_of_a_contract_is_irrelevant() -> None:
    setup = full_game_setup()
    # deals 1-3: Cid, Ann and Bob all choose hearts.
    records = [DealRecord(contract="hearts", tricks=(4, 4, 5)) for _ in range(3)]
    state = replay(setup, records)
    assert state.remaining_contracts == (("clubs", "diamonds", "spades", "no-trumps", "mizerka"),) * 3


def test_mizerka_extremes() -> None:
    setup = full_game_setup()  # deal 1: dealer Bob (quota 7), forehand Cid (1), middlehand Ann (5)
    state = replay(setup, [DealRecord(contract="mizerka", tricks=(0, 0, 13))])
    assert state.deals[0].scores == (5, 7, -12)
    state = replay(setup, [DealRecord(contract="no-trumps", tricks=(0, 0, 13))])
    assert state.deals[0].scores == (-5, -1, 6)


# ---------------------------------------------------------------------------------------------
# Corrections: the game is replayed with the corrected deal
# ---------------------------------------------------------------------------------------------


def test_correcting_a_contract_to_one_used_later_is_refused_at_the_later_deal() -> None:
    setup = full_game_setup()
    records = full_game_records()
    # Deal 3 is Bob's no-trumps; Bob chooses hearts in deal 12.
    records[2] = DealRecord(contract="hearts", tricks=records[2].tricks)
    # Up to deal 11 the corrected game is still legal ...
    state = replay(setup, records[:11])
    assert state.deals[2].contract == "hearts"
    assert state.deals[2].scores == (1, 1, -2)
    # ... deal 12 is the one that now breaks the rule.
    with pytest.raises(RuleError) as excinfo:
        replay(setup, records)
    assert rule_error(excinfo) == (
        "contract_used",
        "contract",
        "Bob has already played Hearts (deal 3), so cannot choose it again in deal 12.",
    )
    with pytest.raises(RuleError):
        replay(setup, records[:12])


def test_swapping_two_contracts_of_one_player_is_a_legal_correction() -> None:
    setup = full_game_setup()
    records = full_game_records()
    # Bob's deal 3 (no-trumps) and deal 15 (mizerka) swapped.
    records[2] = DealRecord(contract="mizerka", tricks=(2, 8, 3))
    records[14] = DealRecord(contract="no-trumps", tricks=(7, 0, 6))
    state = replay(setup, records)
    assert state.deals[2].quotas == (7, 1, 5)
    assert state.deals[2].scores == (5, -7, 2)
    assert state.deals[2].totals == (5, -7, 2)
    assert state.deals[14].quotas == (1, 7, 5)
    assert state.deals[14].scores == (6, -7, 1)
    assert state.totals == (15, -15, 0)
    assert state.finished


def test_correcting_tricks_changes_every_later_total() -> None:
    setup = full_game_setup()
    records = full_game_records()
    # Deal 5 (Ann's diamonds): tricks 9/3/1 -> 8/4/1, so scores 2/-2/0 -> 1/-1/0.
    records[4] = DealRecord(contract="diamonds", tricks=(8, 4, 1))
    state = replay(setup, records)
    assert state.deals[4].scores == (1, -1, 0)
    shift = (-1, 1, 0)
    for deal, row in zip(state.deals, FULL_GAME, strict=True):
        expected = row[7] if deal.number < 5 else tuple(t + d for t, d in zip(row[7], shift, strict=True))
        assert deal.totals == expected, deal.number
        if deal.number != 5:
            assert deal.scores == row[6]
    assert state.totals == (4, 2, -6)


def test_correcting_pending_deal_completes_it() -> None:
    setup = full_game_setup()
    records = full_game_records()[:2]
    pending = replay(setup, [*records, DealRecord(contract="no-trumps")])
    assert pending.next_deal is None
    done = replay(setup, [*records, DealRecord(contract="no-trumps", tricks=(2, 8, 3))])
    assert done.totals == (1, 1, -2)
    assert done.next_deal is not None and done.next_deal.number == 4


# ---------------------------------------------------------------------------------------------
# Errors: code, field and a message a player understands
# ---------------------------------------------------------------------------------------------


def test_contract_used() -> None:
    # Ann first dealer: Bob is forehand in deals 1, 4, 7, ...
    setup = setup_for(PLAYERS, "Ann")
    records = [
        DealRecord("clubs", tricks=(4, 4, 5)),  # Bob
        DealRecord("clubs", tricks=(4, 4, 5)),  # Cid
        DealRecord("clubs", tricks=(4, 4, 5)),  # Ann
        DealRecord("hearts", tricks=(4, 4, 5)),  # Bob
        DealRecord("hearts", tricks=(4, 4, 5)),  # Cid
        DealRecord("hearts", tricks=(4, 4, 5)),  # Ann
    ]
    replay(setup, records)
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [*records, DealRecord("hearts", tricks=(4, 4, 5))])
    assert rule_error(excinfo) == (
        "contract_used",
        "contract",
        "Bob has already played Hearts (deal 4), so cannot choose it again in deal 7.",
    )
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [*records, DealRecord("clubs")])  # pending declarations are checked too
    assert rule_error(excinfo) == (
        "contract_used",
        "contract",
        "Bob has already played Clubs (deal 1), so cannot choose it again in deal 7.",
    )


def test_contract_used_by_a_pending_declaration() -> None:
    setup = setup_for(PLAYERS, "Ann")
    records = [DealRecord("mizerka"), DealRecord("mizerka", tricks=(4, 4, 5))]
    with pytest.raises(RuleError) as excinfo:
        replay(setup, records)
    # the pending deal is reported first
    assert excinfo.value.code == "deal_pending"
    records = [DealRecord("no-trumps", tricks=(4, 4, 5))] + [DealRecord("clubs", tricks=(4, 4, 5))] * 2
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [*records, DealRecord("no-trumps")])
    assert rule_error(excinfo) == (
        "contract_used",
        "contract",
        "Bob has already played No trumps (deal 1), so cannot choose it again in deal 4.",
    )


@pytest.mark.parametrize(
    "contract", ["poker", "Hearts", "HEARTS", "no trumps", "misere", " hearts", 3, ["hearts"]]
)
def test_unknown_contract(contract: object) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract=contract, tricks={"Ann": 4, "Bob": 4, "Cid": 5})
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("unknown_contract", "contract")
    assert str(contract) in message
    assert "clubs, diamonds, hearts, spades, no-trumps, mizerka" in message


@pytest.mark.parametrize("contract", [None, ""])
def test_missing_contract(contract: object) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract=contract)
    assert rule_error(excinfo) == ("unknown_contract", "contract", "Choose a contract.")


def test_unknown_contract_in_a_stored_record() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("bogus", tricks=(4, 4, 5))])
    assert excinfo.value.code == "unknown_contract"
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord(None, tricks=(4, 4, 5))])
    assert excinfo.value.code == "unknown_contract"
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.contract("bogus")
    assert rule_error(excinfo) == ("unknown_contract", "contract", "There is no contract called 'bogus'.")


@pytest.mark.parametrize(
    ("tricks", "got"),
    [
        ({"Ann": 4, "Bob": 4, "Cid": 4}, 12),
        ({"Ann": 5, "Bob": 5, "Cid": 4}, 14),
        ({"Ann": 0, "Bob": 0, "Cid": 0}, 0),
        ({"Ann": 13, "Bob": 13, "Cid": 13}, 39),
        ([4, 4, 4], 12),
    ],
)
def test_tricks_sum(tricks: object, got: int) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract="hearts", tricks=tricks)
    assert rule_error(excinfo) == ("tricks_sum", "tricks", f"Tricks must add up to 13 (got {got}).")


def test_tricks_sum_in_a_stored_record() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("hearts", tricks=(4, 4, 4))])
    assert rule_error(excinfo) == ("tricks_sum", "tricks", "Tricks must add up to 13 (got 12).")


@pytest.mark.parametrize("bad", [-1, 14, 100, 7.5, 7.0, "7", True, False, None, [7]])
def test_tricks_range(bad: object) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract="hearts", tricks={"Ann": 3, "Bob": bad, "Cid": 3})
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("tricks_range", "tricks")
    assert message.startswith("Bob's ")
    assert "whole number from 0 to 13" in message
    assert f"(got {bad!r})" in message


def test_tricks_range_in_a_stored_record() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("hearts", tricks=(14, 0, -1))])
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("tricks_range", "tricks")
    assert "Ann" in message and "(got 14)" in message


@pytest.mark.parametrize(
    ("tricks", "message"),
    [
        ({"Ann": 6, "Bob": 7}, "Tricks missing for Cid."),
        ({"Ann": 13}, "Tricks missing for Bob and Cid."),
        ({}, "Tricks missing for Ann, Bob and Cid."),
        (
            {"Ann": 4, "Bob": 4, "Zed": 5},
            "Zed is not playing in this game; give tricks for Ann, Bob and Cid.",
        ),
        (
            {"Ann": 4, "Bob": 4, "Cid": 5, "Zed": 0},
            "Zed is not playing in this game; give tricks for Ann, Bob and Cid.",
        ),
        ({"Ann": 4, "ann": 4, "Bob": 5}, "Ann appears twice in the tricks."),
        ({"Ann": 4, "Bob": 4, "Cid": 5, " CID ": 0}, "Cid appears twice in the tricks."),
        ({1: 4, "Bob": 4, "Cid": 5}, "1 is not playing in this game; give tricks for Ann, Bob and Cid."),
        ([4, 9], "Give tricks for exactly the 3 players."),
        ([4, 4, 5, 0], "Give tricks for exactly the 3 players."),
        (13, "Give tricks for each player."),
        ("4,4,5", "Give tricks for each player."),
    ],
)
def test_tricks_players(tricks: object, message: str) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract="hearts", tricks=tricks)
    assert rule_error(excinfo) == ("tricks_players", "tricks", message)


def test_tricks_players_in_a_stored_record() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("hearts", tricks=(6, 7))])
    assert excinfo.value.code == "tricks_players"


def test_deal_pending() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("hearts"), DealRecord("clubs", tricks=(4, 4, 5))])
    assert rule_error(excinfo) == (
        "deal_pending",
        "tricks",
        "Deal 1 has no tricks yet; enter them before the next deal.",
    )
    records = full_game_records()[:6]
    with pytest.raises(RuleError) as excinfo:
        replay(full_game_setup(), [*records, DealRecord("mizerka"), DealRecord("clubs")])
    assert rule_error(excinfo) == (
        "deal_pending",
        "tricks",
        "Deal 7 has no tricks yet; enter them before the next deal.",
    )


def test_game_finished() -> None:
    setup = full_game_setup()
    records = full_game_records()
    for extra in (DealRecord("hearts", tricks=(4, 4, 5)), DealRecord("hearts"), DealRecord("bogus")):
        with pytest.raises(RuleError) as excinfo:
            replay(setup, [*records, extra])
        assert rule_error(excinfo) == ("game_finished", "number", "The game is over after 18 deals.")


def test_bids_not_allowed() -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract="hearts", bids={"Ann": 1, "Bob": 2, "Cid": 3})
    assert rule_error(excinfo) == ("bids_not_allowed", "bids", "Mizerka has no bids.")
    with pytest.raises(RuleError) as excinfo:
        replay(setup, [DealRecord("hearts", bids=(1, 2, 3), tricks=(4, 4, 5))])
    assert rule_error(excinfo) == ("bids_not_allowed", "bids", "Mizerka has no bids.")


@pytest.mark.parametrize(
    ("players", "needle"),
    [
        (["Ann", "Bob"], "exactly 3 players (got 2)"),
        (["Ann", "Bob", "Cid", "Dee"], "exactly 3 players (got 4)"),
        ([], "exactly 3 players (got 0)"),
        (["Ann", "", "Cid"], "Every player needs a name."),
        (["Ann", "   ", "Cid"], "Every player needs a name."),
        (["Ann", "\t\n", "Cid"], "Every player needs a name."),
        (["Ann", "x" * 41, "Cid"], "at most 40 characters"),
        (["Ann", "ann", "Cid"], "Two players are called ann"),
        (["Ann", "ANN", "Cid"], "names must differ (ignoring case)"),
        (["Ann Lee", "Bob", "ann   lee"], "Two players are called ann lee"),
        (["Ann", "Bo\u202eb", "Cid"], "control or invisible formatting characters"),
        (["Ann", "Bob\u200b", "Cid"], "control or invisible formatting characters"),
        (["Ann", "Bob\x00", "Cid"], "control or invisible formatting characters"),
        (["Ann", 7, "Cid"], "must be text"),
        (["Ann", None, "Cid"], "must be text"),
        (["Ann", b"Bob", "Cid"], "must be text"),
        ("AnnBobCid", "list of names"),
        (None, "list of names"),
    ],
)
def test_invalid_players(players: object, needle: str) -> None:
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.make_setup(players, "Cid")  # type: ignore[arg-type]
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("invalid_players", "players")
    assert needle in message


def test_over_long_name_message() -> None:
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.validate_players(["Ann", "B" * 41, "Cid"])
    assert "41" in excinfo.value.message and "40" in excinfo.value.message


def test_names_are_trimmed_and_folded() -> None:
    setup = MIZERKA.make_setup(["  Ann  ", "Bob\t  Lee", "x" * 40], "bob lee")
    assert setup.players == ("Ann", "Bob Lee", "x" * 40)
    assert setup.first_dealer == 1
    # 40 characters after folding is fine even if the raw input was longer
    setup = MIZERKA.make_setup(["   " + "y" * 40 + "   ", "Bob", "Cid"], "Cid")
    assert setup.players[0] == "y" * 40


@pytest.mark.parametrize("first_dealer", ["Zed", "", "An", 0, ["Ann"]])
def test_unknown_first_dealer(first_dealer: object) -> None:
    with pytest.raises(RuleError) as excinfo:
        setup_for(PLAYERS, first_dealer)
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("unknown_player", "first_dealer")
    assert "is not playing in this game" in message


def test_first_dealer_absent_needs_a_draw() -> None:
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.make_setup(list(PLAYERS), None)
    assert rule_error(excinfo) == ("unknown_player", "first_dealer", "Choose the first dealer.")
    assert MIZERKA.make_setup(list(PLAYERS), None, draw=2).first_dealer == 2
    assert MIZERKA.make_setup(list(PLAYERS), None, draw=4).first_dealer == 1
    assert MIZERKA.make_setup(list(PLAYERS), " CID ").first_dealer == 2


def test_mizerka_has_no_options() -> None:
    assert MIZERKA.make_setup(list(PLAYERS), "Ann", {}).options == ()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.make_setup(list(PLAYERS), "Ann", {"scoring": "variant"})
    assert excinfo.value.code == "invalid_options"
    assert excinfo.value.field == "options"


@pytest.mark.parametrize("ruleset_id", ["poker", "Mizerka", "", None, 3])
def test_unknown_ruleset(ruleset_id: object) -> None:
    with pytest.raises(RuleError) as excinfo:
        get_ruleset(ruleset_id)
    code, field, message = rule_error(excinfo)
    assert (code, field) == ("unknown_ruleset", "ruleset")
    assert f"There is no game called {ruleset_id!s}" in message
    assert "mizerka" in message


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="Tricks must add up to 13"):
        MIZERKA.parse_deal(setup_for(), 1, contract="hearts", tricks=[1, 1, 1])


# ---------------------------------------------------------------------------------------------
# Property tests: random legal games
# ---------------------------------------------------------------------------------------------

NAME = st.text(
    alphabet=st.sampled_from("abcABCxyzÅåßẞΣσς éÉ\t"),
    min_size=1,
    max_size=12,
).filter(lambda raw: " ".join(raw.split()) != "")


@st.composite
def tricks_13(draw: st.DrawFn) -> tuple[int, int, int]:
    first = draw(st.integers(0, 13))
    second = draw(st.integers(0, 13 - first))
    triple = [first, second, 13 - first - second]
    return tuple(draw(st.permutations(triple)))  # type: ignore[return-value]


@st.composite
def legal_games(draw: st.DrawFn) -> tuple[GameSetup, list[DealRecord], list[GameState]]:
    raw_names = draw(
        st.lists(NAME, min_size=3, max_size=3, unique_by=lambda n: " ".join(n.split()).casefold())
    )
    first = draw(st.integers(0, 2))
    setup = MIZERKA.make_setup(raw_names, raw_names[first])
    assert setup.players == tuple(" ".join(n.split()) for n in raw_names)
    assert setup.first_dealer == first
    records: list[DealRecord] = []
    states = [MIZERKA.replay(setup, records)]
    for _ in range(18):
        nxt = states[-1].next_deal
        assert nxt is not None
        contract = draw(st.sampled_from(nxt.available_contracts))
        records.append(DealRecord(contract=contract, tricks=draw(tricks_13())))
        states.append(MIZERKA.replay(setup, records))
    return setup, records, states


PROPERTY_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@PROPERTY_SETTINGS
@given(legal_games())
def test_random_legal_games(game: tuple[GameSetup, list[DealRecord], list[GameState]]) -> None:
    setup, records, states = game
    final = states[-1]
    first = setup.first_dealer
    chosen: list[list[str]] = [[], [], []]

    for k, deal in enumerate(final.deals, start=1):
        # rotation
        assert deal.number == k
        assert deal.dealer == (first + k - 1) % 3
        assert deal.chooser == (deal.dealer + 1) % 3
        assert deal.roles[deal.dealer] == "dealer"
        assert deal.roles[(deal.dealer + 1) % 3] == "forehand"
        assert deal.roles[(deal.dealer + 2) % 3] == "middlehand"
        # zero-sum, quotas add up to 13, tricks as entered
        assert deal.tricks == records[k - 1].tricks
        assert deal.quotas is not None and sum(deal.quotas) == 13
        assert deal.scores is not None and sum(deal.scores) == 0
        # each player chooses each contract at most once
        assert deal.contract not in chosen[deal.chooser]
        chosen[deal.chooser].append(deal.contract)
        # the state before this deal offered exactly the chooser's unused contracts
        before = states[k - 1].next_deal
        assert before is not None
        assert before.number == k
        assert (before.dealer, before.chooser) == (deal.dealer, deal.chooser)
        assert before.available_contracts == tuple(
            c for c in CONTRACT_IDS if c not in chosen[deal.chooser][:-1]
        )
        assert len(before.available_contracts) == 6 - (k - 1) // 3
        # replaying a prefix gives the same deals (nothing later changes an earlier deal)
        assert states[k].deals == final.deals[:k]
        # running totals are the sums of the scores so far
        assert deal.totals == tuple(sum(d.scores[s] for d in final.deals[:k]) for s in range(3))  # type: ignore[index]
        assert states[k].totals == deal.totals

    # exactly once after 18 deals
    assert all(sorted(c) == sorted(CONTRACT_IDS) for c in chosen)
    assert len(final.deals) == 18
    assert final.finished
    assert all(not state.finished for state in states[:-1])
    assert final.next_deal is None
    assert final.remaining_contracts == ((), (), ())
    assert sum(final.totals) == 0
    assert final.totals == tuple(sum(d.scores[s] for d in final.deals) for s in range(3))  # type: ignore[index]

    # a 19th deal is refused, whatever it is
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.replay(setup, [*records, records[0]])
    assert excinfo.value.code == "game_finished"

    # standings: sorted by total, equal totals share a rank
    for state in states:
        standings = state.standings
        assert sorted(s.seat for s in standings) == [0, 1, 2]
        assert [s.total for s in standings] == sorted(state.totals, reverse=True)
        for s in standings:
            assert s.total == state.totals[s.seat]
            assert s.rank == 1 + sum(1 for t in state.totals if t > s.total)
        assert [s.rank for s in standings] == sorted(s.rank for s in standings)


@settings(max_examples=100, deadline=None, database=None)
@given(legal_games(), st.integers(1, 18), st.data())
def test_random_pending_and_contract_reuse(
    game: tuple[GameSetup, list[DealRecord], list[GameState]], cut: int, data: st.DataObject
) -> None:
    setup, records, states = game
    # Declaring deal `cut` without tricks leaves it pending; nothing may follow it.
    pending = [*records[: cut - 1], DealRecord(contract=records[cut - 1].contract)]
    state = MIZERKA.replay(setup, pending)
    assert state.pending_deal is not None and state.pending_deal.number == cut
    assert state.next_deal is None
    assert state.totals == states[cut - 1].totals
    assert not state.finished
    if cut < 18:
        with pytest.raises(RuleError) as excinfo:
            MIZERKA.replay(setup, [*pending, records[cut]])
        assert excinfo.value.code == "deal_pending"

    # Choosing a contract the forehand already used is refused, naming the earlier deal.
    chooser = states[cut - 1].next_deal.chooser  # type: ignore[union-attr]
    used = [d for d in states[cut - 1].deals if d.chooser == chooser]
    if used:
        earlier = data.draw(st.sampled_from(used))
        with pytest.raises(RuleError) as excinfo:
            MIZERKA.replay(setup, [*records[: cut - 1], DealRecord(earlier.contract, tricks=(4, 4, 5))])
        assert excinfo.value.code == "contract_used"
        assert excinfo.value.field == "contract"
        assert excinfo.value.message == (
            f"{setup.players[chooser]} has already played "  # type: ignore[index]
            f"{MIZERKA.contract_label(earlier.contract)} (deal {earlier.number}), "
            f"so cannot choose it again in deal {cut}."
        )


@settings(max_examples=150, deadline=None, database=None)
@given(st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)).filter(lambda t: sum(t) != 13))
def test_random_wrong_trick_sums_are_refused(tricks: tuple[int, int, int]) -> None:
    setup = setup_for()
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.parse_deal(setup, 1, contract="spades", tricks=dict(zip(PLAYERS, tricks, strict=True)))
    assert rule_error(excinfo) == ("tricks_sum", "tricks", f"Tricks must add up to 13 (got {sum(tricks)}).")


@settings(max_examples=100, deadline=None, database=None)
@given(legal_games(), st.integers(0, 18), st.data())
def test_extend_equals_replaying_everything(
    game: tuple[GameSetup, list[DealRecord], list[GameState]], cut: int, data: st.DataObject
) -> None:
    """Recording deals after a replayed state gives the state (or the refusal) a full replay gives."""
    setup, records, states = game
    assert MIZERKA.extend(states[cut], records[cut:]) == states[-1]
    # The same for a deal that breaks a rule, or leaves the game with a pending deal.
    if cut < 18:
        used = [d.contract for d in states[cut].deals if d.chooser == states[cut].next_deal.chooser]  # type: ignore[union-attr]
        bad = data.draw(
            st.sampled_from(
                [
                    DealRecord(contract=records[cut].contract),  # pending: legal
                    DealRecord(contract=records[cut].contract, tricks=(13, 13, 13)),  # tricks_sum
                    *(DealRecord(contract=contract, tricks=(4, 4, 5)) for contract in used),  # contract_used
                ]
            )
        )
        try:
            expected: GameState | str = MIZERKA.replay(setup, [*records[:cut], bad])
        except RuleError as error:
            expected = error.code
        try:
            got: GameState | str = MIZERKA.extend(states[cut], [bad])
        except RuleError as error:
            got = error.code
        assert got == expected
    if 0 < cut < 18:
        pending = MIZERKA.replay(setup, [*records[: cut - 1], DealRecord(contract=records[cut - 1].contract)])
        with pytest.raises(RuleError) as refused:
            MIZERKA.extend(pending, [records[cut]])
        assert refused.value.code == "deal_pending"
    with pytest.raises(RuleError) as finished:
        MIZERKA.extend(states[-1], [records[0]])
    assert finished.value.code == "game_finished"


# ---------------------------------------------------------------------------------------------
# What the state answers besides the scores
# ---------------------------------------------------------------------------------------------


def test_each_player_chooses_six_times() -> None:
    assert MIZERKA.choices_per_player == 6


@pytest.mark.parametrize(
    ("contract", "tricks", "made"),
    [
        # Ann deals deal 1, so Bob is forehand (quota 7/1), Cid middlehand (5/5), Ann dealer (1/7).
        # tricks and made are (Ann, Bob, Cid).
        ("hearts", (1, 7, 5), (True, True, True)),  # every quota exactly
        ("hearts", (4, 5, 4), (True, False, False)),  # RULES.md deal 1: forehand and middlehand short
        ("no-trumps", (0, 13, 0), (False, True, False)),
        ("mizerka", (7, 1, 5), (True, True, True)),  # every quota exactly
        ("mizerka", (5, 2, 6), (True, False, False)),  # RULES.md deal 2: forehand and middlehand over
        ("mizerka", (13, 0, 0), (False, True, True)),
    ],
)
def test_made_says_who_reached_their_quota(
    contract: str, tricks: tuple[int, ...], made: tuple[bool, ...]
) -> None:
    setup = setup_for()
    state = replay(setup, [DealRecord(contract=contract, tricks=tricks)])
    assert state.deals[0].made == made
    pending = replay(setup, [DealRecord(contract=contract)])
    assert pending.deals[0].made is None


def test_mizerka_has_no_forbidden_bid() -> None:
    state = replay(setup_for(), [DealRecord(contract="hearts")])
    assert state.pending_deal is not None
    assert state.pending_deal.forbidden_bid is None
    assert state.next_number == 2
