"""Ratings (CLUB.md "Rating"): OpenSkill's Plackett-Luce over every finished game of a game and house
rule, in the order the games finished, kept by the writes that change them.

The expected ratings are computed here from ``openskill`` itself, game by game in the order the test
finished them, never read back from the app's own computation."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import create_app, services, transfer
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player
from scorekeeper.stats import ratings
from scorekeeper.stats.ratings import NEW, Rated
from scorekeeper.stored_figures import RatedGames, Rating
from tests.conftest import make_test_app
from tests.helpers import kierki_games, parse_html
from tests.perf.perf_support import DEALS

OPENSKILL = PlackettLuce()
# DEALS, as perf_support plays them, leave the seats (0, 1, 2) on +3, +3, -6: places 1, 1, 3.  Deal 18
# corrected to 13 tricks for one seat moves the places (tests below).
TIED_FIRST = (1, 1, 3)


def by_openskill(games: list[list[tuple[str, int]]]) -> dict[str, tuple[float, float, int]]:
    """Every player's (mu, sigma, games) after ``games`` (names and places by seat), in their order,
    rated by openskill's own ``rate``."""
    found: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for seats in games:
        teams = [[found.get(name) or OPENSKILL.rating()] for name, _place in seats]
        after = OPENSKILL.rate(teams, ranks=[place for _name, place in seats])
        for (name, _place), team in zip(seats, after, strict=True):
            found[name] = team[0]
            counts[name] = counts.get(name, 0) + 1
    return {name: (rating.mu, rating.sigma, counts[name]) for name, rating in found.items()}


def stored(rating: str = "mizerka/standard") -> dict[str, tuple[float, float, int]]:
    db.session.expire_all()
    rows = db.session.execute(
        select(Player.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.rating == rating)
    )
    return {row.name: (row.mu, row.sigma, row.games) for row in rows}


def play(players: list[str], deals: int = 18) -> str:
    """A Mizerka game of ``players`` (in seat order, the first dealing first) with the first ``deals``
    of DEALS recorded: finished at 18."""
    loaded, _key = services.create_game("mizerka", players, players[0])
    for number, (contract, tricks) in enumerate(DEALS[:deals], start=1):
        services.record_deal(
            loaded.id, number=number, contract=contract, tricks=dict(zip(players, tricks, strict=True))
        )
    return loaded.id


def seats_of(game_id: str) -> list[tuple[str, int]]:
    state = services.snapshot(game_id).state
    rank = {standing.seat: standing.rank for standing in state.standings}
    return [(name, rank[seat]) for seat, name in enumerate(state.setup.players)]


# -- the computation -----------------------------------------------------------------------------------


def test_one_game_is_rated_as_openskill_rates_it() -> None:
    after = ratings.rate([NEW, NEW, NEW], [1, 2, 3])
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(3)], ranks=[1, 2, 3])
    assert [(r.mu, r.sigma) for r in after] == [(t[0].mu, t[0].sigma) for t in expected]
    assert [r.games for r in after] == [1, 1, 1]
    # Its defaults: everyone starts at mu 25, sigma 25/3; the winner gains, the last loses most.
    assert (NEW.mu, NEW.sigma) == (25.0, 25 / 3)
    assert [round(r.mu, 3) for r in after] == [27.869, 25.717, 21.414]
    assert all(r.sigma < 25 / 3 for r in after)
    # The ordinal mu - 3 sigma, one decimal: 25 - 3 x 25/3 = 0 before any game.
    assert NEW.ordinal == Decimal("0.0")
    assert after[0].ordinal == Decimal(after[0].mu - 3 * after[0].sigma).quantize(Decimal("0.1"))


def test_ties_are_ties() -> None:
    tied = ratings.rate([NEW, NEW, NEW], [1, 1, 3])
    expected = OPENSKILL.rate([[OPENSKILL.rating()] for _ in range(3)], ranks=[1, 1, 3])
    assert [(r.mu, r.sigma) for r in tied] == [(t[0].mu, t[0].sigma) for t in expected]
    assert tied[0] == tied[1]
    assert tied[0].mu > 25 > tied[2].mu
    everyone = ratings.rate([NEW, NEW, NEW, NEW], [1, 1, 1, 1])
    assert len(set(everyone)) == 1  # all tied: all alike


def test_the_ordinal_is_never_minus_zero() -> None:
    assert Rated(24.97, 8.33).ordinal == Decimal("0.0")
    assert str(Rated(24.97, 8.33).ordinal) == "0.0"
    assert Rated(20.0, 8.0).ordinal == Decimal("-4.0")


