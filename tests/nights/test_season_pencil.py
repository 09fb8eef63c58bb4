"""A season's pencil (docs/club-nights.md "Seasons"): the phone that makes a season on its page holds
it, the API's creator its key; only they change or delete the season, another phone may take the
pencil through a one-time hand-over link, and a season made before seasons had a key is changed by
nobody. Every refusal changes nothing."""

from __future__ import annotations

import re

import pytest
from flask_migrate import upgrade
from sqlalchemy import text

from scorekeeper.database import migrations_dir
from scorekeeper.extensions import db
from scorekeeper.models import Season
from scorekeeper.services import nights as club
from tests.api.api_support import check_documented
from tests.helpers import csrf_from, page, text_of
from tests.nights.test_season_changes import AUTUMN, made_on_its_page, made_through_the_api

pytestmark = pytest.mark.every_database
OLD = "This season was created before seasons had an owner"


def settings(app, season_id: str) -> tuple[object, ...]:
    with app.app_context():
        season = club.load_season(season_id)
        return (season.name, season.preset, season.starts_on, season.ends_on, season.best)


def links(html: str, url: str) -> tuple[bool, bool, bool]:
    return (f"{url}/edit" in html, f"{url}/delete" in html, f"{url}/hand-over" in html)


def refused_on_the_pages(app, phone, url: str, said: str | None = None, cookies: bool = True) -> None:
    """Every way to change or delete the season is refused for ``phone`` (403; a phone that keeps no
    cookie has its forms refused first, 400, as their CSRF token came with none), nothing changes."""
    season_id = url.rsplit("/", 1)[1]
    before = settings(app, season_id)
    html = page(phone, url)
    assert links(html, url) == (False, False, False)
    token = csrf_from(page(phone, "/seasons/new"))
    form = {"csrf_token": token, "name": "Vandal", "game": "mizerka", **AUTUMN, "best": "1"}
    for answer in (
        phone.get(f"{url}/edit"),
        phone.post(f"{url}/edit", data=form),
        phone.get(f"{url}/delete"),
        phone.post(f"{url}/delete", data={"csrf_token": token}),
        phone.post(f"{url}/hand-over", data={"csrf_token": token}),
    ):
        kept_no_cookie = not cookies and answer.request.method == "POST"
        assert answer.status_code == (400 if kept_no_cookie else 403)
        if said is not None:
            assert said in text_of(answer.get_data(as_text=True))
    assert settings(app, season_id) == before


def test_only_the_phone_that_made_the_season_changes_or_deletes_it(app, client):
    url = made_on_its_page(client)
    assert links(page(client, url), url) == (True, True, True)
    assert client.get(url).headers["Cache-Control"] == "no-store"
    refused_on_the_pages(app, app.test_client(), url)
    refused_on_the_pages(app, app.test_client(use_cookies=False), url, cookies=False)
    # A phone that holds another season's pencil holds not this one's.
    other = app.test_client()
    made_on_its_page(other)
    refused_on_the_pages(app, other, url)
    # The maker still may, after making a night too (its keyring copied to its new device value).
    page(client, "/nights/new")
    night = client.post(
        "/nights/new",
        data={
            "csrf_token": csrf_from(page(client, "/nights/new")),
            "name": "Friday",
            "game": "mizerka",
            "seating": "mix",
            "first_round": "random",
            "played_on": "2026-10-02",
        },
    )
    assert night.status_code == 303
    form_html = page(client, f"{url}/edit")
    form = {"csrf_token": csrf_from(form_html), "name": "Winter", "game": "mizerka", **AUTUMN, "best": "3"}
    assert client.post(f"{url}/edit", data=form).status_code == 303
    assert settings(app, url.rsplit("/", 1)[1])[0] == "Winter"


def test_the_pencil_is_handed_over_once_to_another_phone(app, client):
    url = made_on_its_page(client)
    answer = client.post(f"{url}/hand-over", data={"csrf_token": csrf_from(page(client, url))})
    assert (answer.status_code, answer.headers["Cache-Control"]) == (200, "no-store")
    found = re.search(
        r"http://localhost(/seasons/[^/]+/take)#([A-Za-z0-9_-]+)", answer.get_data(as_text=True)
    )
    assert found is not None
    path, token = found.groups()
    other = app.test_client()
    take = page(other, path)
    wrong = other.post(path, data={"csrf_token": csrf_from(take), "key": "not-the-code"})
    assert wrong.status_code == 403
    assert "does not belong to this season" in text_of(wrong.get_data(as_text=True))
    assert links(page(other, url), url) == (False, False, False)
    taken = other.post(path, data={"csrf_token": csrf_from(take), "key": token})
    assert (taken.status_code, taken.headers["Location"]) == (303, url)
    assert links(page(other, url), url) == (True, True, True)
    assert links(page(client, url), url) == (True, True, True)  # the giver holds it too
    third = app.test_client()
    again = third.post(path, data={"csrf_token": csrf_from(page(third, path)), "key": token})
    assert again.status_code == 403
    assert "already been used" in text_of(again.get_data(as_text=True))
    refused_on_the_pages(app, third, url)
    asked = page(other, f"{url}/delete")
    assert other.post(f"{url}/delete", data={"csrf_token": csrf_from(asked)}).status_code == 303
    assert client.get(url).status_code == 404


