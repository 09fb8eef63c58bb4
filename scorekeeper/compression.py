"""Text answers gzipped for the clients that take gzip, each encoding with its own ETag.

Whether a client takes gzip is read from werkzeug's parsed ``Accept-Encoding`` (``gzip_wanted``):
a coding with ``q=0`` is refused, ``*`` stands for the codings not named, and ``identity`` is
acceptable unless refused.  Flask-Compress then gzips the answer (``COMPRESS_*``), and names the
gzipped copy by the plain one's ETag with ``:gzip`` added: the two are different bytes, so
``If-Range`` with the gzipped copy's tag never gets a range of the plain body (a range is always of
the plain body), and no cache takes one for the other.

A client revalidates with the tag it holds, whichever encoding it came with: before the views and
the static files compare tags, ``If-None-Match`` (when this client takes gzip) and ``If-Match`` are
read without the ``:gzip`` (``either_encoding``), so the game page's live updates, the API's
``If-Match`` and the static files' 304s work as they did; a 304 names the copy the client holds.
"""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.http import parse_etags

from . import caching
from .config import COMPRESSIBLE
from .extensions import compress

GZIPPED = ":gzip"  # what Flask-Compress adds to the ETag of the copy it gzips
_HELD = "scorekeeper.if_none_match"  # the If-None-Match the client sent, before ``either_encoding``
MOST_COMPRESSED = 4 * 1024 * 1024  # never read a big body into memory just to compress it


def init_app(app: Flask) -> None:
    compress.init_app(app)
    app.before_request(either_encoding)
    app.after_request(compressed)


def gzip_wanted() -> bool:
    """Whether this request takes gzip, and over the plain body (RFC 9110, 12.5.3)."""
    accepted = request.accept_encodings
    gzip = accepted.quality("gzip")
    identity = accepted.quality("identity") if accepted.find("identity") >= 0 else 1  # named, or by *
    return gzip > 0 and gzip >= identity


def either_encoding() -> None:
    """``If-None-Match`` and ``If-Match`` as naming the content, gzipped or not (see above)."""
    environ = request.environ
    held = environ.get("HTTP_IF_NONE_MATCH")
    if held and GZIPPED in held and gzip_wanted():
        environ[_HELD] = held
        environ["HTTP_IF_NONE_MATCH"] = held.replace(f'{GZIPPED}"', '"')
    insisted = environ.get("HTTP_IF_MATCH")
    if insisted and GZIPPED in insisted:
        environ["HTTP_IF_MATCH"] = insisted.replace(f'{GZIPPED}"', '"')


def compressed(response: Response) -> Response:
    """The response gzipped by Flask-Compress when the client takes gzip: whole answers only (a
    range of a file stays as it is); a 304 names the copy the client holds."""
    if response.mimetype in COMPRESSIBLE and response.status_code in (200, 206, 304):
        response.vary.add("Accept-Encoding")  # the same address, gzipped or not
    if response.status_code == 304:
        return _held_copy(response)
    if (
        response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or (response.content_length or 0) > MOST_COMPRESSED
        or not gzip_wanted()
    ):
        return response
    if response.is_streamed:  # a static file: read it (it is small) so it is compressed whole
        source = response.response
        response.direct_passthrough = False
        response.make_sequence()
        if hasattr(source, "close"):
            source.close()
    copy = caching.page_copy()
    zipped = caching.gzipped_copy(copy) if copy is not None else None
    if zipped is not None:  # a club page cached with its gzipped copy: not compressed again
        response.set_data(zipped)
        response.headers["Content-Encoding"] = "gzip"
        tag, weak = response.get_etag()
        if tag and not weak:
            response.set_etag(tag + GZIPPED)  # as Flask-Compress names a gzipped copy
    else:
        response = compress.after_request(response)
        if copy is not None and response.headers.get("Content-Encoding") == "gzip":
            caching.put(("gzip", *copy), response.get_data())
    if "Content-Encoding" in response.headers:
        response.headers.pop("Accept-Ranges", None)  # ranges of the plain body no longer apply
    return response


def _held_copy(response: Response) -> Response:
    """A 304 to a client that holds the gzipped copy carries that copy's tag."""
    tag, weak = response.get_etag()
    held = request.environ.get(_HELD)
    if tag and not weak and held and parse_etags(held).contains(tag + GZIPPED):
        response.set_etag(tag + GZIPPED)
    return response
