"""Request objects (RFC 9101): the `request` parameter at authorize or PAR,
signed by the client (keys of `client_jwks`; HS* with the client secret).

verify() returns the authorization parameters taken from inside the object
(every claim but iss/aud/exp/nbf/iat/jti, non-strings as JSON text) or
raises RequestObjectError with the error_description. Its `inner` holds the
decoded claims (unverified) so the caller can find a redirect_uri and state
to report the error to.
"""
import json
import time

import client_auth
import jose_keys
import profile_state
import signing
from oauth_store import CLIENTS
from profile_config import algs

TYP = "oauth-authz-req+jwt"
JWT_CLAIMS = ("iss", "aud", "exp", "nbf", "iat", "jti")


class RequestObjectError(Exception):
    def __init__(self, description, inner=None):
        super().__init__(description)
        self.inner = inner if isinstance(inner, dict) else {}


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _typ_ok(cfg, typ):
    mode = cfg["request_object_typ"]
    if mode == "ignore":
        return True
    if typ is None:
        return mode != "required"
    return isinstance(typ, str) and typ.lower() in (TYP, "application/" + TYP)


def verify(ex, cfg, token, outer_client_id) -> dict:
    try:
        parsed = signing.Parsed(token)
    except jose_keys.JoseError as exc:
        raise RequestObjectError(f"request object: {exc}") from None
    profile_state.note(ex, "request_object", parsed.summary())
    claims = parsed.claims
    if not isinstance(claims, dict):
        raise RequestObjectError("request object payload is not a JSON object")

    def fail(description):
        raise RequestObjectError(description, claims)
    if outer_client_id is None:
        fail("client_id is required beside request")
    if not _typ_ok(cfg, parsed.header.get("typ")):
        fail(f"request object typ must be {TYP}")
    if claims.get("client_id") != outer_client_id:
        fail("request object client_id is missing or differs from client_id")
    if claims.get("iss") != outer_client_id:
        fail("request object iss must be the client_id")
    if outer_client_id not in CLIENTS:
        fail("unknown client")
    symmetric = parsed.alg in signing.HMAC_ALGS
    keys = [] if symmetric else client_auth.registered_keys(cfg)
    secret = CLIENTS[outer_client_id]
    problem = signing.verify_with_keys(parsed, keys, algs(cfg, "request_object_algs"),
                                       secret.encode("utf-8") if symmetric and secret else None)
    if problem:
        fail(f"request object: {problem}")
    aud = claims.get("aud")
    if not (aud == ex.issuer or (isinstance(aud, list) and ex.issuer in aud)):
        fail("request object aud must be the issuer")
    now, skew = time.time(), float(cfg["clock_skew"])
    exp, nbf = claims.get("exp"), claims.get("nbf")
    if not _number(exp):
        fail("request object exp is missing or not a number")
    if exp <= now:
        fail("request object has expired")
    if nbf is not None and (not _number(nbf) or nbf > now + skew):
        fail("request object is not valid yet (nbf)")
    if nbf is not None and exp - nbf > float(cfg["request_object_max_lifetime"]):
        fail(f"request object lives longer than {cfg['request_object_max_lifetime']} s")
    if not isinstance(claims.get("response_type"), str):
        fail("request object lacks response_type")
    jti = claims.get("jti")
    if jti is not None and not profile_state.first_use(ex.state, "request_object",
                                                       outer_client_id, str(jti)):
        fail("request object jti was used before")
    # RFC 8707 resources may be a JSON array inside; other non-strings
    # (max_age, claims, authorization_details) become their JSON text.
    return {k: (v if isinstance(v, str) or (k == "resource" and isinstance(v, list))
                else json.dumps(v, separators=(",", ":")))
            for k, v in claims.items() if k not in JWT_CLAIMS}
