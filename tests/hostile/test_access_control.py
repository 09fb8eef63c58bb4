"""Every write route, tried as a stranger, as a watcher and with another game's key: refused, unchanged.

Game writes (deals, corrections, undo, rematch) need the game's edit key; people
writes (rename, merge) need the administrator or the keys of every game the
people sat in.  Import creates a new game (anyone may), export is a read (the
file holds no key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.access import cookie_name
from scorekeeper.services import find_player
from tests.helpers import MIZERKA_DEALS, edit_key, page, parse_html, play, start_mizerka
from tests.hostile.hostile_support import BASE, Unchanged, assert_api_error, bearer, token

ADMIN_KEY = "test-admin-key-0123456789"


@pytest.fixture
def app(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Any:
    from scorekeeper.extensions import db
    from tests.conftest import make_test_app

    app = make_test_app(backend, tmp_path, request, ADMIN_KEY=ADMIN_KEY)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class Table:
    """A game in progress (deal 3 declared), a finished game, and the phones around them."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.scorer = app.test_client()
        self.game = start_mizerka(self.scorer, deals=2)
        token_ = token(self.scorer)
        declared = self.scorer.post(
            f"/games/{self.game}/deals", data={"csrf_token": token_, "number": 3, "contract": "mizerka"}
        )
        assert declared.status_code == 303
        self.finished = start_mizerka(self.scorer, deals=0)
        play(self.scorer, self.finished, [(d.contract, list(d.tricks)) for d in MIZERKA_DEALS])
        self.key = edit_key(self.scorer, self.game)
        # Another table: its own scorer and game, with Ann on it too.
        self.other_scorer = app.test_client()
        self.other = start_mizerka(self.other_scorer, deals=1)
        self.other_key = edit_key(self.other_scorer, self.other)
        self.watcher = app.test_client()
        page(self.watcher, f"/games/{self.game}")

    def visitors(self) -> dict[str, FlaskClient]:
        """Stranger, watcher, the other game's scorer, and a phone presenting the other key as this game's."""
        forger = self.app.test_client()
        for game_id in (self.game, self.finished):
            forger.set_cookie(cookie_name(game_id), self.other_key, path=f"/games/{game_id}")
            forger.set_cookie(cookie_name(game_id), self.other_key, path="/players")
        return {
            "stranger": self.app.test_client(),
            "watcher": self.watcher,
            "other game's key": self.other_scorer,
            "other key as this game's": forger,
        }

    def person(self, name: str) -> int:
        with self.app.app_context():
            return find_player(name).id


@pytest.fixture
def table(app: Flask) -> Table:
    return Table(app)


def game_posts(table: Table) -> list[tuple[str, str, dict[str, Any]]]:
    game, finished = table.game, table.finished
    return [
        ("POST", f"/games/{game}/deals/3/tricks", {"number": 3, "tricks-0": 4, "tricks-1": 9, "tricks-2": 0}),
        ("POST", f"/games/{game}/deals", {"number": 4, "contract": "clubs"}),
        ("GET", f"/games/{game}/deals/1/edit", {}),
        (
            "POST",
            f"/games/{game}/deals/1/edit",
            {"version": 3, "contract": "spades", "tricks-0": 8, "tricks-1": 4, "tricks-2": 1},
        ),
        ("POST", f"/games/{game}/undo", {"number": 3, "version": 3}),
        ("POST", f"/games/{finished}/rematch", {}),
    ]


def test_game_writes_through_the_pages_are_403(app: Flask, table: Table) -> None:
    for who, visitor in table.visitors().items():
        csrf = token(visitor)
        with Unchanged(app):
            for method, url, data in game_posts(table):
                response = visitor.open(
                    url, method=method, data={"csrf_token": csrf, **data} if method == "POST" else None
                )
                assert response.status_code == 403, (who, url, response.status_code)


