"""`make run` (``scorekeeper serve``): a production server for the table, with the address to open.

Each test runs the real command in a process of its own, on a fresh SQLite database, and talks to
it over sockets as phones (and slow or hostile clients) would.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import csrf_from, free_port

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # seconds for the server to answer (a loaded 2-core machine is slow)
#: Slow clients (phones on a bad connection, or someone doing it on purpose) open at once.
HALF_SENT = 50
#: How soon another client must be answered while they are open: generous for a busy machine,
#: far below what a server that waits on them takes (the gunicorn `make run` had: no answer in 10 s).
ANSWER_WITHIN = 1.0
LIMIT = 64 * 1024  # the app's MAX_CONTENT_LENGTH


@dataclass
class Served:
    """A running ``scorekeeper serve``; ``output`` is filled in once it has stopped."""

    port: int
    instance: Path
    process: subprocess.Popen[bytes]
    output: str = ""
    software: str = field(default="")

    def connection(self, timeout: float = 10) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes, list[str]]:
        """Status, headers (last of each name), body and every Set-Cookie of one request."""
        connection = self.connection()
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            cookies = answer.headers.get_all("Set-Cookie") or []
            return answer.status, dict(answer.getheaders()), answer.read(), cookies
        finally:
            connection.close()


@contextmanager
def serving(tmp_path: Path, files: int | None = None, **settings: str) -> Iterator[Served]:
    """``scorekeeper serve`` on a free port until the block ends, then Ctrl+C, as a person stops it;
    ``files``: the most files the process may open (its hard limit too)."""
    port = free_port()
    instance = tmp_path / "instance"
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "SCOREKEEPER_INSTANCE": str(instance)}
    for name in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_AUTO_MIGRATE", "SCOREKEEPER_PROXY_HOPS"):
        env.pop(name, None)
    env.update(settings)
    # Ctrl+C as a terminal sends it to its foreground job, which never ignores it: a test run started
    # in the background (``cmd &``: SIGINT ignored, and inherited) must not make it a no-op here.
    start = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
    command = [sys.executable, "-c", f"{start}; from scorekeeper.cli import main; main()", "serve"]

    def limit_files() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    process = subprocess.Popen(
        command,
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=limit_files if files else None,
    )
    served = Served(port, instance, process)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            try:
                status, headers, _, _ = served.request("GET", "/healthz")
                assert status == 200
                served.software = headers.get("Server", "")
                break
            except OSError:
                assert time.monotonic() < deadline, f"the server did not answer in {START_TIMEOUT:.0f} s"
                time.sleep(0.2)
        yield served
    finally:
        os.killpg(process.pid, signal.SIGINT)  # Ctrl+C in the terminal
        try:
            served.output = process.communicate(timeout=30)[0].decode()
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            served.output = process.communicate()[0].decode()
            raise AssertionError("Ctrl+C did not stop the server within 30 s:\n" + served.output) from None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the tests below that only read it, or make a game or two."""
    with serving(tmp_path_factory.mktemp("make-run"), RATELIMIT_ENABLED="0") as served:
        yield served


@pytest.mark.slow
def test_serve_upgrades_the_database_prints_the_address_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    # serve upgrades the database itself, whatever this says
    with serving(tmp_path, SCOREKEEPER_AUTO_MIGRATE="0") as served:
        status, _, _, _ = served.request("GET", "/games/new")
        assert status == 200
    # Waitress: pure Python, runs the same on Linux, macOS and Windows (gunicorn needs POSIX).
    assert served.software.startswith("waitress"), served.software
    assert f"Scorekeeper is running: http://127.0.0.1:{served.port}/" in served.output
    assert "development server" not in served.output
    assert served.process.returncode == 0, served.output
    assert "Traceback" not in served.output, served.output
    assert (served.instance / "scorekeeper.sqlite3").is_file()