def test_the_players_ids_do_not_matter() -> None:
    games = [[(1, 1), (2, 2), (3, 3)], [(3, 1), (4, 1), (1, 3)], [(2, 1), (4, 2), (1, 3)]]
    renumbered = {1: 40, 2: 7, 3: 19, 4: 2}
    plain = ratings.replayed(games)
    other = ratings.replayed([[(renumbered[pid], place) for pid, place in seats] for seats in games])
    assert {renumbered[pid]: rated for pid, rated in plain.items()} == other
    names = {1: "a", 2: "b", 3: "c", 4: "d"}
    by_name = by_openskill([[(names[pid], place) for pid, place in seats] for seats in games])
    assert {names[pid]: (r.mu, r.sigma, r.games) for pid, r in plain.items()} == by_name


def test_the_same_games_in_the_same_order_give_the_same_ratings_and_another_order_others() -> None:
    games = [[(1, 1), (2, 2), (3, 3)], [(3, 1), (2, 2), (1, 3)]]
    assert ratings.replayed(games) == ratings.replayed(list(games))
    assert ratings.replayed(games) != ratings.replayed(games[::-1])


# -- kept by the writes ------------------------------------------------------------------------------


@pytest.mark.every_database
def test_finishing_games_rates_them_in_the_order_they_finished(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        assert seats_of(first) == [("Cid", 1), ("Ann", 1), ("Bob", 3)]
        second = play(["Dan", "Cid", "Ann"])
        unfinished = play(["Bob", "Dan", "Cid"], deals=17)
        expected = by_openskill([seats_of(first), seats_of(second)])
        assert stored() == expected
        assert stored()["Cid"][2] == 2 and stored()["Bob"][2] == 1  # the unfinished game counts for no one
        game = db.session.get(Game, second)
        assert game.finished_at is not None and game.finished_at >= db.session.get(Game, first).finished_at
        assert db.session.get(Game, unfinished).finished_at is None
        mark = db.session.get(RatedGames, "mizerka/standard")
        assert (mark.finished_at, mark.game_id) == (game.finished_at, second)


@pytest.mark.every_database
def test_a_correction_that_moves_the_places_replays_the_rating(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])
        before = stored()
        services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})
        assert seats_of(first) != [("Cid", 1), ("Ann", 1), ("Bob", 3)]
        after = stored()
        # The same as the games rated afresh in their order, the first with its new places.
        assert after == by_openskill([seats_of(first), seats_of(second)])
        assert after != before
        # Replaying again changes nothing: the same games in the same order.
        ratings.replay("mizerka/standard")
        db.session.commit()
        assert stored() == after


def test_a_correction_that_keeps_the_places_keeps_the_ratings(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        before = stored()
        totals = services.snapshot(first).state.totals
        services.update_deal(first, 18, tricks={"Cid": 3, "Ann": 5, "Bob": 5})  # +1, +1, -2
        assert services.snapshot(first).state.totals != totals
        assert seats_of(first) == [("Cid", 1), ("Ann", 1), ("Bob", 3)]
        assert stored() == before


def test_undoing_the_last_deal_takes_the_game_out_and_finishing_it_again_puts_it_last(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])
        services.undo_deal(first, 18)
        assert stored() == by_openskill([seats_of(second)])
        assert db.session.get(Game, first).finished_at is None
        contract, tricks = DEALS[17]
        services.record_deal(
            first, number=18, contract=contract, tricks=dict(zip(["Cid", "Ann", "Bob"], tricks, strict=True))
        )
        # It finished again, now after the second: rated after it.
        assert stored() == by_openskill([seats_of(second), seats_of(first)])


@pytest.mark.every_database
def test_an_import_of_an_earlier_game_is_rated_where_its_day_puts_it(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])
        exported = transfer.export_game(services.snapshot(first))
        last_week = date.today() - timedelta(days=7)
        imported, _key = transfer.import_game(
            {**exported, "played_on": last_week.isoformat(), "created_at": None}
        )
        game = db.session.get(Game, imported.id)
        assert game.finished_at == datetime.combine(last_week, time.max)  # the end of the day it was played
        # Rated before the two played today: the same as rating the three in that order from scratch.
        assert stored() == by_openskill([seats_of(imported.id), seats_of(first), seats_of(second)])
        assert stored()["Cid"][2] == 3


