"""Client authentication of the signing scenarios at token, PAR and refresh:
client_secret_basic/post, JWT assertions (RFC 7523 §3 + RFC 7521 §4.2:
private_key_jwt with the keys registered in `client_jwks`, client_secret_jwt
keyed with the secret), tls_client_auth (RFC 8705 §2.1.1, subject DN from
`tls_client_auth`) and none (public clients).

`authenticate` returns (client_id, method) or None after answering with the
error. Every error_description is in README.md; the decoded assertion goes
to the hit as decoded.client_assertion.
"""
import time

import jose_keys
import profile_state
import signing
from oauth_store import CLIENTS, parse_basic
from profile_config import ConfigError, algs
from profile_http import oauth_error, peer_certificate, subject_dn

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


class AuthError(Exception):
    def __init__(self, description, status=401, error="invalid_client", headers=()):
        super().__init__(description)
        self.status, self.error, self.headers = status, error, headers


def registered_keys(cfg) -> list:
    """[(kid, public key)] from the run's `client_jwks` (a JWKS or one JWK)."""
    value = cfg.get("client_jwks")
    if value is None:
        return []
    jwks = value.get("keys") if isinstance(value, dict) and "keys" in value else [value]
    if not isinstance(jwks, list):
        raise ConfigError("client_jwks must be a JWKS or a JWK")
    keys = []
    for jwk in jwks:
        try:
            keys.append((jwk.get("kid"), jose_keys.public_key_from_jwk(jwk)))
        except (jose_keys.JoseError, AttributeError) as exc:
            raise ConfigError(f"client_jwks: {exc}") from None
    return keys


def authenticate(ex, cfg, endpoint_url):
    try:
        client_id, method = _authenticate(ex, cfg, endpoint_url)
    except AuthError as exc:
        oauth_error(ex, exc.status, exc.error, str(exc), exc.headers)
        return None
    if method not in cfg["token_auth_methods"]:
        oauth_error(ex, 401, "invalid_client",
                    f"client authentication method {method} is not allowed here")
        return None
    profile_state.note(ex, "client_auth", {"client_id": client_id, "method": method})
    return client_id, method


def _authenticate(ex, cfg, endpoint_url):
    form = ex.form
    header = ex.headers.get("authorization")
    used = [name for name, present in (
        ("client_secret_basic", header is not None),
        ("jwt", "client_assertion" in form or "client_assertion_type" in form),
        ("client_secret_post", "client_secret" in form)) if present]
    if len(used) > 1:
        raise AuthError("more than one client authentication method", 400, "invalid_request")
    if used == ["client_secret_basic"]:
        challenge = [("WWW-Authenticate", 'Basic realm="fixture"')]
        creds = parse_basic(header)
        if creds is None:
            raise AuthError("Authorization header is not Basic credentials", headers=challenge)
        if "client_id" in form and form["client_id"] != creds[0]:
            raise AuthError("client_id differs from the Basic credentials", 400, "invalid_request")
        _check_secret(*creds, challenge)
        return creds[0], "client_secret_basic"
    if used == ["client_secret_post"]:
        _check_secret(form.get("client_id"), form.get("client_secret"))
        return form["client_id"], "client_secret_post"
    if used == ["jwt"]:
        return _assertion(ex, cfg, endpoint_url)
    client_id = form.get("client_id")
    if client_id is None:
        raise AuthError("no client authentication and no client_id")
    if client_id not in CLIENTS:
        raise AuthError("unknown client")
    registered_dn = cfg["tls_client_auth"].get(client_id)
    der = peer_certificate(ex)
    if registered_dn is not None:
        if der is None:
            raise AuthError("tls_client_auth: no client certificate on this connection")
        dn = subject_dn(der)
        profile_state.note(ex, "tls_client_certificate", {"subject": dn})
        if dn != registered_dn:
            raise AuthError("tls_client_auth: the certificate subject does not match the registered DN")
        return client_id, "tls_client_auth"
    if CLIENTS[client_id] is not None:
        raise AuthError("client authentication required")
    return client_id, "none"


