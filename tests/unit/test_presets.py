"""House rules in the Ruleset interface (RULES.md "House rules (every ruleset)")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from scorekeeper.rules import (
    RULESETS,
    Contract,
    DealRecord,
    DealState,
    GameSetup,
    OptionSpec,
    RuleError,
    Ruleset,
    get_ruleset,
)
from scorekeeper.rules.kierki import KIERKI
from scorekeeper.rules.state import Preset

MIZERKA = get_ruleset("mizerka")
MISERE = get_ruleset("misere")


def test_mizerka_has_one_preset_the_table_does_not_choose() -> None:
    assert [p.id for p in MIZERKA.presets] == ["standard"]
    assert MIZERKA.preset_option is None
    setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Ann")
    assert setup.options == ()  # nothing new stored for Mizerka
    assert MIZERKA.preset_of(setup).id == "standard"


def test_the_misere_scoring_option_is_its_preset_choice() -> None:
    assert [p.id for p in MISERE.presets] == ["standard", "variant"]
    assert MISERE.preset_option == "scoring"
    [scoring] = MISERE.options
    assert scoring.choices == tuple((p.id, p.label) for p in MISERE.presets)
    assert all(p.summary for p in MISERE.presets)
    for choice in ("standard", "variant"):
        setup = MISERE.make_setup(["P", "Q", "R", "S"], "P", {"scoring": choice})
        assert setup.options_dict == {"scoring": choice}
        assert MISERE.preset_of(setup).id == choice
    assert MISERE.preset_of(MISERE.make_setup(["P", "Q", "R", "S"], "P")).id == "standard"


def test_each_ruleset_says_its_player_counts_and_presets_per_count() -> None:
    assert [(r.id, r.seat_counts) for r in RULESETS.values()] == [
        ("mizerka", (3,)),
        ("misere", (4,)),
        ("kierki", (3, 4)),
        ("barbu", (4,)),
    ]
    assert [p.id for p in KIERKI.presets_for(4)] == ["standard", "no-fan-tan", "no-robber", "short"]
    assert [p.id for p in KIERKI.presets_for(3)] == ["standard", "no-fan-tan", "no-robber"]
    assert MIZERKA.presets_for(3) == MIZERKA.presets
    assert MISERE.presets_for(4) == MISERE.presets
    assert MISERE.presets_for(3) == MISERE.presets  # no preset of the Misère names a count


def test_kierki_is_offered_and_other_games_are_not() -> None:
    assert get_ruleset("kierki") is KIERKI
    with pytest.raises(RuleError):
        get_ruleset("kierki-short")


def test_games_of_tricks_alone_keep_their_next_deal_and_schedule_shape() -> None:
    setup = MIZERKA.make_setup(["Ann", "Bob", "Cid"], "Ann")
    state = MIZERKA.replay(setup, [])
    assert state.next_deal is not None and state.next_deal.fields == ()
    assert all(deal.fields == () for deal in MIZERKA.schedule(setup))
    assert MIZERKA.tricks_per_deal(setup) == 13
    assert (MIZERKA.most_deals, MISERE.most_deals) == (18, 8)


def test_a_deal_is_pending_until_a_result_is_in() -> None:
    assert KIERKI.is_pending(DealRecord())
    # a declaration is no result
    assert KIERKI.is_pending(DealRecord(contract="trumps", facts={"trumps": "spades"}))
    assert not KIERKI.is_pending(DealRecord(tricks=(13, 0, 0, 0)))
    assert not KIERKI.is_pending(DealRecord(facts={"hearts": (13, 0, 0, 0)}))
    assert not KIERKI.is_pending(DealRecord(facts={"king_of_hearts": 0}))
    assert not KIERKI.is_pending(DealRecord(facts={"places": (0, 1)}))
    setup = KIERKI.make_setup(["Ann", "Bob", "Cid", "Dan"], "Ann")
    first = DealRecord(tricks=(4, 3, 3, 3))
    deal = KIERKI.replay(setup, [first, DealRecord()]).deals[-1]
    assert deal.contract == "no-hearts" and deal.pending
    assert not KIERKI.replay(setup, [first, DealRecord(facts={"hearts": (13, 0, 0, 0)})]).deals[-1].pending


@dataclass(frozen=True)
class _Two(Ruleset):
    """A ruleset whose declaration of presets is checked when it is built."""

    def parse_contract(self, setup: GameSetup, number: int, contract: object) -> str | None:
        return "a"

    def parse_bids(self, setup: GameSetup, number: int, bids: object) -> tuple[int, ...] | None:
        return None

    def quotas_for(
        self, roles: Sequence[str], contract: str, bids: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        return None

    def remaining_for(self, setup: GameSetup, deals: Sequence[DealState]) -> tuple[tuple[str, ...], ...]:
        return ()


A, B = Preset("a", "A"), Preset("b", "B", player_counts=(4,))
OPTION = OptionSpec("house", "House", (("a", "A"), ("b", "B")))


def _two(**changes: object) -> _Two:
    fields: dict[str, object] = {
        "id": "two",
        "name": "Two",
        "player_count": 4,
        "deal_count": 1,
        "contracts": (Contract("a", "A", None),),
        "options": (OPTION,),
        "presets": (A, B),
        "preset_option": "house",
        "player_counts": (3, 4),
    }
    fields.update(changes)
    return _Two(**fields)  # type: ignore[arg-type]


def test_a_ruleset_declares_its_presets_as_the_option_s_choices() -> None:
    two = _two()
    assert two.preset_of(GameSetup("two", ("1", "2", "3", "4"), 0, (("house", "b"),))) == B
    assert two.preset_of(GameSetup("two", ("1", "2", "3", "4"), 0, ())) == A  # the first is the default
    assert two.presets_for(3) == (A,)
    with pytest.raises(RuleError) as info:
        two.make_setup(["1", "2", "3"], "1", {"house": "b"})
    assert (info.value.code, info.value.field) == ("invalid_options", "options")
    assert info.value.message == "B is for 4 players only (this game has 3)."


@pytest.mark.parametrize(
    "changes",
    [
        {"options": (OptionSpec("house", "House", (("b", "B"), ("a", "A"))),)},  # not the presets' order
        {"preset_option": None},  # several presets, nothing to choose them by
        {"player_counts": (3,)},  # the default game's count is not a count of the game
    ],
)
def test_a_ruleset_that_declares_its_presets_wrongly_is_not_built(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _two(**changes)
