"""People across games: the rankings, the list of players (rename, merge), a player's page."""
