"""What the game page's script needs to enter deals while the phone cannot reach the server.

One JSON block on the game page (``#offline-plan`` in ``templates/web/game.html``): the facts
recorded so far, the contracts each player has left and the deal schedule, all from the rules
engine.  The words the script shows are the page's texts (``templates/_ui_strings.html``).
Nothing here scores a deal: deals entered offline are shown as entered and scored by the server
when they arrive (the engine checks them again then).  A deal's facts are by seat where they are
counts (bids, tricks, a game's counted cards), by name where they name a player, as the script sends
them to the API.

Beside it, the offline entry's parts as the page draws them (``offline_parts``: the entry card,
the counts' fieldsets, each deal's headings, the log's rows...), which the script clones.
"""

from __future__ import annotations

import functools
from dataclasses import asdict
from typing import Any

from flask import url_for
from flask_babel import gettext
from markupsafe import Markup

from ...api.routes import etag as api_etag
from ...i18n import current_language
from ...messages import say_notice, term
from ...rules import COUNT, DealState, Fact, GameSetup, GameState, Ruleset, get_ruleset
from ...services import Snapshot
from .. import cached
from .forms import DeclareForm, TricksForm
from .presenters import GameView


def offline_plan(game: Snapshot, pencil: bool) -> dict[str, Any]:
    """The page's offline plan; ``pencil``: the page is the scorer's (deals may be entered)."""
    ruleset, setup, state = game.ruleset, game.setup, game.state
    return {
        "game": game.id,
        "version": game.version,
        # The API's tag of this version (If-Match): the script compares tags, it never makes one.
        "etag": f'"{api_etag(game.version)}"',
        "ruleset": ruleset.id,
        "players": list(setup.players),
        "deal_count": state.deal_count,
        "tricks_per_deal": ruleset.tricks_per_deal(setup),
        "declares_contract": ruleset.declares_contract,
        "contracts": {c.id: term(ruleset.contract_label(c.id)) for c in ruleset.contracts},
        # What each count adds up to (the offline entry checks the sums a person can see).
        "totals": {"tricks": ruleset.tricks_per_deal(setup)}
        | {name: ruleset.fact(name).total for name in ruleset.facts if ruleset.fact(name).kind == COUNT},
        # The facts a deal may carry, as the queue keeps them and the log says them short.
        "facts": [{**declaration(fact), **_short(fact)} for fact in ruleset.all_facts],
        "suit": None if ruleset.named_suit is None else ruleset.named_suit.id,
        # Where the chooser's contract decides a deal's facts: the facts of each contract (the card asks
        # them once the contract is tapped; its side bets are the page's, per chooser: #offline-pairs).
        "by_contract": by_contract(ruleset, setup),
        "deals": [_deal(ruleset, setup, deal) for deal in state.deals],
        # What the table should know before each deal still to come, in the server's words, for each
        # count the card keeps (``Ruleset.reminders_by_count``): the card says those its count meets.
        "reminders": reminders_ahead(ruleset, setup, state) if pencil else [],
        "remaining": [list(contracts) for contracts in state.remaining_contracts],
        "schedule": schedule(setup),
        "api": url_for("api.game", game_id=game.id),
        # Where the page sends its deals (the API's writes, authorised by the page's key cookie).
        "sync": url_for("page_api.record_deal", game_id=game.id) if pencil else None,
        "lang": current_language(),
    }


def reminders_ahead(ruleset: Ruleset, setup: GameSetup, state: GameState) -> list[dict[str, Any]]:
    """Before each deal from the one at hand: each reminder with the seat and the count it follows from
    (the side bets that seat made against the deal's chooser in the chooser's deals before it), said."""
    if state.finished:
        return []
    return [
        {"number": number, "seat": seat, "made": made, "text": say_notice(notice, setup.players)}
        for number in range(state.current_number, state.deal_count + 1)
        for seat, made, notice in ruleset.reminders_by_count(setup, number)
    ]


@functools.lru_cache(maxsize=1024)
def schedule(setup: GameSetup) -> tuple[dict[str, Any], ...]:
    """Each deal as the setup fixes it, and each seat's quota in it per contract it may have (the
    engine's, for the phrase beside a queued deal's tricks; none where the bids are).  The same for
    every version of a game, so worked out once per setup (the engine's words are not in it)."""
    ruleset = get_ruleset(setup.ruleset)
    return tuple(
        {
            **asdict(deal),
            "quotas": {
                contract: list(quotas)
                for contract in ([deal.contract] if deal.contract else [c.id for c in ruleset.contracts])
                if (quotas := ruleset.quotas_for(deal.roles, contract, None)) is not None
            },
        }
        for deal in ruleset.schedule(setup)
    )


def by_contract(ruleset: Ruleset, setup: GameSetup) -> dict[str, list[str]] | None:
    """Each contract's facts (``Ruleset.fields_with``) where the contract, not the deal number, decides
    them; None for a game whose deals' facts the schedule says (``ScheduledDeal.fields``)."""
    fields = {contract.id: list(ruleset.fields_with(setup, 1, contract.id)) for contract in ruleset.contracts}
    plain = list(ruleset.fields_for(setup, 1))
    return fields if any(listed != plain for listed in fields.values()) else None


def declaration(fact: Fact) -> dict[str, Any]:
    """What the queue (``static/js/queue.js``) knows of a fact: its id, kind, whether it is a
    declaration, how many places an order has."""
    return {"id": fact.id, "kind": fact.kind, "declared": fact.declared, "places": len(fact.places)}


def _short(fact: Fact) -> dict[str, Any]:
    """A fact as the log says it short, in the page's language (``%(tricks)s`` left for a count)."""
    return {
        "short": gettext(fact.short) if fact.short else "",
        "places_short": [gettext(place) for place in fact.places_short],
    }


def _deal(ruleset: Ruleset, setup: GameSetup, deal: DealState) -> dict[str, Any]:
    """A recorded deal's facts as the script keeps them (only those the game's deals take): counts
    by seat, players by name."""
    facts: dict[str, Any] = {
        "number": deal.number,
        "contract": deal.contract,
        "bids": None if deal.bids is None else list(deal.bids),
        "tricks": None if deal.tricks is None else list(deal.tricks),
    }
    for name, value in ruleset.named_facts(setup, deal).items():
        facts[name] = (
            list(deal.fact(name)) if value is not None and ruleset.fact(name).kind == COUNT else value
        )
    return facts


def offline_parts(view: GameView) -> Markup:
    """The offline entry's parts of a scorer's page (``templates/web/_offline_templates.html``).

    They say every deal as the setup fixes it, never what was recorded, so they depend on the game's
    setup (ruleset, names, first dealer, options) and the page's language alone: drawn once and cached
    for the game's next pages (drawing them was half of drawing a scorer's page).
    """
    return cached.drawn(
        "web/_offline_templates.html",
        "parts",
        view.setup,
        lambda: (view, _blank_entry(), view.tricks_per_deal),
    )


def _blank_entry() -> dict[str, Any]:
    """The per-seat fields of the page's forms, blank (the offline entry's copies of its counts)."""
    blank = DeclareForm(formdata=None)
    return {"bids": blank.bids, "tricks": TricksForm(formdata=None).tricks, "facts": blank}
