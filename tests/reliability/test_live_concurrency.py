"""Many clients at the same moment against a real gunicorn server (four threaded workers).

Each scenario releases its clients together with a barrier and then checks the
three things that matter at a card table: exactly one submission is stored, the
others get a clean refusal in the contract's shape (never a 500), and the game
still replays to consistent figures, with the database holding no second copy.
"""

from __future__ import annotations

import re
import urllib.parse
from collections import Counter
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

import pytest

from tests.reliability.conftest import Answer, Call, LiveDatabase, LiveServer, race, report

pytestmark = pytest.mark.slow

CLIENTS = 20
PLAYERS = ["Ann", "Bob", "Cid"]
CONTRACTS = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"]
# Every way three players can take 13 tricks, in a fixed order: distinct submissions to tell apart.
TRICKS = [(a, b, 13 - a - b) for a in range(14) for b in range(14 - a)]
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def tricks_of(index: int) -> dict[str, int]:
    return dict(zip(PLAYERS, TRICKS[index % len(TRICKS)], strict=True))


def new_game(server: LiveServer) -> tuple[str, str]:
    answer = server.api("POST", "/games", {"players": PLAYERS, "first_dealer": "Ann"})
    assert answer.status == 201, answer.text
    return answer.json["id"], answer.json["edit_key"]


def game_state(server: LiveServer, game_id: str) -> dict[str, Any]:
    answer = server.api("GET", f"/games/{game_id}")
    assert answer.status == 200, answer.text
    return dict(answer.json)


def play_deals(server: LiveServer, game_id: str, key: str, count: int) -> None:
    """Record ``count`` complete deals one after another, each chooser's first free contract."""
    for _ in range(count):
        state = game_state(server, game_id)
        following = state["next_deal"]
        body = {
            "number": following["number"],
            "contract": following["available_contracts"][0],
            "tricks": tricks_of(following["number"] * 7),
        }
        answer = server.api("POST", f"/games/{game_id}/deals", body, key=key)
        assert answer.status == 201, answer.text


def assert_contract_error(answer: Answer, codes: set[str]) -> str:
    """A refusal in the contract's shape with one of ``codes``; returns the code."""
    assert answer.status == 409, (answer.status, answer.text)
    assert answer.header("Content-Type", "").startswith("application/json")
    body = answer.json
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}, body
    assert body["error"]["code"] in codes, body
    assert body["error"]["message"]
    return str(body["error"]["code"])


def assert_replays(server: LiveServer, database: LiveDatabase, game_id: str) -> dict[str, Any]:
    """The game replays to consistent figures, and the database holds exactly the deals shown."""
    state = game_state(server, game_id)
    deals = state["deals"]
    assert [deal["number"] for deal in deals] == list(range(1, len(deals) + 1))
    running = dict.fromkeys(PLAYERS, 0)
    for deal in deals:
        if deal["tricks"] is None:
            assert deal is deals[-1], "only the last deal may wait for its tricks"
            continue
        assert sum(deal["tricks"].values()) == 13
        assert sum(deal["scores"].values()) == 0, "every deal is zero-sum"
        running = {name: running[name] + deal["scores"][name] for name in PLAYERS}
        assert deal["totals"] == running
    assert state["totals"] == running
    rows = database.rows("SELECT number FROM deals WHERE game_id = :game ORDER BY number", game=game_id)
    assert [row[0] for row in rows] == [deal["number"] for deal in deals], "database and replay differ"
    return state


def no_server_errors(answers: list[Answer]) -> None:
    errors = [answer for answer in answers if answer.status >= 500]
    assert not errors, [(answer.status, answer.text[:300]) for answer in errors]