def test_a_merge_replays_the_persons_ratings(app: Flask) -> None:
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Kim", "Eve"])
        third = play(["Ann", "Dan", "Bob"])
        kim = db.session.execute(select(Player.id).where(Player.name == "Kim")).scalar_one()
        cid = db.session.execute(select(Player.id).where(Player.name == "Cid")).scalar_one()
        services.merge_players(kim, cid)
        games = [[("Cid" if n == "Kim" else n, p) for n, p in seats_of(g)] for g in (first, second, third)]
        assert stored() == by_openskill(games)
        assert stored()["Cid"][2] == 2
        assert db.session.execute(select(Rating).where(Rating.player_id == kim)).first() is None


def test_rebuilding_the_figures_gives_the_same_ratings(app: Flask) -> None:
    with app.app_context():
        play(["Cid", "Ann", "Bob"])
        play(["Dan", "Cid", "Ann"])
        kept = stored()
        db.session.execute(Rating.__table__.delete())
        db.session.commit()
        services.rebuild_results()
        assert stored() == kept


def test_tables_of_three_and_four_are_rated_together(app: Flask) -> None:
    """Through the API: a game of 4 and a game of 3 of one game and house rule, one rating."""
    games = kierki_games().GAMES
    client = app.test_client()
    for label in ("standard-4", "standard-3"):
        preset, names, first, deals, *_rest = games[label]
        body = {"ruleset": "kierki", "players": names, "first_dealer": first, "options": {"preset": preset}}
        created = client.post("/api/v1/games", json=body).get_json()
        bearer = {"Authorization": f"Bearer {created['edit_key']}"}
        for number, (facts, _scores) in enumerate(deals, start=1):
            answer = client.post(
                f"/api/v1/games/{created['id']}/deals", json={"number": number, **facts}, headers=bearer
            )
            assert answer.status_code == 201, answer.get_json()
    with app.app_context():
        # Totals 295, -430, 620, -485 (Ala, Bartek, Celina, Darek); -360, 495, -135 (Ala, Bartek, Celina).
        expected = by_openskill(
            [
                [("Ala", 2), ("Bartek", 3), ("Celina", 1), ("Darek", 4)],
                [("Ala", 3), ("Bartek", 1), ("Celina", 2)],
            ]
        )
        assert stored("kierki/standard") == expected
        assert stored("kierki/standard")["Ala"][2] == 2
        assert stored("mizerka/standard") == {}


# -- a replay too long for the write: left to a thread, the pages saying "updating" ------------------------


@pytest.fixture
def deferring_app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """An app that replays no rating of more than one game inside a write."""
    app = make_test_app(backend, tmp_path, request, RATINGS_REPLAY_AT_ONCE=1)
    yield app
    ratings.wait()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def updating() -> bool:
    db.session.expire_all()
    return bool(db.session.get(RatedGames, "mizerka/standard").updating)


@pytest.mark.every_database
def test_a_long_replay_runs_after_the_write_and_the_pages_say_so_meanwhile(deferring_app: Flask) -> None:
    app = deferring_app
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])  # appended: no replay
        assert not updating()
        before = stored()
        services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})
        db.session.remove()
    ratings.wait()
    with app.app_context():
        assert stored() == by_openskill([seats_of(first), seats_of(second)]) != before
        assert not updating()
        assert db.session.get(RatedGames, "mizerka/standard").games == 2
        # While a replay is owed (here marked by hand, as a write leaves it), the pages say so...
        db.session.execute(RatedGames.__table__.update().values(updating=True))
        db.session.commit()
    client = app.test_client()
    html = client.get("/rankings?game=mizerka").get_data(as_text=True)
    assert "The ratings are being updated" in html
    cell = parse_html(html).find("table", cls="rankings").find("tbody").find("td", data_label="Rating")
    assert cell.text.endswith("updating…")
    with app.app_context():
        # ... and a game that finishes meanwhile is left to the replay owed, which rates every game.
        third = play(["Bob", "Dan", "Eve"])
        db.session.remove()
    ratings.wait()
    with app.app_context():
        assert not updating()
        assert stored() == by_openskill([seats_of(first), seats_of(second), seats_of(third)])
    assert "The ratings are being updated" not in client.get("/rankings?game=mizerka").get_data(as_text=True)


