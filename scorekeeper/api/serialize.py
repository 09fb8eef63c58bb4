"""Replayed rules-engine state as the response models of ``answers`` (API.md's JSON shapes).

Nothing is computed here: every figure comes from the engine's replay.  The
only work is turning seat indices into player names, because the API keys
every per-player value by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, overload

from flask_babel import gettext

from ..rules import RULESETS, DealState, GameSetup, GameState, NextDeal, Ruleset, get_ruleset
from ..services import Snapshot
from . import answers

Value = TypeVar("Value")


@overload
def by_name(setup: GameSetup, values: Sequence[Value]) -> dict[str, Value]: ...
@overload
def by_name(setup: GameSetup, values: Sequence[Value] | None) -> dict[str, Value] | None: ...
def by_name(setup: GameSetup, values: Sequence[Value] | None) -> dict[str, Value] | None:
    """``{"Ann": 3, ...}`` from a tuple by seat; None stays None."""
    if values is None:
        return None
    return dict(zip(setup.players, values, strict=True))


def _name(setup: GameSetup, seat: int | None) -> str | None:
    return None if seat is None else setup.players[seat]


def ruleset_body(ruleset: Ruleset) -> answers.Ruleset:
    """One entry of ``GET /rulesets``: its words in the request's language (``Accept-Language``)."""
    return answers.Ruleset(
        id=ruleset.id,
        name=gettext(ruleset.name),
        summary=gettext(ruleset.summary),
        player_count=ruleset.player_count,
        player_counts=list(ruleset.seat_counts),
        deal_count=ruleset.deal_count,
        seating_direction=ruleset.seating_direction,
        declares_contract=ruleset.declares_contract,
        contracts=[
            answers.Contract(
                id=contract.id,
                label=gettext(contract.label),
                trumps=contract.trumps,
                description=gettext(contract.description),
                positive=contract.positive,
            )
            for contract in ruleset.contracts
        ],
        options=[
            answers.Option(
                id=option.id,
                label=gettext(option.label),
                choices=[
                    answers.OptionChoice(value=value, label=gettext(label)) for value, label in option.choices
                ],
                default=option.default,
            )
            for option in ruleset.options
        ],
    )


def rulesets_body() -> answers.Rulesets:
    """``GET /rulesets``: every ruleset."""
    return answers.Rulesets(rulesets=[ruleset_body(ruleset) for ruleset in RULESETS.values()])


def deal_body(setup: GameSetup, deal: DealState) -> answers.Deal:
    """A recorded deal: declaration, tricks and everything the rules derive from them.

    ``quotas`` are the engine's: per role where the contract sets them, the bids
    in a deal played to bids, and null in a deal with no target.  A deal carries every fact its game
    declares, null where its contract takes none (``Ruleset.named_facts``).
    """
    ruleset = get_ruleset(setup.ruleset)
    facts = ruleset.named_facts(setup, deal)
    figures = dict(deal.figures)
    declared: dict[str, Any] = {name: by_name(setup, figures.get(name)) for name in ruleset.deal_figures}
    if ruleset.warns:
        declared["warnings"] = [notice.by_name(setup.players) for notice in deal.warnings]
    return answers.Deal(
        number=deal.number,
        dealer=setup.players[deal.dealer],
        chooser=_name(setup, deal.chooser),
        contract=deal.contract,
        bids=by_name(setup, deal.bids),
        tricks=by_name(setup, deal.tricks),
        quotas=by_name(setup, deal.quotas),
        scores=by_name(setup, deal.scores),
        totals=by_name(setup, deal.totals),
        roles=by_name(setup, deal.roles),
        pending=deal.pending,
        **facts,
        **declared,
    )


def next_deal_body(setup: GameSetup, next_deal: NextDeal | None) -> answers.NextDeal | None:
    """What the table does next, or None while a deal is pending or once the game is over."""
    if next_deal is None:
        return None
    fields: list[str] | dict[str, list[str]] = list(next_deal.fields)
    if next_deal.fields_by_contract:
        fields = {contract: list(names) for contract, names in next_deal.fields_by_contract}
    return answers.NextDeal(
        number=next_deal.number,
        dealer=setup.players[next_deal.dealer],
        chooser=_name(setup, next_deal.chooser),
        available_contracts=list(next_deal.available_contracts),
        contract=next_deal.contract,
        bidding_order=[setup.players[seat] for seat in next_deal.bidding_order],
        roles=by_name(setup, next_deal.roles),
        fields=fields,
        **_named_lists(setup, next_deal.seat_lists),
    )


def _named_lists(setup: GameSetup, lists: Sequence[tuple[str, Sequence[int]]]) -> dict[str, list[str]]:
    """Lists of seats by id as lists of names."""
    return {name: [setup.players[seat] for seat in seats] for name, seats in lists}


def _named_tallies(
    setup: GameSetup, tallies: Sequence[tuple[str, Sequence[Sequence[int]]]]
) -> dict[str, dict[str, dict[str, int]]]:
    """Counts per pair of seats by id, as ``{player: {other player: count}}`` (a player's own left out)."""
    players = setup.players
    return {
        name: {
            players[seat]: {players[other]: count for other, count in enumerate(row) if other != seat}
            for seat, row in enumerate(rows)
        }
        for name, rows in tallies
    }


def game_body(loaded: Snapshot) -> answers.GameState:
    """The whole game state of ``GET /games/{id}``."""
    return state_body(loaded.id, loaded.setup, loaded.state)


def state_body(game_id: str, setup: GameSetup, state: GameState) -> answers.GameState:
    """The whole game state of game ``game_id``, from its setup and replayed state."""
    return answers.GameState(
        id=game_id,
        ruleset=setup.ruleset,
        options=setup.options_dict,
        players=list(setup.players),
        first_dealer=setup.players[setup.first_dealer],
        status="finished" if state.finished else "in_progress",
        deal_count=state.deal_count,
        schedule=[deal.contract for deal in get_ruleset(setup.ruleset).schedule(setup)],
        deals=[deal_body(setup, deal) for deal in state.deals],
        totals=by_name(setup, state.totals),
        next_deal=next_deal_body(setup, state.next_deal),
        remaining_contracts=by_name(setup, [list(ids) for ids in state.remaining_contracts]),
        standings=[
            answers.Standing(player=setup.players[standing.seat], total=standing.total, rank=standing.rank)
            for standing in state.standings
        ],
        **_named_lists(setup, state.seat_lists),
        **_named_tallies(setup, state.tallies),
    )


def created_body(loaded: Snapshot, key: str) -> answers.GameCreated:
    """A new game's state plus its edit key."""
    body = game_body(loaded)
    # Only the fields the state set: a game's own fields (another game's, unset) stay out, as in GET.
    return answers.GameCreated(**{name: getattr(body, name) for name in body.model_fields_set}, edit_key=key)
