"""A club night's points and a season's (CLUB.md, "Night points" and "Seasons"), pure.

A table game gives each of its players a place (1 = first in the game's own standings, tied players
the same place) and a total. From those: **placement points** (+1 per opponent below, −1 per
opponent above: P(k) = n + 1 − 2k, ties sharing the mean of the places they cover) and the
**margin** ((own total − the table's mean) ÷ (highest − lowest), 0 when all are equal). Both sum to 0
at every table, so a table of a game that ends at ±1,000 and one of a game that ends at ±20 weigh the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

SEASON_BEST_NIGHTS = 10
"""How many of a player's nights count in a season, unless the season says otherwise."""
SEASON_LISTED_FROM = 3
"""A player is listed in a season's table from this many nights."""


@dataclass(frozen=True)
class TableResult:
    """What a table game says of its players: in seat order, each one's place and total."""

    round: int
    table: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]
    finished: bool = True
    """False for a table the director closed before its game ended (it scores as it stands)."""


@dataclass(frozen=True)
class Score:
    """One player's points from one round: a table's or, sitting out, 0 and 0."""

    round: int
    table: int | None
    """None: sat out."""
    points: int
    margin: Fraction
    unfinished: bool = False


@dataclass(frozen=True)
class Standing:
    """A player's line in the night's standings."""

    player: int
    rank: int
    points: int
    margin: Fraction
    scores: tuple[Score, ...] = field(default=())

    @property
    def tables(self) -> int:
        return sum(1 for score in self.scores if score.table is not None)


def placement_points(places: Sequence[int]) -> tuple[int, ...]:
    """Per seat: +1 for each opponent placed below, −1 for each above (P(k) = n + 1 − 2k at n seats,
    tied players sharing the mean of the places they cover)."""
    return tuple(sum((other > own) - (other < own) for other in places) for own in places)


