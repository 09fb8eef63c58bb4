"""Kierki (RULES.md section 3; API.md K1-K6 as far as they are the engine's)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import DealRecord, GameSetup, GameState, RuleError
from scorekeeper.rules.kierki import KIERKI, PRESETS, deal_amount, penalty_cards

ALA, BARTEK, CELINA, DAREK = PLAYERS = ("Ala", "Bartek", "Celina", "Darek")
THREE = ("Ala", "Bartek", "Celina")

NEGATIVE = ("no-tricks", "no-hearts", "no-queens", "no-kings-jacks", "no-king-of-hearts", "no-seventh-last")
WITH_ROBBER = (*NEGATIVE, "robber")

FAST = settings(database=None, max_examples=120, deadline=None)


def setup_for(players: Sequence[str] = PLAYERS, first: str = ALA, preset: str | None = None) -> GameSetup:
    options = {} if preset is None else {"preset": preset}
    return KIERKI.make_setup(list(players), first, options)


def by_name(*values: int, players: Sequence[str] = PLAYERS) -> dict[str, int]:
    return dict(zip(players, values, strict=True))


@contextmanager
def raises(code: str, field: str | None) -> Iterator[pytest.ExceptionInfo[RuleError]]:
    """Expect a ``RuleError`` with this code about this field."""
    with pytest.raises(RuleError) as info:
        yield info
    assert (info.value.code, info.value.field) == (code, field), repr(info.value)


def played(setup: GameSetup, bodies: Sequence[Mapping[str, object]]) -> GameState:
    """The game after the deals ``bodies`` (API.md K4 bodies), each parsed then replayed."""
    records = [KIERKI.parse_deal(setup, number, **body) for number, body in enumerate(bodies, start=1)]
    return KIERKI.replay(setup, records)


# -- RULES.md 3.10: the worked example, every figure ----------------------------------------------

ROBBER_DEAL: dict[str, object] = {
    "tricks": by_name(3, 4, 2, 4),
    "hearts": by_name(2, 5, 0, 6),
    "queens": by_name(0, 1, 1, 2),
    "kings_jacks": by_name(2, 3, 1, 2),
    "king_of_hearts": BARTEK,
    "seventh_trick": ALA,
    "last_trick": DAREK,
}

#: (body, dealer, contract, chooser, trumps, scores Ala/Bartek/Celina/Darek), RULES.md 3.10's rows.
EXAMPLE: list[tuple[dict[str, object], str, str, str | None, str | None, tuple[int, ...]]] = [
    ({"tricks": by_name(2, 5, 0, 6)}, ALA, "no-tricks", None, None, (-40, -100, 0, -120)),
    ({"hearts": by_name(4, 0, 7, 2)}, BARTEK, "no-hearts", None, None, (-80, 0, -140, -40)),
    ({"queens": by_name(1, 2, 0, 1)}, CELINA, "no-queens", None, None, (-60, -120, 0, -60)),
    ({"kings_jacks": by_name(3, 1, 2, 2)}, DAREK, "no-kings-jacks", None, None, (-90, -30, -60, -60)),
    ({"king_of_hearts": CELINA}, ALA, "no-king-of-hearts", None, None, (0, 0, -150, 0)),
    ({"seventh_trick": BARTEK, "last_trick": DAREK}, BARTEK, "no-seventh-last", None, None, (0, -75, 0, -75)),
    (ROBBER_DEAL, CELINA, "robber", None, None, (-235, -480, -130, -455)),
    (
        {"trumps": "spades", "tricks": by_name(3, 2, 4, 4)},
        DAREK,
        "trumps",
        DAREK,
        "spades",
        (75, 50, 100, 100),
    ),
    ({"trumps": "hearts", "tricks": by_name(6, 3, 1, 3)}, ALA, "trumps", ALA, "hearts", (150, 75, 25, 75)),
    (
        {"trumps": "clubs", "tricks": by_name(2, 7, 2, 2)},
        BARTEK,
        "trumps",
        BARTEK,
        "clubs",
        (50, 175, 50, 50),
    ),
    (
        {"trumps": "diamonds", "tricks": by_name(1, 3, 5, 4)},
        CELINA,
        "trumps",
        CELINA,
        "diamonds",
        (25, 75, 125, 100),
    ),
    ({"places": [CELINA, ALA]}, DAREK, "fan-tan", None, None, (500, 0, 800, 0)),
]
EXAMPLE_BODIES = [row[0] for row in EXAMPLE]


def test_the_worked_example_deal_by_deal() -> None:
    setup = setup_for()
    state = played(setup, EXAMPLE_BODIES)
    running = [0, 0, 0, 0]
    for deal, (_, dealer, contract, chooser, trumps, scores) in zip(state.deals, EXAMPLE, strict=True):
        running = [total + score for total, score in zip(running, scores, strict=True)]
        assert PLAYERS[deal.dealer] == dealer
        assert deal.contract == contract
        assert (None if deal.chooser is None else PLAYERS[deal.chooser]) == chooser
        assert deal.fact("trumps") == trumps
        assert deal.scores == scores
        assert deal.totals == tuple(running)
        assert sum(scores) == KIERKI.amount_of(setup, contract)
        assert not deal.pending and deal.quotas is None and deal.made is None


def test_the_worked_example_totals_and_standings() -> None:
    state = played(setup_for(), EXAMPLE_BODIES)
    assert state.deals[6].totals == (-505, -805, -480, -810)
    assert sum(state.deals[6].totals or ()) == -2600
    assert state.totals == (295, -430, 620, -485)
    assert sum(state.totals) == 0
    assert state.finished and state.next_deal is None
    assert [(PLAYERS[s.seat], s.total, s.rank) for s in state.standings] == [
        (CELINA, 620, 1),
        (ALA, 295, 2),
        (BARTEK, -430, 3),
        (DAREK, -485, 4),
    ]
    assert state.remaining_contracts == ((), (), (), ())


def test_the_worked_example_robber_as_api_k3_shows_it() -> None:
    deal = played(setup_for(), EXAMPLE_BODIES[:7]).deals[6]
    assert (deal.number, PLAYERS[deal.dealer], deal.chooser, deal.contract, deal.fact("trumps")) == (
        7,
        CELINA,
        None,
        "robber",
        None,
    )
    assert (deal.tricks, deal.fact("hearts"), deal.fact("queens"), deal.fact("kings_jacks")) == (
        (3, 4, 2, 4),
        (2, 5, 0, 6),
        (0, 1, 1, 2),
        (2, 3, 1, 2),
    )
    takers = ("king_of_hearts", "seventh_trick", "last_trick", "places")
    assert tuple(deal.fact(name) for name in takers) == (1, 0, 3, None)
    assert deal.scores == (-235, -480, -130, -455)
    assert deal.totals == (-505, -805, -480, -810)


def test_the_worked_example_next_deal_after_the_robber() -> None:
    state = played(setup_for(), EXAMPLE_BODIES[:7])
    nxt = state.next_deal
    assert nxt is not None
    assert (nxt.number, PLAYERS[nxt.dealer], nxt.chooser, nxt.contract) == (8, DAREK, 3, "trumps")
    assert nxt.available_contracts == ("trumps",)
    assert nxt.fields == ("trumps", "tricks")
    assert nxt.roles == ("leader", "player", "player", "dealer")  # Ala, left of Darek, leads
    assert state.remaining_contracts[0] == ("trumps", "trumps", "trumps", "trumps", "fan-tan")
    assert len(set(state.remaining_contracts)) == 1  # the same list for everyone


def test_recording_the_example_deal_by_deal_is_the_same_as_replaying_it() -> None:
    setup = setup_for()
    state = KIERKI.replay(setup, [])
    for number, body in enumerate(EXAMPLE_BODIES, start=1):
        state = KIERKI.extend(state, [KIERKI.parse_deal(setup, number, **body)])
    assert state == played(setup, EXAMPLE_BODIES)


# -- the ruleset, its presets (RULES.md "House rules", 3.9; API.md K1, K2) -----------------------


def test_the_ruleset_describes_itself_as_api_k1() -> None:
    assert KIERKI.id == "kierki" and KIERKI.name == "Kierki"
    assert (KIERKI.player_count, KIERKI.seat_counts, KIERKI.deal_count) == (4, (3, 4), 12)
    assert KIERKI.seating_direction == "clockwise"
    assert not KIERKI.declares_contract
    assert [c.id for c in KIERKI.contracts] == [*WITH_ROBBER, "trumps", "fan-tan"]
    assert [c.label for c in KIERKI.contracts] == [
        "No tricks",
        "No hearts",
        "No queens",
        "No kings or jacks",
        "No king of hearts",
        "No seventh or last trick",
        "Robber",
        "Trumps",
        "Fan Tan",
    ]
    assert all(c.trumps is None for c in KIERKI.contracts)
    [option] = KIERKI.options
    assert (option.id, option.default) == ("preset", "standard")
    assert [value for value, _ in option.choices] == ["standard", "no-fan-tan", "no-robber", "short"]
    assert KIERKI.preset_option == "preset"


def test_the_presets_standard_first_and_short_for_four_players_only() -> None:
    assert [p.id for p in KIERKI.presets] == ["standard", "no-fan-tan", "no-robber", "short"]
    assert [p.id for p in KIERKI.presets_for(4)] == ["standard", "no-fan-tan", "no-robber", "short"]
    assert [p.id for p in KIERKI.presets_for(3)] == ["standard", "no-fan-tan", "no-robber"]
    assert all(preset.summary for preset in KIERKI.presets)


@pytest.mark.parametrize("players", [PLAYERS, THREE])
def test_the_setup_carries_its_preset_standard_by_default(players: Sequence[str]) -> None:
    assert setup_for(players).options_dict == {"preset": "standard"}
    assert KIERKI.make_setup(list(players), ALA, {"preset": None}).options_dict == {"preset": "standard"}
    assert KIERKI.preset_of(setup_for(players)).id == "standard"
    assert KIERKI.preset_of(setup_for(players, preset="no-robber")).id == "no-robber"


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (THREE, {"preset": "short"}),
        (PLAYERS, {"preset": "long"}),
        (PLAYERS, {"preset": 1}),
        (PLAYERS, {"scoring": "standard"}),
    ],
)
def test_a_preset_the_table_cannot_have_is_refused(
    players: Sequence[str], options: dict[str, object]
) -> None:
    with raises("invalid_options", "options"):
        KIERKI.make_setup(list(players), ALA, options)


def test_short_with_three_says_why() -> None:
    with raises("invalid_options", "options") as info:
        setup_for(THREE, preset="short")
    assert info.value.message == "Short (4 players) is for 4 players only (this game has 3)."


def test_a_stored_setup_with_a_preset_it_cannot_have_is_refused_on_replay() -> None:
    stored = GameSetup("kierki", THREE, 0, (("preset", "short"),))
    with raises("invalid_options", "options"):
        KIERKI.replay(stored, [])
    with raises("invalid_options", "options"):
        KIERKI.schedule(stored)


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D", "E"], []])
def test_three_or_four_players(players: list[str]) -> None:
    with raises("invalid_players", "players") as info:
        KIERKI.make_setup(players, None, draw=0)
    assert info.value.message == f"Kierki needs 3 to 4 players (got {len(players)})."


def test_a_stored_setup_of_five_players_is_refused() -> None:
    with raises("invalid_players", "players"):
        KIERKI.replay(GameSetup("kierki", ("A", "B", "C", "D", "E"), 0, (("preset", "standard"),)), [])


def test_a_drawn_first_dealer_is_a_seat_of_the_table() -> None:
    assert setup_for(THREE).first_dealer == 0
    assert KIERKI.make_setup(list(THREE), None, draw=3).first_dealer == 0
    assert KIERKI.make_setup(list(PLAYERS), None, draw=3).first_dealer == 3


# -- RULES.md 3.3: the order of the deals, per preset and player count ---------------------------

ORDERS = {
    ("standard", 4): (*WITH_ROBBER, *["trumps"] * 4, "fan-tan"),
    ("standard", 3): (*WITH_ROBBER, *["trumps"] * 3, "fan-tan"),
    ("no-fan-tan", 4): (*WITH_ROBBER, *["trumps"] * 8),
    ("no-fan-tan", 3): (*WITH_ROBBER, *["trumps"] * 6),
    ("no-robber", 4): (*NEGATIVE, *["trumps"] * 4),
    ("no-robber", 3): (*NEGATIVE, *["trumps"] * 3),
    ("short", 4): (*["robber"] * 4, *["trumps"] * 4),
}
DEAL_COUNTS = {
    ("standard", 4): 12,
    ("standard", 3): 11,
    ("no-fan-tan", 4): 15,
    ("no-fan-tan", 3): 13,
    ("no-robber", 4): 10,
    ("no-robber", 3): 9,
    ("short", 4): 8,
}
NEGATIVE_PARTS = {"standard": 7, "no-fan-tan": 7, "no-robber": 6, "short": 4}


def _players(count: int) -> tuple[str, ...]:
    return PLAYERS[:count]


@pytest.mark.parametrize(("preset", "count"), sorted(ORDERS))
def test_the_schedule_of_each_preset(preset: str, count: int) -> None:
    setup = setup_for(_players(count), preset=preset)
    order = ORDERS[(preset, count)]
    assert len(order) == DEAL_COUNTS[(preset, count)]
    assert KIERKI.order_of(setup) == order
    assert KIERKI.deals_in(setup) == len(order)
    assert KIERKI.negative_part(setup) == NEGATIVE_PARTS[preset]
    schedule = KIERKI.schedule(setup)
    assert tuple(deal.contract for deal in schedule) == order
    assert KIERKI.replay(setup, []).deal_count == len(order)
    assert KIERKI.replay(setup, []).remaining_contracts == tuple(order for _ in range(count))


def test_the_most_deals_a_kierki_game_can_have() -> None:
    assert KIERKI.most_deals == max(DEAL_COUNTS.values()) == 15


@pytest.mark.parametrize(("preset", "count"), sorted(ORDERS))
def test_the_dealer_rotates_through_both_parts_and_names_trumps(preset: str, count: int) -> None:
    for first in range(count):
        setup = setup_for(_players(count), first=PLAYERS[first], preset=preset)
        for deal in KIERKI.schedule(setup):
            assert deal.dealer == (first + deal.number - 1) % count
            assert deal.chooser == (deal.dealer if deal.contract == "trumps" else None)
            assert deal.roles[deal.dealer] == "dealer"
            assert deal.roles[(deal.dealer + 1) % count] == "leader"
            assert KIERKI.declares_in(setup, deal.number) == (deal.contract == "trumps")
        choosers = [deal.chooser for deal in KIERKI.schedule(setup) if deal.chooser is not None]
        rounds = 2 if preset == "no-fan-tan" else 1
        assert sorted(choosers) == sorted(list(range(count)) * rounds)  # each player names trumps as often


@pytest.mark.parametrize(("count", "first_chooser"), [(4, 3), (3, 1)])
def test_the_first_chooser_of_the_standard_game(count: int, first_chooser: int) -> None:
    """RULES.md 3.2: with 4 players the player to the first dealer's right, with 3 the one to the left."""
    setup = setup_for(_players(count))
    deal = KIERKI.schedule(setup)[7]
    assert (deal.number, deal.contract, deal.chooser) == (8, "trumps", first_chooser)


