"""What the game page's script needs to enter deals while the phone cannot reach the server.

One JSON block on the scorer's page (``templates/web/_offline_plan.html``): the facts recorded
so far, the contracts each player has left and the deal schedule, all from the rules engine,
and the words the script shows.  Nothing here scores a deal: deals entered offline are shown
as entered and scored by the server when they arrive (the engine checks them again then).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import url_for
from flask_babel import gettext as _

from ...i18n import current_language
from ...messages import term
from ...rules import TRICKS_PER_DEAL
from ...services import Snapshot
from .presenters import ROLE_LABELS, role_label


def offline_plan(game: Snapshot, editable: bool) -> dict[str, Any]:
    """The page's offline plan; ``editable``: the page is the scorer's (deals may be entered)."""
    ruleset, setup, state = game.ruleset, game.setup, game.state
    return {
        "game": game.id,
        "version": game.version,
        "ruleset": ruleset.id,
        "players": list(setup.players),
        "deal_count": state.deal_count,
        "tricks_per_deal": TRICKS_PER_DEAL,
        "declares_contract": ruleset.declares_contract,
        "contracts": {c.id: term(ruleset.contract_label(c.id)) for c in ruleset.contracts},
        "roles": {role: role_label(role) for role in ROLE_LABELS},
        "deals": [
            {
                "number": deal.number,
                "contract": deal.contract,
                "bids": None if deal.bids is None else list(deal.bids),
                "tricks": None if deal.tricks is None else list(deal.tricks),
            }
            for deal in state.deals
        ],
        "remaining": [list(contracts) for contracts in state.remaining_contracts],
        "schedule": [asdict(deal) for deal in ruleset.schedule(setup)],
        "api": url_for("api.game", game_id=game.id),
        # Where the page sends its deals (the API's writes, authorised by the page's key cookie).
        "sync": url_for("page_api.record_deal", game_id=game.id) if editable else None,
        "lang": current_language(),
        "strings": strings(),
    }


def strings() -> dict[str, str]:
    """The words of the offline entry, in the request's language (named placeholders)."""
    return {
        "offline": _("Offline: showing the game as of %(time)s."),
        "offline_never": _("Offline: showing the game as this phone last saw it."),
        "kept": _("Kept on this phone, not sent yet: %(deals)s."),
        "sending": _("Sending what this phone kept…"),
        "sent": _("Everything entered on this phone has been sent."),
        "waiting": _("Waiting for the connection to send it."),
        "not_sent": _("not sent yet"),
        "sent_row": _("sent"),
        "undo_not_sent": _("undo not sent yet"),
        "correction_not_sent": _("correction not sent yet"),
        "deal": _("Deal %(number)s"),
        "deal_contract": _("Deal %(number)s: %(contract)s"),
        "chooses": _("%(player)s chooses"),
        "deals": _("%(player)s deals"),
        "chose": _("%(player)s chose"),
        "dealt": _("%(player)s dealt"),
        "contracts_left": _("%(player)s's contracts left"),
        "tricks_legend": _("Tricks taken"),
        "bids_legend": _("Bids, in bidding order"),
        "tricks_hint": _("Each player's tricks: %(total)s in all."),
        "tricks_sum": _("The tricks must add up to %(total)s."),
        "fill_all": _("Enter a number for every player."),
        "forbidden": _("%(player)s may not bid %(bid)s: the bids would add up to %(total)s."),
        "save_deal": _("Save deal %(number)s"),
        "save_bids": _("Save the bids"),
        "save_correction": _("Save the correction"),
        "cancel": _("Cancel"),
        "correct": _("Correct"),
        "correct_deal": _("Correct deal %(number)s"),
        "contract": _("Contract"),
        "undo": _("Undo deal %(number)s"),
        "tricks_short": _("%(count)s tr"),
        "bid_short": _("bid %(bid)s"),
        "playing": _("playing…"),
        "finished": _("That was the last deal: the scores come when it is sent."),
        "conflict": _("Deal %(number)s: another phone recorded something else meanwhile."),
        "conflict_undo": _("Deal %(number)s: another phone changed it before this phone's undo arrived."),
        "theirs": _("On the server (another phone)"),
        "mine": _("Entered on this phone"),
        "none": _("no deal %(number)s"),
        "keep_theirs": _("Keep the server's"),
        "use_mine": _("Use this phone's (correct deal %(number)s)"),
        "undo_anyway": _("Undo it anyway"),
        "refused": _("Deal %(number)s was not accepted: %(message)s"),
        "discard": _("Discard this phone's deal %(number)s"),
    }
