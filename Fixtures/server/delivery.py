"""Ways a server can hand over the answer, and headers that must not count.

meta-answer-elsewhere     200 page, <meta refresh> to <issuer>/elsewhere?code=..&state=..
refresh-header-elsewhere  200 page without a form, `Refresh: 0; url=<issuer>/elsewhere?...`
autosubmit-elsewhere      200 self-submitting form posting code/state to <issuer>/elsewhere
trailer-cookie            chunked 302 whose trailer carries Set-Cookie and Location
interim-1xx               103 Early Hints with Set-Cookie and Location, then the 302

The *-elsewhere answers carry code and state to a URL that is not the
redirect_uri: a client must refuse it and never fetch it (ARCHITECTURE.md,
Security rules). <issuer>/
elsewhere exists only so the hits can show it was never fetched.
"""
from html import escape

import pages
from authorize import answer_code
from exchange import add_params

EVIL_LOCATION = "http://127.0.0.1:9/evil"


def _elsewhere_url(ex, pending):
    code = ex.state.issue_code(pending, ex.issuer, "alice")
    return add_params(ex.issuer + "/elsewhere", [("code", code), ("state", pending.state or "")])


def meta_elsewhere(ex, pending):
    url = escape(_elsewhere_url(ex, pending))
    ex.html(200, f'<html><head><meta http-equiv="refresh" content="0;url={url}"></head>'
                 '<body><p>Redirecting&hellip;</p></body></html>')


def refresh_header_elsewhere(ex, pending):
    url = _elsewhere_url(ex, pending)
    ex.html(200, "<html><body><p>Redirecting&hellip;</p></body></html>",
            [("Refresh", f"0; url={url}")])


def autosubmit_elsewhere(ex, pending):
    code = ex.state.issue_code(pending, ex.issuer, "alice")
    page = pages.form_post_page(ex.issuer + "/elsewhere",
                                [("code", code), ("state", pending.state or "")])
    ex.html(200, page.replace('onload="javascript:', 'onload="'))


def trailer_cookie(ex, pending):
    """A 302 sent chunked whose trailer section holds Set-Cookie and Location
    (RFC 9110 §6.5.1: not allowed there; a client must ignore both). The
    real Location leads to <issuer>/next, whose hit must show no `evil`."""
    txn = ex.state.put_txn(pending)
    ex.chunked(302, "text/plain; charset=utf-8", ["Redirecting\n"],
               headers=[("Location", f"{ex.issuer}/next?txn={txn}"),
                        ("Set-Cookie", "good=1; Path=/"), ("Cache-Control", "no-store")],
               trailers=[("Set-Cookie", "evil=1; Path=/"), ("Location", EVIL_LOCATION)])


def interim_1xx(ex, pending):
    """RFC 9110 §15.2: a 1xx is interim; its fields are not the answer's.
    The 103 carries Set-Cookie and Location that a client must ignore."""
    ex.raw(b"HTTP/1.1 103 Early Hints\r\n"
           b"Link: </static/site.css>; rel=preload; as=style\r\n"
           b"Set-Cookie: evil=1; Path=/\r\n"
           b"Location: " + EVIL_LOCATION.encode() + b"\r\n\r\n", close=False)
    txn = ex.state.put_txn(pending)
    ex.redirect(302, f"{ex.issuer}/next?txn={txn}", [("Set-Cookie", "good=1; Path=/")])


def next_hop(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"), pop=True)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    answer_code(ex, pending, "alice")


def elsewhere(ex):
    ex.send(200, "elsewhere reached\n")


ELSEWHERE = ("meta-answer-elsewhere", "refresh-header-elsewhere", "autosubmit-elsewhere")

AUTHORIZE = {
    "meta-answer-elsewhere": meta_elsewhere,
    "refresh-header-elsewhere": refresh_header_elsewhere,
    "autosubmit-elsewhere": autosubmit_elsewhere,
    "trailer-cookie": trailer_cookie,
    "interim-1xx": interim_1xx,
}

PAGES = {
    **{(name, "elsewhere"): elsewhere for name in ELSEWHERE},
    ("trailer-cookie", "next"): next_hop,
    ("interim-1xx", "next"): next_hop,
}
