"""Club nights (CLUB.md): create one, check players in, seat and start rounds, read the standings.

A night's facts are its row, its players present, its rounds' seats and its tables' ordinary games;
the seating and the points are the pure ``scorekeeper.nights`` package's. Every write locks the night
(bumps its version) first, so two directors' phones cannot seat one round twice. Night points are
read from the table games' stored figures (``game_results``: each seat's total and place, stored equal
to the replay by every write to the game), so a correction at a table moves the night's standings
with the same write. ``view`` reads, ``create`` makes a night (its director holds its pencil, the keyring's),
``writes`` changes it; ``seasons`` stores, changes and deletes a season and reads its table from its nights.
"""

from .create import (
    create_night,
    parse_night_name,
    whole_number,
)
from .seasons import (
    MOST_BEST_NIGHTS,
    SeasonNight,
    SeasonView,
    create_season,
    delete_season,
    edit_season,
    list_seasons,
    load_season,
    refuse_keyless,
)
from .view import (
    CLOCK_MINUTES,
    FIRST_ROUNDS,
    MOST_PLAYERS,
    MOST_ROUNDS,
    SEATINGS,
    TABLE_LINK_LIFETIME,
    NightView,
    Present,
    SeatedRound,
    SeatedTable,
    load_night,
    night_seat_counts,
    preset_of,
    read_night,
    regulars,
)
from .writes import (
    TableLink,
    check_in,
    close_table,
    move_player,
    remove_player,
    renew_table_link,
    seat_next_round,
    set_hidden,
    start_clock,
    start_round,
    swap_players,
)

__all__ = [
    "CLOCK_MINUTES",
    "FIRST_ROUNDS",
    "MOST_BEST_NIGHTS",
    "MOST_PLAYERS",
    "MOST_ROUNDS",
    "SEATINGS",
    "TABLE_LINK_LIFETIME",
    "NightView",
    "Present",
    "SeasonNight",
    "SeasonView",
    "SeatedRound",
    "SeatedTable",
    "TableLink",
    "check_in",
    "close_table",
    "create_night",
    "create_season",
    "delete_season",
    "edit_season",
    "list_seasons",
    "load_night",
    "load_season",
    "move_player",
    "night_seat_counts",
    "parse_night_name",
    "preset_of",
    "read_night",
    "refuse_keyless",
    "regulars",
    "remove_player",
    "renew_table_link",
    "seat_next_round",
    "set_hidden",
    "start_clock",
    "start_round",
    "swap_players",
    "whole_number",
]
