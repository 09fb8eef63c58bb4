"""The one registry of error codes: the contract's statuses, every raised code registered, sibling classes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import errors
from scorekeeper.api.openapi import openapi_document
from scorekeeper.errors import AccessError, ConflictError, NotFoundError, Refusal, RuleError

PACKAGE = Path(errors.__file__).resolve().parent

#: API.md's error table, status by code: a contract, so it is written out here once more on purpose.
CONTRACT = {
    "bad_json": 400,
    "auth_required": 401,
    "bad_key": 403,
    "not_found": 404,
    "wrong_deal_number": 409,
    "deal_pending": 409,
    "game_finished": 409,
    "not_last_deal": 409,
    "invalid_players": 422,
    "unknown_ruleset": 422,
    "unknown_contract": 422,
    "unknown_player": 422,
    "contract_used": 422,
    "tricks_range": 422,
    "tricks_sum": 422,
    "tricks_players": 422,
    "bids_required": 422,
    "bids_not_allowed": 422,
    "bid_range": 422,
    "hook_rule": 422,
}


@pytest.mark.parametrize(("code", "status"), sorted(CONTRACT.items()))
def test_the_contracts_codes_keep_their_status(code: str, status: int) -> None:
    assert errors.status_for(code) == status
    assert code in errors.api_codes(status)


def _raised_codes() -> set[str]:
    """Every code the product's source raises or builds a refusal with."""
    pattern = re.compile(
        r"(?:refusal|RuleError|Refusal|ImportRefused|_refuse)\(\s*\"([a-z_]+)\"|(?:mismatch|range)_code=\"([a-z_]+)\""
    )
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found


def test_every_code_the_product_raises_is_registered() -> None:
    raised = _raised_codes()
    assert {"tricks_sum", "hook_rule", "stale", "bad_key", "invalid_export"} <= raised  # the scan works
    assert raised - set(errors.CODES) == set()


def test_the_openapi_enum_is_the_registrys() -> None:
    error = openapi_document()["components"]["schemas"]["Error"]["properties"]["error"]
    enum = set(error["properties"]["code"]["enum"])
    assert enum == set(errors.api_codes())
    assert "players_share_game" not in enum  # a page's refusal, never the API's


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("tricks_sum", RuleError),
        ("invalid_date", RuleError),
        ("auth_required", AccessError),
        ("bad_key", AccessError),
        ("not_allowed", AccessError),
        ("not_found", NotFoundError),
        ("stale", ConflictError),
        ("wrong_deal_number", ConflictError),
        ("players_share_game", ConflictError),
    ],
)
def test_a_refusal_is_of_its_kinds_class(code: str, cls: type[Refusal]) -> None:
    refused = errors.refusal(code, "message", "field", player="Ann")
    assert type(refused) is cls
    assert (refused.code, refused.message, refused.field) == (code, "message", "field")
    assert refused.params == {"player": "Ann"}


def test_rule_errors_do_not_catch_access_failures_or_conflicts() -> None:
    for cls in (AccessError, NotFoundError, ConflictError):
        assert not issubclass(cls, RuleError)
        assert issubclass(cls, Refusal)
    with pytest.raises(ConflictError):
        try:
            raise errors.refusal("stale", "changed")
        except RuleError:  # pragma: no cover - the point is that this does not run
            pytest.fail("a conflict was caught as a rule error")


def test_an_unregistered_code_cannot_be_raised() -> None:
    with pytest.raises(KeyError):
        errors.refusal("no_such_code", "message")