FIELDS = {
    "no-tricks": ("tricks",),
    "no-hearts": ("hearts",),
    "no-queens": ("queens",),
    "no-kings-jacks": ("kings_jacks",),
    "no-king-of-hearts": ("king_of_hearts",),
    "no-seventh-last": ("seventh_trick", "last_trick"),
    "robber": ("tricks", "hearts", "queens", "kings_jacks", "king_of_hearts", "seventh_trick", "last_trick"),
    "trumps": ("trumps", "tricks"),
    "fan-tan": ("places",),
}


def test_each_deal_says_the_fields_it_takes() -> None:
    setup = setup_for()
    for deal in KIERKI.schedule(setup):
        assert deal.contract is not None
        assert deal.fields == FIELDS[deal.contract] == KIERKI.fields_for(setup, deal.number)


# -- RULES.md 3.6, 3.7: the values and the zero-sum arithmetic ---------------------------------

#: RULES.md 3.6, row by row: trick, heart, queen, king or jack, king of hearts, 7th / last, trump trick,
#: Fan Tan.
VALUES = {
    4: (20, 20, 60, 30, 150, 75, 25, (800, 500)),
    3: (15, 20, 60, 30, 140, 70, 25, (790, 485)),
    "short": (2, 2, 5, 3, 16, 9, 10, (0, 0)),
}


