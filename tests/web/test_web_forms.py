"""The forms render the fields (limits from the engine) and their validators ask the engine."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import csrf_from, page, parse_html, start_game

from scorekeeper import services
from scorekeeper.models import NOTE_LENGTH
from scorekeeper.rules import MAX_NAME_LENGTH


def test_the_new_game_fields_carry_the_engines_limits(client: FlaskClient) -> None:
    form = parse_html(page(client, "/games/new?game=misere")).find("form", method="post")
    for seat in range(4):
        assert form.find("input", name=f"players-{seat}").attrs["maxlength"] == str(MAX_NAME_LENGTH)
    assert form.find("input", name="note").attrs["maxlength"] == str(NOTE_LENGTH)
    assert form.find("input", name="played_on").attrs["type"] == "date"
    radios = [node.attrs["value"] for node in form.find_all("input", type="radio", name="first_dealer")]
    assert radios == ["random", "0", "1", "2", "3"]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "x" * (MAX_NAME_LENGTH + 1), "Cid"], "41"),
        (["Ann", "ann", "Cid"], "Two players are called ann"),
        (["Ann", "   ", "Cid"], "Every player needs a name."),
    ],
)
def test_the_new_game_form_refuses_names_as_the_engine_does_before_any_service(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, names: list[str], message: str
) -> None:
    def not_called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the form's validator refuses first")

    token = csrf_from(page(client, "/games/new"))
    monkeypatch.setattr(services, "create_game", not_called)
    data = {"csrf_token": token, "first_dealer": "random", **{f"players-{i}": n for i, n in enumerate(names)}}
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    doc = parse_html(response.get_data(as_text=True))
    assert message in doc.find(id="error-players").text
    assert doc.find("input", name="players-1").attrs["aria-invalid"] == "true"


def test_a_rename_is_refused_by_the_engine_through_the_form(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    start_game(client, ["Ann", "Bob", "Cid"])  # this browser scores Ann's only game: it may rename her
    with app.app_context():
        player_id = services.find_player("Ann").id

    def not_called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the form's validator refuses first")

    html = page(client, f"/players/{player_id}")
    monkeypatch.setattr(services, "rename_player", not_called)
    response = client.post(
        f"/players/{player_id}/rename", data={"csrf_token": csrf_from(html), "name": "y" * 41}
    )
    assert response.status_code == 422
    assert "at most 40" in parse_html(response.get_data(as_text=True)).find(id="error-name").text