def test_game_writes_through_the_api_are_401_or_403(app: Flask, table: Table) -> None:
    calls = [
        ("POST", f"{BASE}/games/{table.game}/deals", {"number": 4, "contract": "clubs"}),
        ("PUT", f"{BASE}/games/{table.game}/deals/3", {"tricks": {"Ann": 4, "Bob": 9, "Cid": 0}}),
        ("DELETE", f"{BASE}/games/{table.game}/deals/3", None),
    ]
    with Unchanged(app):
        for method, url, body in calls:
            response = table.watcher.open(url, method=method, json=body)
            assert_api_error(response, 401, "auth_required")
            for key in (table.other_key, table.key + "x", table.key.upper(), "Bearer"):
                response = table.watcher.open(url, method=method, json=body, headers=bearer(key))
                assert_api_error(response, 403, "bad_key")
            response = table.watcher.open(
                url, method=method, json=body, headers={"Authorization": f"Basic {table.key}"}
            )
            assert_api_error(response, 401, "auth_required")


def test_the_scorer_may_do_each_of_those(app: Flask, table: Table) -> None:
    """The same requests with the key go through: the refusals above are about access alone."""
    csrf = token(table.scorer)
    for method, url, data in game_posts(table):
        state = table.scorer.get(f"{BASE}/games/{table.game}")
        if "version" in data:
            data["version"] = int(state.headers["ETag"].strip('"v'))
        if url.endswith("/undo"):
            data["number"] = len(state.get_json()["deals"])
        response = table.scorer.open(
            url, method=method, data={"csrf_token": csrf, **data} if method == "POST" else None
        )
        assert response.status_code in (200, 303), (url, response.status_code)


def people_posts(table: Table) -> list[tuple[str, dict[str, str]]]:
    bob, ann = table.person("Bob"), table.person("Ann")
    return [
        (f"/players/{bob}/rename", {"name": "Robert"}),
        (f"/players/{bob}/merge", {"keep": "Cid"}),
        (f"/players/{ann}/rename", {"name": "Anna"}),
        ("/players/merge", {"duplicate": "Bob", "keep": "Cid"}),
        ("/players/merge", {"duplicate": "Ann", "keep": "Dan"}),
    ]


def test_people_writes_need_every_key_or_the_administrator(app: Flask, table: Table) -> None:
    # Ann, Bob and Cid also sat in the other table's game: its scorer holds one key of theirs, not all.
    for who, visitor in table.visitors().items():
        csrf = token(visitor)
        with Unchanged(app):
            for url, data in people_posts(table):
                response = visitor.post(url, data={"csrf_token": csrf, **data})
                assert response.status_code == 403, (who, url, response.status_code)
        # The player page offers no rename or merge to them.
        doc = parse_html(page(visitor, f"/players/{table.person('Bob')}"))
        assert not doc.first("form", action=f"/players/{table.person('Bob')}/rename")
        assert not doc.first("form", action=f"/players/{table.person('Bob')}/merge")


def test_a_key_holder_of_every_game_may_rename(app: Flask) -> None:
    scorer = app.test_client()
    start_mizerka(scorer)
    start_mizerka(scorer, deals=1)
    bob = Table.person(type("T", (), {"app": app})(), "Bob")  # type: ignore[arg-type]
    doc = parse_html(page(scorer, f"/players/{bob}"))
    assert doc.find("form", action=f"/players/{bob}/rename")
    response = scorer.post(f"/players/{bob}/rename", data={"csrf_token": token(scorer), "name": "Robert"})
    assert response.status_code == 303
    # A third game with Robert on someone else's phone: the first scorer no longer holds every key.
    other = app.test_client()
    from tests.helpers import start_game

    start_game(other, ["Robert", "Dan", "Eve"])
    with Unchanged(app):
        response = scorer.post(f"/players/{bob}/rename", data={"csrf_token": token(scorer), "name": "Bob"})
        assert response.status_code == 403
        response = other.post(f"/players/{bob}/rename", data={"csrf_token": token(other), "name": "Bob"})
        assert response.status_code == 403


