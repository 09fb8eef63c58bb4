"""A worker keeps the snapshot each of its writes leaves (``store.snapshot_for_write``).

The game's next write then reads one row (version, time of last write, key hash) instead of
the game and its replay; recording a deal or its tricks reads nothing, and claims the game
only if its row is still the copy's.  It must never work from a copy that is no longer the
game: another worker's write, a rename, a merge, or a database changed behind the app's back.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from flask import Flask
from perf_support import DEALS, PLAYERS, StatementCounter, is_full_read, new_game
from sqlalchemy import func, select, update

from scorekeeper import create_app, services, stats
from scorekeeper.extensions import db
from scorekeeper.models import Deal, DealResult, Game, utcnow
from scorekeeper.rules import DealRecord
from scorekeeper.services import store
from scorekeeper.services.deals import deal_values
from tests.perf.test_write_path import WRITE_BUDGET, by_name, driver_commands, post_deal
from tests.stats.checks import assert_figures_match

STAMP = "SELECT games.version, games.updated_at, games.edit_key_hash FROM games WHERE games.id = "


def assert_kept_is_the_game(app: Flask, game_id: str) -> None:
    """What the next write would start from equals the game read and replayed afresh."""
    with app.app_context():
        start = store.snapshot_for_write(game_id)
        afresh = store.snapshot(game_id)
        assert start == afresh
        assert start.setup.players == afresh.setup.players
        if start.figures is not None:  # carried from the write: the rows the tables now hold
            assert start.figures == stats.figures(
                afresh.state, game_id=game_id, player_ids=afresh.player_ids, played_on=afresh.played_on
            )
        db.session.remove()


def test_the_next_deal_reads_nothing_and_claims_the_row_as_kept(app: Flask, backend: str) -> None:
    counter = StatementCounter(app, whole=True)
    new_game(app, 1)  # the players' totals exist
    game_id, key = new_game(app, 2)
    with counter.counting() as statements:
        response = post_deal(app.test_client(), game_id, key, 3)
    assert response.status_code == 201, response.get_data(as_text=True)
    claim = statements[0]
    assert claim.startswith("WITH step_0 AS (UPDATE games" if backend == "postgresql" else "UPDATE games"), (
        claim
    )
    for column in ("version", "updated_at", "edit_key_hash"):
        assert f"games.{column} = " in claim.split("RETURNING")[0], claim
    assert not any(statement.startswith("SELECT") for statement in statements), statements
    # The claim, the deal and its figures (on PostgreSQL in one statement).
    assert len(statements) == (1 if backend == "postgresql" else WRITE_BUDGET - 1), statements
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()


def test_a_write_that_names_a_version_reads_the_row_first(app: Flask) -> None:
    """``If-Match``, a correction of several deals, an undo: each needs the game as it is."""
    game_id, key = new_game(app, 3)
    client = app.test_client()
    auth = {"Authorization": f"Bearer {key}"}
    writes = [
        ("PUT", "/deals/3", {"tricks": by_name((13, 0, 0))}, {"If-Match": '"v3"'}),
        ("PATCH", "/deals", {"deals": [{"number": 2, "tricks": by_name((5, 4, 4))}]}, {}),
        ("DELETE", "/deals/3", None, {}),
    ]
    for method, path, body, headers in writes:
        with StatementCounter(app, whole=True).counting() as statements:
            response = client.open(
                f"/api/v1/games/{game_id}{path}", method=method, json=body, headers={**auth, **headers}
            )
        assert response.status_code in (200, 204), (path, response.get_data(as_text=True))
        assert statements[0].startswith(STAMP), (path, statements)
        assert_kept_is_the_game(app, game_id)


def test_a_worker_that_keeps_nothing_reads_the_game(app: Flask) -> None:
    game_id, key = new_game(app, 2)
    other = create_app({**app.config, "SNAPSHOT_CACHE_SIZE": 0})
    counter = StatementCounter(other, whole=True)
    with counter.counting() as statements:
        response = post_deal(other.test_client(), game_id, key, 3)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert is_full_read(statements[0]), statements[0]
    with other.app_context():
        db.engine.dispose()


def test_after_every_kind_of_write_the_kept_snapshot_is_the_game(app: Flask) -> None:
    client = app.test_client()
    created = client.post(
        "/api/v1/games", json={"ruleset": "mizerka", "players": PLAYERS, "first_dealer": PLAYERS[0]}
    )
    assert created.status_code == 201
    game_id, key = created.json["id"], created.json["edit_key"]  # type: ignore[index]
    auth = {"Authorization": f"Bearer {key}"}
    assert_kept_is_the_game(app, game_id)
    for number in range(1, 5):
        assert post_deal(client, game_id, key, number).status_code == 201
        assert_kept_is_the_game(app, game_id)
    pending = client.post(
        f"/api/v1/games/{game_id}/deals", json={"number": 5, "contract": DEALS[4][0]}, headers=auth
    )
    assert pending.status_code == 201, pending.json
    assert_kept_is_the_game(app, game_id)
    steps = [
        ("PUT", "/deals/5", {"tricks": by_name(DEALS[4][1])}),
        ("PUT", "/deals/2", {"tricks": by_name((13, 0, 0))}),
        (
            "PATCH",
            "/deals",
            {"deals": [{"number": 1, "tricks": by_name((5, 4, 4))}, {"number": 3, "contract": "spades"}]},
        ),
        ("DELETE", "/deals/5", None),
    ]
    for method, path, body in steps:
        response = client.open(f"/api/v1/games/{game_id}{path}", method=method, json=body, headers=auth)
        assert response.status_code in (200, 204), (path, response.get_data(as_text=True))
        assert_kept_is_the_game(app, game_id)
    with app.app_context():
        assert_figures_match(game_id)
        db.session.remove()


def test_a_rename_or_a_merge_is_never_hidden_by_a_kept_copy(app: Flask) -> None:
    game_id, key = new_game(app, 3)
    with app.app_context():
        ann = services.find_player("Ann")
        services.rename_player(ann.id, "Anna")
        db.session.remove()
    counter = StatementCounter(app, whole=True)
    with counter.counting() as statements:
        response = post_deal(app.test_client(), game_id, key, 4)
    # The deal names its players: "Ann" is no longer one of them, so the deal is refused, and the
    # refusal was worked out on the game as it is now (read afresh), not on the kept copy.
    assert any(is_full_read(statement) for statement in statements), statements
    assert response.status_code == 422, response.get_data(as_text=True)
    assert "Ann" in response.get_data(as_text=True)
    assert_kept_is_the_game(app, game_id)
    contract, tricks = DEALS[3]
    renamed = {"Cid": tricks[0], "Anna": tricks[1], "Bob": tricks[2]}
    response = app.test_client().post(
        f"/api/v1/games/{game_id}/deals",
        data=json.dumps({"number": 4, "contract": contract, "tricks": renamed}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    assert list(response.json["scores"]) == ["Cid", "Anna", "Bob"]  # type: ignore[index]
    # A merge moves the game's seat to another person: the next write must score that person.
    with app.app_context():
        services.create_game("mizerka", ["Dee", "Eve", "Fay"], "Dee")
        dee, bob = services.find_player("Dee"), services.find_player("Bob")
        services.merge_players(duplicate_id=bob.id, keep_id=dee.id)
        db.session.remove()
    assert_kept_is_the_game(app, game_id)
    with app.app_context():
        assert services.get_game(game_id).setup.players == ("Cid", "Anna", "Dee")
        written = services.record_deal(game_id, number=5, contract=DEALS[4][0], tricks=list(DEALS[4][1]))
        assert written.setup.players == ("Cid", "Anna", "Dee")
        assert_figures_match(game_id)
        db.session.remove()


def test_another_workers_write_is_read_not_the_kept_copy(app: Flask) -> None:
    game_id, key = new_game(app, 2)  # this worker keeps the game after deal 2
    other = create_app({**app.config})
    with other.app_context():
        services.record_deal(game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]))
        db.session.remove()
    counter = StatementCounter(app, whole=True)
    with counter.counting() as statements:
        response = post_deal(app.test_client(), game_id, key, 4)
    assert response.status_code == 201, response.get_data(as_text=True)
    # Deal 4 is refused on the kept copy (its next deal is 3): the game is read at once (no
    # question to its row first) and the deal worked out again on it, where 4 is the next one.
    assert is_full_read(statements[0]), statements[:2]
    assert not any(statement.startswith(STAMP) for statement in statements), statements
    # Worked out on the new state at once: the claim went through, no lock and second read.
    assert sum(is_full_read(statement) for statement in statements) == 1, statements
    with app.app_context():
        assert [deal.number for deal in services.get_game(game_id).state.deals] == [1, 2, 3, 4]
        assert_figures_match(game_id)
        db.session.remove()
    with other.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("behind", ["another worker wrote", "nothing kept"])
def test_a_deal_read_afresh_goes_without_begin_and_commit(app: Flask, backend: str, behind: str) -> None:
    """The game read for a write (its copy one write behind, or none kept) and the write after it:
    on PostgreSQL each its own transaction, no BEGIN or COMMIT round trip around either.  The
    claim checks that the row is still the one read."""
    game_id, key = new_game(app, 2)
    writer = app
    if behind == "nothing kept":
        writer = create_app({**app.config, "SNAPSHOT_CACHE_SIZE": 0})
        assert writer.test_client().get("/healthz").status_code == 200  # its connection set up first
        number = 3
    else:
        with create_app({**app.config}).app_context():
            services.record_deal(game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]))
            db.session.remove()
            db.engine.dispose()
        number = 4
    commands: list[bytes] = []
    with StatementCounter(writer, whole=True).counting() as statements, driver_commands(commands):
        response = post_deal(writer.test_client(), game_id, key, number)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert is_full_read(statements[0]), statements
    if backend == "postgresql":
        assert len(statements) == 2 and statements[1].startswith("WITH step_0 AS (UPDATE games"), statements
        assert commands == [], commands
    else:
        assert len(statements) == WRITE_BUDGET, statements
    with app.app_context():
        assert [deal.number for deal in services.get_game(game_id).state.deals] == list(range(1, number + 1))
        assert_figures_match(game_id)
        db.session.remove()
    if writer is not app:
        with writer.app_context():
            db.engine.dispose()


def test_a_game_changed_behind_the_apps_back_is_read_again(app: Flask) -> None:
    """A database restored from a backup, or mended by hand, may hold the version the kept copy
    has with other deals: the time of the last write tells them apart."""
    game_id, _key = new_game(app, 3)
    with app.app_context():
        kept_version = store.snapshot_for_write(game_id).version
        db.session.execute(
            update(Deal).where(Deal.game_id == game_id, Deal.number == 3).values(tricks=[13, 0, 0])
        )
        db.session.execute(update(Game).where(Game.id == game_id).values(updated_at=utcnow()))
        db.session.commit()
        start = store.snapshot_for_write(game_id)
        assert start.version == kept_version
        assert start.state.deals[2].tricks == (13, 0, 0)
        db.session.remove()


def test_the_edit_key_is_checked_against_the_stored_hash_never_the_kept_one(app: Flask) -> None:
    game_id, key = new_game(app, 2)
    with app.app_context():
        hashed = services.hash_key("another key")
        db.session.execute(update(Game).where(Game.id == game_id).values(edit_key_hash=hashed))
        db.session.commit()
        db.session.remove()
    refused = post_deal(app.test_client(), game_id, key, 3)
    assert refused.status_code == 403, refused.get_data(as_text=True)
    assert refused.json["error"]["code"] == "bad_key"  # type: ignore[index]
    assert post_deal(app.test_client(), game_id, "another key", 3).status_code == 201


def test_a_preview_or_a_refusal_leaves_the_kept_snapshot_as_it_was(app: Flask) -> None:
    game_id, key = new_game(app, 2)
    with app.app_context():
        before = store.snapshot_for_write(game_id)
        db.session.remove()
    client = app.test_client()
    auth = {"Authorization": f"Bearer {key}"}
    contract, tricks = DEALS[2]
    preview = client.post(
        f"/api/v1/games/{game_id}/deals?dry_run=true",
        json={"number": 3, "contract": contract, "tricks": by_name(tricks)},
        headers=auth,
    )
    assert preview.status_code == 200
    wrong = client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"number": 3, "contract": contract, "tricks": by_name((13, 1, 0))},
        headers=auth,
    )
    assert wrong.status_code == 422, wrong.get_data(as_text=True)
    with app.app_context():
        assert store.snapshot_for_write(game_id) is before or store.snapshot_for_write(game_id) == before
        assert len(store.snapshot(game_id).state.deals) == 2
        db.session.remove()
    assert_kept_is_the_game(app, game_id)


def test_creating_a_game_reads_its_people_once_and_writes_in_one_statement_on_postgresql(
    app: Flask, backend: str
) -> None:
    new_game(app, 0)  # the people exist
    counter = StatementCounter(app, whole=True)
    with counter.counting() as statements:
        response = app.test_client().post(
            "/api/v1/games", json={"ruleset": "mizerka", "players": PLAYERS, "first_dealer": "Ann"}
        )
    assert response.status_code == 201, response.get_data(as_text=True)
    assert statements[0].startswith("SELECT players.id, players.name, players.name_key FROM players")
    if backend == "postgresql":
        assert len(statements) == 2, statements
        assert statements[1].startswith("WITH step_0 AS (INSERT INTO games"), statements[1]
    else:
        assert [statement.split(" (")[0] for statement in statements[1:]] == [
            "INSERT INTO games",
            "INSERT INTO seats",
            "INSERT INTO game_results",
        ], statements
    game_id = response.json["id"]  # type: ignore[index]
    assert_kept_is_the_game(app, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        assert game.setup.players == tuple(PLAYERS) and game.version == 0
        assert game.created_at == game.updated_at
        assert_figures_match(game_id)
        db.session.remove()


def test_a_finished_game_is_not_kept(app: Flask) -> None:
    game_id, key = new_game(app, 17)
    with app.app_context():
        assert store._kept().get(game_id) is not None
        db.session.remove()
    assert post_deal(app.test_client(), game_id, key, 18).status_code == 201
    with app.app_context():
        assert store._kept().get(game_id) is None
        assert store.snapshot_for_write(game_id).state.finished
        db.session.remove()


def test_a_deal_sent_without_its_number_after_another_workers_write_is_the_next_one(
    app: Flask, backend: str
) -> None:
    """The kept copy would make it deal 3; its claim fails, writes nothing, and the game as it is
    makes it deal 4 in the same transaction."""
    game_id, key = new_game(app, 2)
    other = create_app({**app.config})
    with other.app_context():
        services.record_deal(game_id, number=3, contract=DEALS[2][0], tricks=list(DEALS[2][1]))
        db.session.remove()
    contract, tricks = DEALS[3]
    with StatementCounter(app, whole=True).counting() as statements:
        response = app.test_client().post(
            f"/api/v1/games/{game_id}/deals",
            json={"contract": contract, "tricks": by_name(tricks)},
            headers={"Authorization": f"Bearer {key}"},
        )
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.json["number"] == 4  # type: ignore[index]
    claims = [statement for statement in statements if "UPDATE games SET version" in statement]
    assert len(claims) == 2 and sum(is_full_read(statement) for statement in statements) == 1, statements
    with app.app_context():
        game = services.get_game(game_id)
        assert [deal.number for deal in game.state.deals] == [1, 2, 3, 4]
        assert game.records[2] == store.records_of([DealRecord(DEALS[2][0], None, DEALS[2][1])])[0]
        assert_figures_match(game_id)
        db.session.remove()
    assert_kept_is_the_game(app, game_id)
    with other.app_context():
        db.engine.dispose()


def test_a_failed_claim_writes_nothing_and_the_transaction_goes_on(app: Flask, backend: str) -> None:
    game_id, _key = new_game(app, 2)
    with app.app_context():
        kept = store.snapshot_for_write(game_id, trusted=True)
        assert not kept.checked
        stale_copy = replace(kept, version=kept.version - 1)
        after = kept.ruleset.extend(kept.state, [DealRecord(DEALS[2][0], None, DEALS[2][1])])
        change = store.Change(
            after,
            3,
            store.ADD_DEAL,
            {"game_id": game_id, "number": 3, **deal_values(after.deals[-1], DEALS[2][0])},
        )
        assert store._make(stale_copy, change, claim=utcnow()) is None
        # Nothing of the deal or its figures was written, and the transaction still works.
        assert db.session.scalar(select(func.count()).select_from(Deal).where(Deal.game_id == game_id)) == 2
        assert db.session.scalar(
            select(func.count()).select_from(DealResult).where(DealResult.game_id == game_id)
        ) == 2 * len(PLAYERS)
        assert store._make(kept, change, claim=utcnow()) is not None
        db.session.commit()
        assert [deal.number for deal in store.snapshot(game_id).state.deals] == [1, 2, 3]
        assert_figures_match(game_id)
        db.session.remove()


def test_a_trusted_copy_whose_key_changed_by_hand_writes_nothing(app: Flask) -> None:
    """The key matches the kept copy's hash; the claim finds another on the row and refuses.

    (A phone's pages hold the pencil in its keyring, not by the key: the bearer's key alone is
    concerned here.)
    """
    game_id, key = new_game(app, 2)
    with app.app_context():
        db.session.execute(
            update(Game).where(Game.id == game_id).values(edit_key_hash=services.hash_key("new"))
        )
        db.session.commit()
        db.session.remove()
    contract, _tricks = DEALS[2]
    response = post_deal(app.test_client(), game_id, key, 3)
    assert response.status_code == 403, response.get_data(as_text=True)
    assert contract
    with app.app_context():
        assert len(store.snapshot(game_id).state.deals) == 2
        db.session.remove()
