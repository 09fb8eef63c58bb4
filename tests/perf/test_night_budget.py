"""SQL statements of a club night's read pages (the projector polls every 5 s, a player's phone
every 30 s): a fixed number, whatever the number of players, rounds and tables.  The projector and
the standings sheet are cached pages (``caching.club_page``): their versions first, then the night
when the page is drawn; a copy cached reads the versions alone."""

from __future__ import annotations

from flask import Flask
from perf_support import StatementCounter

from scorekeeper.services import nights as club

#: The night, its players with their names, its rounds, its tables, the table games' stored figures.
NIGHT_READ = 5
#: A cached page's versions (``caching.versions``).
VERSIONS = 1
CACHED = ("screen", "cards")


def night_of(app: Flask, players: int, rounds: int) -> str:
    with app.app_context():
        night_id, _key = club.create_night("Thursday", "misere", rounds=rounds, seed=1)
        for number in range(players):
            club.check_in(night_id, f"Player {number + 1}")
        link = club.TableLink("perf")
        club.seat_next_round(night_id)
        for number in range(1, rounds + 1):
            club.start_round(night_id, link)
            for table in club.load_night(night_id).rounds[number - 1].tables:
                club.close_table(night_id, number, table.number)
    return night_id


def test_the_projector_and_a_players_page_read_a_fixed_number_of_statements(app: Flask) -> None:
    counter = StatementCounter(app)
    counts: dict[str, int] = {}
    for players, rounds in ((8, 1), (24, 3)):
        night_id = night_of(app, players, rounds)
        client = app.test_client()
        for page in ("screen", "me", "cards"):
            with counter.counting() as statements:
                assert client.get(f"/nights/{night_id}/{page}").status_code == 200
            counts[f"{page}, {players} players, {rounds} rounds"] = len(statements) - VERSIONS * (
                page in CACHED
            )
            if page in CACHED:
                with counter.counting() as statements:
                    assert client.get(f"/nights/{night_id}/{page}").status_code == 200
                assert len(statements) == VERSIONS, page
        with app.app_context():
            someone = club.load_night(night_id).players[0].id
        with counter.counting() as statements:
            assert client.get(f"/nights/{night_id}/me/{someone}").status_code == 200
        counts[f"player, {players} players, {rounds} rounds"] = len(statements)
    assert set(counts.values()) == {NIGHT_READ}, counts
