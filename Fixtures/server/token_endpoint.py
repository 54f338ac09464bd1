"""The token endpoint: client authentication, code redemption, token-* scenarios.

Canned scenarios (errors and malformed bodies) answer without looking at the
request. All others validate it fully (RFC 6749 §4.1.3, RFC 7636 §4.6) and
also take grant_type=refresh_token (lifecycle.py). The success body is
built by token_response.py.
"""
import json
import time

import echo
import framing
import lifecycle
import token_response
from authorize import CONTROL_TEXT, SPOOF_TEXT
from oauth_store import CLIENTS, parse_basic, verify_pkce

FORM = "application/x-www-form-urlencoded"


def _error(ex, status, error, description=None, headers=()):
    body = {"error": error}
    if description:
        body["error_description"] = description
    ex.json_response(status, body, headers)


def _stall(ex):
    # Promise 1000 bytes, send 10, then go quiet for 5 s (and close).
    def chunks():
        yield b'{"access_'
        yield b"t"
        time.sleep(5)
    ex.stream(200, "application/json", 1000, chunks())


def _drip(ex):
    body = json.dumps({"access_token": "at-drip", "token_type": "Bearer"},
                      separators=(",", ":")).encode()
    body = body[:-1] + b" " * (100 - len(body)) + b"}"  # exactly 100 bytes
    ex.stream(200, "application/json", len(body), (body[i:i + 1] for i in range(len(body))),
              delay=0.5)


CANNED = {
    "token-400": lambda ex: _error(ex, 400, "invalid_grant", "The code has expired"),
    "token-401": lambda ex: _error(ex, 401, "invalid_client", "Client authentication failed"),
    "token-500": lambda ex: ex.html(
        500, "<html><body><h1>Internal Server Error</h1></body></html>"),
    "token-bad-json": lambda ex: ex.send(200, '{"access_token": "x",', "application/json"),
    "token-no-access-token": lambda ex: ex.json_response(
        200, {"token_type": "Bearer", "expires_in": 3600}),
    "token-deep": lambda ex: ex.send(200, "[" * 10000 + "]" * 10000, "application/json"),
    "token-stall": _stall,
    "token-drip": _drip,
    "echo-token": echo.token,
    # JSON-escaped on the wire (\u001b…): a client that prints a field raw
    # would write the control characters to the terminal.
    "token-control": lambda ex: ex.json_response(200, {
        "access_token": "at-" + CONTROL_TEXT, "token_type": "Bearer" + CONTROL_TEXT, "refresh_token": "rt-" + CONTROL_TEXT}),
    "token-spoof": lambda ex: ex.json_response(200, {
        "access_token": "at-" + SPOOF_TEXT, "token_type": "Bearer", "refresh_token": "rt-" + SPOOF_TEXT}),
    **framing.TOKEN,
}


def token(ex):
    if ex.method != "POST":
        return _error(ex, 405, "invalid_request", "use POST", [("Allow", "POST")])
    if ex.scenario in CANNED:
        return CANNED[ex.scenario](ex)
    if ex.scenario == "token-slow":
        time.sleep(3)
    ctype = ex.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != FORM:
        return _error(ex, 400, "invalid_request", "expected an application/x-www-form-urlencoded body")
    client_id = _authenticate(ex)
    if client_id is None:
        return
    form = ex.form
    if form.get("grant_type") == "refresh_token":
        return lifecycle.refresh(ex, client_id)
    if form.get("grant_type") != "authorization_code":
        return _error(ex, 400, "unsupported_grant_type")
    grant = ex.state.take_code(form.get("code", ""), ex.issuer)
    if grant is None:
        return _error(ex, 400, "invalid_grant", "unknown, used or expired code")
    pending = grant.pending
    if pending.client_id != client_id:
        return _error(ex, 400, "invalid_grant", "code was issued to another client")
    if form.get("redirect_uri") != pending.redirect_uri:
        return _error(ex, 400, "invalid_grant", "redirect_uri mismatch")
    if not verify_pkce(pending, form.get("code_verifier")):
        return _error(ex, 400, "invalid_grant", "PKCE verification failed")
    _success(ex, grant, client_id)


def _authenticate(ex):
    """Return the authenticated client_id, or None after sending the error.

    client_secret_basic (RFC 6749 §2.3.1 encoding) or client_secret_post,
    never both; public clients send client_id alone.
    """
    form = ex.form
    header = ex.headers.get("authorization")
    if header is not None:
        challenge = [("WWW-Authenticate", 'Basic realm="fixture"')]
        if "client_secret" in form:
            return _error(ex, 400, "invalid_request", "more than one client authentication method")
        creds = parse_basic(header)
        if creds is None:
            return _error(ex, 401, "invalid_client", None, challenge)
        client_id, secret = creds
        if "client_id" in form and form["client_id"] != client_id:
            return _error(ex, 400, "invalid_request", "client_id differs from Basic credentials")
        if client_id not in CLIENTS or CLIENTS[client_id] is None or CLIENTS[client_id] != secret:
            return _error(ex, 401, "invalid_client", None, challenge)
        return client_id
    client_id = form.get("client_id")
    if client_id not in CLIENTS or CLIENTS[client_id] != form.get("client_secret"):
        return _error(ex, 401, "invalid_client")
    return client_id


def _success(ex, grant, client_id):
    pending = grant.pending
    ex.state.count("codes_redeemed")
    refresh = lifecycle.issue(ex, client_id, grant.user, pending.scope)
    token_response.send(ex, token_response.body(ex, client_id, grant.user, pending.scope,
                                                pending.nonce, refresh))