def test_the_api_needs_the_season_s_key(app, client):
    path, key = made_through_the_api(client)
    other_path, other_key = made_through_the_api(client)
    season_id = path.rsplit("/", 1)[1]
    before = settings(app, season_id)
    for headers, status, code in (
        ({}, 401, "auth_required"),
        ({"Authorization": "Bearer not-a-key-of-any-season-at-all"}, 403, "bad_key"),
        ({"Authorization": f"Bearer {other_key}"}, 403, "bad_key"),
    ):
        for answer, method in (
            (client.patch(path, json={"name": "Vandal"}, headers=headers), "PATCH"),
            (client.delete(path, headers=headers), "DELETE"),
        ):
            check_documented(method, path, answer)
            assert (answer.status_code, answer.get_json()["error"]["code"]) == (status, code)
    assert settings(app, season_id) == before
    # The page's phone that made neither holds no pencil of them either.
    refused_on_the_pages(app, client, path.removeprefix("/api/v1"))
    changed = client.patch(path, json={"name": "Winter"}, headers={"Authorization": f"Bearer {key}"})
    assert (changed.status_code, changed.get_json()["name"]) == (200, "Winter")
    gone = client.delete(other_path, headers={"Authorization": f"Bearer {other_key}"})
    assert gone.status_code == 204


def a_season_of_before(app) -> str:
    """A season as stored before seasons had a key (no key's hash)."""
    with app.app_context():
        season_id = club.create_season("Old ladder", "mizerka", **AUTUMN)[0]
        db.session.get(Season, season_id).edit_key_hash = None
        db.session.commit()
    return season_id


def test_a_season_made_before_seasons_had_a_key_is_changed_by_nobody(app, client):
    season_id = a_season_of_before(app)
    url = f"/seasons/{season_id}"
    assert OLD in text_of(page(client, url))
    refused_on_the_pages(app, client, url, said=OLD)
    path = f"/api/v1{url}"
    for headers, status in (({"Authorization": "Bearer any-key-at-all-0123456789"}, 403), ({}, 401)):
        answer = client.patch(path, json={"name": "Vandal"}, headers=headers)
        check_documented("PATCH", path, answer)
        assert answer.status_code == status
    answer = client.delete(path, headers={"Authorization": "Bearer any-key-at-all-0123456789"})
    check_documented("DELETE", path, answer)
    assert (answer.status_code, answer.get_json()["error"]["code"]) == (403, "bad_key")
    assert OLD in answer.get_json()["error"]["message"]
    assert settings(app, season_id)[0] == "Old ladder"


SEASON = (
    "INSERT INTO seasons (id, name, ruleset, preset, starts_on, ends_on, best, created_at)"
    " VALUES ('oldseason0000000', 'Old ladder', 'mizerka', 'standard', '2026-09-01', '2026-12-31', 10,"
    " '2026-11-28 16:30:00')"
)


def test_the_migration_stores_no_key_for_a_season_stored_before(old_app):
    with old_app.app_context():
        upgrade(directory=migrations_dir(), revision="0020")
        db.session.execute(text(SEASON))
        db.session.commit()
        upgrade(directory=migrations_dir())
        row = db.session.execute(
            text("SELECT name, best, edit_key_hash FROM seasons WHERE id = 'oldseason0000000'")
        ).one()
        assert tuple(row) == ("Old ladder", 10, None)
        assert db.session.execute(text("SELECT count(*) FROM season_pencils")).scalar() == 0
        assert club.load_season("oldseason0000000").edit_key_hash is None
        db.session.remove()
    client = old_app.test_client()
    answer = client.patch(
        "/api/v1/seasons/oldseason0000000",
        json={"name": "Vandal"},
        headers={"Authorization": "Bearer " + "x" * 30},
    )
    assert (answer.status_code, answer.get_json()["error"]["code"]) == (403, "bad_key")
    assert OLD in text_of(client.get("/seasons/oldseason0000000").get_data(as_text=True))
