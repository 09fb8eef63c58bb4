"""The server's side of offline entry: the page's plan is the engine's, the service worker's route,
and the page's own deal writes (the API's, authorised by the key cookie)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import MIZERKA_DEALS, MIZERKA_NAMES, Node, declare, page, parse_html, start_game, start_mizerka

from scorekeeper import create_app, services
from scorekeeper.rules import DealRecord, GameSetup, get_ruleset
from scorekeeper.services import snapshot
from scorekeeper.web.offline import precache, static_version


def plan_of(client: FlaskClient, game_id: str) -> dict[str, Any]:
    holder = parse_html(page(client, f"/games/{game_id}")).find(id="offline-plan")
    return dict(json.loads(holder.attrs["data-plan"] or ""))


def test_the_scorers_page_carries_the_engines_plan(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=4)
    plan = plan_of(client, game_id)
    with app.app_context():
        game = snapshot(game_id)
    state, ruleset = game.state, game.ruleset
    assert plan["version"] == game.version
    assert plan["players"] == MIZERKA_NAMES
    assert plan["deals"] == [
        {"number": d.number, "contract": d.contract, "bids": None, "tricks": list(d.tricks or ())}
        for d in state.deals
    ]
    assert plan["remaining"] == [list(left) for left in state.remaining_contracts]
    assert plan["sync"] == f"/games/{game_id}/sync/deals"
    assert "strings" not in plan, "the script's words are the page's texts (templates/_ui_strings.html)"
    # The schedule is what the engine says of every deal, as a whole game is played out...
    whole = ruleset.replay(
        game.setup, [DealRecord(contract=d.contract, tricks=d.tricks) for d in MIZERKA_DEALS]
    )
    assert len(plan["schedule"]) == len(whole.deals) == 18
    for planned, played in zip(plan["schedule"], whole.deals, strict=True):
        assert planned["number"] == played.number
        assert (planned["dealer"], planned["chooser"]) == (played.dealer, played.chooser)
        assert tuple(planned["roles"]) == played.roles
        assert planned["contract"] is None and planned["hook_total"] is None
    # ...and, for the next deal, what the state offers now.
    upcoming = state.next_deal
    assert upcoming is not None
    planned = plan["schedule"][upcoming.number - 1]
    assert (planned["dealer"], planned["chooser"]) == (upcoming.dealer, upcoming.chooser)
    assert tuple(planned["roles"]) == upcoming.roles
    assert plan["remaining"][upcoming.chooser] == list(upcoming.available_contracts)


def test_the_misere_schedule_gives_the_bidding_order_and_the_hook_rules_total() -> None:
    ruleset = get_ruleset("misere")
    setup = GameSetup("misere", ("Ann", "Bob", "Cid", "Dee"), first_dealer=1)
    zeros, hand = (0, 0, 0, 0), (13, 0, 0, 0)
    records = [DealRecord(bids=zeros, tricks=hand)] * 6 + [DealRecord(tricks=hand)] * 2
    played = ruleset.replay(setup, records).deals
    schedule = ruleset.schedule(setup)
    for planned, deal in zip(schedule, played, strict=True):
        assert (planned.dealer, planned.chooser, planned.roles) == (deal.dealer, deal.chooser, deal.roles)
        assert planned.contract == deal.contract
        assert planned.bidding_order == ruleset.bidding_order(setup, deal.number)
        if not ruleset.bids_in(deal.number):
            assert planned.hook_total is None
            continue
        assert planned.hook_total is not None
        for others in [(0, 0, 0), (3, 2, 3), (5, 5, 2), (13, 0, 1), (4, 4, 4)]:
            bids = list(others)
            bids.insert(planned.dealer, 0)
            engine = ruleset.dealer_forbidden_bid(setup, deal.number, bids)
            derived = planned.hook_total - sum(others)
            assert engine == (derived if 0 <= derived <= 13 else None), (deal.number, others)


def test_a_watching_phones_page_has_the_plan_but_no_way_to_send(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    watcher = app.test_client()
    plan = plan_of(watcher, game_id)
    assert plan["sync"] is None
    assert plan["deals"][0]["contract"] == MIZERKA_DEALS[0].contract


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "worker-src 'self'" in response.headers["Content-Security-Policy"]
    head = response.get_data(as_text=True).splitlines()[:2]
    version = json.loads(head[0].removeprefix("const VERSION = ").rstrip(";"))
    files = json.loads(head[1].removeprefix("const PRECACHE = ").rstrip(";"))
    with client.application.app_context():
        assert version == static_version(str(client.application.static_folder))
    assert files == [f"/static/{name}" for name in precache()] + ["/manifest.webmanifest"]
    for url in files:
        with client.get(url) as kept:
            assert kept.status_code == 200, url


def test_the_worker_keeps_what_the_game_page_links(client: FlaskClient) -> None:
    """The page's styles, scripts, icons and manifest, by the addresses the page uses."""
    game_id = start_mizerka(client, deals=1)
    doc = parse_html(page(client, f"/games/{game_id}"))
    linked = {str(link.attrs["href"]) for link in doc.find_all("link") if link.attrs.get("href")}
    linked |= {str(script.attrs["src"]) for script in doc.find_all("script") if script.attrs.get("src")}
    linked.add(str(doc.find("body").attrs["data-offline"]))
    head = client.get("/sw.js").get_data(as_text=True).splitlines()[1]
    files = set(json.loads(head.removeprefix("const PRECACHE = ").rstrip(";")))
    assert "/manifest.webmanifest" in linked
    assert sorted(linked - files) == []


