"""Game pages: the list, a new game, the game page and its writes, the scoresheet, the hand-over."""
