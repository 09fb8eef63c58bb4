"""Random legal finished games, played through the rules engine (the migration tests' variety)."""

from __future__ import annotations

import random

from scorekeeper.rules import TRICKS_PER_DEAL, DealRecord, GameSetup, GameState, get_ruleset
from scorekeeper.rules.misere import Misere


def _split(rng: random.Random, parts: int) -> tuple[int, ...]:
    """13 tricks split at random among ``parts`` players."""
    cuts = sorted(rng.randint(0, TRICKS_PER_DEAL) for _ in range(parts - 1))
    bounds = [0, *cuts, TRICKS_PER_DEAL]
    return tuple(bounds[i + 1] - bounds[i] for i in range(parts))


def random_game(rng: random.Random, ruleset_id: str, names: tuple[str, ...]) -> tuple[GameSetup, GameState]:
    """A legal finished game with random declarations and tricks, drawn among the choices the
    engine's state gives for each deal (the contracts left, the bidding order, the hook rule)."""
    ruleset = get_ruleset(ruleset_id)
    setup = GameSetup(
        ruleset=ruleset.id,
        players=names,
        first_dealer=rng.randrange(ruleset.player_count),
        options=ruleset.validate_options({}),
    )
    state = ruleset.replay(setup, [])
    while state.next_deal is not None:
        upcoming = state.next_deal
        contract = None
        bids = None
        if upcoming.chooser is not None:
            contract = upcoming.available_contracts[rng.randrange(len(upcoming.available_contracts))]
        if upcoming.bidding_order:
            by_seat = [0] * len(names)
            for seat in upcoming.bidding_order:
                bid = rng.choice((0, 1, 2, 3, 3, 4, 4, 5))
                if seat == upcoming.dealer:
                    others = (by_seat[other] for other in upcoming.bidding_order if other != seat)
                    if bid == Misere.forbidden_bid(others):
                        bid += 1  # the hook: the dealer may not make the bids add up to 13
                by_seat[seat] = bid
            bids = tuple(by_seat)
        record = DealRecord(contract=contract, bids=bids, tricks=_split(rng, len(names)))
        state = ruleset.extend(state, [record])
    assert state.finished
    return setup, state
