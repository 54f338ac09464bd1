"""Protected resources of the signing scenarios: the userinfo endpoint (OIDC
Core §5.3) at <issuer>/userinfo and an API at <issuer>/resource, both also
under <issuer>/mtls/. They take the access tokens profile_token.py issued:
`Authorization: Bearer` (RFC 6750 §2.1; a POST form `access_token` too) or
`Authorization: DPoP` with a proof carrying `ath` (RFC 9449 §7), and a
certificate-bound token only over a connection with that certificate
(RFC 8705 §3). Errors are 401 with WWW-Authenticate and a JSON body.
"""
import time

import dpop
import jwks
import profile_state
import server_jwt
from profile_config import ConfigError
from profile_http import certificate_thumbprint, peer_certificate

USERINFO_ONLY_FAULTS = ("sub-mismatch", "sub-missing", "not-json", "500", "huge", "slow")


def _presented(ex):
    header = ex.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        return scheme.lower(), value.strip()
    if ex.method == "POST" and "access_token" in ex.form:
        return "bearer", ex.form["access_token"]
    return None, None


def _check(ex, cfg, endpoint):
    """The TokenInfo of the presented token, or None after the 401."""
    scheme, token = _presented(ex)
    answer_scheme = "DPoP" if scheme == "dpop" else "Bearer"
    if not token or scheme not in ("bearer", "dpop"):
        dpop.rs_error(ex, cfg, endpoint, "invalid_token", "no access token", answer_scheme)
        return None
    info = profile_state.get_token(ex.state, token)
    profile_state.note(ex, "access_token", {"scheme": scheme, "known": info is not None})
    if info is None or info.issuer != ex.issuer:
        dpop.rs_error(ex, cfg, endpoint, "invalid_token", "unknown or expired access token",
                      answer_scheme)
        return None
    if info.jkt is not None:
        if scheme != "dpop":
            dpop.rs_error(ex, cfg, endpoint, "invalid_token",
                          "DPoP-bound access token sent as a Bearer token")
            return None
        try:
            jkt = dpop.verify(ex, cfg, endpoint, token)
        except dpop.DPoPError as exc:
            dpop.rs_error(ex, cfg, endpoint, exc.error, str(exc))
            return None
        if jkt != info.jkt:
            problem = "DPoP proof required" if jkt is None else \
                "DPoP proof key does not match the access token binding"
            dpop.rs_error(ex, cfg, endpoint, "invalid_dpop_proof", problem)
            return None
    elif scheme == "dpop":
        dpop.rs_error(ex, cfg, endpoint, "invalid_token", "access token is not DPoP-bound")
        return None
    elif endpoint == "resource" and cfg["resource_require_dpop"]:
        dpop.rs_error(ex, cfg, endpoint, "invalid_token",
                      "this resource requires a DPoP-bound access token")
        return None
    if info.x5t is not None:
        der = peer_certificate(ex)
        if der is None or certificate_thumbprint(der) != info.x5t:
            dpop.rs_error(ex, cfg, endpoint, "invalid_token",
                          "access token is bound to another client certificate", "Bearer")
            return None
    return info


def userinfo(ex, cfg):
    if ex.method not in ("GET", "POST"):
        return ex.json_response(405, {"error": "invalid_request"}, [("Allow", "GET, POST")])
    profile_state.count(ex.state, "userinfo_requests")
    faults = cfg["userinfo_faults"]
    known = set(USERINFO_ONLY_FAULTS) | set(server_jwt.CLAIM_FAULTS) | set(server_jwt.JWS_FAULTS)
    bad = [f for f in faults if f not in known]
    if bad:
        raise ConfigError(f"userinfo_faults: unknown faults {bad}")
    info = _check(ex, cfg, "userinfo")
    if info is None:
        return
    if "500" in faults:
        return ex.html(500, "<html><body><h1>Internal Server Error</h1></body></html>")
    if "slow" in faults:
        time.sleep(float(cfg.get("userinfo_delay") or 0))
    if "huge" in faults:
        return ex.send(200, jwks.huge_json(server_jwt.userinfo_claims(info.user)), "application/json")
    if "not-json" in faults:
        return ex.send(200, "<html><body>userinfo</body></html>", "application/json")
    claims = server_jwt.userinfo_claims(info.user)
    if not cfg["userinfo_signed"]:
        server_jwt.apply_claim_faults(claims, faults, {"now": 0, "client_id": info.client_id,
                                                       "max_age": None})
        return ex.json_response(200, claims, dpop.nonce_headers(ex, cfg, "userinfo"))
    ex.send(200, server_jwt.userinfo_jwt(ex, cfg, info.client_id, claims, faults),
            "application/jwt", dpop.nonce_headers(ex, cfg, "userinfo"))


def resource(ex, cfg):
    if ex.method not in ("GET", "POST"):
        return ex.json_response(405, {"error": "invalid_request"}, [("Allow", "GET, POST")])
    profile_state.count(ex.state, "resource_requests")
    info = _check(ex, cfg, "resource")
    if info is None:
        return
    body = {"resource": "ok", "method": ex.method, "sub": info.user, "client_id": info.client_id,
            "scope": info.scope, "token_type": "DPoP" if info.jkt else "Bearer"}
    if info.jkt or info.x5t:
        body["cnf"] = {"jkt": info.jkt} if info.jkt else {"x5t#S256": info.x5t}
    ex.json_response(200, body, dpop.nonce_headers(ex, cfg, "resource"))
