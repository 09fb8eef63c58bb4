"""Every write route, tried as a stranger, as a watcher and with another game's key: refused, unchanged.

Game writes (deals, corrections, undo, rematch) need the game's edit key; people
writes (rename, merge) need the administrator or the keys of every game the
people sat in.  Import creates a new game (anyone may), export is a read (the
file holds no key).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.access import cookie_name
from scorekeeper.services import find_player
from tests.helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    edit_key,
    page,
    parse_html,
    play,
    start_mizerka,
    submit,
    text_of,
)
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


def test_a_phone_holds_one_device_cookie_and_no_key(app: Flask) -> None:
    """Whatever the number of games, one cookie names the phone's keyring; the server keeps its hash."""
    scorer = app.test_client()
    games = [start_mizerka(scorer) for _ in range(3)]
    names = sorted(cookie.key for cookie in scorer._cookies.values())
    assert names == ["scorekeeper_session", "sk_device"], names
    device = scorer.get_cookie("sk_device", path="/")
    assert device is not None and device.http_only and device.same_site == "Lax" and not device.secure
    assert device.max_age and device.max_age > 300 * 24 * 3600
    rows = db_snapshot(app)
    assert rows["devices"] and all(device.value not in str(row) for row in rows["devices"])
    assert {row[1] for row in rows["grants"]} == set(games)
    assert all(parse_html(page(scorer, f"/games/{game}")).first("form", cls="declare-form") for game in games)
    # Each new grant gives the keyring a new value (and a new 400 days): the old one names nothing.
    data = {"csrf_token": token(scorer), "first_dealer": "0", "players-0": "Ann", "players-1": "Bob"}
    response = scorer.post("/games/new", data={**data, "players-2": "Cid"})
    renewed = scorer.get_cookie("sk_device", path="/")
    assert renewed is not None and renewed.value != device.value
    assert f"sk_device={renewed.value};" in response.headers["Set-Cookie"]
    # The value before keeps its keys until the new one's next grant shows the phone has it.
    rows = db_snapshot(app)
    assert len(rows["devices"]) == 2 and len(rows["grants"]) == 4 + 3
    # Over HTTPS it is a __Host- cookie: Secure, for the whole host, no Domain (no subdomain sets it).
    secure, https = app.test_client(), "https://localhost"
    csrf = csrf_from(secure.get("/games/new", base_url=https).get_data(as_text=True))
    names = {f"players-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cid"])}
    response = secure.post(
        "/games/new",
        data={"csrf_token": csrf, "first_dealer": "0", **names},
        base_url=https,
        headers={"Referer": f"{https}/games/new"},
    )
    assert response.status_code == 303
    device_line = next(
        line for line in response.headers.getlist("Set-Cookie") if line.startswith("__Host-sk_device=")
    )
    assert "Secure" in device_line and "HttpOnly" in device_line and "Path=/;" in device_line
    assert "Domain" not in device_line
    assert not [line for line in response.headers.getlist("Set-Cookie") if line.startswith("sk_device=")]