def _check_secret(client_id, secret, headers=()):
    if client_id not in CLIENTS or CLIENTS[client_id] is None or CLIENTS[client_id] != secret:
        raise AuthError("client authentication failed", headers=headers)


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _assertion(ex, cfg, endpoint_url):
    """RFC 7523 §3 checks, signature first, jti recorded last."""
    form = ex.form
    if form.get("client_assertion_type") != ASSERTION_TYPE:
        raise AuthError(f"client_assertion_type must be {ASSERTION_TYPE}")
    if not form.get("client_assertion"):
        raise AuthError("client_assertion is missing")
    try:
        parsed = signing.Parsed(form["client_assertion"])
    except jose_keys.JoseError as exc:
        raise AuthError(f"client_assertion: {exc}") from None
    profile_state.note(ex, "client_assertion", parsed.summary())
    claims = parsed.claims
    if not isinstance(claims, dict):
        raise AuthError("client_assertion payload is not a JSON object")
    iss = claims.get("iss")
    if not isinstance(iss, str) or claims.get("sub") != iss:
        raise AuthError("client_assertion iss and sub must both be the client_id")
    if "client_id" in form and form["client_id"] != iss:
        raise AuthError("client_id differs from the client_assertion iss")
    if "client_id" not in form and cfg["assertion_require_client_id"]:
        raise AuthError("client_id is required beside client_assertion", 400, "invalid_request")
    if iss not in CLIENTS:
        raise AuthError("unknown client")
    symmetric = parsed.alg in signing.HMAC_ALGS
    method = "client_secret_jwt" if symmetric else "private_key_jwt"
    if method not in cfg["token_auth_methods"]:
        raise AuthError(f"client authentication method {method} is not allowed here")
    keys = [] if symmetric else registered_keys(cfg)
    if not symmetric and not keys:
        raise AuthError("no client_jwks registered for private_key_jwt")
    secret = CLIENTS[iss].encode("utf-8") if symmetric and CLIENTS[iss] else None
    problem = signing.verify_with_keys(parsed, keys, algs(cfg, "assertion_algs"), secret)
    if problem:
        raise AuthError(f"client_assertion: {problem}")
    _check_claims(ex, cfg, claims, endpoint_url)
    if not profile_state.first_use(ex.state, "client_assertion", iss, claims["jti"]):
        raise AuthError("client_assertion jti was used before")
    return iss, method


def accepted_audiences(ex, cfg, endpoint_url) -> list:
    named = {"issuer": ex.issuer, "endpoint": endpoint_url, "token_endpoint": ex.issuer + "/token"}
    return [named.get(a, a) for a in cfg["assertion_aud"]]


def _check_claims(ex, cfg, claims, endpoint_url):
    now, skew = time.time(), float(cfg["clock_skew"])
    accepted = accepted_audiences(ex, cfg, endpoint_url)
    aud = claims.get("aud")
    if isinstance(aud, list) and not cfg["assertion_aud_array"]:
        raise AuthError("client_assertion aud must be a single string")
    values = aud if isinstance(aud, list) else [aud]
    if not any(isinstance(v, str) and v in accepted for v in values):
        raise AuthError("client_assertion aud is not accepted here (accepted: "
                        + ", ".join(accepted) + ")")
    exp = claims.get("exp")
    if not _number(exp):
        raise AuthError("client_assertion exp is missing or not a number")
    if exp <= now:  # strict: the clock skew only excuses dates in the future
        raise AuthError("client_assertion has expired")
    iat = claims.get("iat")
    if iat is not None and (not _number(iat) or iat > now + skew):
        raise AuthError("client_assertion iat is not a number or is in the future")
    nbf = claims.get("nbf")
    if nbf is not None and (not _number(nbf) or nbf > now + skew):
        raise AuthError("client_assertion is not valid yet (nbf)")
    limit = float(cfg["assertion_max_lifetime"])
    if exp - (iat if iat is not None else now) > limit:
        raise AuthError(f"client_assertion lives longer than {limit:g} s")
    jti = claims.get("jti")
    if not isinstance(jti, str) or not jti:
        raise AuthError("client_assertion jti is missing")
