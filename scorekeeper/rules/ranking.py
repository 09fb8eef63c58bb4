"""What a ranking is: the games of one ruleset played by one preset and one number of players.

Games of different presets score on different scales (RULES.md "House rules"), and a table of
three is not a table of four, so each (ruleset, preset, number of players) is ranked on its own.
A ranking is named by a key, ``ruleset/preset/4``, which the stored figures keep
(``game_results.ranking``); RULES.md "House rules" says which games are ranked together: a preset
that scores on another's scale says so (``Preset.ranks_with``), and its games count in that one's
ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Ruleset
from .registry import RULESETS, default_ruleset
from .state import GameSetup, Preset


@dataclass(frozen=True)
class Ranking:
    """One ranking: a ruleset, one of its presets, and a number of players the preset is played by."""

    ruleset: Ruleset
    preset: Preset
    players: int

    @property
    def key(self) -> str:
        return f"{self.ruleset.id}/{self.preset.id}/{self.players}"

    @property
    def rating(self) -> str:
        """The key of the rating its games count in (``rating_of``)."""
        return rating_of(self.key)


def rating_of(ranking: str) -> str:
    """The rating a ranking's games count in: its game and house rule, whatever the table's size (a
    game played by 3 or 4 is rated across both), named by the ranking's key without the number of
    players: ``ruleset/preset``."""
    return ranking.rpartition("/")[0]


def rankings_rated_as(rating: str) -> tuple[str, ...]:
    """The keys of every ranking whose games count in ``rating``."""
    return tuple(ranking.key for ranking in every_ranking() if ranking.rating == rating)


def ranked_as(ruleset: Ruleset, preset: Preset) -> Preset:
    """The preset whose ranking games of ``preset`` count in: the one it ranks with, else itself."""
    return next((other for other in ruleset.presets if other.id == preset.ranks_with), preset)


def ranking_key(ruleset: Ruleset, setup: GameSetup) -> str:
    """The key of the ranking a game of ``setup`` counts in, e.g. ``ruleset/preset/4``."""
    return Ranking(ruleset, ranked_as(ruleset, ruleset.preset_of(setup)), len(setup.players)).key


def rankings_of(ruleset: Ruleset) -> tuple[Ranking, ...]:
    """Every ranking of ``ruleset``: preset by preset (the default first; a preset ranked with another
    has none of its own), each by number of players (the usual number first)."""
    counts = sorted(ruleset.seat_counts, key=lambda players: players != ruleset.player_count)
    return tuple(
        Ranking(ruleset, preset, players)
        for preset in ruleset.presets
        for players in counts
        if preset.plays_with(players) and ranked_as(ruleset, preset) == preset
    )


def default_ranking(ruleset: Ruleset) -> Ranking:
    """The ranking of the ruleset's default game: its first preset, its usual number of players."""
    return Ranking(ruleset, ruleset.presets[0], ruleset.player_count)


DEFAULT_RANKING = default_ranking(default_ruleset()).key


def every_ranking() -> tuple[Ranking, ...]:
    """The rankings of every registered ruleset, in the registry's order."""
    return tuple(ranking for ruleset in RULESETS.values() for ranking in rankings_of(ruleset))


def find_ranking(game: str) -> Ranking:
    """The ranking a page's ``game`` names: a key, or a ruleset's id (its default ranking);
    anything else names the default ruleset's."""
    if game in RULESETS:
        return default_ranking(RULESETS[game])
    return next(
        (ranking for ranking in every_ranking() if ranking.key == game),
        default_ranking(default_ruleset()),
    )