def test_the_administrator_signs_in_manages_people_and_signs_out(app: Flask, table: Table) -> None:
    admin = app.test_client()
    bob = table.person("Bob")
    with Unchanged(app):
        for key in ("", "wrong", ADMIN_KEY + " x", ADMIN_KEY[:-1]):
            response = admin.post("/admin", data={"csrf_token": token(admin), "key": key})
            assert response.status_code in (403, 422), key
        assert admin.post("/admin", data={"key": ADMIN_KEY}).status_code == 400  # no CSRF token
        assert (
            admin.post(
                f"/players/{bob}/rename", data={"csrf_token": token(admin), "name": "Robert"}
            ).status_code
            == 403
        )
    response = admin.post("/admin", data={"csrf_token": token(admin), "key": ADMIN_KEY})
    assert response.status_code == 303
    assert parse_html(page(admin, f"/players/{bob}")).find("form", action=f"/players/{bob}/rename")
    response = admin.post(f"/players/{bob}/rename", data={"csrf_token": token(admin), "name": "Robert"})
    assert response.status_code == 303
    response = admin.post(
        "/players/merge", data={"csrf_token": token(admin), "duplicate": "Robert", "keep": "Dan"}
    )
    assert response.status_code in (303, 404, 422)  # Dan may not exist: then a clear refusal
    assert admin.post("/admin/sign-out", data={"csrf_token": token(admin)}).status_code == 303
    with Unchanged(app):
        response = admin.post(f"/players/{bob}/rename", data={"csrf_token": token(admin), "name": "Bob"})
        assert response.status_code == 403


def test_a_session_signed_in_under_an_old_admin_key_is_signed_out(app: Flask) -> None:
    admin = app.test_client()
    assert admin.post("/admin", data={"csrf_token": token(admin), "key": ADMIN_KEY}).status_code == 303
    assert "Signed in as the administrator" in page(admin, "/players")
    app.config["ADMIN_KEY"] = "a-new-key-after-a-leak"
    assert "Signed in as the administrator" not in page(admin, "/players")


def test_import_makes_a_new_game_and_touches_no_other(app: Flask, table: Table) -> None:
    export = table.scorer.get(f"{BASE}/games/{table.game}/export").get_json()
    for who, visitor in table.visitors().items():
        before_state = visitor.get(f"{BASE}/games/{table.game}").get_json()
        response = visitor.post(f"{BASE}/games/import", json=export)
        assert response.status_code == 201, who
        imported = response.get_json()
        assert imported["id"] not in (table.game, table.other)
        assert imported["edit_key"] not in (table.key, table.other_key)
        assert visitor.get(f"{BASE}/games/{table.game}").get_json() == before_state
        # The new key opens the new game only.
        response = visitor.delete(f"{BASE}/games/{table.game}/deals/3", headers=bearer(imported["edit_key"]))
        assert_api_error(response, 403, "bad_key")


@pytest.mark.parametrize(
    "export_url",
    [
        lambda g: f"/games/{g}/export.json",
        lambda g: f"/games/{g}/export.csv",
        lambda g: f"{BASE}/games/{g}/export",
    ],
)
def test_exporting_a_game_in_progress_is_a_read_without_secrets(
    app: Flask, table: Table, export_url: Callable[[str], str]
) -> None:
    from scorekeeper.services import hash_key

    with Unchanged(app):
        for who, visitor in table.visitors().items():
            response = visitor.get(export_url(table.game))
            assert response.status_code == 200, who
            body = response.get_data(as_text=True)
            assert table.key not in body and hash_key(table.key) not in body
            assert "edit_key" not in body
        assert table.watcher.get(export_url("nosuchgame")).status_code == 404


def test_the_admin_key_is_generated_once_and_printed_in_the_banner(tmp_path: Any) -> None:
    from scorekeeper.cli import banner
    from scorekeeper.config import Settings, admin_key

    settings = Settings.from_environ({})
    first = admin_key(str(tmp_path), settings)
    assert len(first) >= 32 and admin_key(str(tmp_path), settings) == first
    assert (tmp_path / "admin_key").stat().st_mode & 0o077 == 0  # readable by the owner only
    given = Settings.from_environ({"SCOREKEEPER_ADMIN_KEY": "from-the-environment"})
    assert admin_key(str(tmp_path), given) == "from-the-environment"
    assert first in banner("127.0.0.1", 5000, first)


def test_the_key_cookie_reaches_the_game_and_the_people_pages_only(app: Flask) -> None:
    scorer = app.test_client()
    game_id = start_mizerka(scorer)
    key = edit_key(scorer, game_id)
    people = scorer.get_cookie(cookie_name(game_id), path="/players")
    assert people is not None and people.value == key and people.http_only
    assert scorer.get_cookie(cookie_name(game_id), path="/") is None
