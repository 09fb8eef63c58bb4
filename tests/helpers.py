"""Helpers that drive the real pages through the test client, CSRF included."""

from __future__ import annotations

import importlib
import itertools
import os
import re
import socket
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NamedTuple

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

#: Ports for servers a test starts by number (a subprocess told PORT=N): below the range the kernel
#: draws outgoing connections' ports from (32768 and up by default), so that a port found free stays
#: free until the server takes it; a block of them per parallel worker, tried in turn from a place
#: of this process's own (another test run on the machine, with its own workers, starts elsewhere).
PORTS_FROM, PORTS_PER_WORKER = 20000, 1000
_next_port = itertools.count(os.getpid() % PORTS_PER_WORKER)


def free_port() -> int:
    """A port no one listens on, for a server the test starts next (see ``PORTS_FROM``)."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    first = PORTS_FROM + worker * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = first + next(_next_port) % PORTS_PER_WORKER
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # taken: another of this worker's servers, or another program
                continue
        return port
    raise RuntimeError(f"no free port in {first}-{first + PORTS_PER_WORKER - 1}")


CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def csrf_from(html: str) -> str:
    match = CSRF_RE.search(html)
    assert match, "page has no CSRF token"
    return match.group(1)


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def start_game(
    client: FlaskClient, names: list[str], first_dealer: str = "0", game: str = "mizerka", **extra: str
) -> str:
    """Fill in the new-game form; returns the new game's id."""
    html = page(client, f"/games/new?game={game}")
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "first_dealer": first_dealer, **extra}
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    response = client.post(f"/games/new?game={game}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    match = re.search(r"/games/([A-Za-z0-9_-]+)$", location)
    assert match, location
    return match.group(1)


def declare(client: FlaskClient, game_id: str, number: int, contract: str) -> Any:
    html = page(client, f"/games/{game_id}")
    return client.post(
        f"/games/{game_id}/deals",
        data={"csrf_token": csrf_from(html), "number": number, "contract": contract},
    )


def enter_tricks(client: FlaskClient, game_id: str, number: int, tricks: list[int | str]) -> Any:
    html = page(client, f"/games/{game_id}")
    data: dict[str, Any] = {"csrf_token": csrf_from(html), "number": number}
    for seat, count in enumerate(tricks):
        data[f"tricks-{seat}"] = count
    return client.post(f"/games/{game_id}/deals/{number}/tricks", data=data)


# -- reading pages and the database (web tests) ------------------------------------------------

VOID_TAGS = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)


class Node:
    """An element of a parsed page: just enough DOM to find things by tag, class and attribute."""

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None = None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Node | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        """The visible text inside, entities decoded, white space collapsed."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in ("script", "style", "svg", "template"):
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def iter(self) -> Any:
        """Self and its descendants; a <template> inside is there, its content is not (as in a browser)."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == "template":
                    yield child
                else:
                    yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Descendants (and self) by tag, one class, and attributes (aria_label -> aria-label)."""
        wanted = {key.rstrip("_").replace("_", "-"): value for key, value in attrs.items()}
        return [
            node
            for node in self.iter()
            if (tag is None or node.tag == tag)
            and (cls is None or cls in node.classes)
            and all(node.attrs.get(key) == value for key, value in wanted.items())
        ]

    def first(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.first(tag, cls, **attrs)
        assert found is not None, f"no <{tag or '*'}> class={cls} {attrs} on the page"
        return found


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in VOID_TAGS:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs), self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def text_of(html: str) -> str:
    """A page's visible text, entities decoded, white space collapsed."""
    return parse_html(html).text


def signed(value: int) -> str:
    """A score as the pages print it: +2, −3 (a real minus sign), 0."""
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"


def follow(client: FlaskClient, response: Any) -> str:
    """GET the page a 303 points to; returns its HTML."""
    assert response.status_code == 303, (response.status_code, response.get_data(as_text=True)[:2000])
    return page(client, response.headers["Location"])


