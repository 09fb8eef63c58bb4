"""Night points and season points (CLUB.md): the figures worked from its formulas in each test."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.nights.points import (
    NightLine,
    TableResult,
    margins,
    night_lines,
    night_standings,
    placement_points,
    season_standings,
    table_scores,
)


def test_placement_points_at_four_and_three_seats():
    # P(k) = n + 1 - 2k: 4 seats +3/+1/-1/-3, 3 seats +2/0/-2.
    assert placement_points((1, 2, 3, 4)) == (3, 1, -1, -3)
    assert placement_points((3, 1, 2)) == (-2, 2, 0)


def test_tied_places_share_the_mean():
    # Two tied first at 4 seats: (3 + 1) / 2 = +2 each; then -1 and -3.
    assert placement_points((1, 1, 3, 4)) == (2, 2, -1, -3)
    # Three tied second at 4 seats: (1 - 1 - 3) / 3 = -1 each.
    assert placement_points((1, 2, 2, 2)) == (3, -1, -1, -1)
    # All tied: 0.
    assert placement_points((1, 1, 1)) == (0, 0, 0)


def test_margin_is_own_minus_mean_over_the_spread():
    # Totals 120, 40, -60, -100: mean 0, spread 220.
    assert margins((120, 40, -60, -100)) == (
        Fraction(120, 220),
        Fraction(40, 220),
        Fraction(-60, 220),
        Fraction(-100, 220),
    )
    # Totals 10, 4, 4: mean 6, spread 6 -> 4/6, -2/6, -2/6.
    assert margins((10, 4, 4)) == (Fraction(2, 3), Fraction(-1, 3), Fraction(-1, 3))
    assert margins((5, 5, 5, 5)) == (0, 0, 0, 0)


@given(st.lists(st.integers(min_value=-2000, max_value=2000), min_size=3, max_size=4))
def test_points_and_margins_sum_to_zero_and_margins_stay_within_one(totals):
    places = tuple(1 + sum(other > own for other in totals) for own in totals)
    assert sum(placement_points(places)) == 0
    found = margins(totals)
    assert sum(found) == 0
    assert all(-1 <= margin <= 1 for margin in found)


def _night():
    """Two rounds of 8 players at a table of 4 and one of 3; player 8 sits both out."""
    round_one = [
        # Table 1: totals 300, 100, 100, -500 -> places 1, 2, 2, 4.
        TableResult(1, 1, (1, 2, 3, 4), (1, 2, 2, 4), (300, 100, 100, -500)),
        # Table 2 (3 seats): totals 12, 0, -12 -> places 1, 2, 3.
        TableResult(1, 2, (5, 6, 7), (1, 2, 3), (12, 0, -12)),
    ]
    round_two = [
        # Table 1 closed unfinished: totals 40, -10, -10, -20 -> places 1, 2, 2, 4.
        TableResult(2, 1, (5, 6, 1, 2), (1, 2, 2, 4), (40, -10, -10, -20), finished=False),
        # Table 2 (3 seats): totals 0, 6, -6 -> places 2, 1, 3.
        TableResult(2, 2, (3, 4, 7), (2, 1, 3), (0, 6, -6)),
    ]
    return round_one + round_two


def test_a_night_with_ties_a_sit_out_and_an_unfinished_table():
    results = _night()
    standings = night_standings(range(1, 9), results, sat_out={2: [8], 1: [8]})
    by_player = {row.player: row for row in standings}
    # Player 1: round 1 place 1 of 4 -> +3; round 2 place 2 tied with 1 (places 2, 2 of 4 -> (1 - 1)/2 = 0).
    assert by_player[1].points == 3 + 0
    # margins: round 1 (300 - 0) / 800 (mean (300+100+100-500)/4 = 0, spread 800) = 3/8;
    # round 2: mean (40-10-10-20)/4 = 0, spread 60: (-10 - 0)/60 = -1/6.
    assert by_player[1].margin == Fraction(3, 8) + Fraction(-1, 6)
    # Player 2: tied 2nd in round 1 -> (1 - 1)/2 = 0; last of 4 in round 2 -> -3.
    assert by_player[2].points == 0 - 3
    # Player 5: first of 3 (+2), first of 4 (+3).
    assert by_player[5].points == 5
    assert by_player[5].margin == Fraction(12, 24) + Fraction(40, 60)
    # Player 4: last of 4 (-3), first of 3 (+2) -> -1. Player 3: 0 then 0 -> 0.
    assert by_player[4].points == -1
    assert by_player[3].points == 0
    # Player 6: 0 then 0; player 7: -2 then -2 -> -4.
    assert by_player[6].points == 0
    assert by_player[7].points == -4
    # Player 8 sat out twice: 0 points, 0 margin, two "sat out" scores.
    assert by_player[8].points == 0 and by_player[8].margin == 0
    assert [score.table for score in by_player[8].scores] == [None, None]
    assert by_player[8].tables == 0
    # The unfinished table is marked on its players' scores.
    assert [score.unfinished for score in by_player[5].scores] == [False, True]
    # Order: 5 (+5), 1 (+3), then 3, 6, 8 tied on 0 points: margins decide.
    # 3: round 1 100/800 = 1/8, round 2 (0 - 0)/12 = 0 -> 1/8.
    # 6: round 1 0/24 = 0, round 2 -10/60 = -1/6 -> -1/6.  8: 0.
    assert [row.player for row in standings] == [5, 1, 3, 8, 6, 4, 2, 7]
    assert [row.rank for row in standings] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_tied_players_are_split_by_the_points_where_they_met_then_shared():
    # Players 1 and 2 tie on points and margins overall; at the table where they met 2 beat 1.
    results = [
        TableResult(1, 1, (1, 2, 3), (2, 1, 3), (0, 10, -10)),  # 1: 0, 2: +2; margins 0, 1/2
        TableResult(2, 1, (1, 4, 5), (1, 2, 3), (10, 0, -10)),  # 1: +2, margin 1/2
        TableResult(2, 2, (2, 6, 7), (2, 1, 3), (0, 10, -10)),  # 2: 0, margin 0; 6: +2, margin 1/2
    ]
    standings = night_standings(range(1, 8), results)
    # 1, 2 and 6 all have +2 and a margin of 1/2. The tables where two of them met: round 1 table 1
    # (1 and 2: 1 took 0, 2 took +2) and round 2 table 2 (2 and 6: 2 took 0, 6 took +2). So 2 took
    # 2 + 0 = 2, 6 took 2, 1 took 0: 2 and 6 share first, 1 is third.
    assert [(row.player, row.points, row.margin) for row in standings[:3]] == [
        (2, 2, Fraction(1, 2)),
        (6, 2, Fraction(1, 2)),
        (1, 2, Fraction(1, 2)),
    ]
    assert [row.rank for row in standings[:3]] == [1, 1, 3]
    # Never met and all equal: shared rank.
    shared = night_standings(
        range(1, 7),
        [
            TableResult(1, 1, (1, 3, 4), (1, 2, 3), (5, 0, -5)),
            TableResult(1, 2, (2, 5, 6), (1, 2, 3), (5, 0, -5)),
        ],
    )
    assert [(row.player, row.rank) for row in shared[:2]] == [(1, 1), (2, 1)]


def test_table_scores_of_a_three_seat_table():
    scores = table_scores(TableResult(3, 2, (11, 12, 13), (1, 1, 3), (7, 7, -14)))
    # Two tied first at 3 seats: (2 + 0) / 2 = +1 each; last -2.
    assert [scores[p].points for p in (11, 12, 13)] == [1, 1, -2]
    # Mean 0, spread 21: 7/21 = 1/3, 1/3, -14/21 = -2/3.
    assert [scores[p].margin for p in (11, 12, 13)] == [Fraction(1, 3), Fraction(1, 3), Fraction(-2, 3)]
    assert scores[11].table == 2 and scores[11].round == 3


def test_season_best_nights_listed_from_three():
    lines = []
    # Player 1: five nights, points 5, -3, 4, 1, 0; the best 3 (5, 4, 1) = 10.
    for night, (points, margin) in enumerate([(5, 1), (-3, 0), (4, 1), (1, 0), (0, 0)], start=1):
        lines.append((1, NightLine(night, points, Fraction(margin, 2), tables=4)))
    # Player 2: three nights 4, 4, 2 = 10 with margins 1/2 + 1/2 + 1/2 = 3/2 (player 1: 1/2+1/2+0 = 1).
    for night, points in enumerate([4, 4, 2], start=1):
        lines.append((2, NightLine(night, points, Fraction(1, 2), tables=3)))
    # Player 3: two nights only: not listed.
    lines += [(3, NightLine(1, 9, Fraction(0), 4)), (3, NightLine(2, 9, Fraction(0), 4))]
    # Player 4: three nights 5, 4, 1 margins 1/2, 1/2, 0 = 1: ties player 1 on both; fewer nights.
    for night, (points, margin) in enumerate([(5, 1), (4, 1), (1, 0)], start=1):
        lines.append((4, NightLine(night, points, Fraction(margin, 2), tables=4)))
    table = season_standings(lines, best=3)
    assert [(row.player, row.rank, row.points) for row in table] == [(2, 1, 10), (1, 2, 10), (4, 3, 10)]
    one = table[1]
    assert one.margin == 1 and one.nights == 5 and one.tables == 20 and one.counted == (1, 3, 4)
    # Average per table over all nights: (5 - 3 + 4 + 1 + 0) / 20.
    assert one.average == Fraction(7, 20)


def test_season_shares_a_rank_when_all_is_equal():
    lines = [(p, NightLine(n, 2, Fraction(0), 2)) for p in (1, 2) for n in (1, 2, 3)]
    assert [row.rank for row in season_standings(lines)] == [1, 1]


def test_night_lines_skip_who_never_played():
    standings = night_standings(
        [1, 2, 3, 4], [TableResult(1, 1, (1, 2, 3), (1, 2, 3), (3, 0, -3))], sat_out={1: [4]}
    )
    assert sorted(player for player, _ in night_lines(9, standings)) == [1, 2, 3]