@pytest.mark.parametrize(("preset", "count"), sorted(ORDERS))
def test_the_values_of_each_preset(preset: str, count: int) -> None:
    v = KIERKI.values_of(setup_for(_players(count), preset=preset))
    expected = VALUES["short"] if preset == "short" else VALUES[count]
    assert (
        v.trick,
        v.heart,
        v.queen,
        v.king_jack,
        v.king_of_hearts,
        v.seventh_last,
        v.trump_trick,
        v.fan_tan,
    ) == expected


#: RULES.md 3.7: what each deal adds up to, and each part.
AMOUNTS = {
    (4, "standard"): {
        "no-tricks": -260,
        "no-hearts": -260,
        "no-queens": -240,
        "no-kings-jacks": -240,
        "no-king-of-hearts": -150,
        "no-seventh-last": -150,
        "robber": -1300,
        "trumps": 325,
        "fan-tan": 1300,
    },
    (3, "standard"): {
        "no-tricks": -255,
        "no-hearts": -260,
        "no-queens": -240,
        "no-kings-jacks": -240,
        "no-king-of-hearts": -140,
        "no-seventh-last": -140,
        "robber": -1275,
        "trumps": 425,
        "fan-tan": 1275,
    },
    (4, "short"): {"robber": -130, "trumps": 130},
}
PARTS = {
    ("standard", 4): 2600,
    ("standard", 3): 2550,
    ("no-fan-tan", 4): 2600,
    ("no-fan-tan", 3): 2550,
    ("no-robber", 4): 1300,
    ("no-robber", 3): 1275,
    ("short", 4): 520,
}


@pytest.mark.parametrize(("count", "preset"), sorted(AMOUNTS))
def test_each_deal_adds_up_to_its_amount(count: int, preset: str) -> None:
    setup = setup_for(_players(count), preset=preset)
    for contract, amount in AMOUNTS[(count, preset)].items():
        assert KIERKI.amount_of(setup, contract) == amount


