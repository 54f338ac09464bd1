"""Answers whose HTTP framing is broken (a client must report a network
error, exit 3, and never read them as an answer).

http09           no status line (HTTP/0.9 style): raw bytes, then close
short-body       Content-Length: 100, 10 bytes, then close (RFC 9112 §6.3 item 7)
endless-chunked  valid chunks, one every 0.2 s, until the client leaves (at most 120 s)
The token-* variants do the same at the token endpoint (authorize: direct).
"""
import time

ENDLESS_LIMIT = 120.0  # seconds: never pin a thread longer than this


def http09(ex):
    # Looks like a header line, so a lax parser would "find" a Location.
    ex.raw(b"Location: http://127.0.0.1:9/evil?code=fake\r\n\r\n<html>no status line</html>\n")


def short_body(ex):
    ex.stream(200, "text/html; charset=utf-8", 100, iter([b"<html><bod"]))


def endless_chunked(ex, ctype="text/html; charset=utf-8"):
    deadline = time.monotonic() + ENDLESS_LIMIT

    def chunks():
        while time.monotonic() < deadline:
            yield "<p>still loading</p>\n"
    try:
        ex.chunked(200, ctype, chunks(), delay=0.2)
    finally:
        ex.handler.close_connection = True  # cut off mid-stream: never reusable


AUTHORIZE = {
    "http09": lambda ex, pending: http09(ex),
    "short-body": lambda ex, pending: short_body(ex),
    "endless-chunked": lambda ex, pending: endless_chunked(ex),
}

TOKEN = {
    "token-http09": http09,
    "token-short-body": short_body,
    "token-endless-chunked": lambda ex: endless_chunked(ex, "application/json"),
}
