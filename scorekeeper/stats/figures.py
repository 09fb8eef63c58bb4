"""The figures of one replayed game, as rows for ``game_results`` and ``deal_results`` (pure).

A *game played* is a finished game, *won* by everyone on the highest total; a *deal played* is a
completed deal of any game, *won* by everyone on its highest score; points, the average per game
and the best game count finished games only.  A game's rows name the ranking it counts in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from ..rules import GameState, get_ruleset
from ..rules.ranking import ranking_key

#: A game's rows of ``game_results`` and of ``deal_results``.
Figures = tuple[list[dict[str, Any]], list[dict[str, Any]]]


def figures(state: GameState, *, game_id: str, player_ids: Sequence[int], played_on: date) -> Figures:
    """The ``game_results`` and ``deal_results`` rows of one replayed game, as plain dicts (the one
    way to compute a figure; migration 0002 keeps a frozen copy, as migrations never import the app)."""
    seats = range(len(player_ids))
    rank_of = {standing.seat: standing.rank for standing in state.standings}
    deals_won = [0 for _ in seats]
    picks = [0 for _ in seats]
    completed = 0
    ruleset = get_ruleset(state.setup.ruleset)
    deal_rows: list[dict[str, Any]] = []
    for deal in state.deals:
        if deal.pending or deal.scores is None:
            continue  # a pending deal has no score yet (a complete one may count no tricks)
        completed += 1
        best = max(deal.scores)
        taken = ruleset.taken(deal)
        bets = bets_by_seat(ruleset.side_bets(deal), len(player_ids)) if ruleset.has_side_bets else None
        if deal.chooser is not None:
            picks[deal.chooser] += 1
        for seat in seats:
            won = deal.scores[seat] == best
            deals_won[seat] += won
            made = None if deal.made is None else deal.made[seat]
            chooser = deal.chooser == seat
            deal_rows.append(
                {
                    "game_id": game_id,
                    "number": deal.number,
                    "seat": seat,
                    "player_id": player_ids[seat],
                    "contract": deal.contract,
                    "role": deal.roles[seat],
                    "chooser": chooser,
                    "pick": picks[seat] if chooser else None,
                    "score": deal.scores[seat],
                    "made": made,
                    "won": won,
                    "taken": None if taken is None else taken[seat],
                    **(dict.fromkeys(BET_COLUMNS) if bets is None else bets[seat]),
                }
            )
    ranking = ranking_key(ruleset, state.setup)
    game_rows = [
        {
            "game_id": game_id,
            "seat": seat,
            "player_id": player_ids[seat],
            "ranking": ranking,
            "played_on": played_on,
            "finished": state.finished,
            "total": state.totals[seat],
            "rank": rank_of[seat],
            "deals_played": completed,
            "deals_won": deals_won[seat],
        }
        for seat in seats
    ]
    return game_rows, deal_rows


#: A deal row's side-bet figures (``deal_results``), None in a game without side bets.
BET_COLUMNS = ("bets", "bets_made", "bets_won", "bets_lost", "bet_points")


def bets_by_seat(bets: Sequence[tuple[int, int, bool, int]], seats: int) -> list[dict[str, int]]:
    """Per seat, the side bets of a deal it took part in, made, won and lost, and their points: a bet is
    won by the player it moved points to, lost by the other; one that moved nothing is neither."""
    rows = [dict.fromkeys(BET_COLUMNS, 0) for _ in range(seats)]
    for by, against, _raised, amount in bets:
        rows[by]["bets_made"] += 1
        for seat, gain in ((by, amount), (against, -amount)):
            rows[seat]["bets"] += 1
            rows[seat]["bet_points"] += gain
            if gain:
                rows[seat]["bets_won" if gain > 0 else "bets_lost"] += 1
    return rows