def margins(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """Per seat: (own total − the table's mean) ÷ (highest − lowest); 0 for all when they are equal."""
    spread = max(totals) - min(totals)
    if spread == 0:
        return tuple(Fraction(0) for _ in totals)
    mean = Fraction(sum(totals), len(totals))
    return tuple((Fraction(total) - mean) / spread for total in totals)


def table_scores(result: TableResult) -> dict[int, Score]:
    """Each player's score from one table game."""
    points = placement_points(result.places)
    margin = margins(result.totals)
    return {
        player: Score(
            round=result.round,
            table=result.table,
            points=points[seat],
            margin=margin[seat],
            unfinished=not result.finished,
        )
        for seat, player in enumerate(result.players)
    }


def night_standings(
    players: Iterable[int],
    results: Iterable[TableResult],
    sat_out: Mapping[int, Iterable[int]] | None = None,
) -> tuple[Standing, ...]:
    """The night's standings: placement points summed; ties by margins summed, then by the points the
    tied players took at the tables where two of them met, then shared (the same rank).

    ``sat_out`` gives, per round, the players who sat it out (a 0/0 score marked "sat out"). Players
    with no table yet stand at 0.
    """
    scores: dict[int, list[Score]] = {player: [] for player in players}
    meetings: dict[tuple[int, int], list[TableResult]] = {}
    for result in results:
        for player, score in table_scores(result).items():
            scores.setdefault(player, []).append(score)
        for i, first in enumerate(result.players):
            for second in result.players[i + 1 :]:
                meetings.setdefault((min(first, second), max(first, second)), []).append(result)
    for round_number, players_out in (sat_out or {}).items():
        for player in players_out:
            scores.setdefault(player, []).append(
                Score(round=round_number, table=None, points=0, margin=Fraction(0))
            )
    totals = {
        player: (sum(s.points for s in own), sum((s.margin for s in own), Fraction(0)))
        for player, own in scores.items()
    }

    def head_to_head(group: Sequence[int]) -> dict[int, int]:
        """Per player of a tied group: the points they took at tables where another of the group sat."""
        tables: dict[tuple[int, int], TableResult] = {}
        for i, first in enumerate(group):
            for second in group[i + 1 :]:
                for result in meetings.get((min(first, second), max(first, second)), []):
                    tables[(result.round, result.table)] = result
        taken = {player: 0 for player in group}
        for result in tables.values():
            points = table_scores(result)
            for player in group:
                if player in points:
                    taken[player] += points[player].points
        return taken

    order = sorted(totals, key=lambda player: (-totals[player][0], -totals[player][1], player))
    keyed: list[tuple[int, Fraction, int, int]] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and totals[order[end]] == totals[order[start]]:
            end += 1
        group = order[start:end]
        taken = head_to_head(group) if len(group) > 1 else {group[0]: 0}
        for player in sorted(group, key=lambda player: (-taken[player], player)):
            keyed.append((player, totals[player][1], totals[player][0], taken[player]))
        start = end
    standings: list[Standing] = []
    for position, (player, margin, points, met_points) in enumerate(keyed):
        previous = keyed[position - 1] if position else None
        if previous is not None and (previous[2], previous[1], previous[3]) == (points, margin, met_points):
            rank = standings[-1].rank
        else:
            rank = position + 1
        own = tuple(sorted(scores[player], key=lambda score: score.round))
        standings.append(Standing(player=player, rank=rank, points=points, margin=margin, scores=own))
    return tuple(standings)


@dataclass(frozen=True)
class NightLine:
    """A player's result from one night, as a season counts it."""

    night: int
    points: int
    margin: Fraction
    tables: int


@dataclass(frozen=True)
class SeasonStanding:
    player: int
    rank: int
    points: int
    """The best nights' placement points summed."""
    margin: Fraction
    """Those same nights' margins summed."""
    nights: int
    """Nights played (all of them, not only the best)."""
    tables: int
    counted: tuple[int, ...]
    """The nights that count (the best ones)."""

    @property
    def average(self) -> Fraction:
        """Average placement points per table, over all the nights played."""
        return Fraction(0) if not self.tables else Fraction(self.points_all, self.tables)

    points_all: int = 0
    """Placement points over all the nights played (for the average per table)."""
    previous: int | None = None
    """The rank in the table as it stood before the season's latest night; None: not listed then."""

    @property
    def moved(self) -> int | None:
        """Places gained since that table (negative: lost); None: newly listed."""
        return None if self.previous is None else self.previous - self.rank


def season_standings(
    lines: Iterable[tuple[int, NightLine]],
    best: int = SEASON_BEST_NIGHTS,
    listed_from: int = SEASON_LISTED_FROM,
) -> tuple[SeasonStanding, ...]:
    """A season's table from (player, night line) pairs: each player's best ``best`` nights by points
    (then margin) summed; ties by those nights' margins, then more nights played, then shared. Only
    players with at least ``listed_from`` nights are listed."""
    by_player: dict[int, list[NightLine]] = {}
    for player, line in lines:
        by_player.setdefault(player, []).append(line)
    rows: list[SeasonStanding] = []
    for player, nights in by_player.items():
        if len(nights) < listed_from:
            continue
        chosen = sorted(nights, key=lambda line: (-line.points, -line.margin, line.night))[:best]
        rows.append(
            SeasonStanding(
                player=player,
                rank=0,
                points=sum(line.points for line in chosen),
                margin=sum((line.margin for line in chosen), Fraction(0)),
                nights=len(nights),
                tables=sum(line.tables for line in nights),
                counted=tuple(sorted(line.night for line in chosen)),
                points_all=sum(line.points for line in nights),
            )
        )

    def key(row: SeasonStanding) -> tuple[int, Fraction, int]:
        return (-row.points, -row.margin, -row.nights)

    rows.sort(key=lambda row: (key(row), row.player))
    ranked: list[SeasonStanding] = []
    for position, row in enumerate(rows):
        rank = ranked[-1].rank if position and key(rows[position - 1]) == key(row) else position + 1
        ranked.append(
            SeasonStanding(
                player=row.player,
                rank=rank,
                points=row.points,
                margin=row.margin,
                nights=row.nights,
                tables=row.tables,
                counted=row.counted,
                points_all=row.points_all,
            )
        )
    return tuple(ranked)


def season_table(
    lines: Iterable[tuple[int, NightLine]],
    best: int = SEASON_BEST_NIGHTS,
    listed_from: int = SEASON_LISTED_FROM,
) -> tuple[SeasonStanding, ...]:
    """``season_standings`` with each row's trend: its ``previous`` rank in the table as it stood
    before the season's latest night (the latest that has a line: a night nobody played a table of
    yet moves nothing), None for a player who was not listed then."""
    every = list(lines)
    now = season_standings(every, best, listed_from)
    if not every:
        return now
    latest = max(line.night for _, line in every)
    before = {
        row.player: row.rank
        for row in season_standings(
            [(p, line) for p, line in every if line.night != latest], best, listed_from
        )
    }
    return tuple(replace(row, previous=before.get(row.player)) for row in now)


def night_lines(night: int, standings: Iterable[Standing]) -> list[tuple[int, NightLine]]:
    """A night's standings as the lines a season counts (players who played at least one table)."""
    return [
        (row.player, NightLine(night=night, points=row.points, margin=row.margin, tables=row.tables))
        for row in standings
        if row.tables
    ]