def test_the_workers_version_follows_any_change_to_a_static_file(tmp_path: Path) -> None:
    static = Path(create_app({"SECRET_KEY": "k", "AUTO_MIGRATE": False}).static_folder or "")
    copy = tmp_path / "static"
    shutil.copytree(static, copy)

    def version() -> str:
        app = create_app({"SECRET_KEY": "k", "AUTO_MIGRATE": False})
        app.static_folder = str(copy)
        with app.test_request_context():
            return static_version(str(copy))

    before = version()
    assert version() == before
    with (copy / "css" / "app.css").open("a") as css:
        css.write("\n/* a release */\n")
    assert version() != before


# -- the page's own deal writes ---------------------------------------------------------------------


def sync(client: FlaskClient, method: str, path: str, body: Any = None, **headers: str) -> Any:
    return client.open(path, method=method, json=body, headers=headers)


def test_a_kept_deal_sent_twice_is_stored_once(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=4)
    deal = MIZERKA_DEALS[4]
    tricks = dict(zip(MIZERKA_NAMES, deal.tricks, strict=True))
    body = {"number": 5, "contract": deal.contract, "tricks": tricks}
    url = f"/games/{game_id}/sync/deals"
    first = sync(client, "POST", url, body, **{"Sec-Fetch-Site": "same-origin"})
    assert first.status_code == 201, first.get_json()
    assert first.get_json()["scores"] == dict(zip(MIZERKA_NAMES, deal.scores, strict=True))
    again = sync(client, "POST", url, body)  # the answer was lost: the phone sends it again
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "wrong_deal_number"
    with app.app_context():
        assert len(snapshot(game_id).state.deals) == 5


def test_a_kept_change_made_on_an_older_version_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    with app.app_context():
        version = snapshot(game_id).version
    url = f"/games/{game_id}/sync/deals/2"
    change = {"tricks": {"Ann": 3, "Bob": 5, "Cid": 5}}
    stale = sync(client, "PUT", url, change, **{"If-Match": f'"v{version - 1}"'})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale"
    fresh = sync(client, "PUT", url, change, **{"If-Match": f'"v{version}"'})
    assert fresh.status_code == 200
    undo = sync(client, "DELETE", url, **{"If-Match": f'"v{version}"'})
    assert undo.status_code == 409 and undo.get_json()["error"]["code"] == "stale"
    assert sync(client, "DELETE", url, **{"If-Match": f'"v{version + 1}"'}).status_code == 204


@pytest.mark.parametrize(
    ("who", "headers", "status", "code"),
    [
        ("watcher", {}, 401, "auth_required"),
        ("stranger", {}, 403, "bad_key"),
        ("scorer", {"Sec-Fetch-Site": "cross-site"}, 403, "bad_key"),
        ("scorer", {"Sec-Fetch-Site": "same-site"}, 403, "bad_key"),
    ],
)
def test_only_the_scorers_own_page_may_send_deals(
    app: Flask, client: FlaskClient, who: str, headers: dict[str, str], status: int, code: str
) -> None:
    game_id = start_mizerka(client, deals=1)
    phone = client if who == "scorer" else app.test_client()
    if who == "stranger":  # a keyring of its own (another game's pencil), and an old cookie with a wrong key
        start_mizerka(phone)
        phone.set_cookie(f"sk_edit_{game_id}", "not-the-key", path=f"/games/{game_id}")
    body = {"number": 2, "contract": MIZERKA_DEALS[1].contract}
    answer = sync(phone, "POST", f"/games/{game_id}/sync/deals", body, **headers)
    assert answer.status_code == status
    assert answer.get_json()["error"]["code"] == code
    with app.app_context():
        assert len(snapshot(game_id).state.deals) == 1


