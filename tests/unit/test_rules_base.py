"""Unit tests for the ruleset-independent helpers in scorekeeper.rules.base."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    MAX_NAME_LENGTH,
    TRICKS_PER_DEAL,
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    GameState,
    NextDeal,
    OptionSpec,
    RuleError,
    Ruleset,
    Standing,
    get_ruleset,
    has_control_characters,
    name_key,
    normalise_name,
    standings_for,
    validate_name,
)
from scorekeeper.rules.base import check_tricks_sum

MIZERKA = get_ruleset("mizerka")


@dataclass(frozen=True)
class _Toy(Ruleset):
    """The smallest concrete ruleset, to test the base class on its own.

    Every deal is played under contract "a"; a player scores a point a trick.
    """

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        return "a"

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        return None

    def roles(self, dealer: int) -> tuple[str, ...]:
        return tuple("dealer" if seat == dealer else "player" for seat in range(self.player_count))

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        return None

    def deal_scores(
        self,
        setup: GameSetup,
        number: int,
        contract: str,
        quotas: Sequence[int] | None,
        tricks: Sequence[int],
    ) -> tuple[int, ...]:
        return tuple(tricks)

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        return tuple(() for _ in range(self.player_count))

    def offer(
        self, number: int, chooser: int | None, remaining: Sequence[tuple[str, ...]]
    ) -> tuple[str | None, tuple[str, ...]]:
        return "a", ("a",)


TOY = _Toy(
    id="toy",
    name="Toy",
    player_count=4,
    deal_count=2,
    contracts=(Contract("a", "A", None),),
    options=(OptionSpec("scoring", "Scoring", (("standard", "Standard"), ("variant", "Variant"))),),
)


def ranks(totals: Sequence[int]) -> list[tuple[int, int, int]]:
    return [(s.seat, s.total, s.rank) for s in standings_for(totals)]


# -- standings_for ---------------------------------------------------------------------------


def test_standings_no_tie() -> None:
    assert ranks([1, 5, -6]) == [(1, 5, 1), (0, 1, 2), (2, -6, 3)]


def test_standings_shared_first_place() -> None:
    assert ranks([3, -6, 3]) == [(0, 3, 1), (2, 3, 1), (1, -6, 3)]


def test_standings_shared_second_place() -> None:
    assert ranks([-1, 2, -1]) == [(1, 2, 1), (0, -1, 2), (2, -1, 2)]


def test_standings_everyone_equal() -> None:
    assert ranks([0, 0, 0]) == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]


def test_standings_four_players() -> None:
    assert ranks([10, 40, 10, 10]) == [(1, 40, 1), (0, 10, 2), (2, 10, 2), (3, 10, 2)]
    assert ranks([-10, -10, 5, 7]) == [(3, 7, 1), (2, 5, 2), (0, -10, 3), (1, -10, 3)]


def test_standings_empty() -> None:
    assert standings_for([]) == ()


def test_standings_type() -> None:
    assert standings_for([2, 1]) == (Standing(seat=0, total=2, rank=1), Standing(seat=1, total=1, rank=2))


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=5))
def test_standings_property(totals: list[int]) -> None:
    standings = standings_for(totals)
    assert sorted(s.seat for s in standings) == list(range(len(totals)))
    assert [s.total for s in standings] == sorted(totals, reverse=True)
    for s in standings:
        assert s.total == totals[s.seat]
        assert s.rank == 1 + sum(1 for t in totals if t > s.total)
    # ties keep seat order
    for a, b in itertools.pairwise(standings):
        if a.total == b.total:
            assert a.seat < b.seat


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("Ann   Lee", "Ann Lee"),
        ("\tAnn\n Lee\r\n", "Ann Lee"),
        ("Ann\u00a0Lee", "Ann Lee"),
        ("", ""),
        ("   ", ""),
        ("Jose\u0301", "Jos\u00e9"),
    ],
)
def test_normalise_name(raw: str, stored: str) -> None:
    assert normalise_name(raw) == stored


@pytest.mark.parametrize("raw", [None, 3, b"Ann", ["Ann"]])
def test_normalise_name_needs_text(raw: object) -> None:
    with pytest.raises(RuleError) as excinfo:
        normalise_name(raw)
    assert (excinfo.value.code, excinfo.value.field) == ("invalid_players", "players")


def test_name_key() -> None:
    assert name_key("  ANN  lee ") == name_key("ann Lee") == "ann lee"
    assert name_key("STRASSE") == name_key("straße")
    assert name_key("Jose\u0301") == name_key("JOS\u00c9")


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("Jose\u0301", "Jos\u00e9"),
        ("a" * MAX_NAME_LENGTH, "a" * MAX_NAME_LENGTH),
    ],
)
@pytest.mark.parametrize("in_game", [False, True])
def test_validate_name_returns_the_stored_name(raw: str, stored: str, in_game: bool) -> None:
    assert validate_name(raw, in_game=in_game) == stored


@pytest.mark.parametrize(
    ("raw", "alone", "in_game"),
    [
        (None, "The name must be text.", "Each player's name must be text."),
        (b"Ann", "The name must be text.", "Each player's name must be text."),
        ("", "A player needs a name.", "Every player needs a name."),
        (" \t\n", "A player needs a name.", "Every player needs a name."),
        (
            "x" * 41,
            "Names can be at most 40 characters.",
            "Names can be at most 40 characters (xxxxxxxxxxxx… has 41).",
        ),
        (
            "Bo\u202eb",
            "Names cannot contain control or invisible formatting characters.",
            "Names cannot contain control or invisible formatting characters.",
        ),
        (
            "Bob\x00",
            "Names cannot contain control or invisible formatting characters.",
            "Names cannot contain control or invisible formatting characters.",
        ),
    ],
)
def test_validate_name_refusals(raw: object, alone: str, in_game: str) -> None:
    with pytest.raises(RuleError) as excinfo:
        validate_name(raw)
    assert (excinfo.value.code, excinfo.value.message, excinfo.value.field) == ("invalid_name", alone, "name")
    with pytest.raises(RuleError) as excinfo:
        validate_name(raw, in_game=True)
    assert (excinfo.value.code, excinfo.value.message, excinfo.value.field) == (
        "invalid_players",
        in_game,
        "players",
    )


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("Ann Lee", False),
        ("Zo\u00eb, Ł\u00f3d\u017a 🂡", False),
        ("Bob\x00", True),  # control
        ("Bob\x7f", True),  # control (DEL)
        ("Bo\u202eb", True),  # bidi override (format)
        ("Bob\u200b", True),  # zero-width space (format)
        ("Bob\ue000", True),  # private use
        ("Bob\U000e0001", True),  # language tag (format)
        ("Bob\U0010fffe", True),  # unassigned
    ],
)
def test_has_control_characters(text: str, hidden: bool) -> None:
    assert has_control_characters(text) is hidden


def test_validate_players_returns_stored_names() -> None:
    assert MIZERKA.validate_players(("  Ann ", "Bob  Lee", "Cid")) == ("Ann", "Bob Lee", "Cid")
    assert MIZERKA.validate_players(["a" * MAX_NAME_LENGTH, "b", "c"])[0] == "a" * 40


def test_validate_players_decomposed_accent_is_the_same_name() -> None:
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.validate_players(["Jos\u00e9", "Jose\u0301", "Cid"])
    assert excinfo.value.code == "invalid_players"
    assert "names must differ" in excinfo.value.message


def test_validate_players_counts_folded_length() -> None:
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.validate_players(["a" * 20 + " " + "b" * 20, "Bob", "Cid"])
    assert excinfo.value.message == "Names can be at most 40 characters (aaaaaaaaaaaa… has 41)."
    # 40 after folding the inner run of spaces
    assert (
        MIZERKA.validate_players(["a" * 19 + "     " + "b" * 20, "Bob", "Cid"])[0]
        == "a" * 19 + " " + "b" * 20
    )


def test_validate_players_count_uses_ruleset() -> None:
    with pytest.raises(RuleError) as excinfo:
        TOY.validate_players(["A", "B", "C"])
    assert excinfo.value.message == "Toy needs exactly 4 players (got 3)."
    assert TOY.validate_players(["A", "B", "C", "D"]) == ("A", "B", "C", "D")


# -- make_setup and options ------------------------------------------------------------------


def test_make_setup() -> None:
    setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "cid")
    assert setup == GameSetup(ruleset="mizerka", players=("Ann", "Bob", "Cid"), first_dealer=2, options=())
    assert setup.options_dict == {}
    assert setup.option("scoring", "none") == "none"


def test_make_setup_draw() -> None:
    for draw, seat in ((0, 0), (1, 1), (2, 2), (3, 0), (5, 2), (-1, 2)):
        assert MIZERKA.make_setup(["Ann", "Bob", "Cid"], draw=draw).first_dealer == seat
    # an explicit first dealer wins over the draw
    assert MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Bob", draw=0).first_dealer == 1


def test_options_default_and_choice() -> None:
    assert TOY.options[0].default == "standard"
    setup = TOY.make_setup(["A", "B", "C", "D"], "A")
    assert setup.options == (("scoring", "standard"),)
    assert setup.option("scoring") == "standard"
    setup = TOY.make_setup(["A", "B", "C", "D"], "A", {"scoring": "variant"})
    assert setup.options_dict == {"scoring": "variant"}
    assert TOY.make_setup(["A", "B", "C", "D"], "A", {"scoring": None}).option("scoring") == "standard"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scoring": "fancy"}, "Scoring must be one of standard, variant."),
        ({"speed": "fast"}, "Toy has no option 'speed'."),
    ],
)
def test_invalid_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError) as excinfo:
        TOY.make_setup(["A", "B", "C", "D"], "A", options)
    assert (excinfo.value.code, excinfo.value.field, excinfo.value.message) == (
        "invalid_options",
        "options",
        message,
    )


# -- seat_values, tricks ---------------------------------------------------------------------

SETUP = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Ann")


def seat_values(values: object) -> tuple[int, ...]:
    return MIZERKA.seat_values(
        SETUP, values, "bids", mismatch_code="bids_players", range_code="bid_range", noun="bids"
    )


def test_seat_values_by_name_in_any_order() -> None:
    assert seat_values({"cid": 0, "ANN": 13, " Bob ": 2}) == (13, 2, 0)


def test_seat_values_as_list_in_seat_order() -> None:
    assert seat_values([1, 2, 3]) == (1, 2, 3)
    assert seat_values((0, 0, 13)) == (0, 0, 13)


@pytest.mark.parametrize(
    ("values", "code", "message"),
    [
        ({"Ann": 1, "Bob": 2}, "bids_players", "Bids missing for Cid."),
        ({"Ann": 1, "Bob": 2, "Cid": 3, "ann": 4}, "bids_players", "Ann appears twice in the bids."),
        (
            {"Ann": 1, "Bob": 2, "Dee": 3},
            "bids_players",
            "Dee is not playing in this game; give bids for Ann, Bob and Cid.",
        ),
        ([1, 2], "bids_players", "Give bids for exactly the 3 players."),
        ("123", "bids_players", "Give bids for each player."),
        (None, "bids_players", "Give bids for each player."),
        (
            {"Ann": 1, "Bob": 14, "Cid": 3},
            "bid_range",
            "Bob's bid must be a whole number from 0 to 13 (got 14).",
        ),
        ([-1, 2, 3], "bid_range", "Ann's bid must be a whole number from 0 to 13 (got -1)."),
        ([1, 2, True], "bid_range", "Cid's bid must be a whole number from 0 to 13 (got True)."),
        ([1, 2, 2.0], "bid_range", "Cid's bid must be a whole number from 0 to 13 (got 2.0)."),
        ([1, "2", 3], "bid_range", "Bob's bid must be a whole number from 0 to 13 (got '2')."),
    ],
)
def test_seat_values_errors(values: object, code: str, message: str) -> None:
    with pytest.raises(RuleError) as excinfo:
        seat_values(values)
    assert (excinfo.value.code, excinfo.value.field, excinfo.value.message) == (code, "bids", message)


def test_seat_values_four_players() -> None:
    setup = TOY.make_setup(["A", "B", "C", "D"], "A")
    with pytest.raises(RuleError) as excinfo:
        TOY.seat_values(setup, {"A": 1}, "bids", mismatch_code="x", range_code="y", noun="bids")
    assert excinfo.value.message == "Bids missing for B, C and D."


def test_tricks_for() -> None:
    assert MIZERKA.tricks_for(SETUP, {"Ann": 13, "Bob": 0, "Cid": 0}) == (13, 0, 0)
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.tricks_for(SETUP, [13, 1, 0])
    assert excinfo.value.message == "Tricks must add up to 13 (got 14)."


def test_check_tricks_sum() -> None:
    check_tricks_sum([4, 4, 5])
    check_tricks_sum([13, 0, 0, 0])
    with pytest.raises(RuleError) as excinfo:
        check_tricks_sum([4, 4, 4])
    assert (excinfo.value.code, excinfo.value.field, excinfo.value.message) == (
        "tricks_sum",
        "tricks",
        f"Tricks must add up to {TRICKS_PER_DEAL} (got 12).",
    )


# -- small pieces ----------------------------------------------------------------------------


def test_rule_error() -> None:
    err = RuleError("tricks_sum", "Tricks must add up to 13 (got 12).", "tricks")
    assert isinstance(err, ValueError)
    assert str(err) == "Tricks must add up to 13 (got 12)."
    assert repr(err) == "RuleError('tricks_sum', 'Tricks must add up to 13 (got 12).', field='tricks')"
    assert RuleError("x", "y").field is None


def test_seat_of() -> None:
    players = ("Ann", "Bob Lee", "Cid")
    assert MIZERKA.seat_of(players, "  bob   LEE ") == 1
    with pytest.raises(RuleError) as excinfo:
        MIZERKA.seat_of(players, "Bob", "dealer")
    assert (excinfo.value.code, excinfo.value.field, excinfo.value.message) == (
        "unknown_player",
        "dealer",
        "Bob is not playing in this game.",
    )
    with pytest.raises(RuleError):
        MIZERKA.seat_of(players, None)


def test_dealer_of() -> None:
    setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Cid")
    assert [MIZERKA.dealer_of(setup, k) for k in range(1, 8)] == [2, 0, 1, 2, 0, 1, 2]
    setup4 = TOY.make_setup(["A", "B", "C", "D"], "B")
    assert [TOY.dealer_of(setup4, k) for k in range(1, 6)] == [1, 2, 3, 0, 1]


def test_contract_lookup() -> None:
    assert MIZERKA.contract("mizerka").trumps is None
    assert MIZERKA.contract("spades").label == "Spades"
    with pytest.raises(RuleError) as excinfo:
        TOY.contract("b")
    assert excinfo.value.code == "unknown_contract"


def _deal(number: int, tricks: tuple[int, ...] | None) -> DealState:
    roles = ("dealer", "forehand", "middlehand")
    return DealState(number, 0, 1, "hearts", roles, None, tricks, None, None, None, pending=tricks is None)


def _state(deals: tuple[DealState, ...], next_number: int | None, totals: tuple[int, ...]) -> GameState:
    nxt = None if next_number is None else NextDeal(next_number, 0, 1, None, ("hearts",), ("dealer",) * 3)
    return GameState(
        setup=SETUP,
        deals=deals,
        totals=totals,
        next_deal=nxt,
        remaining_contracts=((), (), ()),
        standings=standings_for(totals),
        finished=next_number is None and bool(deals) and not deals[-1].pending,
        deal_count=18,
    )


def test_game_state_properties() -> None:
    done = _deal(1, (4, 4, 5))
    pending = _deal(2, None)
    assert pending.pending and not done.pending

    state = _state((done, pending), None, (3, 3, -6))
    assert state.pending_deal is pending
    assert state.completed_deals == 1
    assert state.current_number == 2
    assert state.leaders == (0, 1)

    state = _state((done,), 2, (1, 0, -1))
    assert state.pending_deal is None
    assert state.current_number == 2
    assert state.leaders == (0,)

    state = _state((), 1, (0, 0, 0))
    assert state.current_number == 1
    assert state.leaders == (0, 1, 2)

    state = _state((done,), None, (1, 0, -1))
    assert state.current_number == 18


@pytest.mark.parametrize(
    ("deals", "next_number"),
    [
        ((), 1),
        ((_deal(1, (4, 4, 5)),), 2),
        ((_deal(1, (4, 4, 5)), _deal(2, None)), 3),  # after the pending one
    ],
)
def test_next_number(deals: tuple[DealState, ...], next_number: int) -> None:
    assert _state(deals, None, (0, 0, 0)).next_number == next_number


def test_next_number_of_a_finished_game_is_past_the_last_deal() -> None:
    records = [DealRecord(tricks=(4, 3, 3, 3)), DealRecord(tricks=(1, 2, 3, 7))]
    state = TOY.replay(TOY_SETUP, records)
    assert state.finished
    assert state.next_number == 3 == TOY.deal_count + 1


# -- the replay skeleton, through the toy's hooks ----------------------------------------------

TOY_SETUP = TOY.make_setup(["A", "B", "C", "D"], "B")


def test_replay_skeleton_builds_deals_from_the_hooks() -> None:
    state = TOY.replay(TOY_SETUP, [DealRecord(tricks=(4, 3, 3, 3)), DealRecord()])
    first, second = state.deals
    assert first == DealState(
        number=1,
        dealer=1,
        chooser=None,
        contract="a",
        roles=("player", "dealer", "player", "player"),
        bids=None,
        tricks=(4, 3, 3, 3),
        quotas=None,
        scores=(4, 3, 3, 3),
        totals=(4, 3, 3, 3),
        forbidden_bid=None,
    )
    assert second.pending and (second.number, second.dealer, second.totals) == (2, 2, None)
    assert state.totals == (4, 3, 3, 3)
    assert state.pending_deal is second
    assert state.next_deal is None
    assert not state.finished
    assert state.remaining_contracts == ((), (), (), ())
    assert state.leaders == (0,)


def test_replay_skeleton_offers_the_next_deal_from_the_hooks() -> None:
    state = TOY.replay(TOY_SETUP, [DealRecord(tricks=(4, 3, 3, 3))])
    assert state.next_deal == NextDeal(2, 2, None, "a", ("a",), ("player", "player", "dealer", "player"))
    assert state.next_number == 2


@pytest.mark.parametrize(
    ("records", "code", "field"),
    [
        ([DealRecord(tricks=(4, 3, 3, 3))] * 3, "game_finished", "number"),
        ([DealRecord(), DealRecord(tricks=(4, 3, 3, 3))], "deal_pending", "tricks"),
        ([DealRecord(tricks=(4, 4, 4, 4))], "tricks_sum", "tricks"),
        ([DealRecord(tricks=(14, 0, 0, 0))], "tricks_range", "tricks"),
    ],
)
def test_replay_skeleton_refusals(records: list[DealRecord], code: str, field: str) -> None:
    with pytest.raises(RuleError) as excinfo:
        TOY.replay(TOY_SETUP, records)
    assert (excinfo.value.code, excinfo.value.field) == (code, field)
    # Extending the replayed legal start by the last deal refuses the same way.
    start = TOY.replay(TOY_SETUP, records[:-1])
    with pytest.raises(RuleError) as extended:
        TOY.extend(start, records[-1:])
    assert (extended.value.code, extended.value.message) == (code, excinfo.value.message)


def test_a_game_without_a_hook_rule_forbids_no_bid() -> None:
    assert TOY.dealer_forbidden_bid(TOY_SETUP, 1, (3, 0, 5, 4)) is None
    assert MIZERKA.dealer_forbidden_bid(SETUP, 1, (3, 0, 5)) is None