@pytest.mark.parametrize(("preset", "count"), sorted(PARTS))
def test_the_two_parts_are_equal(preset: str, count: int) -> None:
    setup = setup_for(_players(count), preset=preset)
    order = KIERKI.order_of(setup)
    split = KIERKI.negative_part(setup)
    assert sum(KIERKI.amount_of(setup, c) for c in order[:split]) == -PARTS[(preset, count)]
    assert sum(KIERKI.amount_of(setup, c) for c in order[split:]) == PARTS[(preset, count)]
    assert all(c in (*WITH_ROBBER,) for c in order[:split])
    assert all(c in ("trumps", "fan-tan") for c in order[split:])


#: One small complete deal of each contract (4 players) and its scores under the full values.
SINGLE_DEALS: list[tuple[str, dict[str, object], tuple[int, ...]]] = [
    ("no-tricks", {"tricks": by_name(13, 0, 0, 0)}, (-260, 0, 0, 0)),
    ("no-hearts", {"hearts": by_name(0, 13, 0, 0)}, (0, -260, 0, 0)),
    ("no-queens", {"queens": by_name(1, 1, 1, 1)}, (-60, -60, -60, -60)),
    ("no-kings-jacks", {"kings_jacks": by_name(0, 0, 8, 0)}, (0, 0, -240, 0)),
    ("no-king-of-hearts", {"king_of_hearts": DAREK}, (0, 0, 0, -150)),
    ("no-seventh-last", {"seventh_trick": ALA, "last_trick": ALA}, (-150, 0, 0, 0)),
]


@pytest.mark.parametrize(("contract", "body", "scores"), SINGLE_DEALS)
def test_each_negative_deal_scores_its_penalty(
    contract: str, body: dict[str, object], scores: tuple[int, ...]
) -> None:
    setup = setup_for()
    number = KIERKI.order_of(setup).index(contract) + 1
    bodies: list[Mapping[str, object]] = [*(SINGLE_DEALS[n][1] for n in range(number - 1)), body]
    state = played(setup, bodies)
    assert state.deals[-1].contract == contract
    assert state.deals[-1].scores == scores


def test_the_three_player_game_scores_with_its_values() -> None:
    setup = setup_for(THREE)
    bodies: list[dict[str, object]] = [
        {"tricks": by_name(5, 5, 7, players=THREE)},
        {"hearts": by_name(13, 0, 0, players=THREE)},
        {"queens": by_name(1, 2, 1, players=THREE)},
        {"kings_jacks": by_name(3, 3, 2, players=THREE)},
        {"king_of_hearts": BARTEK},
        {"seventh_trick": CELINA, "last_trick": ALA},
        {
            "tricks": by_name(6, 6, 5, players=THREE),
            "hearts": by_name(4, 5, 4, players=THREE),
            "queens": by_name(1, 1, 2, players=THREE),
            "kings_jacks": by_name(3, 3, 2, players=THREE),
            "king_of_hearts": ALA,
            "seventh_trick": BARTEK,
            "last_trick": BARTEK,
        },
        {"trumps": "clubs", "tricks": by_name(10, 4, 3, players=THREE)},
        {"trumps": "spades", "tricks": by_name(0, 17, 0, players=THREE)},
        {"trumps": "hearts", "tricks": by_name(5, 6, 6, players=THREE)},
        {"places": [BARTEK, CELINA]},
    ]
    state = played(setup, bodies)
    assert [PLAYERS[d.dealer] for d in state.deals] == [ALA, BARTEK, CELINA] * 3 + [ALA, BARTEK]
    assert [d.chooser for d in state.deals[7:10]] == [1, 2, 0]  # Bartek first: left of Ala
    assert [d.scores for d in state.deals] == [
        (-75, -75, -105),
        (-260, 0, 0),
        (-60, -120, -60),
        (-90, -90, -60),
        (0, -140, 0),
        (-70, 0, -70),
        # robber: 6×15 + 4×20 + 60 + 3×30 + 140 = 460; 90 + 100 + 60 + 90 + 140 = 480;
        # 75 + 80 + 120 + 60 = 335
        (-460, -480, -335),
        (250, 100, 75),
        (0, 425, 0),
        (125, 150, 150),
        (0, 790, 485),
    ]
    assert sum(state.deals[6].totals or ()) == -2550
    assert sum(state.totals) == 0 and state.finished


# -- API.md K4, K5, K6: the refusals, each with its code and field -------------------------------

# A legal body for each deal of the standard 4-player game (the worked example's).
LEGAL = dict(enumerate(EXAMPLE_BODIES, start=1))