def test_a_form_post_cannot_reach_the_pages_writes(app: Flask, client: FlaskClient) -> None:
    """What another site could make a browser send (a form, with the cookie): refused, nothing stored."""
    game_id = start_mizerka(client, deals=1)
    answer = client.post(f"/games/{game_id}/sync/deals", data={"number": "2", "contract": "clubs"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_json"
    with app.app_context():
        assert len(snapshot(game_id).state.deals) == 1


# -- what the offline entry draws comes from the server ------------------------------------------------


def test_the_offline_entrys_parts_are_the_pages_own_drawing(client: FlaskClient) -> None:
    """The contract buttons (order, marks, labels) and every deal's roles, as the page draws them online."""
    game_id = start_mizerka(client, deals=4)
    html = parse_html(page(client, f"/games/{game_id}"))
    online = [b.text for b in html.find("form", cls="declare-form").find_all("button", cls="contract")]
    drawn = html.find("template", id="offline-contracts")
    offline = [b.text for b in drawn.find_all("button", cls="contract")]
    assert offline[0] == "♣ Clubs" and set(online) < set(offline)
    assert [label for label in offline if label in online] == online, "the online order"
    parts = [node for node in html.find("template", id="offline-deals").iter() if "data-deal" in node.attrs]
    assert [int(part.attrs["data-deal"] or 0) for part in parts] == list(range(1, 19))
    fifth = parts[4]
    assert fifth.find("p", cls="deal-no").text == "Deal 5 of 18"
    # The deal the table is on: its roles, as the page's own turn card and scoreboard say them.
    assert fifth.find("p", cls="roles").text == html.find("section", cls="turn").find("p", cls="roles").text
    board = [li.first("span", cls="role") for li in html.find("section", cls="scoreboard").find_all("li")]
    planned = [li.first("span", cls="role") for li in fifth.find_all("li")]
    assert [r.text if r else "" for r in planned] == [r.text if r else "" for r in board]


def test_the_offline_parts_kept_follow_the_pages_language_and_the_games_names(
    app: Flask, client: FlaskClient
) -> None:
    """The parts are drawn once per game and language and kept (web/games/plan.py): each page still
    has them in its own language, and with the names the game has now."""
    game_id = start_mizerka(client, deals=4)

    def fifth_deal() -> Node:
        html = parse_html(page(client, f"/games/{game_id}"))
        drawn = html.find("template", id="offline-deals")
        return next(node for node in drawn.iter() if node.attrs.get("data-deal") == "5")

    assert fifth_deal().find("p", cls="deal-no").text == "Deal 5 of 18"
    client.set_cookie("lang", "pl")
    assert fifth_deal().find("p", cls="deal-no").text == "Rozdanie 5 z 18"
    client.set_cookie("lang", "en")
    assert fifth_deal().find("p", cls="deal-no").text == "Deal 5 of 18"
    before = fifth_deal().find("span", cls="deal-who").text
    assert "Ann" in before and "Zoe" not in before
    with app.app_context():
        services.rename_player(services.find_player("Ann").id, "Zoe")
    after = fifth_deal().find("span", cls="deal-who").text
    assert after == before.replace("Ann", "Zoe")


def test_a_watching_phone_gets_no_offline_parts_and_the_page_says_it_watches(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_mizerka(client, deals=2)
    scorer = client.get(f"/games/{game_id}")
    assert scorer.headers["Scorekeeper-Access"] == "edit"
    assert parse_html(scorer.get_data(as_text=True)).find("body").attrs["data-etag"] == scorer.headers["ETag"]
    again = client.get(f"/games/{game_id}", headers={"If-None-Match": scorer.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Scorekeeper-Access"] == "edit"
    # A phone without the key (never had it, or its cookies were cleared).
    watcher = app.test_client().get(f"/games/{game_id}")
    assert watcher.headers["Scorekeeper-Access"] == "watch"
    html = parse_html(watcher.get_data(as_text=True))
    assert html.first("template", id="offline-deals") is None
    assert html.first("template", id="offline-contracts") is None


def template(html: Node, name: str) -> Node:
    return html.find("template", id=name)


def test_the_offline_cards_words_are_the_pages_for_the_deal(client: FlaskClient) -> None:
    """The heading, legend and button of deal 5 offline are the online card's, declared or pending."""
    game_id = start_mizerka(client, deals=4)
    html = parse_html(page(client, f"/games/{game_id}"))
    online = html.find("section", cls="turn")
    fifth = template(html, "offline-deals").find(data_deal="5")
    assert fifth.find(data_text="declare").text == online.find("h1").text == "Bob chooses"
    assert fifth.find(data_text="contracts-left").text == online.find("legend").text
    # The card's shell is the online one's (web/_entry.html), with the offline entry's ids.
    card = template(html, "offline-card").find("section", cls="turn")
    assert card.classes == {"card", "turn", "offline-card"}
    assert card.attrs["aria-labelledby"] == "offline-turn-heading"
    assert [c.tag for c in card.children if isinstance(c, Node)] == ["div", "form"]
    assert card.find("div", cls="card-head").find("h1").attrs["id"] == "offline-turn-heading"

    declare(client, game_id, 5, "diamonds")
    html = parse_html(page(client, f"/games/{game_id}"))
    online = html.find("section", cls="turn")
    fifth = template(html, "offline-deals").find(data_deal="5")
    assert fifth.find(data_text="pending", data_contract="diamonds").text == online.find("h1").text
    assert fifth.find(data_text="save").text == online.find("button", cls="big").text == "Save deal 5"
    save = template(html, "offline-card").find("form").find("button")
    assert save.classes == online.find("button", cls="big").classes
    described = template(html, "offline-descriptions").find(data_contract="diamonds")
    # What the contract asks: under the form (what the table taps comes first), offline as online.
    parts = [c for c in online.children if isinstance(c, Node)]
    tags = [c.tag for c in parts]
    asks = parts[tags.index("form") + 1]
    assert "hint" in asks.classes and described.text == asks.text == "Diamonds are trumps."


def test_a_kept_pending_deals_quotas_are_the_engines_as_the_page_says_them(client: FlaskClient) -> None:
    """Each seat's quota in deal 5, per contract, is in the plan; its tricks' phrase is the page's."""
    game_id = start_mizerka(client, deals=4)
    plan = plan_of(client, game_id)
    fifth = plan["schedule"][4]
    assert set(fifth["quotas"]) == {"clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"}
    declare(client, game_id, 5, "diamonds")
    html = parse_html(page(client, f"/games/{game_id}"))
    online = html.find("section", cls="turn").find("fieldset", data_kind="tricks")
    said = template(html, "offline-seat-what")
    for seat, quota in enumerate(fifth["quotas"]["diamonds"]):
        shown = online.find("span", cls="what", data_what=f"tricks-{seat}").text
        assert f"quota {quota}" in shown
        drawn = said.find(data_role=fifth["roles"][seat], data_quota=str(quota)).find("span", cls="what")
        assert drawn.text == shown


def test_a_kept_pending_deals_bids_are_said_as_the_page_says_them(client: FlaskClient) -> None:
    """Misère: the bid beside each seat's tricks and its "made the bid" button, as the page draws them."""
    game_id = start_game(client, ["Ann", "Bob", "Cid", "Dee"], game="misere")
    plan = plan_of(client, game_id)
    first = plan["schedule"][0]
    assert first["quotas"] == {}, "a Misère deal's targets are its bids, entered at the table"
    html = parse_html(page(client, f"/games/{game_id}"))
    fields = {f"bids-{seat}": str(bid) for seat, bid in enumerate((3, 4, 2, 3))}
    form = html.find("form", cls="declare-form")
    token = form.find("input", name="csrf_token").attrs["value"] or ""
    client.post(form.attrs["action"] or "", data={"csrf_token": token, "number": "1", **fields})
    html = parse_html(page(client, f"/games/{game_id}"))
    online = html.find("section", cls="turn").find("fieldset", data_kind="tricks")
    said = template(html, "offline-seat-what")
    assert said.first(data_quota="0") is None, "no quota phrase where the targets are the bids"
    for seat, bid in enumerate((3, 4, 2, 3)):
        shown = online.find("span", cls="what", data_what=f"tricks-{seat}").text
        drawn = said.find(data_role=first["roles"][seat], data_bid=str(bid)).find("span", cls="what")
        assert drawn.text == shown and f"bid {bid}" in shown
        made = said.find(data_seat=str(seat), data_bid=str(bid)).find("button", cls="made-bid")
        assert made.text == online.find("button", cls="made-bid", data_target=f"tricks-{seat}").text


def test_the_offline_script_draws_no_element_of_its_own() -> None:
    """Every element of the offline entry is cloned from the page's templates; the scripts fill in text."""
    for name in ("offline.js", "offline_parts.js", "queue.js"):
        script = Path(__file__).resolve().parents[2] / "static" / "js" / name
        source = script.read_text(encoding="utf-8")
        for drawing in ("createElement", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
            assert drawing not in source, (name, drawing)
