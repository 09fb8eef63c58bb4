"""Export and import: nothing lost on the way out and back, nothing stored from a bad file.

A game goes out as JSON (page, API, CLI) and comes back as a new game with
a new id and key whose scores, standings and scoresheet are the original's;
the CSV deal log is checked against literal rows; tampered files are
refused with a clear message and leave every table as it was.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import unicodedata
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    MIZERKA_DEALS,
    csrf_from,
    db_snapshot,
    edit_key,
    follow,
    game_count,
    page,
    parse_html,
    start_game,
    start_mizerka,
    text_of,
)

from scorekeeper import services, transfer
from scorekeeper.extensions import db
from scorekeeper.models import Game

API = "/api/v1"
MISERE_PLAYERS = ["Pia", "Quin", "Rosa", "Sven"]
# Misère deals by seat (Pia, Quin, Rosa, Sven); Pia deals first, so Sven deals deal 4 and 8.
MISERE_DEALS: list[tuple[list[int] | None, list[int]]] = [
    ([3, 0, 5, 4], [4, 3, 1, 5]),
    ([2, 2, 2, 2], [2, 2, 2, 7]),
    ([0, 6, 1, 0], [0, 6, 1, 6]),
    ([4, 4, 4, 0], [4, 4, 4, 1]),
    ([1, 5, 5, 1], [1, 5, 5, 2]),
    ([3, 3, 3, 3], [3, 3, 3, 4]),
    (None, [2, 5, 3, 3]),
    (None, [0, 6, 4, 3]),
]


def state(client: FlaskClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"{API}/games/{game_id}")
    assert response.status_code == 200
    answer: dict[str, Any] = response.get_json()
    return answer


def without_id(game: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in game.items() if key not in ("id", "edit_key")}


def scoresheet(client: FlaskClient, game_id: str) -> str:
    """The printable scoresheet with the game's id taken out, as a new visitor sees it (no flashes)."""
    return page(client.application.test_client(), f"/games/{game_id}/scoresheet").replace(game_id, "GAME")


def exported(client: FlaskClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.get_data(as_text=True))
    return data


def import_page(client: FlaskClient, data: dict[str, Any]) -> Any:
    """Post the import form (CSRF token from the page itself)."""
    token = csrf_from(page(client, "/games/import"))
    return client.post(
        "/games/import", data={"csrf_token": token, **data}, content_type="multipart/form-data"
    )


