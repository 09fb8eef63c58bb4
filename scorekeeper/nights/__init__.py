"""Club nights (CLUB.md), pure: who sits where each round, and the night's and the season's points.

Like ``scorekeeper.rules`` this package imports nothing from Flask, SQLAlchemy or WTForms: a night
links ordinary games, and its seating and points are functions of the night's facts (the players
present, the rounds seated) and the table games' places and totals. Players are whole numbers (the
people's ids); a game's facts come in as the sizes its preset allows (``Ruleset.seat_counts``),
never as the game's name.
"""
