"""A club night through its pages: the director's, the check-in, a player's phone, the projector."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper import services
from tests.helpers import csrf_from, follow, page, parse_html, text_of

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def new_night(client: FlaskClient, **fill: str) -> str:
    html = page(client, "/nights/new")
    data = {
        "csrf_token": csrf_from(html),
        "name": "Thursday club",
        "game": "misere:standard",
        "rounds": "3",
        "seating": "mix",
        "first_round": "random",
        "played_on": "",
        **fill,
    }
    response = client.post("/nights/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    match = re.search(r"/nights/([A-Za-z0-9_-]+)$", response.headers["Location"])
    assert match
    return match.group(1)


def load(app, night_id: str):
    """The night as the services read it (outside any request)."""
    with app.app_context():
        return services.nights.load_night(night_id)


def post(client: FlaskClient, night_id: str, path: str, **data: str):
    html = page(client, f"/nights/{night_id}")
    return client.post(f"/nights/{night_id}{path}", data={"csrf_token": csrf_from(html), **data})


def test_new_night_refuses_a_missing_name_at_its_field(client):
    html = page(client, "/nights/new")
    game = parse_html(html).find("select", name="game")
    values = [option.attrs["value"] for option in game.find_all("option")]
    assert "misere:standard" in values
    response = client.post(
        "/nights/new",
        data={
            "csrf_token": csrf_from(html),
            "name": " ",
            "game": "misere:standard",
            "seating": "mix",
            "first_round": "random",
        },
    )
    assert response.status_code == 422
    assert (
        parse_html(response.get_data(as_text=True)).find("p", id="error-name").text
        == "Give the night a name."
    )


def test_a_director_runs_a_round_and_other_phones_follow(app, client):
    night_id = new_night(client)
    # Players check in on their own phones through the check-in page (no pencil needed).
    phone = app.test_client()
    for name in NAMES:
        html = page(phone, f"/nights/{night_id}/check-in")
        response = phone.post(
            f"/nights/{night_id}/check-in", data={"csrf_token": csrf_from(html), "name": name}
        )
        assert response.status_code == 303
    html = page(client, f"/nights/{night_id}")
    assert "Players present 9" in text_of(html)
    # Another phone is no director: the night's address takes it to the players' page.
    assert phone.get(f"/nights/{night_id}").status_code == 302
    token = csrf_from(page(phone, f"/nights/{night_id}/check-in"))
    assert phone.post(f"/nights/{night_id}/seat", data={"csrf_token": token}).status_code == 403

    assert follow(client, post(client, night_id, "/seat"))
    html = page(client, f"/nights/{night_id}")
    assert "Next: round 1" in text_of(html)
    assert "0 pairs have met before at these tables." in text_of(html)
    html = follow(client, post(client, night_id, "/start"))
    text = text_of(html)
    assert "Round 1" in text and "Table 1" in text and "Table 2" in text
    # Each playing table shows its scoring link: a hand-over to the game's take page.
    links = re.findall(r'href="(http://localhost/games/[^"#]+/take#[0-9a-f]+)"', html)
    assert len(links) == 2
    # The first phone that opens a table's link takes the table's pencil.
    scorer = app.test_client()
    url = links[0].replace("http://localhost", "")
    path, token = url.split("#")
    take = page(scorer, path)
    answer = scorer.post(path, data={"csrf_token": csrf_from(take), "key": token})
    assert answer.status_code == 303
    game_id = path.split("/")[2]
    assert "Record" in page(scorer, f"/games/{game_id}") or scorer.get(f"/games/{game_id}").status_code == 200

    # The projector: both tables, their first dealers, the standings (nobody scored yet: all 0).
    screen = page(phone, f"/nights/{night_id}/screen")
    tables = parse_html(screen).find_all("li", cls="screen-table")
    assert len(tables) == 2
    assert all(len(t.find_all("li", cls="dealer")) == 1 for t in tables)
    assert len(parse_html(screen).find("section", cls="screen-standings").find_all("li")) == 9

    # A player's phone: tap your name, see your table and seat.
    view = load(app, night_id)
    table = view.rounds[0].tables[0]
    player = table.seats[1]
    mine = text_of(page(phone, f"/nights/{night_id}/me/{player}"))
    assert "Round 1 · Table 1" in mine and "Seat 2" in mine
    out = view.rounds[0].sitting_out[0]
    assert "You sit this round out." in text_of(page(phone, f"/nights/{night_id}/me/{out}"))

    # The next round cannot start while tables play; the refusal is said on the page, nothing changes.
    refused = post(client, night_id, "/start")
    assert refused.status_code == 409
    assert "Round 1 is still being played" in text_of(refused.get_data(as_text=True))
    for number in (1, 2):
        follow(client, post(client, night_id, f"/tables/1/{number}/close"))
    html = page(client, f"/nights/{night_id}")
    assert text_of(html).count("unfinished") >= 2
    follow(client, post(client, night_id, "/start"))
    assert "Round 2" in text_of(page(client, f"/nights/{night_id}"))
    cards = text_of(page(phone, f"/nights/{night_id}/cards"))
    assert "Round 2 · Table 1" in cards and "deals first" in cards


def test_the_director_swaps_two_players_of_the_next_round(app, client):
    night_id = new_night(client)
    for name in NAMES[:8]:
        post(client, night_id, "/players", name=name)
    follow(client, post(client, night_id, "/seat"))
    view = load(app, night_id)
    a, b = view.rounds[0].tables[0].seats[0], view.rounds[0].tables[1].seats[0]
    follow(client, post(client, night_id, "/swap", first=str(a), second=str(b)))
    view = load(app, night_id)
    assert view.rounds[0].tables[0].seats[0] == b
    refused = post(client, night_id, "/swap", first=str(a), second=str(a))
    assert refused.status_code == 422
    assert "Choose two different players of the round." in text_of(refused.get_data(as_text=True))


def test_hidden_standings_on_the_projector_until_the_round_ends(client):
    night_id = new_night(client, hide_standings="y")
    for name in NAMES[:4]:
        post(client, night_id, "/players", name=name)
    follow(client, post(client, night_id, "/seat"))
    follow(client, post(client, night_id, "/start"))
    screen = text_of(page(client, f"/nights/{night_id}/screen"))
    assert "Standings hidden until the round ends." in screen
    follow(client, post(client, night_id, "/tables/1/1/close"))
    screen = text_of(page(client, f"/nights/{night_id}/screen"))
    assert "Standings hidden" not in screen


def test_night_pages_answer_404_for_an_unknown_night(client):
    for path in ("", "/screen", "/check-in", "/me", "/cards"):
        assert client.get(f"/nights/nosuchnight{path}").status_code == 404


def test_the_check_in_page_offers_the_names_of_earlier_nights(app, client):
    earlier = new_night(client)
    for name in NAMES[:4]:
        post(client, earlier, "/players", name=name)
    tonight = new_night(client, name="Next Thursday")
    post(client, tonight, "/players", name="Ann")
    phone = app.test_client()
    html = page(phone, f"/nights/{tonight}/check-in")
    tapped = [button.text for button in parse_html(html).find("ul", cls="tap-names").find_all("button")]
    # Those of the earlier night not here yet, by name; Ann is here already.
    assert tapped == ["Bob", "Cid", "Dan"]
    form = parse_html(html).find("ul", cls="tap-names").find_all("form")[1]
    response = phone.post(form.attrs["action"], data={"csrf_token": csrf_from(html), "name": "Cid"})
    assert response.status_code == 303
    assert [p.name for p in load(app, tonight).players] == ["Ann", "Cid"]
    # A name the app cannot take: said at the field, nobody added.
    refused = phone.post(
        f"/nights/{tonight}/check-in", data={"csrf_token": csrf_from(html), "name": "x" * 200}
    )
    assert refused.status_code == 422
    assert parse_html(refused.get_data(as_text=True)).find("p", id="error-name") is not None
    assert len(load(app, tonight).players) == 2


def test_the_director_hands_the_night_over_to_another_phone(app, client):
    night_id = new_night(client)
    answer = post(client, night_id, "/hand-over")
    assert answer.status_code == 200
    link = re.search(r"http://localhost(/nights/[^/]+/take)#([A-Za-z0-9_-]+)", answer.get_data(as_text=True))
    assert link is not None
    path, token = link.groups()
    other = app.test_client()
    take = page(other, path)
    assert other.post(path, data={"csrf_token": csrf_from(take), "key": token}).status_code == 303
    assert "Players present" in page(other, f"/nights/{night_id}")
    # The code works once.
    third = app.test_client()
    again = third.post(path, data={"csrf_token": csrf_from(page(third, path)), "key": token})
    assert again.status_code == 403
    assert "already been used" in text_of(again.get_data(as_text=True))


def test_round_one_in_the_directors_order(app, client):
    night_id = new_night(client, first_round="order", rounds="1")
    for name in NAMES[:8]:
        post(client, night_id, "/players", name=name)
    hal = next(p.id for p in load(app, night_id).players if p.name == "Hal")
    follow(client, post(client, night_id, f"/players/{hal}/up"))
    order = [p.name for p in load(app, night_id).players]
    assert order == ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Hal", "Gus"]
    follow(client, post(client, night_id, "/seat"))
    view = load(app, night_id)
    names = view.names
    assert [[names[p] for p in t.seats] for t in view.rounds[0].tables] == [
        ["Ann", "Bob", "Cid", "Dan"],
        ["Eve", "Fay", "Hal", "Gus"],
    ]


def test_the_round_clock_starts_and_shows_on_the_projector(app, client):
    night_id = new_night(client)
    for name in NAMES[:4]:
        post(client, night_id, "/players", name=name)
    follow(client, post(client, night_id, "/seat"))
    follow(client, post(client, night_id, "/start"))
    refused = post(client, night_id, "/clock", minutes="5")
    assert refused.status_code == 422
    assert "Minutes: a whole number from 10 to 180." in text_of(refused.get_data(as_text=True))
    follow(client, post(client, night_id, "/clock", minutes="30"))
    view = load(app, night_id)
    assert view.clock_minutes == 30 and view.clock_started_at is not None
    screen = parse_html(page(client, f"/nights/{night_id}/screen"))
    clock = screen.find("p", cls="clock")
    assert clock is not None and clock.attrs["data-ends"].endswith("Z")


def _rate_three(app):
    """One finished game of Mizerka: Ann and Bob tie first, Cid last (DEALS leave +3, +3, -6)."""
    from tests.perf.perf_support import DEALS

    with app.app_context():
        game, _ = services.create_game("mizerka", ["Ann", "Bob", "Cid"], "Ann")
        for number, (contract, tricks) in enumerate(DEALS, start=1):
            services.record_deal(
                game.id,
                number=number,
                contract=contract,
                tricks=dict(zip(["Ann", "Bob", "Cid"], tricks, strict=True)),
            )


def test_round_one_by_rating_from_the_page_and_the_api(app, client):
    _rate_three(app)
    html = page(client, "/nights/new")
    assert "By rating: the highest first" in text_of(html)
    game = next(
        value for value in re.findall(r'<option[^>]*value="([^"]+)"', html) if value.startswith("mizerka")
    )
    night_id = new_night(client, game=game, first_round="rating", rounds="1")
    # Checked in: a newcomer first, then Cid (last in the rated game: mu - 3 sigma below 0), Bob, Ann.
    for name in ["Dan", "Cid", "Bob", "Ann", "Eve", "Fay"]:
        post(client, night_id, "/players", name=name)
    assert "round 1 by rating" in text_of(page(client, f"/nights/{night_id}"))
    follow(client, post(client, night_id, "/seat"))
    view = load(app, night_id)
    tables = [[view.names[p] for p in t.seats] for t in view.rounds[0].tables]
    # Ann and Bob (tied first: the same ordinal) and Cid at table 1; the three unrated at table 2.
    assert [set(t) for t in tables] == [{"Ann", "Bob", "Cid"}, {"Dan", "Eve", "Fay"}]

    created = client.post(
        "/api/v1/nights",
        json={"name": "Thu", "ruleset": "mizerka", "rounds": 1, "first_round": "rating", "seed": 3},
    )
    assert created.status_code == 201 and created.get_json()["first_round"] == "rating"
    night, key = created.get_json()["id"], created.get_json()["key"]
    for name in ["Fay", "Eve", "Cid", "Dan", "Bob", "Ann"]:
        client.post(f"/api/v1/nights/{night}/players", json={"name": name})
    seated = client.post(f"/api/v1/nights/{night}/rounds", headers={"Authorization": f"Bearer {key}"})
    first = seated.get_json()["rounds_seated"][0]["tables"]
    assert [set(t["players"]) for t in first] == [{"Ann", "Bob", "Cid"}, {"Dan", "Eve", "Fay"}]


def test_a_deal_at_a_table_shows_on_the_cached_projector_and_standings_sheet(app, client):
    """The projector and the standings sheet are cached pages: a game's write (a deal at a table)
    and a night's write (a check-in) each draw them anew."""
    night_id = new_night(client)
    for name in NAMES[:4]:
        post(client, night_id, "/players", name=name)
    follow(client, post(client, night_id, "/seat"))
    follow(client, post(client, night_id, "/start"))
    phone = app.test_client()

    def standings() -> dict[str, list[str]]:
        screen = parse_html(page(phone, f"/nights/{night_id}/screen"))
        rows = screen.find("section", cls="screen-standings").find_all("li")
        sheet = parse_html(page(phone, f"/nights/{night_id}/cards"))
        body = sheet.find("table", cls="night-standings").find("tbody")
        return {
            "screen": [row.find("span", cls="pts").text for row in rows],
            "sheet": [" ".join(cell.text for cell in row.find_all("td")) for row in body.find_all("tr")],
        }

    level = standings()
    assert level["screen"] == ["0", "0", "0", "0"]
    assert standings() == level  # the copies cached
    game_id = load(app, night_id).rounds[0].tables[0].game_id
    with app.app_context():
        services.record_deal(game_id, number=1, bids=[3, 3, 3, 3], tricks=[4, 3, 3, 3])
    moved = standings()
    assert moved["screen"] != level["screen"] and sorted(moved["screen"]) != ["0", "0", "0", "0"]
    assert moved["sheet"] != level["sheet"]
    post(client, night_id, "/players", name="Eve")
    assert "Eve" in text_of(page(phone, f"/nights/{night_id}/screen"))
