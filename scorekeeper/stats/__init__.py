"""Figures across games: rankings, a player's statistics, and the per-game figures behind them.

Every figure comes from the replay.  ``figures`` (pure) turns one replayed game into rows of
``game_results`` and ``deal_results``; ``writer`` keeps those rows, and the players'
``player_totals`` (all time and year by year), equal to the replay in the same transaction
as every write, so the pages (``rankings``, ``player_page``, ``people``) read or sum them in
SQL with a fixed number of queries, whatever the number of games or deals.
"""

from __future__ import annotations

from ..models import MIN_FOR_PERCENT
from .figures import Figures, figures
from .game_list import (
    GAMES_PER_LIST,
    MOST_OPENED,
    GameList,
    ListedGame,
    PhoneGame,
    game_list,
    phone_games,
)
from .people import PersonLine, known_players, people, recent_players
from .player_page import CHART_GAMES, RECENT_GAMES, PlayerStats, player_stats
from .rankings import COLUMNS, DEFAULT_SORT, PER_PAGE, Rankings, rankings
from .sums import DEFAULT_RULESET, PERIODS, Filters, Record, average, percent
from .writer import refresh_totals, store_figures

__all__ = [
    "CHART_GAMES",
    "COLUMNS",
    "DEFAULT_RULESET",
    "DEFAULT_SORT",
    "GAMES_PER_LIST",
    "MIN_FOR_PERCENT",
    "MOST_OPENED",
    "PERIODS",
    "PER_PAGE",
    "RECENT_GAMES",
    "Figures",
    "Filters",
    "GameList",
    "ListedGame",
    "PersonLine",
    "PhoneGame",
    "PlayerStats",
    "Rankings",
    "Record",
    "average",
    "figures",
    "game_list",
    "known_players",
    "people",
    "percent",
    "phone_games",
    "player_stats",
    "rankings",
    "recent_players",
    "refresh_totals",
    "store_figures",
]