def test_old_key_cookies_are_taken_over_and_expired(app: Flask) -> None:
    """A phone from before the keyring: its per-game cookies become grants at its first visit."""
    from scorekeeper import services

    with app.app_context():
        made = [services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann") for _ in range(3)]
        keyed = [(game.id, key) for game, key in made]
    phone = app.test_client()
    for game_id, key in keyed[:2]:
        for path in (f"/games/{game_id}", "/players"):
            phone.set_cookie(cookie_name(game_id), key, path=path)
    wrong = keyed[2][0]
    phone.set_cookie(cookie_name(wrong), keyed[0][1], path=f"/games/{wrong}")  # another game's key
    first, second = keyed[0][0], keyed[1][0]
    # The first visit is let in on the cookie alone, writes nothing, and is given a device value.
    response = phone.get(f"/games/{first}")
    assert parse_html(response.get_data(as_text=True)).first("form", cls="declare-form")
    set_cookies = response.headers.getlist("Set-Cookie")
    assert any(line.startswith("sk_device=") for line in set_cookies)
    assert not db_snapshot(app)["devices"]
    # The next, showing that value back, stores it with the game's grant; the old cookie goes.
    assert parse_html(page(phone, f"/games/{first}")).first("form", cls="declare-form")
    assert len(db_snapshot(app)["devices"]) == 1
    for path in (f"/games/{first}", "/players"):  # this game's cookie, on both its paths
        assert phone.get_cookie(cookie_name(first), path=path) is None, path
    # The other game's key comes to the people pages too: taken over there (a new grant, a new
    # device value), then held.
    page(phone, "/players")
    assert parse_html(page(phone, f"/games/{second}")).first("form", cls="declare-form")
    assert not parse_html(page(phone, f"/games/{wrong}")).first("form", cls="declare-form")
    assert not [cookie for cookie in phone._cookies.values() if cookie.key.startswith("sk_edit_")]
    assert [cookie.key for cookie in phone._cookies.values() if cookie.key == "sk_device"] == ["sk_device"]
    # The people pages read the same keyring: Ann sat in these three games, the phone holds two.
    ann = Table.person(type("T", (), {"app": app})(), "Ann")  # type: ignore[arg-type]
    assert not parse_html(page(phone, f"/players/{ann}")).first("form", action=f"/players/{ann}/rename")


def test_a_copied_admin_session_stops_working_at_sign_out(app: Flask, table: Table) -> None:
    admin = app.test_client()
    assert admin.post("/admin", data={"csrf_token": token(admin), "key": ADMIN_KEY}).status_code == 303
    session = admin.get_cookie("scorekeeper_session")
    assert session is not None
    copy = app.test_client()
    copy.set_cookie("scorekeeper_session", session.value)
    bob = table.person("Bob")
    response = copy.post(f"/players/{bob}/rename", data={"csrf_token": token(copy), "name": "Robert"})
    assert response.status_code == 303  # the copy works while the session is open
    assert admin.post("/admin/sign-out", data={"csrf_token": token(admin)}).status_code == 303
    copy.set_cookie("scorekeeper_session", session.value)  # the cookie as it was before sign-out
    with Unchanged(app):
        response = copy.post(f"/players/{bob}/rename", data={"csrf_token": token(copy), "name": "Bob"})
        assert response.status_code == 403
    assert "Signed in as the administrator" not in page(copy, "/players")


def test_an_admin_session_expires_after_12_hours(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.services import keyring

    admin = app.test_client()
    assert admin.post("/admin", data={"csrf_token": token(admin), "key": ADMIN_KEY}).status_code == 303
    signed_in = keyring.now()
    monkeypatch.setattr(keyring, "now", lambda: signed_in + timedelta(hours=11, minutes=59))
    assert "Signed in as the administrator" in page(admin, "/players")
    monkeypatch.setattr(keyring, "now", lambda: signed_in + timedelta(hours=12, seconds=1))
    assert "Signed in as the administrator" not in page(admin, "/players")
    bob = table.person("Bob")
    with Unchanged(app):
        response = admin.post(f"/players/{bob}/rename", data={"csrf_token": token(admin), "name": "Robert"})
        assert response.status_code == 403


@pytest.fixture
def limited(backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> Any:
    from scorekeeper.extensions import db
    from tests.conftest import make_test_app

    app = make_test_app(backend, tmp_path, request, ADMIN_KEY=ADMIN_KEY, RATELIMIT_ENABLED=True)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_ten_wrong_admin_keys_a_minute_answer_429(limited: Flask) -> None:
    here, there = {"REMOTE_ADDR": "192.0.2.10"}, {"REMOTE_ADDR": "192.0.2.20"}
    phone = limited.test_client()
    csrf = token(phone)

    def sign_in(key: str, address: dict[str, str] = here) -> int:
        return phone.post("/admin", data={"csrf_token": csrf, "key": key}, environ_base=address).status_code

    # Good sign-ins do not count: only failures do.
    assert [sign_in(ADMIN_KEY) for _ in range(12)] == [303] * 12
    assert len(db_snapshot(limited)["admin_sessions"]) == 1  # each sign-in ends the one it replaces
    assert [sign_in(f"wrong-{n}") for n in range(10)] == [403] * 10
    response = phone.post("/admin", data={"csrf_token": csrf, "key": "wrong-again"}, environ_base=here)
    assert response.status_code == 429
    assert "Too many requests" in text_of(response.get_data(as_text=True))
    assert int(response.headers["Retry-After"]) > 0
    assert sign_in(ADMIN_KEY) == 303  # the right key is never locked out by someone's guesses
    assert phone.get("/admin", environ_base=here).status_code == 200  # the page itself still shows
    # The key itself has a count too: ten more wrong ones from elsewhere are all it takes there.
    assert sign_in("wrong-elsewhere", there) == 429
    assert sign_in(ADMIN_KEY, there) == 303


def test_ten_wrong_hand_over_codes_a_minute_answer_429(limited: Flask) -> None:
    here = {"REMOTE_ADDR": "192.0.2.30"}
    scorer, phone = limited.test_client(), limited.test_client()
    game_id = start_mizerka(scorer)
    csrf = token(phone)

    def take(code: str) -> int:
        return phone.post(
            f"/games/{game_id}/take", data={"csrf_token": csrf, "key": code}, environ_base=here
        ).status_code

    assert [take(f"guess-{n}") for n in range(10)] == [403] * 10
    assert take("guess-again") == 429
    # The right code is taken at once, from the very address that guessed.
    form = parse_html(page(scorer, f"/games/{game_id}")).find("form", action=f"/games/{game_id}/hand-over")
    shown = parse_html(submit(scorer, form).get_data(as_text=True))
    code = (shown.find("textarea", id="hand-over-link").text).split("#", 1)[1]
    assert take(code) == 303


def test_many_old_key_cookies_are_all_held_at_once_and_expired_a_few_an_answer(app: Flask) -> None:
    """The people pages received every game's copy: all are taken over at the first visit, and a
    dozen expired an answer, so no answer's headers grow with the number of games."""
    from scorekeeper import services
    from scorekeeper.access import MOST_EXPIRED

    with app.app_context():
        made = [services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann") for _ in range(30)]
        keyed = [(game.id, key) for game, key in made]
    phone = app.test_client()
    for game_id, key in keyed:
        phone.set_cookie(cookie_name(game_id), key, path="/players")
    answers = []
    while [cookie for cookie in phone._cookies.values() if cookie.key.startswith("sk_edit_")]:
        response = phone.get("/players")
        assert response.status_code == 200
        expired = [line for line in response.headers.getlist("Set-Cookie") if line.startswith("sk_edit_")]
        assert len(expired) <= 2 * MOST_EXPIRED
        answers.append(response)
        assert len(answers) <= 4  # a first visit that only reads, then three
    rows = db_snapshot(app)
    assert {row[1] for row in rows["grants"]} == {game_id for game_id, _key in keyed}
    assert len(rows["devices"]) == 1
    ann = Table.person(type("T", (), {"app": app})(), "Ann")  # type: ignore[arg-type]
    assert parse_html(page(phone, f"/players/{ann}")).first("form", action=f"/players/{ann}/rename")


def pencil(client: FlaskClient, game_id: str, **kwargs: Any) -> bool:
    response = client.get(f"/games/{game_id}", **kwargs)
    assert response.status_code == 200
    return parse_html(response.get_data(as_text=True)).first("form", cls="declare-form") is not None


def test_a_client_that_keeps_no_cookie_writes_no_device(app: Flask) -> None:
    """An old key cookie sent again and again without the device cookie it is answered with (a
    script, or a browser that keeps nothing) used to store a device and a grant each time."""
    from scorekeeper import services

    with app.app_context():
        game, key = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")
    old = f"{cookie_name(game.id)}={key}"
    forgetful = app.test_client(use_cookies=False)
    assert [forgetful.get("/healthz", headers={"Cookie": old}).status_code for _ in range(300)] == [200] * 300
    # On the game's own page it is let in on its cookie every time, and nothing is written.
    assert all(pencil(forgetful, game.id, headers={"Cookie": old}) for _ in range(30))
    assert db_snapshot(app)["devices"] == [] and db_snapshot(app)["grants"] == []
    # Sent back with the device value it was given: stored once, however often that comes again.
    first = forgetful.get(f"/games/{game.id}", headers={"Cookie": old})
    value = next(line for line in first.headers.getlist("Set-Cookie") if line.startswith("sk_device="))
    both = {"Cookie": f"{old}; {value.split(';', 1)[0]}"}
    assert all(pencil(forgetful, game.id, headers=both) for _ in range(30))
    rows = db_snapshot(app)
    assert len(rows["devices"]) == 1 and [row[1] for row in rows["grants"]] == [game.id]


def test_a_planted_device_value_gains_none_of_the_victims_keys(app: Flask) -> None:
    """Someone who gets their own device value into another's browser (a shared computer, a
    cookie set from a sibling site) used to hold every game that browser then started or took."""
    attacker = app.test_client()
    start_mizerka(attacker)
    planted_cookie = attacker.get_cookie("sk_device", path="/")
    assert planted_cookie is not None
    planted = planted_cookie.value
    victim = app.test_client()
    victim.set_cookie("sk_device", planted, path="/")
    started = start_mizerka(victim)  # a grant: the victim's device value changes there
    after_start = victim.get_cookie("sk_device", path="/")
    assert after_start is not None and after_start.value != planted
    assert pencil(victim, started) and not pencil(attacker, started)
    # The pencil of another game, handed over to a browser with a planted value: the same.
    scorer, other_attacker = app.test_client(), app.test_client()
    handed = start_mizerka(scorer)
    start_mizerka(other_attacker)
    other_cookie = other_attacker.get_cookie("sk_device", path="/")
    assert other_cookie is not None
    other_victim = app.test_client()
    other_victim.set_cookie("sk_device", other_cookie.value, path="/")
    form = parse_html(page(scorer, f"/games/{handed}")).find("form", action=f"/games/{handed}/hand-over")
    code = parse_html(submit(scorer, form).get_data(as_text=True)).find("textarea", id="hand-over-link")
    data = {"csrf_token": token(other_victim), "key": code.text.split("#")[1]}
    assert other_victim.post(f"/games/{handed}/take", data=data).status_code == 303
    after_take = other_victim.get_cookie("sk_device", path="/")
    assert after_take is not None and after_take.value != other_cookie.value
    assert pencil(other_victim, handed) and not pencil(other_attacker, handed)
    # The planted values hold what they held: their own games, none of the victims'.
    from scorekeeper.services import hash_key

    held = {
        row[1]
        for row in db_snapshot(app)["grants"]
        if row[0] in (hash_key(planted), hash_key(other_cookie.value))
    }
    assert not held & {started, handed}


def test_a_grant_whose_answer_is_lost_costs_the_phone_nothing(app: Flask) -> None:
    """The keyring is copied to the new value, not moved: a phone that never got it keeps its keys."""
    phone = app.test_client()
    first = start_mizerka(phone)
    before = phone.get_cookie("sk_device", path="/")
    assert before is not None
    lost = start_mizerka(phone)
    phone.set_cookie("sk_device", before.value, path="/")  # as if that answer had never arrived
    assert pencil(phone, first) and not pencil(phone, lost)
    again = start_mizerka(phone)
    assert pencil(phone, first) and pencil(phone, again)


def test_a_device_value_made_for_other_key_cookies_takes_nothing(app: Flask) -> None:
    """The value a first visit with old key cookies is given works only with those cookies."""
    from scorekeeper import services

    with app.app_context():
        (mine, my_key), (theirs, their_key) = [
            services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann") for _ in range(2)
        ]
    attacker = app.test_client(use_cookies=False)
    first = attacker.get(f"/games/{mine.id}", headers={"Cookie": f"{cookie_name(mine.id)}={my_key}"})
    made = next(line for line in first.headers.getlist("Set-Cookie") if line.startswith("sk_device="))
    victim = app.test_client(use_cookies=False)
    cookies = {"Cookie": f"{cookie_name(theirs.id)}={their_key}; {made.split(';', 1)[0]}"}
    answer = victim.get(f"/games/{theirs.id}", headers=cookies)
    assert answer.status_code == 200
    assert db_snapshot(app)["devices"] == []  # not stored: a new value is made for the victim's cookie
    assert made.split(";", 1)[0] not in " ".join(answer.headers.getlist("Set-Cookie"))


def test_a_planted_session_cookie_does_not_become_the_administrators(app: Flask) -> None:
    """Signing in puts a new token in the session: a copy of the cookie from before it is no one."""
    attacker = app.test_client()
    attacker.get("/admin")
    planted = attacker.get_cookie("scorekeeper_session")
    assert planted is not None
    victim = app.test_client()
    victim.set_cookie("scorekeeper_session", planted.value)
    assert victim.post("/admin", data={"csrf_token": token(victim), "key": ADMIN_KEY}).status_code == 303
    assert "Signed in as the administrator" in page(victim, "/players")
    assert "Signed in as the administrator" not in page(attacker, "/players")


def test_over_https_a_phone_s_plain_device_cookie_becomes_a_host_cookie_at_its_next_grant(app: Flask) -> None:
    https = "https://localhost"
    phone = app.test_client()
    first = start_mizerka(phone)  # over plain HTTP, as before __Host-
    plain = phone.get_cookie("sk_device", path="/")
    assert plain is not None
    assert pencil(phone, first, base_url=https)  # still read over HTTPS
    csrf = csrf_from(phone.get("/games/new", base_url=https).get_data(as_text=True))
    names = {f"players-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cid"])}
    response = phone.post(
        "/games/new",
        data={"csrf_token": csrf, "first_dealer": "0", **names},
        base_url=https,
        headers={"Referer": f"{https}/games/new"},
    )
    assert response.status_code == 303
    lines = response.headers.getlist("Set-Cookie")
    assert [line for line in lines if line.startswith("__Host-sk_device=")]
    assert [line for line in lines if line.startswith("sk_device=;")]  # the plain one expired
    second = response.headers["Location"].rsplit("/", 1)[1]
    assert pencil(phone, first, base_url=https) and pencil(phone, second, base_url=https)
