"""A burst of wrong admin keys from many clients at once, against the real ``make run`` server.

Sixteen clients, each with its own session, are released together (a barrier); 60 wrong keys
between them, and each also sends the right key in the middle of its guesses.  Exactly the limit
(10) of wrong keys may be answered 403, every other wrong one 429, and every right key signs in.
In memory (Waitress's threads share one count), and, with ``TEST_REDIS_URL``, two servers
sharing the count in Redis.
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.conftest import worker_redis_url
from tests.deploy.test_make_run import Served, serving
from tests.helpers import csrf_from

ADMIN_KEY = "burst-admin-key-0123456789"
CLIENTS = 16
WRONG = 60
LIMIT = 10
REDIS_URL = worker_redis_url()  # TEST_REDIS_URL's database, one per parallel worker


class Client:
    """One browser: its own connection and session, signed form tokens included."""

    def __init__(self, server: Served) -> None:
        self.connection = server.connection(timeout=60)
        self.cookies: dict[str, str] = {}
        self.location = ""
        status, body = self.send("GET", "/admin")
        assert status == 200
        self.csrf = csrf_from(body)

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        answer = self.connection.getresponse()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        self.location = answer.headers.get("Location", "")
        return answer.status, answer.read().decode("utf-8")

    def sign_in(self, key: str) -> int:
        return self.send("POST", "/admin", {"csrf_token": self.csrf, "key": key})[0]

    def take(self, game_id: str, code: str) -> int:
        return self.send("POST", f"/games/{game_id}/take", {"csrf_token": self.csrf, "key": code})[0]


def burst(
    servers: list[Served],
    attempt: Callable[[Client, str], int] = Client.sign_in,
    rights: list[str] | None = None,
) -> tuple[Counter[int], Counter[int]]:
    """What the wrong secrets and the right ones (each client's, sent amid its guesses) were answered."""
    clients = [Client(servers[n % len(servers)]) for n in range(CLIENTS)]
    rights = rights or [ADMIN_KEY] * CLIENTS
    wrong: Counter[int] = Counter()
    right: Counter[int] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def run(index: int) -> None:
        client = clients[index]
        tries = [f"wrong-{index}-{n}" for n in range(index, WRONG, CLIENTS)]
        tries.insert(len(tries) // 2, rights[index])
        start.wait()
        for secret in tries:
            status = attempt(client, secret)
            with lock:
                (right if secret == rights[index] else wrong)[status] += 1

    threads = [threading.Thread(target=run, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for client in clients:
        client.connection.close()
    return wrong, right


@pytest.fixture
def clean_redis() -> Iterator[None]:
    """No count of wrong admin keys in the test Redis database before or after (the others stay)."""
    import redis

    store = redis.Redis.from_url(REDIS_URL)

    def clear() -> None:
        for key in store.scan_iter(match="*LIMITER*/admin/*"):
            store.delete(key)

    clear()
    yield
    clear()


@pytest.mark.slow
def test_a_burst_of_wrong_admin_keys_lets_exactly_the_limit_through_in_memory(tmp_path: Path) -> None:
    with serving(tmp_path, SCOREKEEPER_ADMIN_KEY=ADMIN_KEY) as served:
        wrong, right = burst([served])
    assert dict(wrong) == {403: LIMIT, 429: WRONG - LIMIT}
    assert dict(right) == {303: CLIENTS}


@pytest.mark.slow
@pytest.mark.skipif(not REDIS_URL, reason="TEST_REDIS_URL is not set")
def test_a_burst_of_wrong_admin_keys_on_two_servers_sharing_redis(tmp_path: Path, clean_redis: None) -> None:
    settings = {"SCOREKEEPER_ADMIN_KEY": ADMIN_KEY, "RATELIMIT_STORAGE_URI": REDIS_URL}
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(tmp_path / f"server-{n}", **settings)) for n in range(2)]
        wrong, right = burst(servers)
    assert dict(wrong) == {403: LIMIT, 429: WRONG - LIMIT}
    assert dict(right) == {303: CLIENTS}


@pytest.mark.slow
def test_a_burst_of_wrong_hand_over_codes_lets_exactly_the_limit_through(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        scorer = Client(served)
        form = {"csrf_token": scorer.csrf, "first_dealer": "0", "players-0": "Ann", "players-1": "Bob"}
        assert scorer.send("POST", "/games/new?game=mizerka", {**form, "players-2": "Cid"})[0] == 303
        game_id = scorer.location.rsplit("/", 1)[1]
        codes = []
        for _ in range(CLIENTS):  # one good code for each client, made before the burst
            status, body = scorer.send("POST", f"/games/{game_id}/hand-over", {"csrf_token": scorer.csrf})
            assert status == 200
            shown = re.search(r"#([A-Za-z0-9_-]+)</textarea>", body)
            assert shown is not None
            codes.append(shown.group(1))
        scorer.connection.close()
        wrong, right = burst([served], lambda client, code: client.take(game_id, code), codes)
    assert dict(wrong) == {403: LIMIT, 429: WRONG - LIMIT}
    assert dict(right) == {303: CLIENTS}