REFUSALS: list[tuple[int, dict[str, object], str, str | None]] = [
    # K5 step 2
    (1, {"bids": by_name(1, 1, 1, 1)}, "bids_not_allowed", "bids"),
    (1, {"bids": by_name(1, 1, 1, 1), "contract": "no-hearts"}, "bids_not_allowed", "bids"),
    (1, {"contract": "no-hearts", "tricks": by_name(2, 5, 0, 6)}, "unknown_contract", "contract"),
    (8, {"contract": "spades", "trumps": "spades"}, "unknown_contract", "contract"),
    (1, {"hearts_taken": by_name(1, 1, 1, 1)}, "unknown_field", "hearts_taken"),
    # K5 step 3: the first in the order trumps, tricks, hearts, ...
    (1, {"tricks": by_name(2, 5, 0, 6), "hearts": by_name(4, 0, 7, 2)}, "field_not_allowed", "hearts"),
    (1, {"trumps": "spades", "hearts": by_name(4, 0, 7, 2)}, "field_not_allowed", "trumps"),
    (2, {"tricks": by_name(2, 5, 0, 6)}, "field_not_allowed", "tricks"),
    (5, {"king_of_hearts": ALA, "places": [ALA, BARTEK]}, "field_not_allowed", "places"),
    (7, {**ROBBER_DEAL, "trumps": "spades"}, "field_not_allowed", "trumps"),
    (7, {**ROBBER_DEAL, "places": [ALA, BARTEK]}, "field_not_allowed", "places"),
    (
        8,
        {"trumps": "spades", "tricks": by_name(3, 2, 4, 4), "last_trick": ALA},
        "field_not_allowed",
        "last_trick",
    ),
    (12, {"places": [CELINA, ALA], "tricks": by_name(3, 2, 4, 4)}, "field_not_allowed", "tricks"),
    (1, {"king_of_hearts": "Zenon"}, "field_not_allowed", "king_of_hearts"),  # before the name is judged
    # K5 step 4
    (8, {}, "field_required", "trumps"),
    (8, {"tricks": by_name(3, 2, 4, 4)}, "field_required", "trumps"),
    (6, {"seventh_trick": ALA}, "field_required", "last_trick"),
    (6, {"last_trick": ALA}, "field_required", "seventh_trick"),
    (7, {k: v for k, v in ROBBER_DEAL.items() if k != "queens"}, "field_required", "queens"),
    (7, {"king_of_hearts": ALA}, "field_required", "tricks"),
    (7, {"tricks": by_name(3, 4, 2, 4), "queens": "x"}, "field_required", "hearts"),  # before shapes
    # K5 step 5, field by field in order
    (8, {"trumps": "no-trumps", "tricks": by_name(3, 2, 4, 4)}, "unknown_suit", "trumps"),
    (8, {"trumps": "Spades"}, "unknown_suit", "trumps"),
    (8, {"trumps": 1, "tricks": {"Zenon": 13}}, "unknown_suit", "trumps"),
    (1, {"tricks": by_name(2, 5, 0, 5)}, "tricks_sum", "tricks"),
    (1, {"tricks": by_name(2, 5, 0, 14)}, "tricks_range", "tricks"),
    (1, {"tricks": {ALA: 13, BARTEK: 0, CELINA: 0}}, "tricks_players", "tricks"),
    (2, {"hearts": by_name(4, 0, 7, 1)}, "count_sum", "hearts"),
    (2, {"hearts": by_name(4, 0, 7, -1)}, "count_range", "hearts"),
    (2, {"hearts": by_name(4, 0, 14, 2)}, "count_range", "hearts"),
    (2, {"hearts": {ALA: 13, BARTEK: 0, CELINA: 0}}, "count_players", "hearts"),
    (2, {"hearts": {**by_name(4, 0, 7, 2), "Zenon": 0}}, "count_players", "hearts"),
    (2, {"hearts": 13}, "count_players", "hearts"),
    (3, {"queens": by_name(1, 2, 0, 0)}, "count_sum", "queens"),
    (3, {"queens": by_name(5, 0, 0, 0)}, "count_range", "queens"),
    (3, {"queens": by_name(1, 2, True, 1)}, "count_range", "queens"),
    (3, {"queens": {ALA: 1, BARTEK: 2, CELINA: 0.0, DAREK: 1}}, "count_range", "queens"),
    (4, {"kings_jacks": by_name(3, 1, 2, 3)}, "count_sum", "kings_jacks"),
    (4, {"kings_jacks": by_name(9, 0, 0, 0)}, "count_range", "kings_jacks"),
    (4, {"kings_jacks": [3, 1, 2]}, "count_players", "kings_jacks"),
    (5, {"king_of_hearts": "Zenon"}, "unknown_player", "king_of_hearts"),
    (5, {"king_of_hearts": 2}, "unknown_player", "king_of_hearts"),
    (6, {"seventh_trick": "Zenon", "last_trick": ALA}, "unknown_player", "seventh_trick"),
    (6, {"seventh_trick": ALA, "last_trick": "Zenon"}, "unknown_player", "last_trick"),
    (12, {"places": CELINA}, "places_invalid", "places"),
    (12, {"places": [CELINA]}, "places_invalid", "places"),
    (12, {"places": [CELINA, ALA, BARTEK]}, "places_invalid", "places"),
    (12, {"places": [CELINA, "Zenon"]}, "places_invalid", "places"),
    (12, {"places": [CELINA, 3]}, "places_invalid", "places"),
    (12, {"places": [CELINA, "celina"]}, "places_invalid", "places"),
    # the order of step 5 in the robber: tricks, the counts, then the takers
    (
        7,
        {**ROBBER_DEAL, "tricks": by_name(3, 4, 2, 5), "hearts": by_name(1, 1, 1, 1)},
        "tricks_sum",
        "tricks",
    ),
    (7, {**ROBBER_DEAL, "queens": by_name(0, 1, 1, 1), "king_of_hearts": "Zenon"}, "count_sum", "queens"),
    (
        7,
        {**ROBBER_DEAL, "kings_jacks": by_name(2, 3, 1, 3), "last_trick": "Zenon"},
        "count_sum",
        "kings_jacks",
    ),
    (
        7,
        {**ROBBER_DEAL, "king_of_hearts": "Zenon", "seventh_trick": "Zenon"},
        "unknown_player",
        "king_of_hearts",
    ),
]


def _start(setup: GameSetup, number: int) -> GameState:
    return played(setup, [LEGAL[n] for n in range(1, number)])


@pytest.mark.parametrize(("number", "body", "code", "field"), REFUSALS)
def test_each_refusal_has_its_code_and_field(
    number: int, body: dict[str, object], code: str, field: str
) -> None:
    setup = setup_for()
    start = _start(setup, number)
    with raises(code, field) as info:
        KIERKI.extend(start, [KIERKI.parse_deal(setup, number, **body)])
    assert info.value.message and "%(" not in info.value.message


