"""``make run``'s Waitress, with a body past its limit answered by the app and no connection reset.

Waitress reads each request whole before the app sees it, and stops reading a body at its own
limit (``max_request_body_size``, well past the app's ``MAX_CONTENT_LENGTH``).  Left to itself it
would then answer in its own words (a plain-text 413) and close the connection while the client
is still sending: the client, writing into a closed socket, gets a reset instead of the answer.
Here the app answers instead (``TooLarge``: its 413, in the API's JSON or as the page's), and the
connection (``Channel``) says it is closing, sends that answer, stops writing, and reads and drops
whatever the client still sends until it stops (or for ``DRAIN_SECONDS`` at most), then closes: the
client has finished sending when it reads the answer.

Waitress closes only a *silent* connection (``channel_timeout``): one that sends a byte every few
seconds would stay open for ever, and 150 of them (``connection_limit``) keep every phone out.  So
a request must also arrive whole within ``REQUEST_SECONDS`` of its first byte: the channel notes
when its request in progress began, and when the event loop asks whether to read from it (every
second or sooner) one begun longer ago is closed.  A connection between requests (keep-alive) has
none in progress, and keeps ``channel_timeout``.

A club's phones each poll their game every few seconds, so the app's threads can fall behind: then
a scorer's Save must not wait behind a room's polls.  Waitress queues the connections that have a
request to run (``Dispatcher``): here a write (any method but GET and HEAD) goes to the head of
the queue, and a page's poll (``X-Scorekeeper-Poll``) that has waited there longer than
``SHED_SECONDS`` is told to come back later (``Shed``: 503 with ``Retry-After``, without the app,
the connection held open), which the page does: in 5 to 15 s, drawn for each, since a room's polls
shed in one burst and all told 10 s would come back in one burst and be shed again.  A game page
opened afresh, or a club page, is never turned away.
"""

from __future__ import annotations

import io
import random
import socket
import sys
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask, Task, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import RequestEntityTooLarge

from .limits import TOO_LARGE

#: A request must arrive whole (headers and body) this soon after its first byte, or its
#: connection is dropped.  A phone on a poor line sends the app's largest body (64 KB) in a few seconds.
REQUEST_SECONDS = 10
#: How long the rest of a refused body is read and dropped, at most, once the answer is sent.
DRAIN_SECONDS = 30.0
#: Most connections held open at once (each a file descriptor and a buffer): a thousand tables' phones.
MOST_CONNECTIONS = 4000
#: Files left open for the rest: the database and its journal, logs, the listening sockets, the trigger.
OTHER_FILES = 64
#: On Windows Waitress waits on its sockets with select(), which takes at most 512 there.
WINDOWS_CONNECTIONS = 500
#: A poll that waited this long for a thread is answered "come back later" instead (``Shed``).
SHED_SECONDS = 1.0
#: ... in this many seconds, give or take ``RETRY_SPREAD`` drawn at random (the page polls again then,
#: not at its usual period).  Spread, so that the polls shed together do not all come back at the same
#: second, to be shed together again.
RETRY_AFTER = 10
RETRY_SPREAD = 5
#: The page's header on its polls (``web.games.routes.POLL_HEADER``), as Waitress names it.
POLL = "X_SCOREKEEPER_POLL"


