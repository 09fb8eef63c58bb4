"""A deal's facts as a mapping (``DealRecord.facts``, ``DealState.facts``): what a ruleset declares,
kept and stored whatever the game, and whether a deal is pending asked of its ruleset."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import (
    TRICKS,
    DealRecord,
    Facts,
    every_fact,
    facts_from_stored,
    get_ruleset,
    stored_facts,
)
from scorekeeper.rules.kierki import KIERKI


def test_a_record_takes_its_facts_as_a_dict_and_keeps_them_frozen_and_hashable() -> None:
    record = DealRecord(contract="no-queens", tricks=None, facts={"queens": (1, 0, 1, 2)})
    assert isinstance(record.facts, Facts)
    assert record.fact("queens") == (1, 0, 1, 2) and record.fact("hearts") is None
    assert record == DealRecord(contract="no-queens", facts=Facts({"queens": (1, 0, 1, 2)}))
    assert hash(record) == hash(DealRecord(contract="no-queens", facts={"queens": (1, 0, 1, 2)}))
    assert len({record, DealRecord(contract="no-queens", facts={"queens": (1, 0, 1, 2)})}) == 1
    # A fact given as None is no fact; the tricks are read as a fact too.
    assert DealRecord(facts={"hearts": None}) == DealRecord()
    assert DealRecord(tricks=(13, 0, 0, 0)).fact("tricks") == (13, 0, 0, 0)
    with pytest.raises(TypeError):
        record.facts["queens"] = (4, 0, 0, 0)  # type: ignore[index]


def test_facts_are_stored_as_json_and_read_back_as_kept_whatever_their_shape() -> None:
    # Barbu-like doubles: a list of (by, against, redoubled), kept as tuples, stored as lists.
    doubles = ((0, 2, False), (1, 3, True))
    record = DealRecord(facts={"king_of_hearts": 2, "trumps": "spades", "doubles": doubles, "places": (1, 0)})
    stored = stored_facts(record)
    assert stored == {
        "doubles": [[0, 2, False], [1, 3, True]],
        "king_of_hearts": 2,
        "places": [1, 0],
        "trumps": "spades",
    }
    read = facts_from_stored(
        json.loads(json.dumps(stored)), ("doubles", "king_of_hearts", "places", "trumps")
    )
    assert DealRecord(facts=read) == record
    # Only the facts its game declares are read back; a deal without any stores none.
    assert facts_from_stored(stored, ("places",)) == {"places": (1, 0)}
    assert stored_facts(DealRecord(tricks=(4, 3, 3, 3))) is None


def test_pending_is_the_rulesets_to_say_from_its_declarations() -> None:
    mizerka = get_ruleset("mizerka")
    assert mizerka.is_pending(DealRecord(contract="hearts"))
    assert not mizerka.is_pending(DealRecord(contract="hearts", tricks=(4, 4, 5)))
    declared = [fact.id for fact in KIERKI.deal_facts if fact.declared]
    assert declared == ["trumps"]
    assert KIERKI.is_pending(DealRecord(facts={"trumps": "clubs"}))
    for fact in KIERKI.deal_facts:
        if not fact.declared and fact is not TRICKS:
            value = (1,) * 4 if fact.kind in ("count", "order") else 0
            assert not KIERKI.is_pending(DealRecord(facts={fact.id: value})), fact.id


def test_every_fact_lists_the_registered_games_facts_in_their_order() -> None:
    kierki = [fact.id for fact in KIERKI.deal_facts if fact is not TRICKS]
    # Then the facts Barbu adds to Kierki's (registered after it): its own, in its order.
    barbu = [fact.id for fact in get_ruleset("barbu").deal_facts if fact is not TRICKS]
    assert list(every_fact()) == kierki + [name for name in barbu if name not in kierki]
    assert [name for name in barbu if name not in kierki] == ["ace_of_hearts", "penultimate_trick", "doubles"]
    assert KIERKI.all_facts == KIERKI.deal_facts and get_ruleset("misere").all_facts == (TRICKS,)
