"""Barbu's arithmetic and checks (RULES.md section 4; API.md B3-B6 as far as they are the engine's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import GameSetup, GameState, Notice, RuleError, Ruleset
from scorekeeper.rules.barbu import (
    BARBU,
    CONTRACT_IDS,
    DEALS,
    POSITIVE,
    PRESETS_BY_ID,
    Double,
    check_double,
    check_hearts,
    contract_points,
    contract_total,
    deal_scores,
    declarers_of,
    double_counts,
    double_scores,
    must_double,
    parse_doubles,
    remaining_of,
    warnings_of,
)
from scorekeeper.rules.ranking import ranked_as, rankings_of

ALA, BARTEK, CELINA, DAREK = 0, 1, 2, 3
PLAYERS = ("Ala", "Bartek", "Celina", "Darek")
STANDARD = PRESETS_BY_ID["standard"]
QUICK = PRESETS_BY_ID["quick-rotation"]
DOMINO_10 = PRESETS_BY_ID["domino-10"]
FAST = settings(database=None, max_examples=150, deadline=None)

# RULES 4.9: (contract, facts by seat, doubles), Ala declaring deals 1-7 and Bartek deal 8.
EXAMPLE: tuple[tuple[str, Mapping[str, Any], tuple[Double, ...]], ...] = (
    (
        "no-queens",
        {"queens": (1, 0, 1, 2)},
        (Double(BARTEK, ALA), Double(BARTEK, CELINA), Double(BARTEK, DAREK), Double(CELINA, ALA, True)),
    ),
    ("trumps", {"trumps": "spades", "tricks": (5, 3, 1, 4)}, (Double(DAREK, ALA),)),
    (
        "no-hearts",
        {"hearts": (2, 6, 0, 5), "ace_of_hearts": BARTEK},
        (Double(CELINA, ALA), Double(CELINA, BARTEK, True)),
    ),
    ("no-king-of-hearts", {"king_of_hearts": DAREK}, ()),
    ("domino", {"places": (CELINA, ALA, DAREK, BARTEK)}, (Double(BARTEK, ALA, True),)),
    ("no-tricks", {"tricks": (4, 2, 3, 4)}, ()),
    ("no-last-two", {"penultimate_trick": BARTEK, "last_trick": BARTEK}, (Double(DAREK, BARTEK),)),
    (
        "no-tricks",
        {"tricks": (3, 1, 5, 4)},
        (Double(CELINA, BARTEK), Double(DAREK, BARTEK, True), Double(ALA, CELINA)),
    ),
)
# RULES 4.9's table, Ala / Bartek / Celina / Darek: contract points, doubling result, deal score,
# running total.
EXPECTED = (
    ((-6, 0, -6, -12), (-6, 24, -6, -12), (-12, 24, -12, -24), (-12, 24, -12, -24)),
    ((25, 15, 5, 20), (5, 0, 0, -5), (30, 15, 5, 15), (18, 39, -7, -9)),
    ((-4, -16, 0, -10), (-4, -32, 36, 0), (-8, -48, 36, -10), (10, -9, 29, -19)),
    ((0, 0, 0, -20), (0, 0, 0, 0), (0, 0, 0, -20), (10, -9, 29, -39)),
    ((20, -5, 45, 5), (50, -50, 0, 0), (70, -55, 45, 5), (80, -64, 74, -34)),
    ((-8, -4, -6, -8), (0, 0, 0, 0), (-8, -4, -6, -8), (72, -68, 68, -42)),
    ((0, -30, 0, 0), (0, -30, 0, 30), (0, -60, 0, 30), (72, -128, 68, -12)),
    ((-6, -2, -10, -8), (4, 20, -12, -12), (-2, 18, -22, -20), (70, -110, 46, -32)),
)


def seat_of(players: Sequence[str], name: object, field: str) -> int:
    return Ruleset.seat_of(players, name, field)


# -- RULES 4.9, deal by deal -----------------------------------------------------------------------


def test_the_worked_example_deal_by_deal() -> None:
    declarers = declarers_of(ALA, quick=False)
    totals: tuple[int, ...] = (0, 0, 0, 0)
    for number, ((contract, facts, doubles), expected) in enumerate(zip(EXAMPLE, EXPECTED, strict=True), 1):
        points, doubling, score, running = expected
        assert contract_points(contract, facts, STANDARD) == points, number
        assert double_scores(doubles, points) == doubling, number
        assert deal_scores(points, doubles) == score, number
        assert sum(score) == contract_total(contract, STANDARD), number
        totals = tuple(t + s for t, s in zip(totals, score, strict=True))
        assert totals == running, number
        for double in doubles:
            check_double(PLAYERS, declarers[number - 1], contract, double, ())
    assert sum(EXPECTED[6][3]) == 0  # Ala's seven add up to 0
    assert sum(EXPECTED[7][3]) == -26


def test_the_worked_examples_settlements_one_by_one() -> None:
    # RULES 4.9, "The settlements": m × (c(by) − c(against)).
    points_of = {number: row[0] for number, row in enumerate(EXPECTED, 1)}
    assert [d.settled(points_of[1]) for d in EXAMPLE[0][2]] == [6, 6, 12, 0]
    assert [d.settled(points_of[2]) for d in EXAMPLE[1][2]] == [-5]
    assert [d.settled(points_of[3]) for d in EXAMPLE[2][2]] == [4, 32]
    assert [d.settled(points_of[5]) for d in EXAMPLE[4][2]] == [-50]
    assert [d.settled(points_of[7]) for d in EXAMPLE[6][2]] == [30]
    assert [d.settled(points_of[8]) for d in EXAMPLE[7][2]] == [-8, -12, 4]


def test_the_worked_examples_obligation() -> None:
    declarers = declarers_of(ALA, quick=False)
    doubles = [deal[2] for deal in EXAMPLE]
    assert must_double(declarers, doubles, 1) == ()
    assert must_double(declarers, doubles, 6) == ()
    assert must_double(declarers, doubles, 7) == (DAREK,)
    assert must_double(declarers, doubles, 8) == ()
    for number in range(1, 7):
        assert warnings_of(declarers, doubles, number) == ()
    (warning,) = warnings_of(declarers, doubles, 7)
    assert (warning.code, warning.declarer, warning.player, warning.doubles) == (
        "double_obligation",
        ALA,
        DAREK,
        1,
    )
    assert warning.said(PLAYERS) == "Darek doubled Ala once (of 2)."
    assert warnings_of(declarers, doubles, 8) == ()
    counts = double_counts(declarers, doubles)
    assert counts[ALA] == (0, 2, 2, 1)
    assert counts[BARTEK] == (0, 0, 1, 1)  # deal 8: Celina and Darek doubled Bartek (Ala doubled Celina)
    assert counts[CELINA] == counts[DAREK] == (0, 0, 0, 0)


def test_the_worked_examples_standings_after_deal_8() -> None:
    totals = EXPECTED[7][3]
    ranked = sorted(range(4), key=lambda seat: -totals[seat])
    assert [(PLAYERS[seat], totals[seat]) for seat in ranked] == [
        ("Ala", 70),
        ("Celina", 46),
        ("Darek", -32),
        ("Bartek", -110),
    ]


# -- seats and contracts ---------------------------------------------------------------------------


def test_blocks_of_seven_and_quick_rotation() -> None:
    blocks = declarers_of(CELINA, quick=False)
    assert blocks == (CELINA,) * 7 + (DAREK,) * 7 + (ALA,) * 7 + (BARTEK,) * 7
    quick = declarers_of(CELINA, quick=True)
    assert quick[:5] == (CELINA, DAREK, ALA, BARTEK, CELINA)
    assert len(quick) == DEALS == 28
    assert all(quick.count(seat) == 7 for seat in range(4))


def test_remaining_contracts_per_declarer() -> None:
    declarers = declarers_of(ALA, quick=True)
    remaining = remaining_of(declarers, ["trumps", "domino", "no-tricks", "no-queens", "no-hearts"])
    # Quick rotation: Ala declared deals 1 (trumps) and 5 (no-hearts), Bartek 2, Celina 3, Darek 4.
    assert remaining[ALA] == ("no-tricks", "no-queens", "no-king-of-hearts", "no-last-two", "domino")
    assert remaining[BARTEK] == (
        "no-tricks",
        "no-hearts",
        "no-queens",
        "no-king-of-hearts",
        "no-last-two",
        "trumps",
    )
    assert remaining[CELINA] == (
        "no-hearts",
        "no-queens",
        "no-king-of-hearts",
        "no-last-two",
        "trumps",
        "domino",
    )
    assert remaining[DAREK] == (
        "no-tricks",
        "no-hearts",
        "no-king-of-hearts",
        "no-last-two",
        "trumps",
        "domino",
    )


def test_contract_totals_and_domino_scales() -> None:
    # RULES 4.3: −26, −30, −24, −20, −30, +65, +65 (both Domino scales add up to 65).
    totals = [contract_total(contract, STANDARD) for contract in CONTRACT_IDS]
    assert totals == [-26, -30, -24, -20, -30, 65, 65]
    assert sum(totals) == 0
    assert contract_total("domino", DOMINO_10) == 65
    out = {"places": (DAREK, CELINA, BARTEK, ALA)}
    assert contract_points("domino", out, STANDARD) == (-5, 5, 20, 45)
    assert contract_points("domino", out, DOMINO_10) == (-10, 10, 20, 45)


def test_presets_ranked_together_and_apart() -> None:
    assert ranked_as(BARBU, STANDARD) == ranked_as(BARBU, QUICK) == STANDARD
    assert ranked_as(BARBU, DOMINO_10) == DOMINO_10
    assert [ranking.key for ranking in rankings_of(BARBU)] == ["barbu/standard/4", "barbu/domino-10/4"]


def test_the_ace_of_hearts_costs_six_and_counts_as_a_heart() -> None:
    assert contract_points("no-hearts", {"hearts": (13, 0, 0, 0), "ace_of_hearts": ALA}, STANDARD) == (
        -30,
        0,
        0,
        0,
    )
    assert contract_points("no-last-two", {"penultimate_trick": DAREK, "last_trick": CELINA}, STANDARD) == (
        0,
        0,
        -20,
        -10,
    )


# -- refusals (API.md B5 step 7, B6) ---------------------------------------------------------------


def refused(call: Any, *args: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call(*args)
    return caught.value


def test_the_api_examples_refusal_in_trumps() -> None:
    error = refused(parse_doubles, PLAYERS, ALA, "trumps", [{"by": "Celina", "against": "Bartek"}], seat_of)
    assert (error.code, error.field) == ("double_not_allowed", "doubles")
    assert error.message == "In trumps only the declarer (Ala) may be doubled: Celina cannot double Bartek."


@pytest.mark.parametrize(
    ("given", "code", "message"),
    [
        ("Bartek", "doubles_invalid", None),
        ([["Bartek", "Ala"]], "doubles_invalid", None),
        ([{"by": "Bartek"}], "doubles_invalid", None),
        ([{"by": "Bartek", "against": "Ala", "times": 2}], "doubles_invalid", None),
        ([{"by": "Bartek", "against": "Ala", "redoubled": "yes"}], "doubles_invalid", None),
        ([{"by": 1, "against": "Ala"}], "doubles_invalid", None),
        ([{"by": "Zenek", "against": "Ala"}], "unknown_player", "Zenek is not playing in this game."),
        ([{"by": "Bartek", "against": "bartek"}], "double_not_allowed", "Bartek cannot double themselves."),
        (
            [{"by": "Ala", "against": "Bartek"}],
            "double_not_allowed",
            "Ala declares this deal and cannot double anyone: the declarer may only redouble.",
        ),
        (
            [{"by": "Bartek", "against": "Celina"}, {"by": "Celina", "against": "Bartek", "redoubled": True}],
            "double_twice",
            "Celina and Bartek are in two doubles: "
            "between two players there is one double, redoubled or not.",
        ),
        # Item by item: the first item's fault answers before the second's.
        ([{"by": "Ala", "against": "Bartek"}, "junk"], "double_not_allowed", None),
        ([{"by": "Zenek", "against": "Ala"}, {"by": "Ala", "against": "Bartek"}], "unknown_player", None),
    ],
)
def test_doubles_refused_in_order(given: object, code: str, message: str | None) -> None:
    error = refused(parse_doubles, PLAYERS, ALA, "no-queens", given, seat_of)
    assert (error.code, error.field) == (code, "doubles")
    if message is not None:
        assert error.message == message


def test_doubles_taken_in_a_negative_contract() -> None:
    given = [
        {"by": "Bartek", "against": "Ala"},
        {"by": "bartek", "against": "Celina"},
        {"by": "Bartek", "against": "Darek", "redoubled": False},
        {"by": "Celina", "against": "Ala", "redoubled": True},
    ]
    assert parse_doubles(PLAYERS, ALA, "no-queens", given, seat_of) == EXAMPLE[0][2]
    assert parse_doubles(PLAYERS, ALA, "no-queens", None, seat_of) == ()
    assert parse_doubles(PLAYERS, ALA, "no-queens", [], seat_of) == ()


def test_in_the_domino_only_the_declarer_may_be_doubled() -> None:
    error = refused(parse_doubles, PLAYERS, BARTEK, "domino", [{"by": "Ala", "against": "Darek"}], seat_of)
    assert (
        error.message == "In the domino only the declarer (Bartek) may be doubled: Ala cannot double Darek."
    )
    doubles = parse_doubles(
        PLAYERS, BARTEK, "domino", [{"by": "Ala", "against": "Bartek", "redoubled": True}], seat_of
    )
    assert doubles == (Double(ALA, BARTEK, True),)


def test_h1_the_ace_of_hearts_taker_has_a_heart() -> None:
    check_hearts(PLAYERS, (2, 6, 0, 5), BARTEK)
    error = refused(check_hearts, PLAYERS, (2, 6, 0, 5), CELINA)
    assert (error.code, error.field) == ("hearts_inconsistent", "ace_of_hearts")
    assert error.message == "Celina took the ace of hearts but no heart: the ace of hearts is a heart."


def test_warnings_name_every_player_short_of_two_from_the_declarers_left() -> None:
    declarers = declarers_of(CELINA, quick=True)
    doubles: list[tuple[Double, ...]] = [()] * 28
    doubles[0] = (Double(DAREK, CELINA), Double(ALA, CELINA))  # deal 1, Celina declares
    doubles[4] = (Double(DAREK, CELINA),)  # deal 5, Celina again
    assert warnings_of(declarers, doubles, 21) == ()
    # Celina's last deal is 25: must_double before it names everyone short by one or more.
    assert must_double(declarers, doubles, 25) == (ALA, BARTEK)
    assert must_double(declarers, doubles, 21) == (BARTEK,)  # two deals left, Bartek owes two
    said = [(w.player, w.doubles) for w in warnings_of(declarers, doubles, 25)]
    assert said == [(ALA, 1), (BARTEK, 0)]
    assert warnings_of(declarers, doubles, 25)[1].said(PLAYERS) == "Bartek never doubled Celina (of 2)."


# -- zero sum (RULES 4.7), as properties ------------------------------------------------------------


@st.composite
def counts(draw: st.DrawFn, total: int) -> tuple[int, ...]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=3, max_size=3)))
    bounds = [0, *cuts, total]
    return tuple(bounds[i + 1] - bounds[i] for i in range(4))


@st.composite
def deals(
    draw: st.DrawFn, contract: str | None = None
) -> tuple[str, dict[str, Any], int, tuple[Double, ...]]:
    """A valid deal: its contract, facts, declarer and a valid set of doubles."""
    contract = contract or draw(st.sampled_from(CONTRACT_IDS))
    seat = st.integers(0, 3)
    facts: dict[str, Any]
    if contract in ("no-tricks", "trumps"):
        facts = {"tricks": draw(counts(13))}
    elif contract == "no-hearts":
        hearts = draw(counts(13))
        facts = {"hearts": hearts, "ace_of_hearts": draw(st.sampled_from([s for s in range(4) if hearts[s]]))}
    elif contract == "no-queens":
        facts = {"queens": draw(counts(4))}
    elif contract == "no-king-of-hearts":
        facts = {"king_of_hearts": draw(seat)}
    elif contract == "no-last-two":
        facts = {"penultimate_trick": draw(seat), "last_trick": draw(seat)}
    else:
        facts = {"places": tuple(draw(st.permutations(range(4))))}
    declarer = draw(seat)
    pairs = [(by, against) for by in range(4) for against in range(4) if by != against and by != declarer]
    if contract in POSITIVE:
        pairs = [(by, against) for by, against in pairs if against == declarer]
    doubles: list[Double] = []
    for by, against in draw(st.lists(st.sampled_from(pairs), unique=True)):
        double = Double(by, against, draw(st.booleans()))
        if all({d.by, d.against} != {by, against} for d in doubles):
            check_double(PLAYERS, declarer, contract, double, doubles)
            doubles.append(double)
    return contract, facts, declarer, tuple(doubles)


@FAST
@given(deals(), st.sampled_from(list(PRESETS_BY_ID.values())))
def test_any_valid_deal_adds_up_to_its_contracts_total(
    deal: tuple[str, dict[str, Any], int, tuple[Double, ...]], preset: Any
) -> None:
    contract, facts, _, doubles = deal
    points = contract_points(contract, facts, preset)
    assert sum(points) == contract_total(contract, preset)
    assert sum(double_scores(doubles, points)) == 0
    assert sum(deal_scores(points, doubles)) == contract_total(contract, preset)


@FAST
@given(st.permutations(CONTRACT_IDS), st.data(), st.sampled_from(list(PRESETS_BY_ID.values())))
def test_any_declarers_seven_add_up_to_zero(order: list[str], data: st.DataObject, preset: Any) -> None:
    total = 0
    for contract in order:
        _, facts, _, doubles = data.draw(deals(contract))
        total += sum(deal_scores(contract_points(contract, facts, preset), doubles))
    assert total == 0


# -- the ruleset on the engine's replay --------------------------------------------------------------

NAMES = ALA_, BARTEK_, CELINA_, DAREK_ = PLAYERS
BODIES: tuple[dict[str, Any], ...] = (
    {
        "contract": "no-queens",
        "queens": {"Ala": 1, "Bartek": 0, "Celina": 1, "Darek": 2},
        "doubles": [
            {"by": "Bartek", "against": "Ala"},
            {"by": "Bartek", "against": "Celina"},
            {"by": "Bartek", "against": "Darek"},
            {"by": "Celina", "against": "Ala", "redoubled": True},
        ],
    },
    {
        "contract": "trumps",
        "trumps": "spades",
        "tricks": {"Ala": 5, "Bartek": 3, "Celina": 1, "Darek": 4},
        "doubles": [{"by": "Darek", "against": "Ala"}],
    },
    {
        "contract": "no-hearts",
        "hearts": {"Ala": 2, "Bartek": 6, "Celina": 0, "Darek": 5},
        "ace_of_hearts": "Bartek",
        "doubles": [
            {"by": "Celina", "against": "Ala"},
            {"by": "Celina", "against": "Bartek", "redoubled": True},
        ],
    },
    {"contract": "no-king-of-hearts", "king_of_hearts": "Darek"},
    {
        "contract": "domino",
        "places": ["Celina", "Ala", "Darek", "Bartek"],
        "doubles": [{"by": "Bartek", "against": "Ala", "redoubled": True}],
    },
    {"contract": "no-tricks", "tricks": {"Ala": 4, "Bartek": 2, "Celina": 3, "Darek": 4}},
    {
        "contract": "no-last-two",
        "penultimate_trick": "Bartek",
        "last_trick": "Bartek",
        "doubles": [{"by": "Darek", "against": "Bartek"}],
    },
    {
        "contract": "no-tricks",
        "tricks": {"Ala": 3, "Bartek": 1, "Celina": 5, "Darek": 4},
        "doubles": [
            {"by": "Celina", "against": "Bartek"},
            {"by": "Darek", "against": "Bartek", "redoubled": True},
            {"by": "Ala", "against": "Celina"},
        ],
    },
)


def setup_of(preset: str = "standard") -> GameSetup:
    return BARBU.make_setup(list(PLAYERS), "Ala", {"preset": preset})


def played(bodies: Sequence[Mapping[str, Any]] = BODIES, preset: str = "standard") -> GameState:
    setup = setup_of(preset)
    state = BARBU.replay(setup, [])
    for number, body in enumerate(bodies, 1):
        state = BARBU.extend(state, [BARBU.parse_deal(setup, number, **body)])
    return state


def test_the_worked_example_replayed_by_the_ruleset() -> None:
    state = played()
    for deal, (points, doubling, score, running) in zip(state.deals, EXPECTED, strict=True):
        assert dict(deal.figures) == {"contract_scores": points, "double_scores": doubling}, deal.number
        assert (deal.scores, deal.totals) == (score, running), deal.number
        assert deal.dealer == deal.chooser == (ALA if deal.number <= 7 else BARTEK)
    assert [deal.warnings for deal in state.deals] == [()] * 6 + [
        (
            Notice(
                "double_obligation",
                "%(player)s doubled %(declarer)s once (of 2).",
                (("declarer", ALA), ("player", DAREK)),
                (("doubles", 1),),
            ),
        )
    ] + [()]
    (warning,) = state.deals[6].warnings
    assert warning.by_name(PLAYERS) == {
        "code": "double_obligation",
        "declarer": "Ala",
        "player": "Darek",
        "doubles": 1,
    }
    assert [(s.seat, s.total, s.rank) for s in state.standings] == [
        (ALA, 70, 1),
        (CELINA, 46, 2),
        (DAREK, -32, 3),
        (BARTEK, -110, 4),
    ]
    assert dict(state.tallies)["double_counts"][ALA] == (0, 2, 2, 1)
    assert dict(state.seat_lists)["declarers"] == (ALA,) * 7 + (BARTEK,) * 7 + (CELINA,) * 7 + (DAREK,) * 7
    assert state.next_deal is not None
    assert (state.next_deal.number, state.next_deal.dealer, state.next_deal.contract) == (9, BARTEK, None)
    assert dict(state.next_deal.seat_lists) == {"must_double": ()}
    before_7 = played(BODIES[:6])
    assert before_7.next_deal is not None
    assert dict(before_7.next_deal.seat_lists) == {"must_double": (DAREK,)}
    assert before_7.next_deal.available_contracts == ("no-last-two",)
    assert dict(before_7.next_deal.fields_by_contract) == {"no-last-two": ("penultimate_trick", "last_trick")}


def test_a_whole_quick_rotation_game_adds_up_to_zero_only_at_the_end() -> None:
    # Each seat declares every fourth deal: RULES 4.9's first seven deals, each played four times in a
    # row (once by each declarer).
    bodies = [dict(body) for body in BODIES[:7] for _ in range(4)]
    for body in bodies:  # the declarer changes every deal: nobody doubles in this game
        body.pop("doubles", None)
    state = played(bodies, "quick-rotation")
    assert state.finished
    assert sum(state.totals) == 0
    assert dict(state.seat_lists)["declarers"][:5] == (ALA, BARTEK, CELINA, DAREK, ALA)
    # Nobody doubled: each of the four seats' last deal (25-28) warns of all three others, never doubled.
    assert [len(deal.warnings) for deal in state.deals] == [0] * 24 + [3] * 4
    # Four deals of each contract, undoubled: the totals are four times each contract's points.
    # no-queens 1/0/1/2 → −6/0/−6/−12; trumps 5/3/1/4 → 25/15/5/20; no-hearts → −4/−16/0/−10;
    # K♥ Darek → 0/0/0/−20; domino C,A,D,B → 20/−5/45/5; no-tricks 4/2/3/4 → −8/−4/−6/−8;
    # last two Bartek → 0/−30/0/0.  Sums: Ala 27, Bartek −40, Celina 38, Darek −25; ×4.
    assert state.totals == (108, -160, 152, -100)


def test_domino_10_scores_the_third_and_fourth_out_ten() -> None:
    state = played(BODIES[:5], "domino-10")
    assert dict(state.deals[4].figures)["contract_scores"] == (20, -10, 45, 10)
    # Bartek × Ala redoubled: 2 × (−10 − 20) = −60.
    assert dict(state.deals[4].figures)["double_scores"] == (60, -60, 0, 0)


def test_refusals_in_the_order_of_b5() -> None:
    setup = setup_of()

    def refused(body: Mapping[str, Any], number: int = 1) -> tuple[str, str | None]:
        with pytest.raises(RuleError) as caught:
            BARBU.parse_deal(setup, number, **body)
        return caught.value.code, caught.value.field

    queens = {"Ala": 1, "Bartek": 0, "Celina": 1, "Darek": 2}
    assert refused({"contract": "no-queens", "seventh_trick": "Ala", "bids": {"Ala": 1}}) == (
        "unknown_field",
        "seventh_trick",
    )
    assert refused({"contract": "nope", "bids": {"Ala": 1}}) == ("bids_not_allowed", "bids")
    assert refused({"queens": queens}) == ("unknown_contract", "contract")
    assert refused({"contract": "no-queens", "queens": queens, "tricks": [13, 0, 0, 0]}) == (
        "field_not_allowed",
        "tricks",
    )
    assert refused({"contract": "trumps", "tricks": [13, 0, 0, 0]}) == ("field_required", "trumps")
    assert refused({"contract": "no-hearts", "ace_of_hearts": "Ala"}) == ("field_required", "hearts")
    assert refused({"contract": "trumps", "trumps": "stars", "tricks": [1, 0, 0, 0]}) == (
        "unknown_suit",
        "trumps",
    )
    assert refused({"contract": "trumps", "trumps": "clubs", "tricks": [1, 0, 0, 0]}) == (
        "tricks_sum",
        "tricks",
    )
    assert refused({"contract": "no-queens", "queens": [5, 0, 0, 0]}) == ("count_range", "queens")
    assert refused({"contract": "no-queens", "queens": [1, 1, 1, 0]}) == ("count_sum", "queens")
    assert refused({"contract": "no-king-of-hearts", "king_of_hearts": "Zenek"}) == (
        "unknown_player",
        "king_of_hearts",
    )
    assert refused({"contract": "domino", "places": ["Ala", "Bartek", "Celina"]}) == (
        "places_invalid",
        "places",
    )
    assert refused({"contract": "domino", "places": ["Ala", "Bartek", "Celina", "Zenek"]}) == (
        "places_invalid",
        "places",
    )
    # The fields before the doubles; the doubles before H1.
    assert refused(
        {"contract": "no-queens", "queens": [1, 1, 1, 0], "doubles": [{"by": "Ala", "against": "Bartek"}]}
    ) == ("count_sum", "queens")
    hearts = {"Ala": 2, "Bartek": 6, "Celina": 0, "Darek": 5}
    assert refused(
        {
            "contract": "no-hearts",
            "hearts": hearts,
            "ace_of_hearts": "Celina",
            "doubles": [{"by": "Ala", "against": "Bartek"}],
        }
    ) == ("double_not_allowed", "doubles")
    assert refused({"contract": "no-hearts", "hearts": hearts, "ace_of_hearts": "Celina"}) == (
        "hearts_inconsistent",
        "ace_of_hearts",
    )


def test_each_contract_once_per_declarer() -> None:
    setup = setup_of()
    state = played(BODIES[:2])
    with pytest.raises(RuleError) as caught:
        BARBU.extend(state, [BARBU.parse_deal(setup, 3, **BODIES[0])])
    assert caught.value.code == "contract_used"
    assert caught.value.message == (
        "Ala has already played No queens (deal 1), so cannot choose it again in deal 3."
    )
    # Another declarer may choose it: Bartek's deal 8 is no-queens after Ala's deal 1.
    state = played(BODIES[:7])
    BARBU.extend(state, [BARBU.parse_deal(setup, 8, **BODIES[0] | {"doubles": []})])


def test_a_pending_deal_is_declared_with_its_trumps_and_doubles() -> None:
    setup = setup_of()
    record = BARBU.parse_deal(
        setup, 1, contract="trumps", trumps="hearts", doubles=[{"by": "Bartek", "against": "Ala"}]
    )
    assert BARBU.is_pending(record)
    state = BARBU.replay(setup, [record])
    deal = state.deals[0]
    assert deal.pending and deal.scores is None and deal.figures == ()
    assert state.next_deal is None
    assert dict(state.tallies)["double_counts"][ALA] == (0, 1, 0, 0)  # pending deals count too
    done = BARBU.corrected(setup, 1, record, {"tricks": {"Ala": 5, "Bartek": 3, "Celina": 1, "Darek": 4}})
    state = BARBU.replay(setup, [done])
    # Bartek × Ala: 15 − 25 = −10.
    assert state.deals[0].scores == (35, 5, 5, 20)


def test_corrections_swap_two_contracts_and_a_complete_deal_stays_complete() -> None:
    setup = setup_of()
    records = [BARBU.parse_deal(setup, number, **body) for number, body in enumerate(BODIES, 1)]
    swapped = list(records)
    swapped[3] = BARBU.corrected(
        setup, 4, records[3], {"contract": "no-tricks", "tricks": BODIES[5]["tricks"]}
    )
    swapped[5] = BARBU.corrected(
        setup, 6, records[5], {"contract": "no-king-of-hearts", "king_of_hearts": "Darek"}
    )
    with pytest.raises(RuleError) as caught:
        BARBU.replay(setup, [*swapped[:4], *records[4:]])  # one of the two alone
    assert caught.value.code == "contract_used"
    state = BARBU.replay(setup, swapped)
    assert [deal.contract for deal in state.deals][3:6] == ["no-tricks", "domino", "no-king-of-hearts"]
    assert state.totals == EXPECTED[7][3]
    # The doubles stay unless given; a contract change drops the old facts and needs the new ones.
    assert BARBU.corrected(setup, 1, records[0], {"queens": [0, 0, 2, 2]}).fact("doubles") == records[0].fact(
        "doubles"
    )
    assert BARBU.corrected(setup, 1, records[0], {"doubles": []}).fact("doubles") is None
    with pytest.raises(RuleError) as caught:
        BARBU.corrected(setup, 4, records[3], {"contract": "no-queens"})
    assert (caught.value.code, caught.value.field) == ("field_required", "queens")
    with pytest.raises(RuleError) as caught:
        BARBU.corrected(setup, 4, records[3], {"king_of_hearts": None})
    assert caught.value.code == "field_required"


def test_only_four_players_and_the_three_presets() -> None:
    with pytest.raises(RuleError) as caught:
        BARBU.make_setup(["Ala", "Bartek", "Celina"], "Ala", {})
    assert caught.value.code == "invalid_players"
    with pytest.raises(RuleError) as caught:
        BARBU.make_setup(list(PLAYERS), "Ala", {"preset": "short"})
    assert caught.value.code == "invalid_options"
    assert [contract.id for contract in BARBU.contracts if contract.positive] == ["trumps", "domino"]


def test_what_each_player_took_per_contract() -> None:
    state = played()
    taken = [BARBU.taken(deal) for deal in state.deals]
    assert taken[:7] == [
        (1, 0, 1, 2),  # queens
        (5, 3, 1, 4),  # tricks in trumps
        (2, 6, 0, 5),  # hearts
        (0, 0, 0, 1),  # the king of hearts
        (0, 0, 1, 0),  # the Domino's first out: Celina
        (4, 2, 3, 4),  # tricks
        (0, 2, 0, 0),  # the 12th and the 13th trick
    ]
    assert [BARBU.taken_or_not(contract) for contract in CONTRACT_IDS] == [
        False,
        False,
        False,
        True,
        False,
        False,
        True,
    ]


def body_of(contract: str, facts: Mapping[str, Any], doubles: Sequence[Double]) -> dict[str, Any]:
    """A deal as API.md B4 gives it, from facts and doubles by seat."""
    body: dict[str, Any] = {"contract": contract}
    for name, value in facts.items():
        if name in ("tricks", "hearts", "queens"):
            body[name] = dict(zip(PLAYERS, value, strict=True))
        elif name == "places":
            body[name] = [PLAYERS[seat] for seat in value]
        elif name == "trumps":
            body[name] = value
        else:
            body[name] = PLAYERS[value]
    if contract == "trumps":
        body["trumps"] = "clubs"
    body["doubles"] = [
        {"by": PLAYERS[d.by], "against": PLAYERS[d.against], "redoubled": d.redoubled} for d in doubles
    ]
    return body


@FAST
@given(deals(), st.sampled_from(list(PRESETS_BY_ID)))
def test_any_valid_deal_recorded_adds_up_to_its_contracts_total(
    deal: tuple[str, dict[str, Any], int, tuple[Double, ...]], preset: str
) -> None:
    contract, facts, declarer, doubles = deal
    setup = BARBU.make_setup(list(PLAYERS), PLAYERS[declarer], {"preset": preset})
    state = BARBU.replay(setup, [BARBU.parse_deal(setup, 1, **body_of(contract, facts, doubles))])
    (played_deal,) = state.deals
    assert played_deal.scores is not None
    assert sum(played_deal.scores) == contract_total(contract, PRESETS_BY_ID[preset])
    figures = dict(played_deal.figures)
    assert sum(figures["double_scores"]) == 0
    assert (
        tuple(map(sum, zip(figures["contract_scores"], figures["double_scores"], strict=True)))
        == played_deal.scores
    )


def test_a_pending_deal_may_change_its_contract_without_results() -> None:
    setup = setup_of()
    pending = BARBU.parse_deal(
        setup, 1, contract="trumps", trumps="hearts", doubles=[{"by": "Bartek", "against": "Ala"}]
    )
    changed = BARBU.corrected(setup, 1, pending, {"contract": "no-queens"})
    assert (changed.contract, changed.fact("trumps"), BARBU.is_pending(changed)) == ("no-queens", None, True)
    assert changed.fact("doubles") == ((BARTEK, ALA, False),)  # the doubles stay with the deal
    # Into a positive contract, a double between two others is refused (D3).
    between = BARBU.corrected(setup, 1, changed, {"doubles": [{"by": "Bartek", "against": "Celina"}]})
    with pytest.raises(RuleError) as caught:
        BARBU.corrected(setup, 1, between, {"contract": "domino"})
    assert caught.value.code == "double_not_allowed"
