"""The one registry of refusal codes: each code's HTTP status, its kind and where it can occur.

A refusal is raised as one of four sibling exception classes (all ``Refusal``s, none a
subclass of another), chosen by the code's kind:

- ``RuleError`` (from the rules engine): a rule of the game, or an input the app cannot take
  (a date, a note, a name, a file, the shape of a request): 400, 413 or 422;
- ``AccessError``: no edit key, or the wrong one, or not allowed to manage people: 401 or 403;
- ``NotFoundError``: no such game, deal or player: 404;
- ``ConflictError``: the game is not where the request assumed (another phone moved on, a
  simultaneous write, an old form): 409.

The web pages, the JSON API, its OpenAPI document and the import all read statuses and
codes from here, so ``except RuleError`` never catches an access failure or a conflict,
and no list of codes is written twice.

A refusal's message is a template (an English message id marked with ``N_``, named
placeholders) and its params; ``scorekeeper.messages.say`` says it in the request's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from .rules import N_, Refusal, RuleError


class Kind(StrEnum):
    RULE = "rule"
    """A rule of the game, or a value the rules engine judges (names, tricks, bids, contracts)."""
    INPUT = "input"
    """What the app cannot take, outside the game's rules: the request's shape, a date, a file."""
    ACCESS = "access"
    MISSING = "missing"
    CONFLICT = "conflict"


class AccessError(Refusal):
    """The visitor may not do this (no edit key, a wrong one, not allowed to manage people)."""


class NotFoundError(Refusal):
    """There is no such game, deal or player."""


class ConflictError(Refusal):
    """The game is not where the request assumed: the table moved on, or another write came first."""


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    kind: Kind
    api: bool = True
    """Whether the JSON API can answer with it (and so its OpenAPI document lists it)."""


def _codes(status: int, kind: Kind, names: str, *, api: bool = True) -> dict[str, ErrorCode]:
    return {name: ErrorCode(name, status, kind, api) for name in names.split()}


#: Every refusal code, by name.  API.md's codes keep their statuses; the rest are the app's own.
CODES: Mapping[str, ErrorCode] = {
    **_codes(400, Kind.INPUT, "bad_json bad_query bad_idempotency_key"),
    **_codes(401, Kind.ACCESS, "auth_required"),
    **_codes(403, Kind.ACCESS, "bad_key"),
    **_codes(403, Kind.ACCESS, "not_allowed", api=False),
    **_codes(404, Kind.MISSING, "not_found"),
    **_codes(409, Kind.CONFLICT, "wrong_deal_number deal_pending game_finished not_last_deal conflict stale"),
    **_codes(409, Kind.CONFLICT, "players_share_game game_not_finished", api=False),
    **_codes(413, Kind.INPUT, "too_large"),
    **_codes(
        422,
        Kind.RULE,
        "invalid_players invalid_options unknown_ruleset unknown_contract unknown_player contract_used "
        "tricks_range tricks_sum tricks_players bids_required bids_not_allowed bid_range hook_rule",
    ),
    # The facts a game declares beyond tricks (API.md K6).
    **_codes(
        422,
        Kind.RULE,
        "field_required field_not_allowed count_players count_range count_sum unknown_suit places_invalid "
        "robber_inconsistent",
    ),
    # A pair-wise side bet between two players of a deal (a double, redoubled or not), and a count
    # that must agree with a taker of the same deal (API.md B6).
    **_codes(422, Kind.RULE, "doubles_invalid double_not_allowed double_twice hearts_inconsistent"),
    **_codes(422, Kind.INPUT, "unknown_field invalid_deals invalid_export invalid_date invalid_note"),
    **_codes(422, Kind.INPUT, "idempotency_key_reused"),
    **_codes(422, Kind.INPUT, "invalid_name name_taken same_player form", api=False),
    # Club nights (CLUB.md): a night's settings, a round that cannot be seated or started, a swap.
    **_codes(422, Kind.INPUT, "invalid_night"),
    **_codes(422, Kind.RULE, "too_few_players invalid_swap"),
    **_codes(409, Kind.CONFLICT, "round_in_progress night_over"),
    # Seasons (CLUB.md "Seasons"): a season's settings.
    **_codes(422, Kind.INPUT, "invalid_season"),
}

#: HTTP errors that are not refusals of ours (the framework's), with the code the API answers.
HTTP_CODES: Mapping[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}

_CLASS_OF_KIND: Mapping[Kind, type[Refusal]] = {
    Kind.RULE: RuleError,
    Kind.INPUT: RuleError,
    Kind.ACCESS: AccessError,
    Kind.MISSING: NotFoundError,
    Kind.CONFLICT: ConflictError,
}


def status_for(code: str) -> int:
    """The HTTP status of a refusal code (422 for a code not registered, as a rule refusal)."""
    known = CODES.get(code)
    return known.status if known is not None else 422


def kind_of(code: str) -> Kind:
    known = CODES.get(code)
    return known.kind if known is not None else Kind.RULE


def api_codes(status: int | None = None) -> list[str]:
    """The codes the JSON API can answer with (with ``status``, only those of that status)."""
    return [
        entry.code for entry in CODES.values() if entry.api and (status is None or entry.status == status)
    ]


def refusal(code: str, template: str, field: str | None = None, **params: object) -> Refusal:
    """The refusal for ``code``, of the class its kind calls for (raise it).

    ``template`` is the message: an English message id (marked with ``N_``) whose named
    placeholders ``params`` fill in.
    """
    if code not in CODES:
        raise KeyError(f"refusal code {code!r} is not registered in scorekeeper.errors.CODES")
    return _CLASS_OF_KIND[CODES[code].kind](code, template, field, params)


#: What ``not_found`` says, by what is missing.
_NOT_FOUND = {
    "game": N_("There is no such game."),
    "deal": N_("There is no such deal."),
    "player": N_("There is no such player."),
    "night": N_("There is no such club night."),
    "season": N_("There is no such season."),
}


# NOTE: a refusal said of one deal of several ("Deal 3: Tricks must add up to 13 (got 12).").
ABOUT_DEAL = N_("Deal %(deal)d: %(reason)s")

R = TypeVar("R", bound=Refusal)


def about_deal(number: int, refused: R) -> R:
    """``refused`` said of deal ``number`` ("Deal 3: ..."), same class, code and field; more params."""
    if refused.template == ABOUT_DEAL and refused.params.get("deal") == number:
        return refused
    return type(refused)(
        refused.code, ABOUT_DEAL, refused.field, {**refused.params, "deal": number, "reason": refused}
    )


def not_found(what: str = "game") -> Refusal:
    return refusal("not_found", _NOT_FOUND[what])


__all__ = [
    "ABOUT_DEAL",
    "CODES",
    "HTTP_CODES",
    "AccessError",
    "ConflictError",
    "ErrorCode",
    "Kind",
    "NotFoundError",
    "Refusal",
    "RuleError",
    "about_deal",
    "api_codes",
    "kind_of",
    "not_found",
    "refusal",
    "status_for",
]