def db_snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in primary-key order: compare before and after a refused request."""
    from scorekeeper.extensions import db

    with app.app_context():
        snapshot = {
            table.name: [
                tuple(row)
                for row in db.session.execute(select(table).order_by(*table.primary_key.columns)).all()
            ]
            for table in db.metadata.sorted_tables
        }
        db.session.remove()
    return snapshot


def game_count(app: Flask) -> int:
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(Game)).scalar_one()
        db.session.remove()
    return int(count)


def edit_key(client: FlaskClient, game_id: str) -> str:
    """An edit key of a game started through the pages, for the API (the bearer's key).

    A browser is never given the key (its keyring on the server holds the pencil), so the test
    sets a new one, as an administrator re-keying the game would; asked again, the same one.
    """
    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.services import hash_key, new_edit_key

    app = client.application
    keys: dict[str, str] = app.extensions.setdefault("test_edit_keys", {})
    if game_id not in keys:
        keys[game_id] = new_edit_key()
        with app.app_context():
            game = db.session.get(Game, game_id)
            assert game is not None, game_id
            game.edit_key_hash = hash_key(keys[game_id])
            db.session.commit()
            db.session.remove()
    return keys[game_id]


def play(client: FlaskClient, game_id: str, deals: list[tuple[str, list[int]]], first: int = 1) -> None:
    """Record whole deals (contract, tricks by seat) quickly: one CSRF token, two posts a deal."""
    token = csrf_from(page(client, "/games/new"))
    for number, (contract, tricks) in enumerate(deals, start=first):
        response = client.post(
            f"/games/{game_id}/deals", data={"csrf_token": token, "number": number, "contract": contract}
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        data: dict[str, Any] = {"csrf_token": token, "number": number}
        data.update({f"tricks-{seat}": count for seat, count in enumerate(tricks)})
        response = client.post(f"/games/{game_id}/deals/{number}/tricks", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)


def form_fields(form: Node) -> dict[str, str]:
    """What a browser would send for ``form`` as it stands (hidden and text inputs, checked radios)."""
    data: dict[str, str] = {}
    for node in form.iter():
        name = node.attrs.get("name")
        if node.tag != "input" or not name:
            continue
        kind = node.attrs.get("type") or "text"
        if kind in ("submit", "button", "image", "reset"):
            continue
        if kind in ("radio", "checkbox") and "checked" not in node.attrs:
            continue
        data[name] = node.attrs.get("value") or ""
    return data


def submit(
    client: FlaskClient, form: Node, button: Node | None = None, fill: dict[str, Any] | None = None
) -> Any:
    """Post ``form`` to its action as a browser would, pressing ``button`` and typing ``fill``."""
    assert (form.attrs.get("method") or "").lower() == "post", form
    data: dict[str, Any] = dict(form_fields(form))
    if button is not None and button.attrs.get("name"):
        data[button.attrs["name"] or ""] = button.attrs.get("value") or ""
    data.update(fill or {})
    return client.post(form.attrs["action"] or "", data=data)


class MizerkaDeal(NamedTuple):
    number: int
    dealer: str
    chooser: str
    middlehand: str
    contract: str
    tricks: tuple[int, int, int]
    scores: tuple[int, int, int]
    totals: tuple[int, int, int]


# A whole Mizerka game, scored by hand from RULES.md section 1.  Ann, Bob, Cid sit clockwise in
# seats 0, 1, 2 and Cid (seat 2) deals first, so Ann chooses deals 1, 4, ..., 16, Bob 2, 5, ..., 17
# and Cid 3, 6, ..., 18.  Quotas trumps/no-trumps forehand 7, middlehand 5, dealer 1; mizerka 1, 5, 7.
# Figures are by seat (Ann, Bob, Cid); the game ends with Ann and Bob tied on +3.
MIZERKA_NAMES = ["Ann", "Bob", "Cid"]
MIZERKA_FIRST_DEALER = "2"
MIZERKA_DEALS = [
    MizerkaDeal(1, "Cid", "Ann", "Bob", "hearts", (8, 4, 1), (1, -1, 0), (1, -1, 0)),
    MizerkaDeal(2, "Ann", "Bob", "Cid", "clubs", (2, 6, 5), (1, -1, 0), (2, -2, 0)),
    MizerkaDeal(3, "Bob", "Cid", "Ann", "mizerka", (4, 9, 0), (1, -2, 1), (3, -4, 1)),
    MizerkaDeal(4, "Cid", "Ann", "Bob", "mizerka", (3, 3, 7), (-2, 2, 0), (1, -2, 1)),
    MizerkaDeal(5, "Ann", "Bob", "Cid", "diamonds", (0, 9, 4), (-1, 2, -1), (0, 0, 0)),
    MizerkaDeal(6, "Bob", "Cid", "Ann", "no-trumps", (5, 2, 6), (0, 1, -1), (0, 1, -1)),
    MizerkaDeal(7, "Cid", "Ann", "Bob", "clubs", (10, 3, 0), (3, -2, -1), (3, -1, -2)),
    MizerkaDeal(8, "Ann", "Bob", "Cid", "hearts", (1, 7, 5), (0, 0, 0), (3, -1, -2)),
    MizerkaDeal(9, "Bob", "Cid", "Ann", "spades", (3, 1, 9), (-2, 0, 2), (1, -1, 0)),
    MizerkaDeal(10, "Cid", "Ann", "Bob", "no-trumps", (6, 6, 1), (-1, 1, 0), (0, 0, 0)),
    MizerkaDeal(11, "Ann", "Bob", "Cid", "spades", (2, 8, 3), (1, 1, -2), (1, 1, -2)),
    MizerkaDeal(12, "Bob", "Cid", "Ann", "hearts", (6, 0, 7), (1, -1, 0), (2, 0, -2)),
    MizerkaDeal(13, "Cid", "Ann", "Bob", "spades", (7, 6, 0), (0, 1, -1), (2, 1, -3)),
    MizerkaDeal(14, "Ann", "Bob", "Cid", "no-trumps", (0, 10, 3), (-1, 3, -2), (1, 4, -5)),
    MizerkaDeal(15, "Bob", "Cid", "Ann", "diamonds", (4, 1, 8), (-1, 0, 1), (0, 4, -4)),
    MizerkaDeal(16, "Cid", "Ann", "Bob", "diamonds", (9, 3, 1), (2, -2, 0), (2, 2, -4)),
    MizerkaDeal(17, "Ann", "Bob", "Cid", "mizerka", (6, 2, 5), (1, -1, 0), (3, 1, -4)),
    MizerkaDeal(18, "Bob", "Cid", "Ann", "clubs", (5, 3, 5), (0, 2, -2), (3, 3, -6)),
]
CONTRACTS = ["clubs", "diamonds", "hearts", "spades", "no-trumps", "mizerka"]
CONTRACT_LABELS = {
    "clubs": "Clubs",
    "diamonds": "Diamonds",
    "hearts": "Hearts",
    "spades": "Spades",
    "no-trumps": "No trumps",
    "mizerka": "Mizerka",
}


def start_mizerka(client: FlaskClient, deals: int = 0) -> str:
    """The hand-scored game above, started through the form, with its first ``deals`` deals played."""
    game_id = start_game(client, MIZERKA_NAMES, first_dealer=MIZERKA_FIRST_DEALER)
    play(client, game_id, [(d.contract, list(d.tricks)) for d in MIZERKA_DEALS[:deals]])
    return game_id


def hold_pencil(client: FlaskClient, game_id: str) -> FlaskClient:
    """``client`` holding the game's pencil, as a phone that created it does: a grant in its keyring
    on the server, named by its device cookie (one device per client, made at its first grant)."""
    from scorekeeper.access import DEVICE_COOKIE
    from scorekeeper.extensions import db
    from scorekeeper.services import hash_key, keyring

    app = client.application
    cookie = client.get_cookie(DEVICE_COOKIE)
    with app.app_context():
        device, token = keyring.device_for_pencil(None if cookie is None else hash_key(cookie.value))
        keyring.add_pencils(device, [game_id])
        db.session.commit()
        db.session.remove()
    if token is not None:
        client.set_cookie(DEVICE_COOKIE, token, path="/")
    return client


# -- Kierki (RULES.md section 3), recorded through the API: each deal's facts by seat -------------
# A count is a tuple by seat, a taker (king of hearts, 7th, last trick) a seat, the Fan Tan's places
# a list of seats; ``kierki_body`` turns them into the API's body for the game's names.

KIERKI_NAMES = ["Ala", "Bartek", "Celina", "Darek"]
# RULES.md 3.10, the worked example (standard, 4 players, Ala deals first), with each deal's scores.
KIERKI_EXAMPLE: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"tricks": (2, 5, 0, 6)}, (-40, -100, 0, -120)),
    ({"hearts": (4, 0, 7, 2)}, (-80, 0, -140, -40)),
    ({"queens": (1, 2, 0, 1)}, (-60, -120, 0, -60)),
    ({"kings_jacks": (3, 1, 2, 2)}, (-90, -30, -60, -60)),
    ({"king_of_hearts": 2}, (0, 0, -150, 0)),
    ({"seventh_trick": 1, "last_trick": 3}, (0, -75, 0, -75)),
    (
        {
            "tricks": (3, 4, 2, 4),
            "hearts": (2, 5, 0, 6),
            "queens": (0, 1, 1, 2),
            "kings_jacks": (2, 3, 1, 2),
            "king_of_hearts": 1,
            "seventh_trick": 0,
            "last_trick": 3,
        },
        (-235, -480, -130, -455),
    ),
    ({"trumps": "spades", "tricks": (3, 2, 4, 4)}, (75, 50, 100, 100)),
    ({"trumps": "hearts", "tricks": (6, 3, 1, 3)}, (150, 75, 25, 75)),
    ({"trumps": "clubs", "tricks": (2, 7, 2, 2)}, (50, 175, 50, 50)),
    ({"trumps": "diamonds", "tricks": (1, 3, 5, 4)}, (25, 75, 125, 100)),
    ({"places": [2, 0]}, (500, 0, 800, 0)),
]
# Standard, 3 players (Ala, Bartek, Celina; Bartek deals first): 15 a trick, 140 the king of hearts,
# 70 the 7th and the last trick, 17 tricks a deal, Fan Tan 790 / 485 (tests/api/test_api_kierki_game.py).
KIERKI_THREE: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"tricks": (5, 6, 6)}, (-75, -90, -90)),
    ({"hearts": (3, 4, 6)}, (-60, -80, -120)),
    ({"queens": (1, 1, 2)}, (-60, -60, -120)),
    ({"kings_jacks": (2, 3, 3)}, (-60, -90, -90)),
    ({"king_of_hearts": 0}, (-140, 0, 0)),
    ({"seventh_trick": 2, "last_trick": 2}, (0, 0, -140)),
    (
        {
            "tricks": (6, 5, 6),
            "hearts": (4, 4, 5),
            "queens": (1, 2, 1),
            "kings_jacks": (3, 2, 3),
            "king_of_hearts": 1,
            "seventh_trick": 0,
            "last_trick": 2,
        },
        (-390, -475, -410),
    ),
    ({"trumps": "hearts", "tricks": (6, 6, 5)}, (150, 150, 125)),
    ({"trumps": "spades", "tricks": (8, 4, 5)}, (200, 100, 125)),
    ({"trumps": "clubs", "tricks": (3, 10, 4)}, (75, 250, 100)),
    ({"places": [1, 2]}, (0, 790, 485)),
]


def kierki_everything(seat: int, players: int = 4) -> list[dict[str, Any]]:
    """The negative part (no-fan-tan or standard) in which ``seat`` takes every card and trick:
    −2600 for them after deal 7 with 4 players (RULES.md 3.7), the widest total a sheet shows."""
    tricks = {4: 13, 3: 17}[players]

    def all_of(total: int) -> tuple[int, ...]:
        return tuple(total if s == seat else 0 for s in range(players))

    robber = {
        "tricks": all_of(tricks),
        "hearts": all_of(13),
        "queens": all_of(4),
        "kings_jacks": all_of(8),
        "king_of_hearts": seat,
        "seventh_trick": seat,
        "last_trick": seat,
    }
    return [
        {"tricks": all_of(tricks)},
        {"hearts": all_of(13)},
        {"queens": all_of(4)},
        {"kings_jacks": all_of(8)},
        {"king_of_hearts": seat},
        {"seventh_trick": seat, "last_trick": seat},
        robber,
    ]


def kierki_body(facts: dict[str, Any], names: list[str], number: int | None = None) -> dict[str, Any]:
    """A deal's facts by seat as the API's body, by name (``number`` when given)."""
    body: dict[str, Any] = {} if number is None else {"number": number}
    for name, value in facts.items():
        if isinstance(value, tuple):
            body[name] = dict(zip(names, value, strict=True))
        elif isinstance(value, list):
            body[name] = [names[seat] for seat in value]
        elif isinstance(value, int):
            body[name] = names[value]
        else:
            body[name] = value
    return body


def start_kierki(
    client: FlaskClient,
    deals: list[dict[str, Any]],
    names: list[str] = KIERKI_NAMES,
    first: str | None = None,
    preset: str = "standard",
) -> tuple[str, str]:
    """A Kierki game made through the JSON API with ``deals`` recorded; (its id, its edit key)."""
    body = {
        "ruleset": "kierki",
        "players": names,
        "first_dealer": first or names[0],
        "options": {"preset": preset},
    }
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
    for number, facts in enumerate(deals, start=1):
        record_kierki(client, game_id, key, number, facts, names)
    return game_id, key


def record_kierki(
    client: FlaskClient, game_id: str, key: str, number: int, facts: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/games/{game_id}/deals",
        json=kierki_body(facts, names, number),
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def kierki_games() -> Any:
    """The Kierki games scored by hand for the API's tests (tests/api/test_api_kierki_game.py: EXAMPLE,
    RULES.md 3.10's worked example; STANDARD_3), which the pages' tests play by form and by tap."""
    folder = str(Path(__file__).resolve().parent / "api")
    if folder not in sys.path:
        sys.path.append(folder)  # the module's own imports (api_support) live there
    return importlib.import_module("test_api_kierki_game")


# -- Barbu (RULES.md 4) --------------------------------------------------------------------------------

BARBU_NAMES = ["Ala", "Bartek", "Celina", "Darek"]


def barbu_example() -> list[dict[str, Any]]:
    """RULES.md 4.9's eight deals, as API.md B4 gives their bodies (without their numbers)."""
    a, b, c, d = BARBU_NAMES
    return [
        {
            "contract": "no-queens",
            "queens": {a: 1, b: 0, c: 1, d: 2},
            "doubles": [
                {"by": b, "against": a},
                {"by": b, "against": c},
                {"by": b, "against": d},
                {"by": c, "against": a, "redoubled": True},
            ],
        },
        {
            "contract": "trumps",
            "trumps": "spades",
            "tricks": {a: 5, b: 3, c: 1, d: 4},
            "doubles": [{"by": d, "against": a}],
        },
        {
            "contract": "no-hearts",
            "hearts": {a: 2, b: 6, c: 0, d: 5},
            "ace_of_hearts": b,
            "doubles": [{"by": c, "against": a}, {"by": c, "against": b, "redoubled": True}],
        },
        {"contract": "no-king-of-hearts", "king_of_hearts": d},
        {
            "contract": "domino",
            "places": [c, a, d, b],
            "doubles": [{"by": b, "against": a, "redoubled": True}],
        },
        {"contract": "no-tricks", "tricks": {a: 4, b: 2, c: 3, d: 4}},
        {
            "contract": "no-last-two",
            "penultimate_trick": b,
            "last_trick": b,
            "doubles": [{"by": d, "against": b}],
        },
        {
            "contract": "no-tricks",
            "tricks": {a: 3, b: 1, c: 5, d: 4},
            "doubles": [
                {"by": c, "against": b},
                {"by": d, "against": b, "redoubled": True},
                {"by": a, "against": c},
            ],
        },
    ]


def barbu_seven(names: list[str], declarer: int) -> list[dict[str, Any]]:
    """A declarer's seven deals (blocks of seven), each contract once, every other player doubling the
    declarer twice (the obligation met): the first three deals doubled by each in turn, deal 4 by all."""
    seats = [(declarer + offset) % 4 for offset in range(4)]
    by = [names[seat] for seat in seats]  # the declarer first, then from their left
    counts = dict(zip(by, [4, 3, 3, 3], strict=True))
    hearts = dict(zip(by, [1, 5, 4, 3], strict=True))
    queens = dict(zip(by, [0, 2, 1, 1], strict=True))
    deals: list[dict[str, Any]] = [
        {"contract": "no-tricks", "tricks": counts, "doubles": [{"by": by[1], "against": by[0]}]},
        {
            "contract": "no-hearts",
            "hearts": hearts,
            "ace_of_hearts": by[2],
            "doubles": [{"by": by[2], "against": by[0], "redoubled": True}],
        },
        {"contract": "no-queens", "queens": queens, "doubles": [{"by": by[3], "against": by[0]}]},
        {
            "contract": "trumps",
            "trumps": "hearts",
            "tricks": dict(zip(by, [6, 2, 3, 2], strict=True)),
            "doubles": [{"by": other, "against": by[0]} for other in by[1:]],
        },
        {
            "contract": "no-king-of-hearts",
            "king_of_hearts": by[3],
            "doubles": [{"by": by[1], "against": by[3]}],
        },
        {"contract": "no-last-two", "penultimate_trick": by[1], "last_trick": by[2]},
        {"contract": "domino", "places": [by[0], by[2], by[1], by[3]]},
    ]
    return deals


def barbu_game(names: list[str] = BARBU_NAMES) -> list[dict[str, Any]]:
    """A whole `standard` game of 28 deals, the first player declaring first."""
    return [deal for declarer in range(4) for deal in barbu_seven(names, declarer)]


def start_barbu(
    client: FlaskClient,
    deals: list[dict[str, Any]],
    names: list[str] = BARBU_NAMES,
    preset: str = "standard",
) -> tuple[str, str]:
    """A Barbu game made through the JSON API with ``deals`` (B4 bodies) recorded; (its id, its edit key)."""
    body = {"ruleset": "barbu", "players": names, "first_dealer": names[0], "options": {"preset": preset}}
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id, key = created.get_json()["id"], created.get_json()["edit_key"]
    for number, deal in enumerate(deals, start=1):
        response = client.post(
            f"/api/v1/games/{game_id}/deals",
            json={"number": number, **deal},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert response.status_code == 201, response.get_json()
    return game_id, key
