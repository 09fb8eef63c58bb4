"""The stored figures always equal the replay: after any sequence of records, corrections and undos."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameResult
from scorekeeper.rules import RuleError
from tests.stats.checks import assert_figures_match

tricks = st.tuples(st.integers(0, 13), st.integers(0, 13)).map(
    lambda cut: (min(cut), max(cut) - min(cut), 13 - max(cut))
)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 5), tricks, st.booleans()),
        st.tuples(st.just("tricks"), tricks),
        st.tuples(st.just("correct"), st.integers(0, 17), tricks, st.integers(0, 5)),
        st.tuples(st.just("undo")),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=operations)
def test_stored_figures_equal_the_replay(app: Flask, steps: list[tuple[Any, ...]]) -> None:
    with app.app_context():
        loaded, _key = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Cid")
        game_id = loaded.id
        assert_figures_match(game_id)
        for step in steps:
            state = services.get_game(game_id).state
            try:
                if step[0] == "record" and state.next_deal is not None:
                    _, choice, split, with_tricks = step
                    options = state.next_deal.available_contracts
                    services.record_deal(
                        game_id,
                        number=state.next_deal.number,
                        contract=options[choice % len(options)],
                        tricks=list(split) if with_tricks else None,
                    )
                elif step[0] == "tricks" and state.pending_deal is not None:
                    services.update_deal(game_id, state.pending_deal.number, tricks=list(step[1]))
                elif step[0] == "correct" and state.deals:
                    _, index, split, contract = step
                    deal = state.deals[index % len(state.deals)]
                    # Any contract: one the chooser already used elsewhere is refused, and nothing changes.
                    services.update_deal(
                        game_id,
                        deal.number,
                        contract=["clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"][contract],
                        tricks=None if deal.pending else list(split),
                    )
                elif step[0] == "undo" and state.deals:
                    services.undo_deal(game_id, state.deals[-1].number)
            except RuleError:
                pass
            assert_figures_match(game_id)
        db.session.remove()


def test_rebuild_restores_tampered_figures(app: Flask) -> None:
    from sqlalchemy import update

    with app.app_context():
        loaded, _ = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")
        services.record_deal(loaded.id, number=1, contract="hearts", tricks=[1, 9, 3])
        db.session.execute(update(GameResult).values(total=99))
        db.session.commit()
        assert services.rebuild_results() == 1
        assert_figures_match(loaded.id)


def test_rebuild_stats_command(app: Flask) -> None:
    with app.app_context():
        services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")
        db.session.remove()
    result = app.test_cli_runner().invoke(args=["rebuild-stats"])
    assert result.exit_code == 0, result.output
    assert "Rebuilt the figures of 1 games." in result.output


def test_an_imported_game_gets_its_figures(app: Flask) -> None:
    from scorekeeper import transfer
    from tests.helpers import MIZERKA_DEALS

    with app.app_context():
        loaded, _ = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Cid")
        for deal in MIZERKA_DEALS[:5]:
            services.record_deal(
                loaded.id, number=deal.number, contract=deal.contract, tricks=list(deal.tricks)
            )
        exported = transfer.export_game(services.get_game(loaded.id))
        copy, _key = transfer.import_game(exported)
        assert_figures_match(copy.id)
        db.session.remove()
