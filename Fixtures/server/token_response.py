"""The body of a successful token response (RFC 6749 §5.1), for the code
grant and the refresh grant alike, in every shape the scenarios ask for.

short-lived   expires_in 2 (with a refresh token)
no-expiry     no expires_in; the access token is opaque
jwt-access    no expires_in; the access token is a JWT carrying exp
token-expires-string, token-pretty, token-huge, idtoken-*, hostile values
(hostile.py), and trailer-cookie (sent chunked, with a Set-Cookie trailer).
"""
import json
import time

import hostile
import large
import unparsed
import jwt_util
from oauth_store import random_token

PAD_SIZE = 5 * 1024 * 1024  # token-huge body size
ACCESS_LIFETIME = 3600
NO_EXPIRES_IN = ("no-expiry", "jwt-access")


def _expires_in(scenario):
    if scenario == "short-lived":
        return 2
    return "3600" if scenario == "token-expires-string" else ACCESS_LIFETIME


def _access_token(ex, client_id, user, scope):
    if ex.scenario != "jwt-access":
        return random_token("at-")
    now = int(time.time())
    return jwt_util.encode({"iss": ex.issuer, "sub": user, "aud": client_id,
                            "client_id": client_id, "scope": scope, "iat": now,
                            "exp": now + ACCESS_LIFETIME, "jti": random_token()})


def id_token(ex, client_id, user, nonce):
    """OIDC Core §2 claims; a refresh passes nonce None (§12.2: none then)."""
    now = int(time.time())
    claims = {"iss": ex.issuer, "sub": user, "aud": client_id,
              "exp": now + 300, "iat": now}
    if nonce is not None:
        claims["nonce"] = nonce
    hostile_value = hostile.id_token(ex.scenario, claims)
    if hostile_value is not NotImplemented:
        return hostile_value
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


def body(ex, client_id, user, scope, nonce, refresh_token):
    """The response object; refresh_token None leaves it out."""
    out = {"access_token": _access_token(ex, client_id, user, scope), "token_type": "Bearer"}
    if ex.scenario not in NO_EXPIRES_IN:
        out["expires_in"] = _expires_in(ex.scenario)
    if refresh_token is not None:
        out["refresh_token"] = refresh_token
    out["scope"] = scope
    if "openid" in scope.split() or ex.scenario.startswith("idtoken-"):
        out["id_token"] = id_token(ex, client_id, user, nonce)
    return out


def send(ex, obj):
    """200 with the object in the scenario's shape."""
    spoiled = unparsed.body(ex.scenario, obj)
    if spoiled is not None:
        status, ctype, data = spoiled
        return ex.send(status, data, ctype)
    large_body = large.body(ex.scenario, obj)
    if large_body is not None:
        return ex.send(200, large_body, "application/json")
    if ex.scenario == "token-huge":
        head = json.dumps(obj, separators=(",", ":"))[:-1] + ',"padding":"'
        tail = '"}'
        return ex.send(200, head + "x" * (PAD_SIZE - len(head) - len(tail)) + tail,
                       "application/json")
    text = hostile.token_body(ex.scenario, obj)
    if text is None:
        indent = 2 if ex.scenario == "token-pretty" else None
        text = json.dumps(obj, separators=None if indent else (",", ":"), indent=indent)
    if ex.scenario == "trailer-cookie":
        return ex.chunked(200, "application/json", [text], headers=[("Cache-Control", "no-store")],
                          trailers=[("Set-Cookie", "evil=1; Path=/")])
    ex.send(200, text, "application/json")