ROBBER_REFUSALS: list[tuple[dict[str, object], str, str]] = [
    # R1: whoever took the 7th or the last trick has a trick; both, two
    (
        {"tricks": by_name(0, 4, 5, 4), "hearts": by_name(0, 5, 2, 6), "kings_jacks": by_name(0, 3, 3, 2)},
        "seventh_trick",
        "Ala has no trick, so cannot have taken the seventh trick.",
    ),
    (
        {
            "tricks": by_name(3, 4, 6, 0),
            "hearts": by_name(2, 5, 6, 0),
            "queens": by_name(0, 1, 3, 0),
            "kings_jacks": by_name(2, 3, 3, 0),
        },
        "last_trick",
        "Darek has no trick, so cannot have taken the last trick.",
    ),
    (
        {
            "tricks": by_name(1, 4, 4, 4),
            "hearts": by_name(0, 5, 2, 6),
            "queens": by_name(0, 1, 1, 2),
            "kings_jacks": by_name(0, 3, 3, 2),
            "seventh_trick": ALA,
            "last_trick": ALA,
        },
        "last_trick",
        "Ala took both the seventh and the last trick, so has at least 2 tricks (got 1).",
    ),
    # R2: the king of hearts is a heart and a king
    (
        {"hearts": by_name(2, 0, 5, 6)},
        "king_of_hearts",
        "Bartek took the king of hearts but no heart: the king of hearts is also a heart and a king.",
    ),
    (
        {"kings_jacks": by_name(2, 0, 4, 2)},
        "king_of_hearts",
        "Bartek took the king of hearts but no king or jack: the king of hearts is also a heart and a king.",
    ),
    # R3: the penalty cards fit in the tricks; none without a trick
    (
        {"tricks": by_name(3, 4, 0, 6), "kings_jacks": by_name(2, 3, 0, 3)},
        "queens",
        "Celina has no trick, so cannot have a heart, a queen, a king or a jack.",
    ),
    (
        {
            "tricks": by_name(3, 4, 0, 6),
            "hearts": by_name(2, 5, 1, 5),
            "queens": by_name(0, 2, 0, 2),
            "kings_jacks": by_name(2, 3, 0, 3),
        },
        "hearts",
        "Celina has no trick, so cannot have a heart, a queen, a king or a jack.",
    ),
    (
        {
            "tricks": by_name(3, 4, 0, 6),
            "hearts": by_name(2, 5, 0, 6),
            "queens": by_name(0, 2, 0, 2),
            "kings_jacks": by_name(2, 3, 1, 2),
        },
        "kings_jacks",
        "Celina has no trick, so cannot have a heart, a queen, a king or a jack.",
    ),
    (
        {"tricks": by_name(3, 4, 1, 5), "hearts": by_name(2, 5, 5, 1), "queens": by_name(0, 1, 0, 3)},
        "tricks",
        "Celina has at least 5 cards among hearts, queens, kings and jacks, but only 4 cards in 1 trick.",
    ),
    (
        {"hearts": by_name(0, 1, 0, 12), "tricks": by_name(3, 4, 4, 2)},
        "tricks",
        "Darek has at least 13 cards among hearts, queens, kings and jacks, but only 8 cards in 2 tricks.",
    ),
]


@pytest.mark.parametrize(("changes", "field", "message"), ROBBER_REFUSALS)
def test_each_robber_condition_is_refused_at_its_field(
    changes: dict[str, object], field: str, message: str
) -> None:
    setup = setup_for()
    body = {**ROBBER_DEAL, **changes}
    record = KIERKI.parse_deal(
        setup, 7, **body
    )  # each count well-formed on its own: K5 step 6 is the replay's
    start = _start(setup, 7)
    with raises("robber_inconsistent", field) as info:
        KIERKI.extend(start, [record])
    assert info.value.message == message
    with raises("robber_inconsistent", field):
        KIERKI.replay(setup, [*(d for d in _records(setup, 6)), record])


def _records(setup: GameSetup, count: int) -> list[DealRecord]:
    return [KIERKI.parse_deal(setup, n, **LEGAL[n]) for n in range(1, count + 1)]


def test_the_k6_example_message() -> None:
    setup = setup_for()
    record = KIERKI.parse_deal(
        setup, 7, **{**ROBBER_DEAL, "king_of_hearts": ALA, "hearts": by_name(0, 5, 2, 6)}
    )
    with raises("robber_inconsistent", "king_of_hearts") as info:
        KIERKI.extend(_start(setup, 7), [record])
    assert info.value.message == (
        "Ala took the king of hearts but no heart: the king of hearts is also a heart and a king."
    )


@pytest.mark.parametrize(
    ("hearts", "queens", "kings_jacks", "fewest"),
    [
        (0, 0, 0, 0),
        (1, 1, 1, 2),  # the queen of hearts (or king, or jack) and one other
        (5, 1, 3, 6),  # Bartek in the example: the heart queen, king and jack among the 5 hearts
        (2, 4, 8, 12),
        (13, 4, 8, 22),
        (0, 4, 8, 12),
        (3, 0, 1, 3),
    ],
)
def test_penalty_cards_counts_the_heart_courts_once(
    hearts: int, queens: int, kings_jacks: int, fewest: int
) -> None:
    assert penalty_cards(hearts, queens, kings_jacks) == fewest


@pytest.mark.parametrize(
    ("hearts", "queens", "kings_jacks", "fits"),
    [
        ((2, 5, 4, 2), (0, 1, 0, 3), (2, 3, 0, 3), True),  # Celina: 4 hearts in her 1 trick of 4 cards
        ((2, 5, 4, 2), (0, 1, 1, 2), (2, 3, 0, 3), True),  # 4 hearts and a queen: the queen of hearts
        ((2, 5, 3, 3), (0, 1, 1, 2), (2, 2, 1, 3), True),  # 3 hearts, a queen and a jack: 4 cards at least
        ((2, 4, 5, 2), (0, 1, 0, 3), (2, 3, 0, 3), False),  # 5 hearts do not fit in 4 cards
        ((2, 5, 3, 3), (0, 1, 2, 1), (2, 3, 2, 1), True),  # Q♥ K♥ J♥ and another queen
        ((2, 5, 3, 3), (0, 1, 2, 1), (2, 2, 3, 1), False),  # ... and another king or jack: 5 cards
    ],
)
def test_r3_at_its_bound(
    hearts: tuple[int, ...], queens: tuple[int, ...], kings_jacks: tuple[int, ...], fits: bool
) -> None:
    """One trick holds n cards; the heart queen, king and jack count in two categories."""
    setup = setup_for()
    body = {
        **ROBBER_DEAL,
        "tricks": by_name(3, 4, 1, 5),
        "hearts": by_name(*hearts),
        "queens": by_name(*queens),
        "kings_jacks": by_name(*kings_jacks),
    }
    record = KIERKI.parse_deal(setup, 7, **body)
    if fits:
        assert KIERKI.extend(_start(setup, 7), [record]).deals[-1].scores is not None
    else:
        with raises("robber_inconsistent", "tricks"):
            KIERKI.extend(_start(setup, 7), [record])


def test_three_players_count_seventeen_tricks() -> None:
    setup = setup_for(THREE)
    with raises("tricks_sum", "tricks") as info:
        KIERKI.parse_deal(setup, 1, tricks=by_name(5, 4, 4, players=THREE))
    assert info.value.message == "Tricks must add up to 17 (got 13)."
    with raises("tricks_range", "tricks") as info:
        KIERKI.parse_deal(setup, 1, tricks=by_name(18, 0, 0, players=THREE))
    assert "from 0 to 17" in info.value.message
    assert KIERKI.parse_deal(setup, 1, tricks=by_name(17, 0, 0, players=THREE)).tricks == (17, 0, 0)
    with raises("tricks_range", "tricks"):
        KIERKI.parse_deal(setup_for(), 1, tricks=by_name(14, 0, 0, 0))


