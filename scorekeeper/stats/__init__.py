"""Figures across games: the per-game figures of the replay (``figures``), stored with every write
(``writer``), and the pages that read them in a fixed number of queries."""

from __future__ import annotations

from ..stored_figures import MIN_FOR_PERCENT
from . import ratings
from .figures import figures
from .game_list import GAMES_PER_LIST, MOST_OPENED, PhoneGame, game_list, phone_games
from .people import known_players, latest_ranking, people, recent_players
from .player_page import player_stats
from .rankings import COLUMNS, DEFAULT_SORT, PER_PAGE, Rankings, rankings
from .sums import PERIODS, Filters, percent, ranking_name
from .writer import refresh_totals, store_figures

__all__ = [
    "COLUMNS",
    "DEFAULT_SORT",
    "GAMES_PER_LIST",
    "MIN_FOR_PERCENT",
    "MOST_OPENED",
    "PERIODS",
    "PER_PAGE",
    "Filters",
    "PhoneGame",
    "Rankings",
    "figures",
    "game_list",
    "known_players",
    "latest_ranking",
    "people",
    "percent",
    "phone_games",
    "player_stats",
    "ranking_name",
    "rankings",
    "ratings",
    "recent_players",
    "refresh_totals",
    "store_figures",
]