def test_same_next_deal_posted_by_20_clients_is_stored_once(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """20 clients POST deal N at once, each with its own contract and tricks: one 201, nineteen 409."""
    game_id, key = new_game(live_server)
    refusals: Counter[str] = Counter()
    for number in (1, 2, 3):
        bodies = [
            {"number": number, "contract": CONTRACTS[i % 6], "tricks": tricks_of(i + 20 * number)}
            for i in range(CLIENTS)
        ]
        calls = [
            Call("POST", f"/api/v1/games/{game_id}/deals", body, {"Authorization": f"Bearer {key}"})
            for body in bodies
        ]
        answers = race(live_server, calls)
        no_server_errors(answers)
        winners = [i for i, answer in enumerate(answers) if answer.status == 201]
        assert len(winners) == 1, [answer.status for answer in answers]
        for i, answer in enumerate(answers):
            if i != winners[0]:
                refusals[assert_contract_error(answer, {"wrong_deal_number", "conflict"})] += 1
        state = assert_replays(live_server, live_database, game_id)
        stored = state["deals"][number - 1]
        assert (stored["contract"], stored["tricks"]) == (
            bodies[winners[0]]["contract"],
            bodies[winners[0]]["tricks"],
        )
        assert answers[winners[0]].json["number"] == number
    report(
        request,
        f"API same next deal x3 rounds: {3 * CLIENTS} tried, 3 stored (1 per round), "
        f"refused {dict(refusals)}, 0 duplicated, 0 lost, 0 errors",
    )


def test_a_server_that_loads_the_app_before_forking_keeps_workers_apart(
    start_server: Callable[..., LiveServer], live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """gunicorn --preload: the start-up (schema upgrade) connection must not be shared by the workers."""
    server = start_server(preload=True)
    game_id, key = new_game(server)
    body = {"number": 1, "contract": "hearts", "tricks": tricks_of(5)}
    calls = [
        Call("POST", f"/api/v1/games/{game_id}/deals", body, {"Authorization": f"Bearer {key}"})
    ] * CLIENTS
    answers = race(server, calls)
    no_server_errors(answers)
    statuses = Counter(answer.status for answer in answers)
    assert statuses == {201: 1, 409: CLIENTS - 1}, statuses
    assert len(assert_replays(server, live_database, game_id)["deals"]) == 1
    report(request, f"--preload server, same next deal: {CLIENTS} tried, 1 stored, 0 errors")


def page_client(server: LiveServer, game_id: str, key: str, form: dict[str, Any]) -> Call:
    """A phone holding the pencil: its own session cookie and CSRF token, then the form to post."""
    cookie = f"sk_edit_{game_id}={key}"
    page = server.request("GET", f"/games/{game_id}", headers={"Cookie": cookie})
    assert page.status == 200, page.text[:300]
    session: SimpleCookie = SimpleCookie()
    for line in page.header_list("Set-Cookie"):
        session.load(line)
    # The old key cookie gets the phone a device value at this first visit, taken over at the post.
    assert "scorekeeper_session" in session and "sk_device" in session, page.headers
    match = CSRF_RE.search(page.text)
    assert match, "the game page has no form token"
    body = urllib.parse.urlencode({"csrf_token": match.group(1), **form})
    # As a browser does: the old key cookie (its path is the game's) goes with the post, and the
    # device value given for it is stored there.
    cookies = "; ".join(f"{name}={session[name].value}" for name in ("scorekeeper_session", "sk_device"))
    return Call("POST", f"/games/{game_id}/deals", body, {"Cookie": f"{cookies}; {cookie}"})


def test_same_declaration_through_the_pages_by_20_phones_is_stored_once(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """20 phones, each with its own session and token, tap a contract for deal 1 at once."""
    game_id, key = new_game(live_server)
    forms = [{"number": 1, "contract": CONTRACTS[i % 6]} for i in range(CLIENTS)]
    answers = race(
        live_server, [lambda form=form: page_client(live_server, game_id, key, form) for form in forms]
    )
    no_server_errors(answers)
    state = assert_replays(live_server, live_database, game_id)
    assert len(state["deals"]) == 1
    stored = state["deals"][0]["contract"]
    assert state["deals"][0]["tricks"] is None  # declared, being played
    # The phone whose post was stored is answered as its declaration; every other one (another
    # phone's post is another change, whatever it asks) a friendly 409.
    friendly = 0
    for form, answer in zip(forms, answers, strict=True):
        if answer.status == 303:
            assert form["contract"] == stored
            assert answer.header("Location", "").endswith(f"/games/{game_id}")
            continue
        assert answer.status == 409, (answer.status, answer.text[:300])
        assert answer.header("Content-Type", "").startswith("text/html")
        page = answer.text
        assert "Deal 1 is already recorded" in page or "Someone else changed this game" in page, page[:2000]
        friendly += 1
    assert friendly == CLIENTS - 1
    report(
        request,
        f"pages same declaration: {CLIENTS} tried, 1 stored, {friendly} friendly 409 pages, 0 errors",
    )


def test_concurrent_corrections_with_one_etag_let_exactly_one_through(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """20 corrections of deal 1, all made from the same ETag: one 200, nineteen 409 stale."""
    game_id, key = new_game(live_server)
    play_deals(live_server, game_id, key, 3)
    answer = live_server.api("GET", f"/games/{game_id}")
    etag = answer.header("ETag")
    assert etag, answer.headers
    version = int(etag.strip('"').lstrip("v"))
    before = answer.json
    candidates = [i for i in range(len(TRICKS)) if tricks_of(i) != before["deals"][0]["tricks"]][:CLIENTS]
    headers = {"Authorization": f"Bearer {key}", "If-Match": etag}
    calls = [
        Call("PUT", f"/api/v1/games/{game_id}/deals/1", {"tricks": tricks_of(i)}, headers) for i in candidates
    ]
    answers = race(live_server, calls)
    no_server_errors(answers)
    winners = [i for i, answer in enumerate(answers) if answer.status == 200]
    assert len(winners) == 1, [answer.status for answer in answers]
    refusals = Counter(
        assert_contract_error(answer, {"stale"}) for i, answer in enumerate(answers) if i != winners[0]
    )
    state = assert_replays(live_server, live_database, game_id)
    assert state["deals"][0]["tricks"] == tricks_of(candidates[winners[0]])
    facts = [[(d["contract"], d["tricks"]) for d in game["deals"][1:]] for game in (state, before)]
    assert facts[0] == facts[1], "later deals keep their facts (their totals follow the correction)"
    after = live_server.api("GET", f"/games/{game_id}")
    assert after.header("ETag") == f'"v{version + 1}"', "a refused correction must not touch the game"
    report(
        request,
        f"corrections from one ETag: {CLIENTS} tried, 1 stored, refused {dict(refusals)}, 0 errors",
    )


def test_undo_racing_the_next_deal_ends_as_one_of_the_serial_orders(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """Undo of the last deal and the next deal, five clients each, released together, six rounds.

    Serially, whichever comes first wins and every other request is refused: undo first leaves
    one deal fewer (the next deal's number is then wrong); the deal first leaves one more (the
    undone deal is then not the last).  Any other end state is a lost or half-applied write.
    """
    game_id, key = new_game(live_server)
    play_deals(live_server, game_id, key, 8)
    outcomes: Counter[str] = Counter()
    auth = {"Authorization": f"Bearer {key}"}
    for round_number in range(6):
        before = game_state(live_server, game_id)
        last = len(before["deals"])
        following = before["next_deal"]
        new_deal = {
            "number": following["number"],
            "contract": following["available_contracts"][0],
            "tricks": tricks_of(round_number * 11 + 3),
        }
        calls: list[Call] = []
        for _ in range(5):
            calls.append(Call("DELETE", f"/api/v1/games/{game_id}/deals/{last}", None, auth))
            calls.append(Call("POST", f"/api/v1/games/{game_id}/deals", new_deal, auth))
        answers = race(live_server, calls)
        no_server_errors(answers)
        successes = [
            (call.method, answer.status)
            for call, answer in zip(calls, answers, strict=True)
            if answer.status < 300
        ]
        assert len(successes) == 1, [
            (call.method, answer.status) for call, answer in zip(calls, answers, strict=True)
        ]
        undo_won = successes[0] == ("DELETE", 204)
        assert undo_won or successes[0] == ("POST", 201), successes
        for call, answer in zip(calls, answers, strict=True):
            if answer.status < 300:
                continue
            if call.method == "POST":
                assert_contract_error(answer, {"wrong_deal_number", "conflict"})
            elif undo_won:  # the deal is gone: a second undo of it finds nothing (or met a conflict)
                assert answer.status in (404, 409), answer.text
                assert answer.json["error"]["code"] in {"not_found", "conflict"}
            else:
                assert_contract_error(answer, {"not_last_deal", "conflict"})
        expected = [(d["number"], d["contract"], d["tricks"]) for d in before["deals"]]
        if undo_won:
            expected = expected[:-1]
        else:
            expected.append((new_deal["number"], new_deal["contract"], new_deal["tricks"]))
        state = assert_replays(live_server, live_database, game_id)
        assert [(d["number"], d["contract"], d["tricks"]) for d in state["deals"]] == expected
        outcomes["undo first" if undo_won else "deal first"] += 1
    report(
        request,
        f"undo vs next deal: 6 rounds x 10 requests, 1 applied per round ({dict(outcomes)}), "
        "every end state a serial order, 0 errors",
    )


def test_games_started_at_once_with_the_same_new_names_share_one_person_each(
    live_server: LiveServer, live_database: LiveDatabase, request: pytest.FixtureRequest
) -> None:
    """20 games created at once by people nobody has seen before: every game made, no duplicate person."""
    names = ["Dora", "Emil", "Fynn"]
    calls = [
        Call("POST", "/api/v1/games", {"players": names, "first_dealer": "Dora"}) for _ in range(CLIENTS)
    ]
    answers = race(live_server, calls)
    no_server_errors(answers)
    statuses = Counter(answer.status for answer in answers)
    assert statuses == {201: CLIENTS}, statuses
    people = live_database.rows("SELECT name_key FROM players ORDER BY name_key")
    assert [row[0] for row in people] == ["dora", "emil", "fynn"]
    games = live_database.rows("SELECT COUNT(*) FROM games")
    assert games[0][0] == CLIENTS
    report(request, f"games with the same new names: {CLIENTS} created, 3 people stored, 0 errors")