def test_past_the_last_deal_the_game_is_finished() -> None:
    setup = setup_for(preset="short")
    with raises("game_finished", "number"):
        KIERKI.parse_deal(setup, 9, tricks=by_name(13, 0, 0, 0))
    with raises("game_finished", "number"):
        rng = random.Random(9)
        KIERKI.replay(
            setup, [legal_record(rng, contract, 4) for contract in ("robber",) * 4 + ("trumps",) * 5]
        )


def test_a_stored_record_is_checked_as_a_posted_one() -> None:
    """The replay checks a record's facts again (a correction merges fields, then replays)."""
    setup = setup_for()
    with raises("field_not_allowed", "hearts"):
        KIERKI.replay(setup, [DealRecord(tricks=(2, 5, 0, 6), facts={"hearts": (4, 0, 7, 2)})])
    with raises("count_sum", "hearts"):
        KIERKI.replay(setup, [*_records(setup, 1), DealRecord(facts={"hearts": (4, 0, 7, 1)})])
    with raises("unknown_player", "king_of_hearts"):
        KIERKI.replay(setup, [*_records(setup, 4), DealRecord(facts={"king_of_hearts": 4})])
    with raises("places_invalid", "places"):
        KIERKI.replay(setup, [*_records(setup, 11), DealRecord(facts={"places": (2, 2)})])
    with raises("unknown_suit", "trumps"):
        KIERKI.replay(setup, [*_records(setup, 7), DealRecord(facts={"trumps": "no-trumps"})])


def test_mizerka_and_misere_take_no_kierki_fact() -> None:
    from scorekeeper.rules import get_ruleset

    mizerka = get_ruleset("mizerka")
    setup = mizerka.make_setup(["Ann", "Bob", "Cid"], "Ann")
    with raises("unknown_field", "hearts"):
        mizerka.parse_deal(setup, 1, contract="hearts", hearts={"Ann": 13, "Bob": 0, "Cid": 0})
    with raises("unknown_field", "trumps"):
        mizerka.replay(setup, [DealRecord(contract="hearts", facts={"trumps": "hearts"})])
    # None is not given
    assert mizerka.parse_deal(setup, 1, contract="hearts", hearts=None) == DealRecord(contract="hearts")


# -- pending deals, corrections --------------------------------------------------------------


def test_a_deal_without_its_results_is_pending() -> None:
    setup = setup_for()
    state = played(setup, [*EXAMPLE_BODIES[:1], {}])
    deal = state.deals[-1]
    assert deal.pending and deal.contract == "no-hearts" and deal.scores is None and deal.totals is None
    assert state.pending_deal is deal and state.next_deal is None
    assert state.totals == (-40, -100, 0, -120)
    with raises("deal_pending", "tricks"):
        KIERKI.extend(state, [KIERKI.parse_deal(setup, 3, **EXAMPLE_BODIES[2])])


def test_a_trump_deal_is_declared_then_completed() -> None:
    setup = setup_for()
    declared = played(setup, [*EXAMPLE_BODIES[:7], {"trumps": "spades"}])
    deal = declared.deals[-1]
    assert deal.pending and deal.fact("trumps") == "spades" and deal.chooser == 3 and deal.tricks is None
    records = _records(setup, 7)
    completed = KIERKI.replay(setup, [*records, DealRecord(tricks=(3, 2, 4, 4), facts={"trumps": "spades"})])
    assert completed.deals[-1].scores == (75, 50, 100, 100) and completed.deals[-1].fact("trumps") == "spades"


def test_a_complete_deal_that_counts_no_tricks_is_not_pending() -> None:
    state = played(setup_for(), EXAMPLE_BODIES[:2])
    assert state.deals[-1].tricks is None and not state.deals[-1].pending


@pytest.mark.parametrize("number", range(1, 13))
def test_a_record_said_again_parses_to_itself(number: int) -> None:
    """``deal_input`` says a record as ``parse_deal`` takes it: a correction replaces fields in it."""
    setup = setup_for()
    record = KIERKI.parse_deal(setup, number, **LEGAL[number])
    assert KIERKI.parse_deal(setup, number, **KIERKI.deal_input(setup, record)) == record


def test_a_correction_replaces_a_field_then_checks_the_whole() -> None:
    setup = setup_for()
    old = KIERKI.parse_deal(setup, 7, **ROBBER_DEAL)
    said = {**KIERKI.deal_input(setup, old), "king_of_hearts": CELINA}
    record = KIERKI.parse_deal(setup, 7, **said)
    with raises("robber_inconsistent", "king_of_hearts"):  # Celina has no heart
        KIERKI.replay(setup, [*_records(setup, 6), record])


# -- properties: any legal game of any preset and player count ----------------------------------

SUITS = "cdhs"


def _deck(count: int) -> list[tuple[int, str]]:
    deck = [(rank, suit) for suit in SUITS for rank in range(2, 15)]
    if count == 3:
        deck.remove((2, "c"))  # the two of clubs leaves the 3-player game
    return deck


def _cards_played(rng: random.Random, count: int) -> DealRecord:
    """A robber as the cards could fall: the deck in tricks of ``count`` cards, each won by someone."""
    deck = _deck(count)
    rng.shuffle(deck)
    tricks_in_deal = len(deck) // count
    winners = [rng.randrange(count) for _ in range(tricks_in_deal)]
    tricks, hearts, queens, kings_jacks = ([0] * count for _ in range(4))
    king_of_hearts = -1
    for index, winner in enumerate(winners):
        tricks[winner] += 1
        for rank, suit in deck[index * count : (index + 1) * count]:
            hearts[winner] += suit == "h"
            queens[winner] += rank == 12
            kings_jacks[winner] += rank in (11, 13)
            if (rank, suit) == (13, "h"):
                king_of_hearts = winner
    return DealRecord(
        tricks=tuple(tricks),
        facts={
            "hearts": tuple(hearts),
            "queens": tuple(queens),
            "kings_jacks": tuple(kings_jacks),
            "king_of_hearts": king_of_hearts,
            "seventh_trick": winners[6],
            "last_trick": winners[-1],
        },
    )