def new_id(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    match = re.fullmatch(r"/games/([A-Za-z0-9_-]+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def misere_game(client: FlaskClient) -> tuple[str, str]:
    """The whole Misère game above, variant scoring, through the API: its id and key."""
    created = client.post(
        f"{API}/games",
        json={
            "ruleset": "misere",
            "players": MISERE_PLAYERS,
            "first_dealer": "Pia",
            "options": {"scoring": "variant"},
        },
    ).get_json()
    game_id, key = created["id"], created["edit_key"]
    for bids, tricks in MISERE_DEALS:
        body: dict[str, Any] = {"tricks": dict(zip(MISERE_PLAYERS, tricks, strict=True))}
        if bids is not None:
            body["bids"] = dict(zip(MISERE_PLAYERS, bids, strict=True))
        response = client.post(
            f"{API}/games/{game_id}/deals", json=body, headers={"Authorization": f"Bearer {key}"}
        )
        assert response.status_code == 201, response.get_json()
    return game_id, key


# -- round trips -----------------------------------------------------------------------------------


def test_a_whole_mizerka_game_comes_back_the_same_through_the_pages(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=18)
    original = state(client, game_id)
    assert original["status"] == "finished"

    export = exported(client, game_id)
    assert list(export) == list(transfer.FIELDS)
    assert export["format"] == "scorekeeper-game" and export["version"] == 1
    assert export["players"] == ["Ann", "Bob", "Cid"] and export["first_dealer"] == "Cid"
    assert export["deals"][0] == {
        "number": 1,
        "contract": "hearts",
        "bids": None,
        "tricks": {"Ann": 8, "Bob": 4, "Cid": 1},
    }
    assert len(export["deals"]) == 18

    upload = io.BytesIO(json.dumps(export).encode())
    # The game is still here: the page asked first (see the test below), this is "import anyway".
    response = import_page(client, {"file": (upload, "game.json"), "again": "1"})
    copy_id = new_id(response)
    assert copy_id != game_id
    html = follow(client, response)
    assert "Imported the Mizerka game of Ann, Bob, Cid" in text_of(html)

    imported = state(client, copy_id)
    assert without_id(imported) == without_id(original)
    assert [(s["player"], s["total"], s["rank"]) for s in imported["standings"]] == [
        ("Ann", 3, 1),
        ("Bob", 3, 1),
        ("Cid", -6, 3),
    ]
    assert scoresheet(client, copy_id) == scoresheet(client, game_id)
    # The importing browser holds the new game's pencil (a grant in its keyring), with a key of its own.
    assert parse_html(page(client, f"/games/{copy_id}")).first("form", cls="rematch-form")
    with client.application.app_context():
        games = db.session.query(Game).filter(Game.id.in_([copy_id, game_id]))
        hashes = {game.edit_key_hash for game in games}
    assert len(hashes) == 2


def test_a_whole_misere_game_comes_back_the_same_through_the_api(client: FlaskClient) -> None:
    game_id, key = misere_game(client)
    original = state(client, game_id)
    assert original["status"] == "finished" and original["options"] == {"scoring": "variant"}

    export = client.get(f"{API}/games/{game_id}/export").get_json()
    assert export["deals"][0]["bids"] == {"Pia": 3, "Quin": 0, "Rosa": 5, "Sven": 4}
    assert export["deals"][6]["bids"] is None and export["deals"][6]["contract"] == "ciapa-ciapa"

    response = client.post(f"{API}/games/import", json=export)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    copy_id, copy_key = created["id"], created["edit_key"]
    assert response.headers["Location"] == f"{API}/games/{copy_id}"
    assert copy_id != game_id and copy_key != key and len(copy_key) >= 22
    assert without_id(created) == without_id(original)
    assert without_id(state(client, copy_id)) == without_id(original)
    assert scoresheet(client, copy_id) == scoresheet(client, game_id)
    # The new key writes to the new game (undo its last deal), and the old key does not.
    assert (
        client.delete(
            f"{API}/games/{copy_id}/deals/8", headers={"Authorization": f"Bearer {key}"}
        ).status_code
        == 403
    )
    assert (
        client.delete(
            f"{API}/games/{copy_id}/deals/8", headers={"Authorization": f"Bearer {copy_key}"}
        ).status_code
        == 204
    )
    assert state(client, game_id)["status"] == "finished"


def test_an_unfinished_game_with_a_pending_deal_and_its_date_and_note_come_back(client: FlaskClient) -> None:
    game_id = start_game(
        client, ["Ann", "Bob", "Cid"], first_dealer="2", played_on="2026-03-14", note="Club night"
    )
    key = edit_key(client, game_id)
    auth = {"Authorization": f"Bearer {key}"}
    client.post(
        f"{API}/games/{game_id}/deals",
        json={"contract": "hearts", "tricks": {"Ann": 8, "Bob": 4, "Cid": 1}},
        headers=auth,
    )
    client.post(f"{API}/games/{game_id}/deals", json={"contract": "clubs"}, headers=auth)
    export = client.get(f"{API}/games/{game_id}/export").get_json()
    assert export["played_on"] == "2026-03-14" and export["note"] == "Club night"
    assert export["deals"][1] == {"number": 2, "contract": "clubs", "bids": None, "tricks": None}

    created = client.post(f"{API}/games/import", json=export).get_json()
    copy = state(client, created["id"])
    assert without_id(copy) == without_id(state(client, game_id))
    assert copy["deals"][1]["pending"] is True and copy["next_deal"] is None
    assert client.get(f"{API}/games/{created['id']}/export").get_json() == export
    assert scoresheet(client, created["id"]) == scoresheet(client, game_id)


def test_the_cli_exports_and_imports(app: Flask, client: FlaskClient, tmp_path: Any) -> None:
    game_id = start_mizerka(client, deals=5)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export-game", game_id])
    assert result.exit_code == 0, result.output
    export = json.loads(result.output)
    assert export == client.get(f"{API}/games/{game_id}/export").get_json()

    path = tmp_path / "game.json"
    path.write_text(result.output, encoding="utf-8")
    result = runner.invoke(args=["import-game", str(path)])
    assert result.exit_code == 0, result.output
    copy_id = re.search(r"Imported game ([A-Za-z0-9_-]+) ", result.output)
    assert copy_id, result.output
    assert "Edit key (shown once): " in result.output
    assert without_id(state(client, copy_id.group(1))) == without_id(state(client, game_id))

    result = runner.invoke(args=["import-game", "-"], input=json.dumps({**export, "ruleset": "whist"}))
    assert result.exit_code != 0 and "Not imported: There is no game called whist" in result.output
    result = runner.invoke(args=["import-game", "-"], input="{not json")
    assert result.exit_code != 0 and "not valid JSON" in result.output
    result = runner.invoke(args=["export-game", "nosuchgame"])
    assert result.exit_code != 0 and "no such game" in result.output


# -- CSV ---------------------------------------------------------------------------------------------

CSV_NAMES = ["Ann", "=SUM(A1)", 'Zoë "Z", Jr']


def test_the_csv_deal_log_for_spreadsheets(client: FlaskClient) -> None:
    """Names made formula-safe and quoted properly; numbers stay numbers; a pending deal is blank."""
    created = client.post(
        f"{API}/games", json={"players": CSV_NAMES, "first_dealer": CSV_NAMES[2]}
    ).get_json()
    game_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_key']}"}
    for deal in MIZERKA_DEALS[:3]:
        body = {"contract": deal.contract, "tricks": dict(zip(CSV_NAMES, deal.tricks, strict=True))}
        assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=auth).status_code == 201
    assert (
        client.post(f"{API}/games/{game_id}/deals", json={"contract": "mizerka"}, headers=auth).status_code
        == 201
    )

    watcher = client.application.test_client()  # anyone who can read the game can export it
    response = watcher.get(f"/games/{game_id}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv" and response.mimetype_params["charset"] == "utf-8"
    assert (
        response.headers["Content-Disposition"] == f'attachment; filename="scorekeeper-mizerka-{game_id}.csv"'
    )
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")  # a byte-order mark: spreadsheets then read UTF-8 names right
    assert body.decode("utf-8-sig").split("\r\n") == [
        "deal,dealer,chooser,contract,"
        'Ann tricks,\'=SUM(A1) tricks,"Zoë ""Z"", Jr tricks",'
        'Ann score,\'=SUM(A1) score,"Zoë ""Z"", Jr score",'
        'Ann total,\'=SUM(A1) total,"Zoë ""Z"", Jr total"',
        '1,"Zoë ""Z"", Jr",Ann,Hearts,8,4,1,1,-1,0,1,-1,0',
        "2,Ann,'=SUM(A1),Clubs,2,6,5,1,-1,0,2,-2,0",
        '3,\'=SUM(A1),"Zoë ""Z"", Jr",Mizerka,4,9,0,1,-2,1,3,-4,1',
        '4,"Zoë ""Z"", Jr",Ann,Mizerka,,,,,,,,,',
        "",
    ]
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[2][2] == "'=SUM(A1)" and rows[1][1] == 'Zoë "Z", Jr' and rows[3][8] == "-2"


@pytest.mark.parametrize(
    "names",
    [
        ["\uff1dSUM(A1)", "\uff0bBob", "\uff20Cid"],  # full-width = + @: NFKC makes them = + @
        ["\ufe66x", "\u207a1", "\uff0d2"],  # small equals, superscript plus, full-width minus
        ["\u2a751", "\u22121", "\ufe6bAnn"],  # two equals signs in one, the minus sign, small @
    ],
)
def test_the_csv_guards_every_character_that_starts_a_formula_once_normalised(
    client: FlaskClient, names: list[str]
) -> None:
    created = client.post(f"{API}/games", json={"players": names, "first_dealer": names[0]})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    auth = {"Authorization": f"Bearer {created.get_json()['edit_key']}"}
    body = {"contract": "hearts", "tricks": dict(zip(names, [8, 4, 1], strict=True))}
    assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=auth).status_code == 201
    text = client.get(f"/games/{game_id}/export.csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4:7] == [f"'{name} tricks" for name in names]
    assert rows[1][1:3] == [f"'{names[0]}", f"'{names[1]}"]
    for row in rows:
        for cell in row:
            read = unicodedata.normalize("NFKC", cell)
            assert not read or read[0] not in "=+-@\u2212" or cell.lstrip("-").isdigit(), cell


def test_the_csv_of_a_misere_game_has_the_bids(client: FlaskClient) -> None:
    game_id, _ = misere_game(client)
    lines = client.get(f"/games/{game_id}/export.csv").get_data().decode("utf-8-sig").split("\r\n")
    assert lines[0] == (
        "deal,dealer,chooser,contract,Pia bid,Quin bid,Rosa bid,Sven bid,"
        "Pia tricks,Quin tricks,Rosa tricks,Sven tricks,Pia score,Quin score,Rosa score,Sven score,"
        "Pia total,Quin total,Rosa total,Sven total"
    )
    # Variant scoring: bid made 10 + bid (0 made: 25), missed: the tricks taken.
    assert lines[1] == "1,Pia,,Hearts,3,0,5,4,4,3,1,5,4,3,1,5,4,3,1,5"
    assert lines[7] == "7,Rosa,,Ciapa-ciapa,,,,,2,5,3,3,6,15,9,9,85,88,75,34"
    assert lines[8] == "8,Sven,,Misère,,,,,0,6,4,3,0,-18,-12,-9,85,70,63,25"
    assert len(lines) == 10 and lines[-1] == ""


# -- the pages ---------------------------------------------------------------------------------------


def test_export_links_and_downloads(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    doc = parse_html(page(client, f"/games/{game_id}"))
    links = {a.attrs.get("href") for a in doc.find_all("a")}
    assert {f"/games/{game_id}/export.json", f"/games/{game_id}/export.csv"} <= links
    assert "/games/import" in {a.attrs.get("href") for a in parse_html(page(client, "/")).find_all("a")}

    watcher = client.application.test_client()
    response = watcher.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert (
        response.headers["Content-Disposition"]
        == f'attachment; filename="scorekeeper-mizerka-{game_id}.json"'
    )
    assert "edit" not in response.get_data(as_text=True)  # no key, no key hash
    for suffix in ("json", "csv"):
        assert watcher.get(f"/games/nosuchgame/export.{suffix}").status_code == 404
    assert client.get(f"{API}/games/nosuchgame/export").status_code == 404


def test_the_import_page_takes_pasted_text_and_needs_its_csrf_token(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=3)
    export = exported(client, game_id)
    other = app.test_client()
    before = db_snapshot(app)
    response = other.post("/games/import", data={"text": json.dumps(export)})
    assert response.status_code == 400
    assert db_snapshot(app) == before

    copy_id = new_id(import_page(other, {"text": json.dumps(export, indent=2), "again": "1"}))
    assert without_id(state(other, copy_id)) == without_id(state(client, game_id))
    # This browser now holds the pencil of the copy, and only of the copy.
    token = csrf_from(page(other, f"/games/{copy_id}"))
    response = other.post(
        f"/games/{copy_id}/deals", data={"csrf_token": token, "number": 4, "contract": "spades"}
    )
    assert response.status_code == 303
    response = other.post(
        f"/games/{game_id}/deals", data={"csrf_token": token, "number": 4, "contract": "spades"}
    )
    assert response.status_code == 403


def test_importing_a_game_that_is_already_here_asks_first(app: Flask, client: FlaskClient) -> None:
    """Its own export brought back would count the game twice in the rankings: warn, let the user cancel."""
    game_id = start_mizerka(client, deals=18)
    export = exported(client, game_id)
    before = db_snapshot(app)
    upload = io.BytesIO(json.dumps(export).encode())
    response = import_page(client, {"file": (upload, "game.json")})
    assert response.status_code == 409
    assert db_snapshot(app) == before, "nothing stored before the person decides"
    doc = parse_html(response.get_data(as_text=True))
    warning = doc.find(id="already-here")
    assert "This game is already here." in warning.text
    assert warning.find("a", href=f"/games/{game_id}").text == "Open the game that is here"
    assert warning.find("a", href="/").text == "Cancel"
    # The file's text waits in the form, so a second copy needs no second upload.
    form = doc.find("form", action="/games/import")
    assert json.loads(form.find("textarea").text) == export
    assert form.find("input", name="again").attrs["value"] == "1"
    assert form.find("button").text == "Import a second copy"
    copy_id = new_id(import_page(client, {"text": form.find("textarea").text, "again": "1"}))
    assert copy_id != game_id
    assert without_id(state(client, copy_id)) == without_id(state(client, game_id))

    # A game that is not here (another database, or deleted) imports without a question.
    other = copy.deepcopy(export)
    other["created_at"] = "2020-01-02T03:04:05+00:00"
    assert new_id(import_page(client, {"text": json.dumps(other)}))


# -- refusals ----------------------------------------------------------------------------------------


def tampered(export: dict[str, Any], how: str) -> Any:
    """The export spoiled one way; each must be refused with nothing stored."""
    bad = copy.deepcopy(export)
    deals = bad["deals"]
    if how == "contract twice":
        deals[3]["contract"] = "hearts"  # Ann chooses deals 1 and 4: hearts twice
    elif how == "tricks not 13":
        deals[1]["tricks"]["Ann"] += 1
    elif how == "unknown ruleset":
        bad["ruleset"] = "whist"
    elif how == "wrong format":
        bad["format"] = "scorekeeper-gam"
    elif how == "newer version":
        bad["version"] = 2
    elif how == "deals out of order":
        deals[1]["number"], deals[2]["number"] = 3, 2
    elif how == "pending deal in the middle":
        deals[2]["tricks"] = None
    elif how == "wrong player in tricks":
        deals[0]["tricks"] = {"Ann": 8, "Bob": 4, "Dan": 1}
    elif how == "tricks as a list":
        deals[0]["tricks"] = [8, 4, 1]
    elif how == "a deal too many":
        bad["deals"] = deals + [dict(deals[0], number=n) for n in range(len(deals) + 1, 20)]
    elif how == "unknown field":
        bad["edit_key"] = "x" * 32
    elif how == "names repeated":
        bad["players"] = ["Ann", "ann", "Cid"]
    elif how == "bad date":
        bad["created_at"] = "yesterday"
    elif how == "not an object":
        bad = [bad]
    return bad


REFUSALS = {
    "contract twice": ("contract_used", "Deal 4: Ann has already played Hearts (deal 1)"),
    "tricks not 13": ("tricks_sum", "Deal 2: Tricks must add up to 13 (got 14)."),
    "unknown ruleset": ("unknown_ruleset", "There is no game called whist"),
    "wrong format": ("invalid_export", "This is not a Scorekeeper game export"),
    "newer version": ("invalid_export", "export version 2; this Scorekeeper reads version 1"),
    "deals out of order": (
        "invalid_export",
        "Deal 2: the deals must be numbered 1, 2, 3... in order (found 3).",
    ),
    "pending deal in the middle": ("invalid_export", "Deal 4: Deal 3 has no tricks yet"),
    "wrong player in tricks": ("tricks_players", "Deal 1: Dan is not playing in this game"),
    "tricks as a list": ("tricks_players", "Deal 1: the tricks must be an object keyed by player name."),
    "a deal too many": ("invalid_export", "Mizerka has 18 deals; this file has 19."),
    "unknown field": ("invalid_export", "Unknown field 'edit_key'"),
    "names repeated": ("invalid_players", "Two players are called ann"),
    "bad date": ("invalid_export", "created_at must be a date and time"),
    "not an object": ("invalid_export", "The file must hold one JSON object"),
}


@pytest.fixture
def full_export() -> dict[str, Any]:
    """The hand-scored 18-deal game of helpers.py as an export, written out without the app."""
    return {
        "format": "scorekeeper-game",
        "version": 1,
        "ruleset": "mizerka",
        "options": {},
        "players": ["Ann", "Bob", "Cid"],
        "first_dealer": "Cid",
        "created_at": "2026-03-14T19:30:00+00:00",
        "played_on": "2026-03-14",
        "note": None,
        "deals": [
            {
                "number": deal.number,
                "contract": deal.contract,
                "bids": None,
                "tricks": dict(zip(["Ann", "Bob", "Cid"], deal.tricks, strict=True)),
            }
            for deal in MIZERKA_DEALS
        ],
    }


def test_the_written_out_export_imports(app: Flask, full_export: dict[str, Any]) -> None:
    """The file the refusal tests spoil is itself good: every refusal below is the spoiling's."""
    with app.app_context():
        loaded, _ = transfer.import_game(full_export)
        assert [seat.total for seat in loaded.state.standings] == [3, 3, -6]
        assert loaded.created_at.isoformat() == "2026-03-14T19:30:00"


@pytest.mark.parametrize("how", list(REFUSALS))
def test_a_tampered_file_is_refused_with_nothing_stored(
    app: Flask, client: FlaskClient, full_export: dict[str, Any], how: str
) -> None:
    code, message = REFUSALS[how]
    bad = tampered(full_export, how)
    before, games = db_snapshot(app), game_count(app)

    with pytest.raises(transfer.RuleError) as refused, app.app_context():
        transfer.import_game(bad)
    assert (refused.value.code, message in refused.value.message) == (code, True), refused.value.message

    response = client.post(f"{API}/games/import", json=bad)
    api_code = "bad_json" if how == "not an object" else "unknown_field" if how == "unknown field" else code
    assert (response.status_code, response.get_json()["error"]["code"]) == (
        400 if how == "not an object" else 422,
        api_code,
    ), response.get_json()
    if api_code == code:
        assert message in response.get_json()["error"]["message"]

    response = import_page(client, {"file": (io.BytesIO(json.dumps(bad).encode()), "game.json")})
    assert response.status_code == 422
    assert message in text_of(response.get_data(as_text=True))

    assert db_snapshot(app) == before and game_count(app) == games


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (b"", "Choose an exported .json file, or paste its text."),
        (b"{not json", "The file is not valid JSON (line 1, column 2)."),
        (b"\xff\xfe\x00garbage", "The file is not"),
        (b"[" * 10_000, "The file is not valid JSON"),
    ],
)
def test_the_import_page_explains_an_unreadable_file(
    app: Flask, client: FlaskClient, upload: bytes, message: str
) -> None:
    before = db_snapshot(app)
    response = import_page(client, {"file": (io.BytesIO(upload), "game.json")})
    assert response.status_code == 422
    assert message in text_of(response.get_data(as_text=True))
    assert db_snapshot(app) == before


def test_game_ids_never_start_like_a_command_line_option() -> None:
    # One draw in 32 starts with "-" or "_": 2,000 draws meet them about 60 times.
    ids = [services.new_game_id() for _ in range(2000)]
    assert all(game_id[0].isalnum() for game_id in ids)
    assert all(len(game_id) == 11 for game_id in ids)
    assert len(set(ids)) == len(ids)
