"""Page-wide properties: security headers, escaping, error pages, ETags, the scoresheet's details."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers import (
    Node,
    csrf_from,
    follow,
    page,
    parse_html,
    play,
    start_game,
    start_mizerka,
    submit,
    text_of,
)

from scorekeeper import stats


@pytest.mark.parametrize(
    "path", ["/", "/games/new", "/rules", "{game}", "{game}/scoresheet", "{game}/take", "{game}/deals/1/edit"]
)
def test_pages_carry_the_security_headers(client: FlaskClient, path: str) -> None:
    game_id = start_mizerka(client, deals=1)
    response = client.get(path.format(game=f"/games/{game_id}"))
    assert response.status_code == 200
    policy = response.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_error_pages_and_redirects_carry_the_headers_too(client: FlaskClient) -> None:
    for response in [client.get("/games/nope"), client.post("/games/new", data={})]:
        assert response.status_code in (400, 404)
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_load_nothing_from_elsewhere(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    for url in ["/", f"/games/{game_id}", f"/games/{game_id}/scoresheet"]:
        doc = parse_html(page(client, url))
        for node in doc.iter():
            attribute = {"script": "src", "img": "src", "link": "href"}.get(node.tag)
            if attribute and not is_data_block(node):
                address = node.attrs.get(attribute) or ""
                # The manifest is drawn per language by the app itself, beside its static files.
                assert address.startswith("/static/") or address == "/manifest.webmanifest", (url, node)
            assert "style" not in node.attrs, (url, node)  # the policy would block inline styles
        # Inline scripts are blocked by the policy; the page's texts for the script are data, never run.
        assert not [s for s in doc.find_all("script") if s.children and not is_data_block(s)], (
            "inline scripts are blocked by the policy"
        )
        assert [s.attrs.get("id") for s in doc.find_all("script") if is_data_block(s)] == ["ui-strings"]


def is_data_block(node: Node) -> bool:
    """A ``<script type="application/json">``: data the browser never runs (the page's texts for app.js)."""
    typed = node.attrs.get("type") == "application/json"
    return node.tag == "script" and typed and not node.attrs.get("src")


SCRIPT = "<script>alert(1)</script>"
GAME_SCRIPTS = ["/static/js/app.js", "/static/js/entry.js", "/static/js/game.js"]
OWN_SCRIPTS = {
    "game": GAME_SCRIPTS,
    "home": ["/static/js/app.js"],
    "scoresheet": ["/static/js/app.js"],
    "take": ["/static/js/app.js"],
    "correct": ["/static/js/app.js", "/static/js/entry.js"],
    "refusal": GAME_SCRIPTS,
}
QUOTES = 'O\'Brien "Bob"'


def test_names_are_escaped_everywhere(client: FlaskClient) -> None:
    game_id = start_game(client, [SCRIPT, QUOTES, "Ann"], first_dealer="2")
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    follow(client, submit(client, form, form.find("button", value="hearts")))
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="tricks-form")
    follow(client, submit(client, form, fill={"tricks-0": 8, "tricks-1": 4, "tricks-2": 1}))
    # Ask for a refusal whose message names a player, too.
    form = parse_html(page(client, f"/games/{game_id}")).find("form", cls="declare-form")
    refusal = client.post(
        form.attrs["action"] or "",
        data={
            "csrf_token": form.find("input", name="csrf_token").attrs["value"],
            "number": 2,
            "contract": "nope",
        },
    )
    assert refusal.status_code == 422

    pages = {
        "game": page(client, f"/games/{game_id}"),
        "home": page(client, "/"),
        "scoresheet": page(client, f"/games/{game_id}/scoresheet"),
        "take": page(client, f"/games/{game_id}/take"),
        "correct": page(client, f"/games/{game_id}/deals/1/edit"),
        "refusal": refusal.get_data(as_text=True),
    }
    for name, html in pages.items():
        assert SCRIPT not in html, name
        assert "<script>alert" not in html, name
        assert QUOTES not in html, name
        assert "O'Brien" not in html, name  # the quote is an entity, so no attribute can be broken out of
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, name
        assert "O&#39;Brien &#34;Bob&#34;" in html, name
        # ...and the names read right once decoded.
        assert SCRIPT in text_of(html), name
        assert QUOTES in text_of(html), name
        # Only the site's own script tags: app.js, and the count entry's and the game page's where they are.
        scripts = [s for s in parse_html(html).find_all("script") if not is_data_block(s)]
        assert [s.attrs.get("src") for s in scripts] == OWN_SCRIPTS[name], name


