"""What every Okta endpoint of the replica shares: Okta's error object
(errorCode, errorSummary, errorLink, errorId, errorCauses: the Authentication
API reference and okta-auth-js test/support/xhr/primary-auth-error.js), the
JSON request body check, timestamps, JavaScript string escaping of the
hosted pages and the org's cookies.
"""
import json
import secrets
import time

JSON_TYPES = ("application/json", "application/ion+json", "application/vnd.okta.v1+json")


def error_body(code: str, summary: str, causes=()) -> dict:
    return {"errorCode": code, "errorSummary": summary, "errorLink": code,
            "errorId": "oae" + secrets.token_urlsafe(16)[:22],
            "errorCauses": [{"errorSummary": c} for c in causes]}


def error(ex, status: int, code: str, summary: str, causes=()):
    ex.json_response(status, error_body(code, summary, causes))


def read_json(ex):
    """The request's JSON object, or None once an Okta error was sent.

    The API takes JSON only: another media type is E0000012 (415), a body
    that does not parse or is not an object E0000003 (400), both from Okta's
    error catalogue. okta-auth-js sends `application/json` to /api/v1/authn
    and to IDX remediations, `application/ion+json; okta-version=1.0.0` to
    introspect; the Go IDX SDK sends the remediation's `accepts` type.
    """
    ctype = ex.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype not in JSON_TYPES:
        error(ex, 415, "E0000012", "Unsupported media type")
        return None
    try:
        body = json.loads(ex.body or b"null")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        error(ex, 400, "E0000003", "The request body was not well-formed.")
        return None
    return body


def iso(seconds_from_now: float) -> str:
    """Okta's timestamps: UTC, milliseconds, `Z`."""
    t = time.time() + seconds_from_now
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".000Z"


def js_escape(text: str) -> str:
    """A JavaScript string literal's content as Okta's pages write it: every
    character but letters, digits, `,`, `.` and `_` as `\\xHH` (or `\\uHHHH`),
    so `-` is `\\x2D` and `/` is `\\x2F` (saml2aws pkg/provider/okta
    undoes `\\x2D` in the state token it reads)."""
    out = []
    for ch in text:
        if ch.isascii() and (ch.isalnum() or ch in ",._"):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append("\\x%02X" % ord(ch))
        else:
            out.append("\\u%04X" % ord(ch))
    return "".join(out)


def cookie(name: str, value: str, max_age=None) -> tuple:
    """Okta's cookies are Path=/ and HttpOnly; `Secure` is left out because
    the replica speaks plain http on loopback (a client would drop it)."""
    age = f"; Max-Age={max_age}" if max_age is not None else ""
    return ("Set-Cookie", f"{name}={value}; Path=/; HttpOnly{age}")


def page_cookies() -> list:
    """What the org sets on its sign-in page: the app server's session and
    the device token `DT` (saml2aws's getDeviceTokenFromOkta loads a page
    for that cookie). Neither is checked: Okta binds state to its tokens."""
    return [cookie("JSESSIONID", secrets.token_hex(16).upper()),
            cookie("DT", "DI" + secrets.token_urlsafe(18))]