def test_a_change_while_the_thread_computes_sends_it_back_to_read_again(
    deferring_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread computes holding nothing; a game that finishes meanwhile (here: while the first
    computation runs) is seen at its write, and the replay reads and computes again, that game in."""
    app = deferring_app
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])
        db.session.remove()
    computed: list[int] = []
    played: list[str] = []
    real = ratings.replayed

    def replayed_while_a_game_finishes(games: Any, start: Any = None) -> Any:
        computed.append(len(games))
        if len(computed) == 1:
            with app.app_context():  # another write, in a session of its own
                played.append(play(["Bob", "Dan", "Eve"]))
                db.session.remove()
        return real(games, start)

    monkeypatch.setattr(ratings, "replayed", replayed_while_a_game_finishes)
    with app.app_context():
        services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})
        db.session.remove()
    ratings.wait()
    assert computed[:2] == [2, 3]  # computed again, the third game in
    with app.app_context():
        assert not updating()
        assert stored() == by_openskill([seats_of(first), seats_of(second), seats_of(played[0])])


# -- a replay owed by a process that died: the next start replays it -------------------------------------


def dies_owing_a_replay(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[str, int]]]:
    """Two games, then a correction that owes a replay, its thread never started (the process died
    once the write had committed); the games' seats and places, in the order they finished."""
    with app.app_context():
        first = play(["Cid", "Ann", "Bob"])
        second = play(["Dan", "Cid", "Ann"])
        before = stored()
        with monkeypatch.context() as died:
            died.setattr(ratings, "_start_owed", ratings._forget_owed)
            services.update_deal(first, 18, tricks={"Cid": 0, "Ann": 0, "Bob": 13})
        db.session.remove()
        ratings.wait()
        assert updating()  # stored with the write, as the rankings and player pages show it
        assert stored() == before
        games = [seats_of(first), seats_of(second)]
        db.session.remove()
    return games


def started(app: Flask) -> Flask:
    """A new start of the app on ``app``'s database, as a server starts it."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "AUTO_MIGRATE": False,
            "RATINGS_RESUME": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "SQLALCHEMY_ENGINE_OPTIONS": app.config["SQLALCHEMY_ENGINE_OPTIONS"],
        }
    )


def served(app: Flask) -> Flask:
    """``app``'s first request (a server's process resumes what is owed then, not while it is built)."""
    assert app.test_client().get("/healthz").status_code == 200
    return app


def stopped(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.every_database
def test_a_replay_owed_when_the_process_died_is_replayed_when_the_app_starts(
    deferring_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = dies_owing_a_replay(deferring_app, monkeypatch)
    html = deferring_app.test_client().get("/rankings?game=mizerka").get_data(as_text=True)
    assert "The ratings are being updated" in html
    again = started(deferring_app)
    ratings.wait()
    with deferring_app.app_context():
        assert updating()  # built, not yet serving: nothing read or replayed (a parent before its fork)
    served(again)
    ratings.wait()
    stopped(again)
    with deferring_app.app_context():
        assert not updating()
        assert stored() == by_openskill(games)
        assert db.session.get(RatedGames, "mizerka/standard").games == 2
    html = deferring_app.test_client().get("/rankings?game=mizerka").get_data(as_text=True)
    assert "The ratings are being updated" not in html


@pytest.mark.every_database
def test_two_workers_starting_at_once_replay_it_once_and_alike(
    deferring_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both compute the replay (each waits for the other before storing); the first to take the
    rating's row stores it and clears the mark, the other finds it cleared and stores nothing."""
    games = dies_owing_a_replay(deferring_app, monkeypatch)
    both = threading.Barrier(2, timeout=30)
    stores: list[str] = []
    real_replayed, real_store = ratings.replayed, ratings._store

    def replayed_by_both(games: Any, start: Any = None) -> Any:
        both.wait()
        return real_replayed(games, start)

    def store(rating: str, *args: Any) -> None:
        stores.append(rating)
        real_store(rating, *args)

    monkeypatch.setattr(ratings, "replayed", replayed_by_both)
    monkeypatch.setattr(ratings, "_store", store)
    workers = [served(started(deferring_app)), served(started(deferring_app))]
    ratings.wait()
    for worker in workers:
        stopped(worker)
    assert not both.broken
    assert stores == ["mizerka/standard"]
    with deferring_app.app_context():
        assert not updating()
        assert stored() == by_openskill(games)


@pytest.mark.every_database
def test_a_start_with_nothing_owed_replays_nothing(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        play(["Cid", "Ann", "Bob"])
        db.session.remove()
    computed: list[int] = []
    monkeypatch.setattr(ratings, "_games", lambda rating: computed.append(1))
    again = served(started(app))
    ratings.wait()
    stopped(again)
    assert computed == []