class TooLarge(WSGITask):
    """A request whose body is past Waitress's limit, for the app to refuse: without its body,
    marked too large (``limits``: the app answers 413 before reading anything)."""

    def get_environment(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environment()
        environ.update({TOO_LARGE: True, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"})
        return environ

    def execute(self) -> None:
        self.set_close_on_finish()  # the rest of the body is never read as a request
        if isinstance(self.channel, Channel):
            self.channel.drain = True
        super().execute()


class Shed(Task):
    """A poll that waited too long for a thread: 503 and when to come back, without the app."""

    complete = True
    BODY = b"Busy: polling again in a few seconds.\n"

    def execute(self) -> None:
        self.status = "503 Service Unavailable"
        headers: list[tuple[str, str]] = self.response_headers  # type: ignore[assignment]
        headers.extend(
            [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Retry-After", retry_after()),
                ("Cache-Control", "no-store"),
            ]
        )
        self.content_length = len(self.BODY)
        self.write(self.BODY)


def retry_after() -> str:
    """When a shed poll is to come back: ``RETRY_AFTER`` seconds, give or take ``RETRY_SPREAD``."""
    return str(random.randint(RETRY_AFTER - RETRY_SPREAD, RETRY_AFTER + RETRY_SPREAD))


class Dispatcher(ThreadedTaskDispatcher):
    """Waitress's queue of connections with a request to run: a write goes first, and each
    connection notes when it joined (``Channel.service`` sheds a poll that waited too long)."""

    def add_task(self, task: Any) -> None:
        requests: list[Any] = getattr(task, "requests", None) or []
        write = bool(requests) and requests[0].command not in ("GET", "HEAD")
        task.queued_at = time.monotonic()
        with self.lock:
            if write:
                self.queue.appendleft(task)
            else:
                self.queue.append(task)
            self.queue_cv.notify()


class Channel(HTTPChannel):
    """Waitress's connection: a request must arrive whole in time, and a body past the limit gets
    the app's answer, then is drained."""

    drain = False  # set by ``TooLarge``: once its answer is sent, read the rest of the body
    queued_at: float | None = None  # when it joined the queue for a thread (``Dispatcher``)
    draining_until: float | None = None
    request_began: float | None = None  # when the request in progress began to arrive

    @staticmethod
    def error_task_class(channel: HTTPChannel, request: Any) -> Task:  # type: ignore[override]
        """What answers a request Waitress refused: the app when the body is too large."""
        task = TooLarge if isinstance(request.error, RequestEntityTooLarge) else ErrorTask
        return task(channel, request)

    @staticmethod
    def task_class(channel: HTTPChannel, request: Any) -> Task:  # type: ignore[override]
        """What runs a request: the app, or ``Shed`` for a poll that waited too long."""
        return Shed(channel, request) if getattr(request, "shed", False) else WSGITask(channel, request)

    def service(self) -> None:
        """Runs the next request, once a thread is free: a poll that waited too long is shed."""
        queued_at, self.queued_at = self.queued_at, None
        request: Any = self.requests[0]  # (its command is text, whatever the stubs say)
        if queued_at is not None and POLL in request.headers and request.command == "GET":
            request.shed = time.monotonic() - queued_at > SHED_SECONDS
        super().service()

    def handle_close(self) -> None:
        """Once the answer to a body too large is sent: stop writing, and drain what still comes."""
        if self.drain and self.connected and self.socket is not None:
            self.drain = False
            try:
                self.socket.shutdown(socket.SHUT_WR)
            except OSError:
                super().handle_close()
                return
            self.will_close = False
            self.draining_until = time.monotonic() + DRAIN_SECONDS
            return
        super().handle_close()

    def received(self, data: bytes) -> bool:
        if self.draining_until is not None:
            if time.monotonic() > self.draining_until:
                self.will_close = True  # sent for too long: closed now, whatever it still sends
            return True
        before = self.request
        done = bool(super().received(data))
        if self.request is None:  # every request read so far is whole
            self.request_began = None
        elif self.request is not before:
            self.request_began = time.monotonic()
        return done

    def readable(self) -> bool:
        began = self.request_began
        if began is not None and time.monotonic() - began > REQUEST_SECONDS:
            self.will_close = True  # the event loop closes it next (``writable`` is now true)
        return bool(super().readable())


def connection_limit() -> int:
    """How many connections ``make run`` holds open: up to ``MOST_CONNECTIONS``, as many as the OS
    lets this process open files (its soft limit raised towards the hard one first: macOS starts
    processes at 256, many Linux systems at 1,024)."""
    if sys.platform == "win32":
        return WINDOWS_CONNECTIONS
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_CONNECTIONS + OTHER_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass  # refused (macOS past its OPEN_MAX): the limit it has
    files = wanted if soft == resource.RLIM_INFINITY else soft
    return max(1, min(MOST_CONNECTIONS, files - OTHER_FILES))


def create(app: Any, *, map: dict[int, Any], threads: int, **settings: Any) -> Any:
    """Waitress's server for ``app`` as ``make run`` serves it: ``Dispatcher``'s queue, ``Channel``'s
    connections, as many as ``connection_limit``, waited on with poll() where there is one (select()
    takes 1,024 sockets at most on Linux and macOS)."""
    from waitress.server import BaseWSGIServer, create_server

    dispatcher = Dispatcher()
    dispatcher.set_thread_count(threads)
    settings = {"connection_limit": connection_limit(), "asyncore_use_poll": True, **settings}
    server = create_server(app, map=map, _dispatcher=dispatcher, threads=threads, **settings)
    for listener in map.values():  # one per address listened on (two for "localhost")
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = Channel
    return server
