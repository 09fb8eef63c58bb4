"""Club nights' pages: the director's, the check-in, a player's phone, the projector."""
