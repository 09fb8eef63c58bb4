"""Seating a club night (CLUB.md "Tables each round", "Seating"): sizes, sit-outs, Mix, Swiss, swaps."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.nights.mix import greedy_baseline, plan_mix, plan_night
from scorekeeper.nights.seating import (
    Round,
    Table,
    by_rating,
    first_round,
    meetings,
    repeat_cost,
    repeats,
    seat_swiss,
    swap,
    table_sizes,
    with_first_dealers,
)


@pytest.mark.parametrize(
    ("present", "seat_counts", "sizes"),
    [
        (12, (4,), (4, 4, 4)),
        (14, (4,), (4, 4, 4)),  # 2 sit out
        (11, (3,), (3, 3, 3)),  # 2 sit out
        (2, (3,), ()),
        (3, (4,), ()),
        # Two sizes: N = 4a + 3b with b smallest, nobody out.
        (3, (3, 4), (3,)),
        (4, (3, 4), (4,)),
        (5, (3, 4), (4,)),  # the one case with a sit-out: one table of 4
        (6, (3, 4), (3, 3)),
        (7, (3, 4), (4, 3)),
        (13, (4, 3), (4, 3, 3, 3)),
        (23, (3, 4), (4, 4, 4, 4, 4, 3)),
        (2, (3, 4), ()),
    ],
)
def test_table_sizes(present, seat_counts, sizes):
    assert table_sizes(present, seat_counts) == sizes


@given(st.integers(min_value=6, max_value=60))
def test_two_sizes_seat_everyone_with_fewest_tables_of_three(present):
    sizes = table_sizes(present, (3, 4))
    assert sum(sizes) == present
    threes = sizes.count(3)
    assert threes <= 3  # 4a + 3b: b < 4, or four 3s would be three 4s
    assert (present - 3 * threes) % 4 == 0


def _players(count):
    return list(range(101, 101 + count))


def _check_round(seated, players, sizes):
    assert tuple(len(table.seats) for table in seated.tables) == sizes
    everyone = list(seated.seated) + list(seated.sitting_out)
    assert sorted(everyone) == sorted(players)
    assert [table.number for table in seated.tables] == list(range(1, len(sizes) + 1))
    for table in seated.tables:
        assert table.first_dealer in table.seats


@pytest.mark.parametrize(
    ("count", "seats", "rounds"),
    [(9, 3, 4), (15, 3, 7), (12, 3, 4), (16, 4, 5)],
    ids=["9x3x4", "kirkman-15x3x7", "12x3x4", "affine-16x4x5"],
)
@pytest.mark.parametrize("seed", [1, 2, 3, 20261128])
def test_known_designs_reach_zero_repeats(count, seats, rounds, seed):
    players = _players(count)
    plan = plan_night(players, (seats,), rounds, seed=seed)
    assert len(plan) == rounds
    for seated in plan:
        _check_round(seated, players, (seats,) * (count // seats))
    assert repeat_cost(plan) == 0
    # No pair twice: every pair met at most once over the night.
    assert max(meetings(plan).values()) == 1
    assert len(meetings(plan)) == rounds * (count // seats) * seats * (seats - 1) // 2


def test_kirkman_after_a_directors_order():
    players = _players(15)
    order = list(reversed(players))
    plan = plan_night(players, (3,), 7, seed=5, order=order)
    assert plan[0].tables[0].seats == (115, 114, 113)
    assert repeat_cost(plan) == 0
    assert len(meetings(plan)) == 105  # all 15·14/2 pairs, each once


def test_round_one_is_drawn_from_the_seed_and_repeats():
    players = _players(10)
    first = first_round(players, (4,), seed=7)
    assert first == first_round(players, (4,), seed=7)
    assert first != first_round(players, (4,), seed=8)
    assert len(first.sitting_out) == 2


def test_round_one_in_the_directors_order():
    players = _players(10)
    order = [110, 109, 108, 107, 106, 105, 104, 103, 102, 101]
    first = first_round(players, (4,), seed=1, order=order)
    assert [table.seats for table in first.tables] == [(110, 109, 108, 107), (106, 105, 104, 103)]
    assert first.sitting_out == (101, 102)
    # Nobody has dealt yet: each table's first seat deals first.
    assert [table.first_dealer for table in first.tables] == [110, 106]


def test_too_few_for_a_table_gives_no_round():
    assert first_round(_players(2), (3, 4), seed=1) is None
    assert plan_night(_players(2), (3,), 3, seed=1) == ()


def test_sitting_out_rotates_nobody_twice_before_everyone_once():
    players = _players(11)  # tables of 4: 8 play, 3 sit out each round
    plan = plan_night(players, (4,), 7, seed=3)
    out_counts = {player: 0 for player in players}
    for seated in plan:
        assert len(seated.sitting_out) == 3
        for player in seated.sitting_out:
            # Nobody sits out a second time while someone has not sat out yet.
            assert out_counts[player] == min(out_counts.values())
            out_counts[player] += 1
    # 7 rounds × 3 = 21 sit-outs over 11 players: everyone once, ten of them twice.
    assert sorted(out_counts.values()) == [1] + [2] * 10


def test_a_late_arrival_is_not_sent_out_before_the_others_had_their_turn():
    players = _players(9)
    opening = first_round(players, (4,), seed=4)
    assert len(opening.sitting_out) == 1
    late = 200
    plan = plan_mix([*players, late], (4,), 2, history=(opening,), seed=4)
    out_first = plan[0].sitting_out
    assert len(out_first) == 2
    assert late not in out_first
    assert opening.sitting_out[0] not in out_first


def test_a_leaver_replans_the_rounds_not_started():
    players = _players(12)
    plan = plan_night(players, (3,), 4, seed=9)
    played = plan[:2]
    leaver = plan[2].tables[0].seats[0]
    rest = plan_mix([p for p in players if p != leaver], (3,), 2, history=played, seed=9)
    for seated in rest:
        assert leaver not in seated.seated
        assert len(seated.sitting_out) == 2  # 11 at tables of 3: three tables, two out
    # Rounds 1 and 2 stand as played.
    assert plan[:2] == played


def test_first_dealers_balance_over_the_night():
    plan = plan_night(_players(16), (4,), 5, seed=2)
    dealt = {}
    for seated in plan:
        for table in seated.tables:
            dealt[table.first_dealer] = dealt.get(table.first_dealer, 0) + 1
    # 20 tables over 16 players: nobody first dealer twice while someone has not been once.
    assert len(dealt) == 16
    assert max(dealt.values()) == 2


def _baseline_sizes():
    draw = random.Random(46)
    cases = [(draw.randint(6, 60), draw.choice([(3,), (4,), (3, 4)]), draw.randint(1, 10)) for _ in range(14)]
    return [*cases, (23, (3, 4), 6), (40, (4,), 8), (39, (3,), 8), (17, (3,), 5)]


@pytest.mark.parametrize(("count", "seat_counts", "rounds"), _baseline_sizes())
def test_mix_is_never_worse_than_the_greedy_baseline(count, seat_counts, rounds):
    players = _players(count)
    seed = count * 1000 + rounds
    opening = first_round(players, seat_counts, seed)
    mix = plan_mix(players, seat_counts, rounds, (opening,), seed)
    baseline = greedy_baseline(players, seat_counts, rounds, (opening,), seed)
    assert len(mix) == len(baseline) == rounds
    # The same sit-outs: they follow the rotation, not the seating.
    assert [r.sitting_out for r in mix] == [r.sitting_out for r in baseline]
    assert repeat_cost(mix, (opening,)) <= repeat_cost(baseline, (opening,))


def test_greedy_baseline_seats_each_player_where_they_add_least():
    # One round after a round that seated 1-2-3 and 4-5-6: the greedy pass never puts two of a table
    # together again when it need not, so its best of 100 costs nothing.
    history = (Round(tables=(Table(1, (1, 2, 3), 1), Table(2, (4, 5, 6), 4))),)
    (seated,) = greedy_baseline([1, 2, 3, 4, 5, 6], (3,), 1, history, seed=1)
    assert repeat_cost([seated], history) == 2  # 6 players, 2 tables of 3: each table has one old pair
    assert repeats(seated, history) == 2


def test_repeat_cost_counts_m_squared():
    first = Round(tables=(Table(1, (1, 2, 3, 4), 1),))
    second = Round(tables=(Table(1, (1, 2, 3, 4), 2),))
    third = Round(tables=(Table(1, (1, 2, 5, 6), 5),))
    # Round 2: six pairs that met once: 6 × 1² = 6. Round 3: 1-2 met twice: 2² = 4.
    assert repeat_cost([first, second, third]) == 0 + 6 + 4
    assert repeat_cost([third], (first, second)) == 4
    assert repeats(third, (first, second)) == 1


def test_swiss_fills_tables_from_the_top_and_swaps_to_avoid_repeats():
    # Standings 1..8 (1 on top), tables of 4. Round 1 seated 1-2-3-4 and 5-6-7-8 already.
    history = (Round(tables=(Table(1, (1, 2, 3, 4), 1), Table(2, (5, 6, 7, 8), 5))),)
    seated = seat_swiss([1, 2, 3, 4, 5, 6, 7, 8], (4,), history, seed=1)
    costs = repeat_cost([seated], history)
    # Filled from the top the cost would be 12 (six old pairs at each table); swaps lower it.
    assert costs < 12
    assert sorted(seated.seated) == list(range(1, 9))
    # Without history, plain top-down tables.
    fresh = seat_swiss([1, 2, 3, 4, 5, 6, 7, 8], (4,), (), seed=1)
    assert [t.seats for t in fresh.tables] == [(1, 2, 3, 4), (5, 6, 7, 8)]


def test_swiss_on_two_sizes_puts_the_tables_of_three_at_the_bottom():
    seated = seat_swiss(list(range(1, 11)), (3, 4), (), seed=1)
    assert [t.seats for t in seated.tables] == [(1, 2, 3, 4), (5, 6, 7), (8, 9, 10)]


def test_swap_two_players_and_count_repeats():
    history = (Round(tables=(Table(1, (1, 2, 3), 1), Table(2, (4, 5, 6), 4))),)
    seated = Round(tables=(Table(1, (1, 4, 5), 1), Table(2, (2, 3, 6), 2)))
    assert repeats(seated, history) == 2  # 4-5 and 2-3
    swapped = swap(seated, 5, 3, history)
    assert [t.seats for t in swapped.tables] == [(1, 4, 3), (2, 5, 6)]
    assert repeats(swapped, history) == 2  # 1-3 and 5-6 met in round 1; 4-5 and 2-3 no longer sit together
    assert (1, 3) in meetings(history) and (4, 5) in meetings(history)
    with pytest.raises(ValueError):
        swap(seated, 5, 5, history)
    with pytest.raises(ValueError):
        swap(seated, 5, 99, history)


def test_swap_with_a_player_sitting_out():
    seated = Round(tables=(Table(1, (1, 2, 3), 1),), sitting_out=(4,))
    swapped = swap(seated, 2, 4, ())
    assert swapped.tables[0].seats == (1, 4, 3)
    assert swapped.sitting_out == (2,)


def test_with_first_dealers_picks_who_dealt_least():
    history = (Round(tables=(Table(1, (1, 2, 3), 1),)),)
    seated = with_first_dealers(Round(tables=(Table(1, (1, 2, 3), 1),)), history)
    assert seated.tables[0].first_dealer == 2
    assert seated.tables[0].first_dealer_seat == 1


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=3, max_value=30),
    seat_counts=st.sampled_from([(3,), (4,), (3, 4)]),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_every_plan_seats_everyone_once_per_round(count, seat_counts, rounds, seed):
    players = _players(count)
    plan = plan_night(players, seat_counts, rounds, seed=seed)
    sizes = table_sizes(count, seat_counts)
    if not sizes:
        assert plan == ()
        return
    assert len(plan) == rounds
    for seated in plan:
        _check_round(seated, players, sizes)
    assert plan == plan_night(players, seat_counts, rounds, seed=seed)  # the same seed, the same night


def test_by_rating_lists_the_highest_ordinal_first_and_the_unrated_last():
    # Ordinals mu - 3 sigma: 7 has 4.2, 3 has 1.5, 9 and 2 tie at 0.5, 5 has -2.0 (below a newcomer's
    # 0, yet listed before 1 and 8, who have no rating).
    ordinals = {3: 1.5, 5: -2.0, 7: 4.2, 9: 0.5, 2: 0.5}
    players = [1, 2, 3, 5, 7, 8, 9]
    listed = by_rating(players, ordinals, seed=46)
    assert listed[:2] == [7, 3]
    assert set(listed[2:4]) == {2, 9} and listed[4] == 5
    assert set(listed[5:]) == {1, 8}
    # Ties and the unrated follow the seed's draw: the same seed, the same order, whatever the input
    # order; over seeds, both orders of a tie occur.
    assert by_rating(list(reversed(players)), ordinals, seed=46) == listed
    assert {tuple(by_rating(players, ordinals, seed=seed)[2:4]) for seed in range(20)} == {(2, 9), (9, 2)}
    # Round 1 in that order at tables of 3: table 1 takes the first three, the last listed sits out.
    seated = first_round(players, (3,), seed=46, order=listed)
    assert seated is not None
    assert [set(table.seats) for table in seated.tables] == [set(listed[:3]), set(listed[3:6])]
    assert seated.sitting_out == (listed[6],)
