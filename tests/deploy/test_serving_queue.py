"""``make run``'s queue (``scorekeeper.serving``): a write goes before the polls waiting for a thread,
a poll that waited too long is told to come back later without the app, and as many connections
are held as the OS lets the process open files."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from scorekeeper import serving
from tests.helpers import free_port

POLL = {"X-Scorekeeper-Poll": "1"}


class App:
    """A WSGI app whose ``/hold`` keeps its thread until released; it notes the paths it ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.holding = threading.Event()
        self.release = threading.Event()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ["PATH_INFO"]
        self.ran.append(path)
        if path == "/hold":
            self.holding.set()
            self.release.wait(30)
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(path)))])
        return [path.encode()]


@contextmanager
def one_thread(app: App) -> Iterator[tuple[int, Any]]:
    """``app`` served as ``make run`` serves, with one thread: its port and its server."""
    port = free_port()
    sockets: dict[int, Any] = {}
    server = serving.create(app, map=sockets, host="127.0.0.1", port=port, threads=1)
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    try:
        yield port, server
    finally:
        app.release.set()
        server.task_dispatcher.shutdown(timeout=5)
        for channel in list(sockets.values()):
            channel.close()
        loop.join(10)


def sent(port: int, method: str, path: str, headers: dict[str, str]) -> http.client.HTTPConnection:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, body=b"" if method == "POST" else None, headers=headers)
    return connection


def wait_until(condition: Any) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.01)


def test_a_write_goes_first_and_a_poll_that_waited_is_told_to_come_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = App()
    with one_thread(app) as (port, server):
        holder = sent(port, "GET", "/hold", {})
        wait_until(app.holding.is_set)  # the one thread is taken
        poll = sent(port, "GET", "/games/abc", POLL)
        page = sent(port, "GET", "/games/abc", {})
        wait_until(lambda: len(server.task_dispatcher.queue) == 2)
        save = sent(port, "POST", "/games/abc/deals", {})
        wait_until(lambda: len(server.task_dispatcher.queue) == 3)
        monkeypatch.setattr(serving, "SHED_SECONDS", 0.0)  # every poll has now waited too long
        app.release.set()
        answers = {}
        for name, connection in (("hold", holder), ("save", save), ("poll", poll), ("page", page)):
            answer = connection.getresponse()
            answers[name] = (answer.status, answer.getheader("Retry-After"), answer.read())
        assert answers["save"] == (200, None, b"/games/abc/deals")
        assert answers["page"] == (200, None, b"/games/abc")  # a page opened afresh is never turned away
        status, retry_after, body = answers["poll"]
        assert (status, body) == (503, serving.Shed.BODY)
        assert abs(int(retry_after) - serving.RETRY_AFTER) <= serving.RETRY_SPREAD
        assert app.ran == ["/hold", "/games/abc/deals", "/games/abc"]  # the save first; the poll never ran
        monkeypatch.setattr(serving, "SHED_SECONDS", 60.0)
        poll.request("GET", "/games/abc", headers=POLL)  # the same connection, kept open
        again = poll.getresponse()
        assert (again.status, again.read()) == (200, b"/games/abc")
        for connection in (holder, save, poll, page):
            connection.close()


def test_the_connections_held_follow_the_files_the_process_may_open(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    limits = {"now": (256, 100_000)}
    monkeypatch.setattr(resource, "getrlimit", lambda which: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda which, value: limits.update(now=value))
    assert serving.connection_limit() == serving.MOST_CONNECTIONS  # raised: macOS starts at 256
    assert limits["now"] == (serving.MOST_CONNECTIONS + serving.OTHER_FILES, 100_000)
    limits["now"] = (256, 1024)
    assert serving.connection_limit() == 1024 - serving.OTHER_FILES  # as far as the hard limit
    assert limits["now"] == (1024, 1024)

    def refused(which: int, value: tuple[int, int]) -> None:
        raise ValueError("not allowed")

    monkeypatch.setattr(resource, "setrlimit", refused)
    limits["now"] = (256, resource.RLIM_INFINITY)
    assert serving.connection_limit() == 256 - serving.OTHER_FILES  # refused: the limit it has
    monkeypatch.setattr(serving.sys, "platform", "win32")
    assert serving.connection_limit() == serving.WINDOWS_CONNECTIONS  # select() there: 512 sockets


def test_the_polls_told_to_come_back_are_told_different_times() -> None:
    """Shed together, they must not all come back in the same second (and be shed together again)."""
    told = [int(serving.retry_after()) for _ in range(300)]
    assert min(told) >= serving.RETRY_AFTER - serving.RETRY_SPREAD
    assert max(told) <= serving.RETRY_AFTER + serving.RETRY_SPREAD
    assert len(set(told)) >= 8  # 11 seconds to draw from
