"""A season row's trend (CLUB.md "Seasons", docs/club-nights.md): its place in the table now against
its place in the table as it stood before the season's latest night, the figures worked by hand."""

from fractions import Fraction

from scorekeeper.nights.points import NightLine, season_table

ZERO = Fraction(0)


def lines(points: dict[int, dict[int, int]]) -> list[tuple[int, NightLine]]:
    """(player, line) pairs from {player: {night: placement points}}, margins 0, one table a night."""
    return [
        (player, NightLine(night=night, points=got, margin=ZERO, tables=1))
        for player, nights in points.items()
        for night, got in nights.items()
    ]


def test_the_trend_compares_the_table_before_the_latest_night():
    # Best 2 nights count; listed from the third night played. Nights 0 to 3, night 3 the latest.
    season = lines(
        {
            1: {0: 2, 1: 1, 2: 0, 3: -2},
            2: {0: -1, 1: 1, 2: 1, 3: 2},
            3: {0: 0, 1: -2, 2: 1, 3: 0},
            4: {1: 0, 2: -1, 3: 1},
            5: {0: -1, 1: 0, 2: -1},
        }
    )
    # Before night 3: 1 has 2 + 1 = 3, 2 has 1 + 1 = 2, 3 has 1 + 0 = 1, 5 has 0 - 1 = -1, ranked
    # 1, 2, 3, 4; 4 has played 2 nights and is not listed.
    # After it: 1 still 2 + 1 = 3 and 2 now 2 + 1 = 3, equal margins (0) and nights (4): both 1st.
    # 3: 1 + 0 = 1 over 4 nights; 4: 1 + 0 = 1 over 3 nights: 3 ranks 3rd, 4 4th. 5 stays at -1: 5th.
    table = season_table(season, best=2)
    assert [(row.player, row.rank, row.points, row.previous, row.moved) for row in table] == [
        (1, 1, 3, 1, 0),  # "="
        (2, 1, 3, 2, 1),  # "▲1"
        (3, 3, 1, 3, 0),  # "="
        (4, 4, 1, None, None),  # "new"
        (5, 5, -1, 4, -1),  # "▼1"
    ]


def test_after_a_first_night_everyone_listed_is_new():
    assert season_table([]) == ()
    # Listed from 1 night: after a single night, everyone is new.
    one = season_table(lines({1: {0: 2}, 2: {0: -2}}), listed_from=1)
    assert [(row.player, row.rank, row.moved) for row in one] == [(1, 1, None), (2, 2, None)]


def test_the_latest_night_is_the_latest_with_a_line():
    # Nights 0 and 2 only (night 1 had no table played): the latest is night 2. Before it, 1 led with
    # +2 against -2; night 2 gives 2 +4 and 1 -4: 2 leads with +2 against -2, 1 drops a place.
    table = season_table(lines({1: {0: 2, 2: -4}, 2: {0: -2, 2: 4}}), listed_from=1)
    assert [(row.player, row.rank, row.points, row.previous, row.moved) for row in table] == [
        (2, 1, 2, 2, 1),
        (1, 2, -2, 1, -1),
    ]