def test_the_not_found_page_is_in_the_site_style(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    doc = parse_html(response.get_data(as_text=True))
    assert doc.find("link", rel="stylesheet").attrs["href"] == "/static/css/app.css"
    assert doc.find("header", cls="site")
    assert doc.find(cls="status-code").text == "404"
    assert doc.find("h1").text == "Not Found"
    assert "There is nothing at this address." in doc.text


def test_a_server_error_is_a_page_in_the_site_style(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database fell over")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    monkeypatch.setattr(stats, "game_list", broken)
    monkeypatch.setattr(app.logger, "disabled", True)  # the traceback is expected; keep the output quiet
    response = client.get("/")
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    doc = parse_html(html)
    assert doc.find("header", cls="site")
    assert doc.find(cls="status-code").text == "500"
    assert doc.find("h1").text == "Server error"
    assert "Something went wrong on our side." in doc.text
    assert "the database fell over" not in html
    assert "Traceback" not in html
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_the_game_page_answers_304_while_nothing_changed(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=1)
    url = f"/games/{game_id}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag
    assert first.headers["Cache-Control"] == "no-cache, private"

    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag

    form = parse_html(first.get_data(as_text=True)).find("form", cls="declare-form")
    assert submit(client, form, form.find("button", value="clubs")).status_code == 303
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "Deal 2: Clubs, chosen by Bob" in text_of(changed.get_data(as_text=True))
    assert client.get(url, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_a_watcher_and_the_scorer_never_share_a_cached_page(app: Flask, client: FlaskClient) -> None:
    game_id = start_mizerka(client)
    url = f"/games/{game_id}"
    scorer_etag = client.get(url).headers["ETag"]
    watcher = app.test_client()
    watched = watcher.get(url, headers={"If-None-Match": scorer_etag})
    assert watched.status_code == 200
    assert watched.headers["ETag"] != scorer_etag
    assert "Cookie" in watched.headers["Vary"]
    assert watcher.get(url, headers={"If-None-Match": watched.headers["ETag"]}).status_code == 304


def test_the_scoresheet_of_a_new_game_names_the_chosen_first_dealer(client: FlaskClient) -> None:
    game_id = start_game(client, ["Ann", "Bob", "Cid"], first_dealer="2")
    sheet = parse_html(page(client, f"/games/{game_id}/scoresheet"))
    meta = sheet.find("p", cls="sheet-meta").text
    assert "First dealer: Cid" in meta
    assert "In progress: 0 of 18 deals" in meta
    assert len(sheet.find("table", cls="sheet-log").find("tbody").find_all("tr")) == 18  # blank rows to fill


def test_the_scoresheet_of_a_game_in_progress(client: FlaskClient) -> None:
    game_id = start_mizerka(client, deals=2)
    sheet = parse_html(page(client, f"/games/{game_id}/scoresheet"))
    meta = sheet.find("p", cls="sheet-meta").text
    assert "First dealer: Cid" in meta
    assert "In progress: 2 of 18 deals" in meta
    standings = sheet.find("section", aria_labelledby="standings-heading")
    assert standings.find("h2").text == "Standings"
    # Each name after its mark, the key to the chart's line ends (shown on paper, beside the chart).
    assert [li.text for li in standings.find_all("li")] == ["1. An Ann +2", "2. Ci Cid 0", "3. Bo Bob −2"]
    assert not sheet.first(cls="winner")
    rows = sheet.find("table", cls="sheet-log").find("tbody").find_all("tr")
    assert len(rows) == 18
    assert [cell.text for cell in rows[1].find_all() if cell.tag in ("th", "td")] == [
        "2",
        "Ann",
        "Bob",
        "Clubs",
        # per player: tricks, score, running total
        *("2", "+1", "+2"),
        *("6", "−1", "−2"),
        *("5", "0", "0"),
    ]
    assert rows[2].find("th").text == "3"
    assert "blank" in rows[2].classes


def test_the_scoresheet_gives_names_too_long_for_its_column_by_their_marks(client: FlaskClient) -> None:
    """On paper a Mizerka row holds each name on one line (16 letters); longer, the dealer and the
    chooser are given by their marks, each name whole in the column heads and beside its mark in the
    standings, and read out whole. Misère's column holds four lines of 12 letters."""
    names = ["Anna-Karin Lindqvist", "Massimiliano", "Bartolomeo Rossi"]
    game_id = start_game(client, names, first_dealer="2")
    play(client, game_id, [("hearts", [7, 5, 1])])
    sheet = parse_html(page(client, f"/games/{game_id}/scoresheet"))
    table = sheet.find("table", cls="sheet-log")
    assert "keyed" in table.classes
    row = table.find("tbody").find_all("tr")[0]
    dealer, chooser = row.find_all("td")[:2]
    assert [m.text for m in (dealer.find("span", cls="mark"), chooser.find("span", cls="mark"))] == [
        "BR",
        "AL",
    ]
    assert [dealer.text, chooser.text] == [
        "BRBartolomeo Rossi",
        "ALAnna-Karin Lindqvist",
    ]  # mark, then read out
    assert [th.text for th in table.find_all("th", cls="name-col")] == names
    standings = sheet.find("section", aria_labelledby="standings-heading")
    assert sorted(li.text.split(" ", 1)[1].rsplit(" ", 1)[0] for li in standings.find_all("li")) == [
        "AL Anna-Karin Lindqvist",
        "BR Bartolomeo Rossi",
        "Ma Massimiliano",
    ]

    fits = ["Anna Karin", "Massimiliano", "Bartolomeo Rossi"]  # 16 letters at most: names on paper
    game_id = start_game(client, fits, first_dealer="2")
    play(client, game_id, [("hearts", [7, 5, 1])])
    table = parse_html(page(client, f"/games/{game_id}/scoresheet")).find("table", cls="sheet-log")
    assert "keyed" not in table.classes
    row = table.find("tbody").find_all("tr")[0]
    assert [td.text for td in row.find_all("td")[:3]] == ["Bartolomeo Rossi", "Anna Karin", "Hearts"]

    italian = ["Massimiliano", "Maria Antonietta", "Bartolomeo", "Gianfranco"]
    game_id = start_game(client, italian, game="misere")
    table = parse_html(page(client, f"/games/{game_id}/scoresheet")).find("table", cls="sheet-log")
    assert "keyed" not in table.classes


def test_the_home_page_lists_games_with_their_leader(client: FlaskClient) -> None:
    assert "No games yet." in text_of(page(client, "/"))
    game_id = start_mizerka(client, deals=3)
    item = parse_html(page(client, "/")).find("a", href=f"/games/{game_id}").text
    assert "Ann · Bob · Cid" in item
    assert "Deal 4/18" in item
    assert "Leader: Ann (+3)" in item  # signed, as everywhere else


def test_over_https_a_form_posted_from_the_apps_own_page_is_accepted(client: FlaskClient) -> None:
    """Behind HTTPS the CSRF check wants the page's address, which the referrer policy lets through."""
    https = "https://localhost"
    html = page_over(client, https + "/games/new")
    data = {"csrf_token": csrf_from(html), "first_dealer": "0", "played_on": "2026-01-01"}
    data.update({f"players-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cid"])})
    answer = client.post("/games/new", data=data, base_url=https, headers={"Referer": https + "/games/new"})
    assert answer.status_code == 303
    assert answer.headers["Referrer-Policy"] == "same-origin"
    refused = client.post("/games/new", data=data, base_url=https)  # what "no-referrer" would send
    assert refused.status_code == 400


def page_over(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)
