"""Servers that echo what they were sent, secrets included: a client must
redact every secret in every form a server may echo it (ARCHITECTURE.md,
Security rules; the spellings of Sources/Core/Redaction/SecretForms.swift).

echo-page    authorize -> login form; the form's POST answers 400 with a page
             echoing every form field, the Authorization header (and its
             decoded Basic credential), every request header and the Cookie
             header, each raw, HTML-escaped, percent-encoded (%20, upper and
             lower hex), with '+', JSON-escaped and base64
echo-cookie  authorize sets a nameless cookie and a session cookie; the login
             POST answers 400 echoing the Cookie header
echo-token   token endpoint: 400 invalid_client whose error_description
             echoes the Authorization header, its decoding and the body
"""
import base64
import json
import re
from html import escape
from urllib.parse import quote, quote_plus

import pages
import txn_login
from oauth_store import parse_basic

NAMELESS_COOKIE = "abcdefsecretvalue"
ECHO_SESSION = "echosessionsecret42"
COOKIE_SESSION = "sessionsecretvalue42"
PASSWORDS_FIRST = ("password", "passwd", "pass", "secret", "otp", "client_secret")


def spellings(value: str) -> str:
    pct = quote(value, safe="")
    lower = re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), pct)
    b64 = base64.b64encode(value.encode("utf-8")).decode("ascii")
    # `raw` goes into the HTML unescaped on purpose: servers do that.
    return (f"raw={value} html={escape(value)} pct={pct} pct-lower={lower} "
            f"plus={quote_plus(value, safe='')} json={json.dumps(value)} base64={b64}")


def _basic_decoded(header: str) -> str:
    creds = parse_basic(header or "")
    return f"{creds[0]}:{creds[1]}" if creds else ""


def page_echo(ex):
    """400, everything the request carried, password fields first."""
    names = sorted(ex.form, key=lambda n: (n not in PASSWORDS_FIRST, n))
    lines = [f"field {escape(n)}: {spellings(ex.form[n])}" for n in names]
    auth = ex.headers.get("authorization")
    if auth:
        lines.append(f"authorization: {spellings(auth)}")
        decoded = _basic_decoded(auth)
        if decoded:
            lines.append(f"authorization decoded: {spellings(decoded)}")
    lines += [f"header {escape(n)}: {spellings(v)}" for n, v in ex.headers.items()
              if n not in ("authorization", "cookie")]
    if "cookie" in ex.headers:
        lines.append(f"cookie: {spellings(ex.headers['cookie'])}")
    ex.html(400, "<!DOCTYPE html><html><head><title>Bad Request</title></head><body>"
                 "<h1>Bad Request</h1>\n<pre>" + "\n".join(lines) + "</pre></body></html>")


def page_authorize(ex, pending):
    txn_login.start(ex, pending, [("Set-Cookie", f"session={ECHO_SESSION}; Path=/; HttpOnly")])


def page_login(ex):
    if ex.method == "POST":
        return page_echo(ex)
    txn_login.login(ex)


def cookie_authorize(ex, pending):
    """A nameless cookie (RFC 6265bis §5.6: name "", value as given) beside a session."""
    txn_login.start(ex, pending, [("Set-Cookie", NAMELESS_COOKIE),
                                  ("Set-Cookie", f"session={COOKIE_SESSION}; Path=/; HttpOnly")])


def cookie_login(ex):
    if ex.method != "POST":
        return txn_login.login(ex)
    cookie = ex.headers.get("cookie", "")
    ex.html(400, pages.page("Session error", f"<p>Your session is invalid. Cookie: {cookie} "
                                             f"({escape(cookie)}; {quote(cookie, safe='')})</p>"))


def token(ex):
    auth = ex.headers.get("authorization", "")
    body = ex.body.decode("utf-8", errors="replace")
    ex.json_response(400, {"error": "invalid_client", "error_description":
                           f"Authorization: {auth}; decoded: {_basic_decoded(auth)}; body: {body}"})


AUTHORIZE = {"echo-page": page_authorize, "echo-cookie": cookie_authorize}

PAGES = {("echo-page", "login"): page_login, ("echo-cookie", "login"): cookie_login}
