"""The Italian Misère ruleset (RULES.md section 2)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import DealRecord, GameSetup, RuleError, get_ruleset
from scorekeeper.rules.misere import MISERE

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
FIXED = ("hearts", "diamonds", "clubs", "spades", "no-trumps", "blind", "ciapa-ciapa", "misere")

FAST = settings(database=None, max_examples=150, deadline=None)


def setup_for(players: Sequence[str] = PLAYERS, first: str = "Ann", scoring: str | None = None) -> GameSetup:
    options = {} if scoring is None else {"scoring": scoring}
    return MISERE.make_setup(list(players), first, options)


def record(
    setup: GameSetup,
    number: int,
    bids: dict[str, int] | None = None,
    tricks: dict[str, int] | None = None,
) -> DealRecord:
    return MISERE.parse_deal(setup, number, bids=bids, tricks=tricks)


def by_name(setup: GameSetup, values: Sequence[int] | None) -> dict[str, int] | None:
    return None if values is None else dict(zip(setup.players, values, strict=True))


@contextmanager
def raises(code: str) -> Iterator[pytest.ExceptionInfo[RuleError]]:
    """Expect a ``RuleError`` with this code."""
    with pytest.raises(RuleError) as info:
        yield info
    assert info.value.code == code, repr(info.value)


# -- the ruleset itself --------------------------------------------------------------------


def test_registered_with_its_description() -> None:
    assert get_ruleset("misere") is MISERE
    assert MISERE.name == "Misère"
    assert MISERE.player_count == 4
    assert MISERE.deal_count == 8
    assert MISERE.seating_direction == "counter-clockwise"
    assert not MISERE.declares_contract
    assert [MISERE.bids_in(n) for n in range(0, 10)] == [False] + [True] * 6 + [False] * 3
    assert [MISERE.declares(n) for n in range(1, 9)] == [True] * 6 + [False] * 2
    assert tuple(c.id for c in MISERE.contracts) == FIXED
    assert [c.label for c in MISERE.contracts] == [
        "Hearts",
        "Diamonds",
        "Clubs",
        "Spades",
        "No trumps",
        "Blind",
        "Ciapa-ciapa",
        "Misère",
    ]
    assert [c.trumps for c in MISERE.contracts] == [
        "hearts",
        "diamonds",
        "clubs",
        "spades",
        None,
        None,
        None,
        None,
    ]
    assert "before looking at the cards" in MISERE.contract("blind").description
    assert all(c.description for c in MISERE.contracts)
    assert [(o.id, o.choices) for o in MISERE.options] == [
        ("scoring", (("standard", "Standard"), ("variant", "Variant")))
    ]


def test_setup_defaults_to_standard_scoring() -> None:
    assert setup_for().options_dict == {"scoring": "standard"}
    assert setup_for(scoring="variant").options_dict == {"scoring": "variant"}


def test_new_game_state() -> None:
    setup = setup_for(first="Cid")
    state = MISERE.replay(setup, [])
    assert state.deals == ()
    assert state.totals == (0, 0, 0, 0)
    assert not state.finished
    assert state.remaining_contracts == (FIXED,) * 4
    nxt = state.next_deal
    assert nxt is not None
    assert nxt.number == 1
    assert nxt.dealer == 2
    assert nxt.chooser is None
    assert nxt.contract == "hearts"
    assert nxt.available_contracts == ("hearts",)
    assert nxt.roles == ("player", "player", "dealer", "leader")
    assert nxt.bidding_order == (3, 0, 1, 2)


# -- the worked example ----------------------------------------------------------------------


def test_worked_example_from_rules() -> None:
    setup = setup_for(("P", "Q", "R", "S"), first="P")
    assert MISERE.replay(setup, []).next_deal.bidding_order == (1, 2, 3, 0)  # type: ignore[union-attr]
    assert MISERE.forbidden_bid([3, 0, 5]) == 5
    assert MISERE.dealer_forbidden_bid(setup, 1, (0, 3, 0, 5)) == 5

    bad = record(setup, 1, bids={"Q": 3, "R": 0, "S": 5, "P": 5})
    with raises("hook_rule") as info:
        MISERE.replay(setup, [bad])
    assert info.value.field == "bids"
    assert (
        info.value.message == "P deals and bids last: P may not bid 5, because the bids would add up to 13."
    )

    good = record(setup, 1, bids={"Q": 3, "R": 0, "S": 5, "P": 4}, tricks={"Q": 3, "R": 1, "S": 5, "P": 4})
    state = MISERE.replay(setup, [good])
    deal = state.deals[0]
    assert deal.contract == "hearts"
    assert deal.dealer == 0
    assert deal.chooser is None
    assert deal.roles == ("dealer", "leader", "player", "player")
    assert deal.bids == (4, 3, 0, 5)
    assert deal.quotas == (4, 3, 0, 5)
    # P +40, Q +30, R -10, S +50
    assert deal.scores == (40, 30, -10, 50)
    assert deal.totals == (40, 30, -10, 50)
    assert state.totals == (40, 30, -10, 50)


# -- a whole game, hand-computed ---------------------------------------------------------------
#
# Ann, Bob, Cid, Dee in playing order; Cid deals first, so the dealers are
# Cid, Dee, Ann, Bob, Cid, Dee, Ann, Bob.  Values are (Ann, Bob, Cid, Dee).

GAME: list[tuple[tuple[int, int, int, int] | None, tuple[int, int, int, int]]] = [
    # bids           tricks
    ((3, 2, 3, 4), (2, 2, 5, 4)),  # 1 hearts, Cid deals: others 4+3+2=9, Cid may not bid 4
    ((0, 5, 4, 6), (0, 5, 3, 5)),  # 2 diamonds, Dee deals: others 9, Dee may not bid 4
    ((2, 1, 0, 7), (4, 1, 2, 6)),  # 3 clubs, Ann deals: others 8, Ann may not bid 5
    ((4, 0, 6, 5), (4, 0, 6, 3)),  # 4 spades, Bob deals: others 15, nothing forbidden
    ((3, 3, 0, 3), (5, 3, 2, 3)),  # 5 no-trumps, Cid deals: others 9, Cid may not bid 4
    ((13, 0, 0, 1), (10, 0, 1, 2)),  # 6 blind, Dee deals: others 13, Dee may not bid 0
    (None, (4, 3, 6, 0)),  # 7 ciapa-ciapa, Ann deals
    (None, (1, 7, 0, 5)),  # 8 misère, Bob deals
]
DEALERS = (2, 3, 0, 1, 2, 3, 0, 1)
FORBIDDEN = (4, 4, 5, None, 4, 0, None, None)

STANDARD_SCORES = [
    (-10, 20, -20, 40),
    (50, 50, -10, -10),
    (-20, 10, -20, -10),
    (40, 50, 60, -20),
    (-20, 30, -20, 30),
    (-30, 50, -10, -10),
    (40, 30, 60, 0),
    (-10, -70, 0, -50),
]
STANDARD_TOTALS = [
    (-10, 20, -20, 40),
    (40, 70, -30, 30),
    (20, 80, -50, 20),
    (60, 130, 10, 0),
    (40, 160, -10, 30),
    (10, 210, -20, 20),
    (50, 240, 40, 20),
    (40, 170, 40, -30),
]
STANDARD_STANDINGS = [("Bob", 170, 1), ("Ann", 40, 2), ("Cid", 40, 2), ("Dee", -30, 4)]

VARIANT_SCORES = [
    (2, 12, 5, 14),
    (25, 15, 3, 5),
    (4, 11, 2, 6),
    (14, 25, 16, 3),
    (5, 13, 2, 13),
    (10, 25, 1, 2),
    (12, 9, 18, 0),
    (-3, -21, 0, -15),
]
VARIANT_TOTALS = [
    (2, 12, 5, 14),
    (27, 27, 8, 19),
    (31, 38, 10, 25),
    (45, 63, 26, 28),
    (50, 76, 28, 41),
    (60, 101, 29, 43),
    (72, 110, 47, 43),
    (69, 89, 47, 28),
]
VARIANT_STANDINGS = [("Bob", 89, 1), ("Ann", 69, 2), ("Cid", 47, 3), ("Dee", 28, 4)]


@pytest.mark.parametrize(
    ("scoring", "scores", "totals", "standings"),
    [
        ("standard", STANDARD_SCORES, STANDARD_TOTALS, STANDARD_STANDINGS),
        ("variant", VARIANT_SCORES, VARIANT_TOTALS, VARIANT_STANDINGS),
    ],
)
def test_full_game(
    scoring: str,
    scores: list[tuple[int, ...]],
    totals: list[tuple[int, ...]],
    standings: list[tuple[str, int, int]],
) -> None:
    setup = setup_for(first="Cid", scoring=scoring)
    records: list[DealRecord] = []
    for number, (bids, tricks) in enumerate(GAME, start=1):
        state = MISERE.replay(setup, records)
        nxt = state.next_deal
        assert nxt is not None
        assert (nxt.number, nxt.dealer, nxt.contract) == (number, DEALERS[number - 1], FIXED[number - 1])
        assert state.remaining_contracts == (FIXED[number - 1 :],) * 4
        if bids is not None:
            others = [b for seat, b in enumerate(bids) if seat != nxt.dealer]
            assert MISERE.forbidden_bid(others) == FORBIDDEN[number - 1]
            # Recorded first without tricks (bids come before the cards are played).
            pending = record(setup, number, bids=by_name(setup, bids))
            assert MISERE.replay(setup, [*records, pending]).next_deal is None
        else:
            assert nxt.bidding_order == ()
        records.append(record(setup, number, bids=by_name(setup, bids), tricks=by_name(setup, tricks)))

    state = MISERE.replay(setup, records)
    assert state.finished
    assert state.next_deal is None
    assert state.remaining_contracts == ((),) * 4
    assert [d.contract for d in state.deals] == list(FIXED)
    assert [d.dealer for d in state.deals] == list(DEALERS)
    assert [d.bids for d in state.deals] == [bids for bids, _ in GAME]
    assert [d.quotas for d in state.deals] == [bids for bids, _ in GAME]
    assert [d.scores for d in state.deals] == scores
    assert [d.totals for d in state.deals] == totals
    assert state.totals == totals[-1]
    assert [(setup.players[s.seat], s.total, s.rank) for s in state.standings] == standings


# -- every error code ----------------------------------------------------------------------------


def test_bids_required_on_bidding_deals() -> None:
    setup = setup_for()
    for number in range(1, 7):
        with raises("bids_required") as info:
            record(setup, number)
        assert info.value.field == "bids"
    with raises("bids_required"):
        MISERE.replay(setup, [DealRecord()])
    with raises("bids_required"):
        record(setup, 1, bids={"Ann": 1, "Bob": 2, "Cid": 3})
    with raises("bids_required"):
        record(setup, 1, bids={"Ann": 1, "Bob": 2, "Cid": 3, "Zed": 4})
    with raises("bids_required"):
        MISERE.replay(setup, [DealRecord(bids=(1, 2, 3))])


def test_bids_not_allowed_on_deals_7_and_8() -> None:
    setup = setup_for()
    with raises("bids_not_allowed") as info:
        record(setup, 7, bids={"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 4})
    assert info.value.message == "Deal 7 (Ciapa-ciapa) has no bids."
    with raises("bids_not_allowed"):
        record(setup, 8, bids={"Ann": 0, "Bob": 0, "Cid": 0, "Dee": 0})
    six = [DealRecord(bids=(1, 1, 1, 1), tricks=(4, 3, 3, 3)) for _ in range(6)]
    MISERE.replay(setup, six)
    with raises("bids_not_allowed"):
        MISERE.replay(setup, [*six, DealRecord(bids=(1, 1, 1, 1))])


@pytest.mark.parametrize("bad", [-1, 14, 2.5, "3", True, None])
def test_bid_range(bad: object) -> None:
    setup = setup_for()
    with raises("bid_range") as info:
        MISERE.parse_deal(setup, 1, bids={"Ann": 1, "Bob": 2, "Cid": bad, "Dee": 4})
    assert info.value.field == "bids"


def test_bid_range_in_stored_records() -> None:
    with raises("bid_range"):
        MISERE.replay(setup_for(), [DealRecord(bids=(1, 14, 0, 0))])


def test_hook_rule_in_parse_is_deferred_to_replay() -> None:
    setup = setup_for()  # Ann deals deal 1
    bad = record(setup, 1, bids={"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3})
    with raises("hook_rule") as info:
        MISERE.replay(setup, [bad])
    assert "Ann may not bid 4" in info.value.message


def test_hook_rule_checks_the_dealer_only() -> None:
    setup = setup_for()  # Ann deals deal 1, Bob deals deal 2
    # Deal 1: the others bid 2+5+5=12, so Ann (dealer) may not bid 1.
    with raises("hook_rule"):
        MISERE.replay(setup, [DealRecord(bids=(1, 2, 5, 5))])
    # Deal 2: the same four numbers with Bob dealing: Bob's 5 is the refused bid.
    first = DealRecord(bids=(0, 0, 0, 0), tricks=(4, 3, 3, 3))
    with raises("hook_rule") as info:
        MISERE.replay(setup, [first, DealRecord(bids=(2, 5, 5, 1))])
    assert "Bob may not bid 5" in info.value.message
    assert MISERE.dealer_forbidden_bid(setup, 2, (2, 5, 5, 1)) == 5
    # Deals 7-8 have no bids, so nothing is forbidden.
    assert MISERE.dealer_forbidden_bid(setup, 7, (2, 5, 5, 1)) is None


def test_tricks_errors() -> None:
    setup = setup_for()
    bids = {"Ann": 1, "Bob": 1, "Cid": 1, "Dee": 1}
    with raises("tricks_sum"):
        record(setup, 1, bids=bids, tricks={"Ann": 3, "Bob": 3, "Cid": 3, "Dee": 3})
    with raises("tricks_range"):
        record(setup, 1, bids=bids, tricks={"Ann": 14, "Bob": -1, "Cid": 0, "Dee": 0})
    with raises("tricks_players"):
        record(setup, 1, bids=bids, tricks={"Ann": 10, "Bob": 3, "Cid": 0})
    with raises("tricks_players"):
        record(setup, 7, tricks={"Ann": 10, "Bob": 3, "Cid": 0, "Zed": 0})
    with raises("tricks_sum"):
        MISERE.replay(setup, [DealRecord(bids=(1, 1, 1, 1), tricks=(1, 1, 1, 1))])
    with raises("tricks_range"):
        MISERE.replay(setup, [DealRecord(bids=(1, 1, 1, 1), tricks=(14, 0, 0, -1))])
    with raises("tricks_players"):
        MISERE.replay(setup, [DealRecord(bids=(1, 1, 1, 1), tricks=(13,))])


def test_deal_pending() -> None:
    setup = setup_for()
    pending = DealRecord(bids=(1, 1, 1, 1))
    state = MISERE.replay(setup, [pending])
    assert state.next_deal is None
    assert state.pending_deal is not None
    assert state.pending_deal.scores is None
    assert state.pending_deal.totals is None
    assert state.pending_deal.quotas == (1, 1, 1, 1)
    assert state.remaining_contracts == (FIXED[1:],) * 4
    with raises("deal_pending"):
        MISERE.replay(setup, [pending, DealRecord(bids=(1, 1, 1, 1), tricks=(4, 3, 3, 3))])


def test_game_finished() -> None:
    setup = setup_for()
    deals = [DealRecord(bids=(1, 1, 1, 1), tricks=(4, 3, 3, 3)) for _ in range(6)]
    deals += [DealRecord(tricks=(4, 3, 3, 3)) for _ in range(2)]
    assert MISERE.replay(setup, deals).finished
    with raises("game_finished"):
        MISERE.replay(setup, [*deals, DealRecord(tricks=(4, 3, 3, 3))])
    # Parsing a ninth deal leaves the verdict to replay.
    ninth = MISERE.parse_deal(setup, 9, tricks={"Ann": 4, "Bob": 3, "Cid": 3, "Dee": 3})
    assert ninth.contract is None
    assert ninth.bids is None
    with raises("game_finished"):
        MISERE.replay(setup, [*deals, ninth])


def test_unknown_contract() -> None:
    setup = setup_for()
    with raises("unknown_contract") as info:
        MISERE.parse_contract(setup, 3, "hearts")
    assert info.value.message == "Deal 3 is Clubs; the contract is fixed by the deal number."
    assert info.value.field == "contract"
    with raises("unknown_contract"):
        MISERE.parse_contract(setup, 1, 7)
    with raises("unknown_contract"):
        MISERE.replay(setup, [DealRecord(contract="spades", bids=(1, 1, 1, 1))])
    assert MISERE.parse_contract(setup, 3, None) == "clubs"
    assert MISERE.parse_contract(setup, 3, "") == "clubs"
    assert MISERE.parse_contract(setup, 3, "clubs") == "clubs"
    assert MISERE.parse_contract(setup, 9, "clubs") is None
    assert MISERE.parse_contract(setup, 0, None) is None


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A", "B", "C", "D", "E"], ["A", "B", "C", "a"]])
def test_invalid_players(players: list[str]) -> None:
    with raises("invalid_players"):
        MISERE.make_setup(players, "A")


@pytest.mark.parametrize("options", [{"scoring": "double"}, {"scoring": 1}, {"speed": "fast"}])
def test_invalid_options(options: dict[str, object]) -> None:
    with raises("invalid_options"):
        MISERE.make_setup(list(PLAYERS), "Ann", options)


def test_invalid_stored_scoring_option() -> None:
    setup = GameSetup("misere", PLAYERS, 0, (("scoring", "double"),))
    with raises("invalid_options"):
        MISERE.replay(setup, [])


# -- properties -------------------------------------------------------------------------------------

bid = st.integers(min_value=0, max_value=13)
seat = st.integers(min_value=0, max_value=3)


@st.composite
def trick_split(draw: st.DrawFn) -> tuple[int, ...]:
    """Four whole numbers 0..13 adding up to 13."""
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    bounds = [0, *cuts, 13]
    return tuple(bounds[i + 1] - bounds[i] for i in range(4))


@st.composite
def full_game(draw: st.DrawFn) -> tuple[GameSetup, list[DealRecord]]:
    setup = setup_for(first=PLAYERS[draw(seat)], scoring=draw(st.sampled_from(["standard", "variant"])))
    records: list[DealRecord] = []
    for number in range(1, 9):
        bids: tuple[int, ...] | None = None
        if number <= 6:
            dealer = MISERE.dealer_of(setup, number)
            values = draw(st.lists(bid, min_size=4, max_size=4))
            forbidden = MISERE.forbidden_bid(v for s, v in enumerate(values) if s != dealer)
            dealer_bid = draw(bid.filter(lambda b, f=forbidden: b != f))
            values[dealer] = dealer_bid
            bids = tuple(values)
        records.append(DealRecord(bids=bids, tricks=draw(trick_split())))
    return setup, records


def reference_score(number: int, scoring: str, bid_: int | None, tricks: int) -> int:
    """RULES.md section 2, written out once more, independently of the engine."""
    variant = scoring == "variant"
    if number == 7:
        return (3 if variant else 10) * tricks
    if number == 8:
        return -(3 if variant else 10) * tricks
    assert bid_ is not None
    if tricks == bid_:
        if bid_ == 0:
            return 25 if variant else 50
        return 10 + bid_ if variant else 10 * bid_
    return tricks if variant else -10 * abs(tricks - bid_)


@FAST
@given(first=seat, number=st.integers(1, 6), others=st.lists(bid, min_size=3, max_size=3))
def test_hook_rule_forbids_exactly_one_bid(first: int, number: int, others: list[int]) -> None:
    setup = setup_for(first=PLAYERS[first])
    earlier = [DealRecord(bids=(0, 0, 0, 0), tricks=(4, 3, 3, 3))] * (number - 1)
    dealer = MISERE.dealer_of(setup, number)
    refused = []
    for dealer_bid in range(14):
        values = list(others)
        values.insert(dealer, dealer_bid)
        deal = DealRecord(bids=tuple(values))
        try:
            MISERE.replay(setup, [*earlier, deal])
        except RuleError as error:
            assert error.code == "hook_rule"
            assert error.field == "bids"
            refused.append(dealer_bid)
    if sum(others) <= 13:
        assert refused == [13 - sum(others)]
        assert MISERE.forbidden_bid(others) == 13 - sum(others)
    else:
        assert refused == []
        assert MISERE.forbidden_bid(others) is None


@FAST
@given(game=full_game())
def test_totals_are_running_sums_of_deal_scores(game: tuple[GameSetup, list[DealRecord]]) -> None:
    setup, records = game
    scoring = setup.option("scoring")
    state = MISERE.replay(setup, records)
    running = [0, 0, 0, 0]
    for deal, rec in zip(state.deals, records, strict=True):
        assert rec.tricks is not None
        expected = tuple(
            reference_score(deal.number, scoring, None if rec.bids is None else rec.bids[s], rec.tricks[s])
            for s in range(4)
        )
        assert deal.scores == expected
        running = [r + s for r, s in zip(running, expected, strict=True)]
        assert deal.totals == tuple(running)
    assert state.totals == tuple(running)
    assert [s.total for s in state.standings] == sorted(running, reverse=True)


@FAST
@given(game=full_game())
def test_dealer_rotation_and_bidding_order(game: tuple[GameSetup, list[DealRecord]]) -> None:
    setup, records = game
    first = setup.first_dealer
    for count in range(8):
        state = MISERE.replay(setup, records[:count])
        nxt = state.next_deal
        assert nxt is not None
        number = count + 1
        dealer = (first + number - 1) % 4
        assert nxt.dealer == dealer
        assert nxt.roles[dealer] == "dealer"
        assert nxt.roles[(dealer + 1) % 4] == "leader"
        assert sorted(nxt.roles) == ["dealer", "leader", "player", "player"]
        if number <= 6:
            assert nxt.bidding_order == tuple((dealer + k) % 4 for k in (1, 2, 3, 4))
        else:
            assert nxt.bidding_order == ()
    state = MISERE.replay(setup, records)
    assert [d.dealer for d in state.deals] == [(first + k) % 4 for k in range(8)]


@FAST
@given(game=full_game(), extra=trick_split())
def test_exactly_eight_deals(game: tuple[GameSetup, list[DealRecord]], extra: tuple[int, ...]) -> None:
    setup, records = game
    for count in range(8):
        state = MISERE.replay(setup, records[:count])
        assert not state.finished
        assert state.completed_deals == count
    state = MISERE.replay(setup, records)
    assert state.finished
    assert state.next_deal is None
    assert len(state.deals) == 8
    with raises("game_finished"):
        MISERE.replay(setup, [*records, DealRecord(tricks=extra)])


@settings(max_examples=60, deadline=None, database=None)
@given(game=full_game(), cut=st.integers(0, 8))
def test_extend_equals_replaying_everything(game: tuple[GameSetup, list[DealRecord]], cut: int) -> None:
    """Recording deals after a replayed state gives what a full replay gives, refusals included."""
    setup, records = game
    assert MISERE.extend(MISERE.replay(setup, records[:cut]), records[cut:]) == MISERE.replay(setup, records)
    if cut < 6:
        # The dealer's hook: bids adding up to 13 are refused either way.
        hooked = DealRecord(bids=(4, 3, 3, 3), tricks=records[cut].tricks)
        with pytest.raises(RuleError) as replayed:
            MISERE.replay(setup, [*records[:cut], hooked])
        with pytest.raises(RuleError) as extended:
            MISERE.extend(MISERE.replay(setup, records[:cut]), [hooked])
        assert extended.value.code == replayed.value.code


@pytest.mark.parametrize("with_tricks", [False, True])
def test_each_deal_states_the_dealers_forbidden_bid(with_tricks: bool) -> None:
    """The replayed deal (pending or complete) says which bid the hook rule denied its dealer."""
    setup = setup_for(first="Cid")
    records: list[DealRecord] = []
    for number, (bids, tricks) in enumerate(GAME, start=1):
        deal = DealRecord(bids=bids, tricks=tricks if with_tricks else None)
        state = MISERE.replay(setup, [*records, deal])
        assert state.deals[-1].forbidden_bid == FORBIDDEN[number - 1]
        assert state.next_number == number + 1
        if not with_tricks:
            assert state.pending_deal is not None
            assert state.pending_deal.forbidden_bid == FORBIDDEN[number - 1]
        records.append(DealRecord(bids=bids, tricks=tricks))


def test_nobody_chooses_a_contract() -> None:
    assert MISERE.choices_per_player == 0


@pytest.mark.parametrize(
    ("number", "bids", "tricks", "made"),
    [
        (1, (4, 3, 0, 5), (4, 3, 1, 5), (True, True, False, True)),  # RULES.md's example, P dealing
        (2, (0, 0, 0, 1), (4, 3, 3, 3), (False, False, False, False)),
        (6, (13, 0, 0, 1), (13, 0, 0, 0), (True, True, True, False)),
        (7, None, (4, 3, 6, 0), None),  # ciapa-ciapa: no bids, no aim of one's own
        (8, None, (1, 7, 0, 5), None),  # misère
    ],
)
def test_made_says_who_took_exactly_their_bid(
    number: int, bids: tuple[int, ...] | None, tricks: tuple[int, ...], made: tuple[bool, ...] | None
) -> None:
    setup = setup_for()  # Ann deals deal 1
    before = [
        DealRecord(bids=(1, 1, 1, 1) if MISERE.bids_in(earlier) else None, tricks=(4, 3, 3, 3))
        for earlier in range(1, number)
    ]
    state = MISERE.replay(setup, [*before, DealRecord(bids=bids, tricks=tricks)])
    assert state.deals[-1].made == made