def half_sent_requests(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each send part of a request and then wait, as slow phones do.

    Half stop inside the headers; the others send whole headers declaring a body, and only a
    little of it.
    """
    opened: list[socket.socket] = []
    try:
        for number in range(count):
            slow = socket.create_connection(("127.0.0.1", port), timeout=10)
            opened.append(slow)
            if number % 2:
                slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: te")
            else:
                slow.sendall(
                    b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                    b'{"players": ["Ann", '
                )
    except BaseException:
        for slow in opened:
            slow.close()
        raise
    return opened


@pytest.mark.slow
def test_fifty_half_sent_requests_do_not_hold_up_another_phone(server: Served) -> None:
    slow = half_sent_requests(server.port, HALF_SENT)
    try:
        started = time.monotonic()
        try:
            status, _, body, _ = server.request("GET", "/healthz")
        except OSError as error:  # the old server: no answer at all while they wait
            pytest.fail(
                f"no answer in {time.monotonic() - started:.1f} s with {HALF_SENT} half-sent requests open: "
                f"{error!r}"
            )
        elapsed = time.monotonic() - started
        assert (status, body.strip()) == (200, b"ok")
        assert elapsed < ANSWER_WITHIN, f"answered in {elapsed:.2f} s, {HALF_SENT} half-sent requests open"
        # The slow ones are still open, not dropped to make room: one finishes its request now.
        slow[1].sendall(b"xt/plain\r\nConnection: close\r\n\r\n")
        assert slow[1].recv(65536).startswith(b"HTTP/1.1 200 ")
    finally:
        for connection in slow:
            connection.close()


def api_error(body: bytes) -> str:
    return str(json.loads(body)["error"]["code"])


@pytest.mark.slow
def test_over_long_bodies_are_refused_through_the_server(server: Served) -> None:
    players = json.dumps({"players": ["Ann", "Bob", "Cid"]}).encode()
    over = players + b" " * LIMIT  # valid JSON, one limit too long
    headers = {"Content-Type": "application/json"}
    status, _, body, _ = server.request("POST", "/api/v1/games", over, headers)
    assert (status, api_error(body)) == (413, "too_large")
    # Chunked (no length): the server de-chunks it, the app still counts it.
    connection = server.connection()
    try:
        pieces = (over[i : i + 4096] for i in range(0, len(over), 4096))
        connection.request("POST", "/api/v1/games", body=pieces, headers=headers, encode_chunked=True)
        answer = connection.getresponse()
        assert (answer.status, api_error(answer.read())) == (413, "too_large")
    finally:
        connection.close()
    # A length far past any limit is refused at once, before a byte of the body is sent.
    connection = server.connection()
    try:
        connection.putrequest("POST", "/api/v1/games")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(2**40))
        connection.endheaders()
        answer = connection.getresponse()
        assert (answer.status, api_error(answer.read())) == (413, "too_large")
    finally:
        connection.close()
    # Within the limit, the same request is taken.
    status, _, body, _ = server.request("POST", "/api/v1/games", players, headers)
    assert status == 201, body


@pytest.mark.slow
@pytest.mark.parametrize("size", [2 * 2**20, 20 * 2**20])
@pytest.mark.parametrize("framing", ["Content-Length", "chunked"])
def test_a_body_past_the_server_s_own_limit_gets_the_app_s_413(
    server: Served, framing: str, size: int
) -> None:
    """Past Waitress's own limit too (16 times the app's), however the body is framed, the client
    sends it all and reads the app's 413: the API's JSON error, or the page's (issue 41, point 7).
    Waitress alone answered in plain text, or reset the connection while the body was coming."""
    for path, content_type in (("/api/v1/games", "application/json"), ("/games/new", "text/html")):
        body = b'{"players": ["Ann", "Bob", "Cid"]}' + b" " * size
        connection = server.connection(timeout=60)
        try:
            headers = {"Content-Type": "application/json"}
            if framing == "chunked":
                pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))
                connection.request("POST", path, body=pieces, headers=headers, encode_chunked=True)
            else:
                connection.request("POST", path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read()
        finally:
            connection.close()
        assert answer.status == 413, text[:200]
        assert answer.getheader("Content-Type", "").startswith(content_type), path
        if path.startswith("/api/"):
            assert api_error(text) == "too_large"
    # The server goes on answering.
    assert server.request("GET", "/healthz")[0] == 200


def new_game_by_form(server: Served) -> tuple[str, str]:
    """A Mizerka game made through the new-game page, as a phone does: its id and the cookies it got."""
    status, _, body, cookies = server.request("GET", "/games/new?game=mizerka")
    assert status == 200
    jar = {line.split(";", 1)[0].split("=", 1)[0]: line.split(";", 1)[0] for line in cookies}
    form = {"csrf_token": csrf_from(body.decode()), "first_dealer": "0"}
    form.update({f"players-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cid"])})
    status, headers, body, cookies = server.request(
        "POST",
        "/games/new?game=mizerka",
        urllib.parse.urlencode(form).encode(),
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": "; ".join(jar.values())},
    )
    assert status in (302, 303), body
    game_id = urllib.parse.urlsplit(headers["Location"]).path.rsplit("/", 1)[-1]
    jar.update({line.split(";", 1)[0].split("=", 1)[0]: line.split(";", 1)[0] for line in cookies})
    return game_id, "; ".join(jar.values())


def seen_as(server: Served, game_id: str, cookie: str, proxy: dict[str, str]) -> tuple[str, bool]:
    """The game's watch link as its page shows it, and whether the answer was marked HTTPS-only."""
    headers = {"Host": "scores.example.org", "Cookie": cookie, **proxy}
    status, answer, body, _ = server.request("GET", f"/games/{game_id}", headers=headers)
    assert status == 200, body
    link = re.search(rf'[a-z]+://[^"/]+/games/{game_id}(?=")', body.decode())
    assert link, "the game page has no watch link"
    return link.group(0), "Strict-Transport-Security" in answer


PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


@pytest.mark.slow
def test_the_host_reaches_the_app_and_proxy_headers_count_only_when_trusted(
    server: Served, tmp_path: Path
) -> None:
    # Reached directly (SCOREKEEPER_PROXY_HOPS unset): the Host a phone used, and no client may
    # claim HTTPS by a header.
    game_id, cookie = new_game_by_form(server)
    assert seen_as(server, game_id, cookie, PROXY) == (f"http://scores.example.org/games/{game_id}", False)
    # Behind a proxy that terminates TLS (README: "Behind a reverse proxy"): the scheme it forwards.
    with serving(tmp_path, SCOREKEEPER_PROXY_HOPS="1", RATELIMIT_ENABLED="0") as proxied:
        game_id, cookie = new_game_by_form(proxied)
        link = f"scores.example.org/games/{game_id}"
        assert seen_as(proxied, game_id, cookie, PROXY) == (f"https://{link}", True)
        assert seen_as(proxied, game_id, cookie, {}) == (f"http://{link}", False)


@pytest.mark.slow
def test_a_port_in_use_is_said_in_one_line(server: Served, tmp_path: Path) -> None:
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(server.port), "SCOREKEEPER_INSTANCE": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    # Ctrl+C as a terminal sends it to its foreground job, which never ignores it: a test run started
    # in the background (``cmd &``: SIGINT ignored, and inherited) must not make it a no-op here.
    start = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
    command = [sys.executable, "-c", f"{start}; from scorekeeper.cli import main; main()", "serve"]
    second = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert second.returncode == 1
    assert second.stderr.strip() == (
        f"Cannot serve on 127.0.0.1:{server.port}: Address already in use. (Another port: PORT=8001 make run)"
    )
    assert "Scorekeeper is running" not in second.stdout


#: Connections that send a request one byte at a time, for ever: more than ``connection_limit``
#: when the process may open ``FILES`` files (``serving.connection_limit``: 200 less 64).
TRICKLING = 160
FILES = 200
#: Each is dropped this soon after its first byte (``REQUEST_SECONDS``, with room for a busy machine).
DROPPED_WITHIN = 30.0


@pytest.mark.slow
def test_trickling_clients_are_dropped_and_a_phone_is_served(tmp_path: Path) -> None:
    """A byte every second keeps a connection from ever being idle (``channel_timeout``): 160 of
    them used to fill every connection for as long as they liked, so no phone got in."""
    from scorekeeper.serving import REQUEST_SECONDS

    with serving(tmp_path, files=FILES, RATELIMIT_ENABLED="0") as served:
        began = time.monotonic()
        open_ = {}
        for _ in range(TRICKLING):
            trickle = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            trickle.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ")
            open_[trickle.fileno()] = trickle
        answered: list[tuple[int, bytes]] = []

        def phone() -> None:
            connection = served.connection(timeout=DROPPED_WITHIN + 10)
            try:
                connection.request("GET", "/healthz")
                answer = connection.getresponse()
                answered.append((answer.status, answer.read().strip()))
            finally:
                connection.close()

        asking = threading.Thread(target=phone)
        asking.start()
        dropped_after: list[float] = []
        try:
            while open_ and time.monotonic() - began < 2 * DROPPED_WITHIN:
                readable, _, _ = select.select(list(open_.values()), [], [], 1.0)
                for trickle in readable:  # the server has closed it (end of file, or a reset)
                    with contextlib.suppress(OSError):
                        trickle.recv(65536)
                    dropped_after.append(time.monotonic() - began)
                    open_.pop(trickle.fileno()).close()
                for trickle in list(open_.values()):
                    with contextlib.suppress(OSError):
                        trickle.send(b"a")
        finally:
            for trickle in open_.values():
                trickle.close()
            asking.join()
    assert not open_, f"{len(open_)} of {TRICKLING} trickling connections still open"
    assert min(dropped_after) > REQUEST_SECONDS and max(dropped_after) < DROPPED_WITHIN
    assert answered == [(200, b"ok")]