def _split(rng: random.Random, total: int, count: int) -> tuple[int, ...]:
    cuts = sorted(rng.randint(0, total) for _ in range(count - 1))
    bounds = [0, *cuts, total]
    return tuple(bounds[i + 1] - bounds[i] for i in range(count))


def legal_record(rng: random.Random, contract: str, count: int) -> DealRecord:
    """A complete, legal deal of ``contract`` at a table of ``count``."""
    robber = _cards_played(rng, count)
    if contract == "robber":
        return robber
    tricks_in_deal = 13 if count == 4 else 17
    if contract == "no-tricks":
        return DealRecord(tricks=_split(rng, tricks_in_deal, count))
    if contract == "no-hearts":
        return DealRecord(facts={"hearts": _split(rng, 13, count)})
    if contract == "no-queens":
        return DealRecord(facts={"queens": _split(rng, 4, count)})
    if contract == "no-kings-jacks":
        return DealRecord(facts={"kings_jacks": _split(rng, 8, count)})
    if contract == "no-king-of-hearts":
        return DealRecord(facts={"king_of_hearts": rng.randrange(count)})
    if contract == "no-seventh-last":
        return DealRecord(facts={"seventh_trick": rng.randrange(count), "last_trick": rng.randrange(count)})
    if contract == "trumps":
        return DealRecord(
            tricks=_split(rng, tricks_in_deal, count),
            facts={"trumps": rng.choice(["clubs", "diamonds", "hearts", "spades"])},
        )
    first, second = rng.sample(range(count), 2)
    return DealRecord(facts={"places": (first, second)})


@st.composite
def legal_game(draw: st.DrawFn) -> tuple[GameSetup, list[DealRecord]]:
    preset = draw(st.sampled_from([p.id for p in PRESETS]))
    count = 4 if preset == "short" else draw(st.sampled_from([3, 4]))
    first = draw(st.integers(0, count - 1))
    setup = setup_for(_players(count), first=PLAYERS[first], preset=preset)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return setup, [legal_record(rng, contract, count) for contract in KIERKI.order_of(setup)]


@FAST
@given(legal_game())
def test_any_legal_game_adds_up_to_zero_and_to_the_negative_part(
    game: tuple[GameSetup, list[DealRecord]],
) -> None:
    setup, records = game
    count = len(setup.players)
    state = KIERKI.replay(setup, records)
    assert state.finished and state.deal_count == len(records) == KIERKI.deals_in(setup)
    assert sum(state.totals) == 0
    split = KIERKI.negative_part(setup)
    after_negative = state.deals[split - 1].totals
    assert after_negative is not None
    assert sum(after_negative) == -PARTS[(KIERKI.preset_of(setup).id, count)]
    for deal in state.deals:
        assert deal.scores is not None and sum(deal.scores) == KIERKI.amount_of(setup, deal.contract)
        assert all(score <= 0 for score in deal.scores) == (deal.number <= split)
        assert deal.dealer == (setup.first_dealer + deal.number - 1) % count
        assert deal.chooser == (deal.dealer if deal.contract == "trumps" else None)


@FAST
@given(legal_game())
def test_a_legal_game_recorded_deal_by_deal_is_the_game_replayed(
    game: tuple[GameSetup, list[DealRecord]],
) -> None:
    setup, records = game
    state = KIERKI.replay(setup, [])
    for number, record in enumerate(records, start=1):
        said = KIERKI.deal_input(setup, record)
        assert KIERKI.parse_deal(setup, number, **said) == replace(
            record, contract=KIERKI.contract_of(setup, number)
        )
        assert state.next_deal is not None and state.next_deal.fields == KIERKI.fields_for(setup, number)
        state = KIERKI.extend(state, [record])
    assert state == KIERKI.replay(setup, records)


@FAST
@given(st.integers(0, 2**32), st.sampled_from([3, 4]))
def test_r1_to_r3_never_refuse_cards_that_could_fall(seed: int, count: int) -> None:
    """R1-R3 are necessary conditions: a robber dealt and taken card by card always meets them."""
    setup = setup_for(_players(count), preset="short" if count == 4 and seed % 2 else "standard")
    number = KIERKI.order_of(setup).index("robber") + 1
    start = KIERKI.replay(
        setup,
        [
            legal_record(random.Random(seed + n), c, count)
            for n, c in enumerate(KIERKI.order_of(setup)[: number - 1])
        ],
    )
    state = KIERKI.extend(start, [_cards_played(random.Random(seed), count)])
    assert state.deals[-1].scores is not None


def test_deal_amount_is_what_the_values_make() -> None:
    full = KIERKI.values_of(setup_for())
    assert deal_amount(full, 13, "robber") == -1300
    assert deal_amount(full, 13, "fan-tan") == 1300


def test_what_each_player_took_per_contract() -> None:
    """``taken``: the count a contract counts (the player page's figure per contract)."""
    state = played(setup_for(), [body for body, *_ in EXAMPLE])
    took = [KIERKI.taken(deal) for deal in state.deals]
    assert took[:7] == [
        (2, 5, 0, 6),  # tricks
        (4, 0, 7, 2),  # hearts
        (1, 2, 0, 1),  # queens
        (3, 1, 2, 2),  # kings and jacks
        (0, 0, 1, 0),  # Celina took the king of hearts
        (0, 1, 0, 1),  # the 7th (Bartek) and the last trick (Darek)
        (3, 4, 2, 4),  # the robber: tricks
    ]
    assert took[7] == (3, 2, 4, 4)  # a trump deal: tricks
    assert took[11] == (1, 0, 1, 0)  # the Fan Tan: Celina and Ala out first and second
    assert KIERKI.taken_or_not("no-king-of-hearts") and KIERKI.taken_or_not("fan-tan")
    assert not KIERKI.taken_or_not("trumps")
    pending = KIERKI.replay(
        setup_for(), [*state_records(state)[:7], DealRecord(contract="trumps", facts={"trumps": "clubs"})]
    )
    assert KIERKI.taken(pending.deals[-1]) is None


def state_records(state: GameState) -> list[DealRecord]:
    return [KIERKI.parse_deal(state.setup, n, **body) for n, (body, *_) in enumerate(EXAMPLE, start=1)]
