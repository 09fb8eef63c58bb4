"""gzip for text responses, so the game page with its CSS, JS and icons stays far under 50 KB on a phone.

Pages, styles, scripts, SVG icons, JSON and CSV are compressed when the client accepts gzip. The
ETag is left as it is: the live game page's conditional polling compares it, and ``Vary:
Accept-Encoding`` keeps caches from mixing the two encodings up. (BREACH needs a secret and
attacker-chosen text reflected in the same response; no page echoes request input, and the CSRF
token in forms is time-salted, different in every response; in a kept page it is not even
compressed: ``pagecache.Kept.gzipped_with``.)
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

from . import pagecache

COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/csv",
        "text/plain",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    }
)
MIN_SIZE = 600  # below this, gzip's own header and the extra response header eat the saving
MAX_SIZE = 4 * 1024 * 1024  # never read a big body into memory just to compress it
#: Static files change only with a release and a phone fetches each once (then its browser and
#: service worker keep it): they get the smallest gzip (a few ms for the largest script), pages the
#: quick one (``pagecache.GZIP_LEVEL``).
STATIC_GZIP_LEVEL = 9


def compress_response(response: Response) -> Response:
    """The response gzipped, when the client accepts it and compressing is worth it."""
    if (
        response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
        or (response.content_length or 0) > MAX_SIZE
    ):
        return response
    response.vary.add("Accept-Encoding")
    if request.accept_encodings["gzip"] <= 0:
        return response
    source = response.response
    response.direct_passthrough = False  # static files: read the (small) file so it can be compressed
    body = response.get_data()
    if source is not response.response and hasattr(source, "close"):
        source.close()  # the file a static response was streaming from
    if len(body) < MIN_SIZE:
        return response
    # A page served as kept has its gzip kept with it; anything else is compressed now.
    packed = pagecache.kept_gzip(body)
    if packed is None:
        level = STATIC_GZIP_LEVEL if request.endpoint == "static" else pagecache.GZIP_LEVEL
        packed = gzip.compress(body, compresslevel=level, mtime=0)
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # byte ranges of the identity body no longer apply
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress_response)
