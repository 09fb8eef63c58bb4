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
"""

from __future__ import annotations

import io
import socket
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask, Task, WSGITask
from waitress.utilities import RequestEntityTooLarge

from .limits import TOO_LARGE

#: A request must arrive whole (headers and body) this soon after its first byte, or its
#: connection is dropped.  A phone on a poor line sends the app's largest body (64 KB) in a few seconds.
REQUEST_SECONDS = 10
#: How long the rest of a refused body is read and dropped, at most, once the answer is sent.
DRAIN_SECONDS = 30.0


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


class Channel(HTTPChannel):
    """Waitress's connection: a request must arrive whole in time, and a body past the limit gets
    the app's answer, then is drained."""

    drain = False  # set by ``TooLarge``: once its answer is sent, read the rest of the body
    draining_until: float | None = None
    request_began: float | None = None  # when the request in progress began to arrive

    @staticmethod
    def error_task_class(channel: HTTPChannel, request: Any) -> Task:  # type: ignore[override]
        """What answers a request Waitress refused: the app when the body is too large."""
        task = TooLarge if isinstance(request.error, RequestEntityTooLarge) else ErrorTask
        return task(channel, request)

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
