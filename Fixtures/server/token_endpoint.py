"""The token endpoint: client authentication, code redemption, token-* scenarios.

Canned scenarios (errors and malformed bodies) answer without looking at the
request. All others validate it fully (RFC 6749 §4.1.3, RFC 7636 §4.6).
"""
import json
import time

import jwt_util
from oauth_store import CLIENTS, parse_basic, random_token, verify_pkce

FORM = "application/x-www-form-urlencoded"
PAD_SIZE = 5 * 1024 * 1024  # token-huge body size


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


def _id_token(ex, grant, client_id):
    now = int(time.time())
    claims = {"iss": ex.issuer, "sub": grant.user, "aud": client_id,
              "exp": now + 300, "iat": now}
    if grant.pending.nonce is not None:
        claims["nonce"] = grant.pending.nonce
    defect = ex.scenario[len("idtoken-"):] if ex.scenario.startswith("idtoken-") else ""
    if defect == "bad":
        return "not.a.jwt"
    if defect == "wrong-iss":
        claims["iss"] = "https://evil.example"
    elif defect == "wrong-aud":
        claims["aud"] = "other-client"
    elif defect == "expired":
        claims["iat"], claims["exp"] = now - 3900, now - 3600
    elif defect == "wrong-nonce":
        claims["nonce"] = random_token("wrong-")
    elif defect.startswith("aud-array"):
        claims["aud"] = [client_id, "other"]
        if defect == "aud-array-azp":
            claims["azp"] = client_id
    return jwt_util.encode(claims)


def _success(ex, grant, client_id):
    scope = grant.pending.scope
    body = {"access_token": random_token("at-"), "token_type": "Bearer",
            "expires_in": "3600" if ex.scenario == "token-expires-string" else 3600,
            "refresh_token": random_token("rt-"), "scope": scope}
    if "openid" in scope.split() or ex.scenario.startswith("idtoken-"):
        body["id_token"] = _id_token(ex, grant, client_id)
    if ex.scenario == "token-huge":
        head = json.dumps(body, separators=(",", ":"))[:-1] + ',"padding":"'
        tail = '"}'
        body_text = head + "x" * (PAD_SIZE - len(head) - len(tail)) + tail
        return ex.send(200, body_text, "application/json")
    ex.json_response(200, body, indent=2 if ex.scenario == "token-pretty" else None)
