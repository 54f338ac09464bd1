"""The signing scenarios (`signed`, `fapi2`): an authorization server that
signs (id_token, JARM, userinfo, JWT access tokens) and verifies (client
assertions, request objects, DPoP proofs) with PyPI's `cryptography`, driven
by the run's `/_config/<run>` (profile_config.py). README.md, "Signatures
and the modern client profile", documents every path, key and error text.

Without `cryptography` every path of these scenarios answers 501
`cryptography not installed`; the rest of the fixture does not need it.
"""
import jose_keys
import jwks
import par
import profile_authorize
import profile_config
import profile_token
import signing
import userinfo
from profile_config import ConfigError, algs
from profile_http import peer_certificate

SCENARIOS = frozenset(profile_config.SCENARIO_DEFAULTS)
MTLS = ("token", "par", "userinfo", "resource")
ALIAS_NAMES = {"token": "token_endpoint", "par": "pushed_authorization_request_endpoint",
               "userinfo": "userinfo_endpoint", "resource": "resource_endpoint"}
DISCOVERY = (".well-known/openid-configuration", ".well-known/oauth-authorization-server")


def metadata(ex, cfg) -> dict:
    iss = ex.issuer
    id_algs = cfg["id_token_algs_supported"] or list(signing.ALL_ALGS)
    doc = {
        "issuer": iss,
        "authorization_endpoint": iss + "/authorize",
        "token_endpoint": iss + "/token",
        "jwks_uri": iss + "/jwks",
        "userinfo_endpoint": iss + "/userinfo",
        "pushed_authorization_request_endpoint": iss + "/par",
        "require_pushed_authorization_requests": bool(cfg["par_required"]),
        "response_types_supported": ["code"],
        "response_modes_supported": list(profile_authorize.MODES),
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "subject_types_supported": ["public"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "name",
                             "preferred_username", "email", "email_verified"],
        "id_token_signing_alg_values_supported": id_algs,
        "userinfo_signing_alg_values_supported": id_algs,
        "authorization_signing_alg_values_supported": id_algs,
        "request_object_signing_alg_values_supported": algs(cfg, "request_object_algs"),
        "request_parameter_supported": True,
        "request_uri_parameter_supported": False,
        "token_endpoint_auth_methods_supported": list(cfg["token_auth_methods"]),
        "token_endpoint_auth_signing_alg_values_supported": algs(cfg, "assertion_algs"),
        "code_challenge_methods_supported": list(cfg["pkce_methods"]),
        "authorization_response_iss_parameter_supported": cfg["authorization_iss"] is not False,
        "dpop_signing_alg_values_supported":
            [a for a in algs(cfg, "dpop_algs", signing.ASYMMETRIC) if a in signing.ASYMMETRIC],
        "authorization_details_types_supported":
            cfg["authorization_details_types"] or ["payment_initiation", "account_information"],
        "tls_client_certificate_bound_access_tokens": True,
    }
    if cfg["mtls_endpoint_aliases"]:
        doc["mtls_endpoint_aliases"] = {ALIAS_NAMES[n]: f"{iss}/mtls/{n}" for n in MTLS}
    for key, value in cfg["metadata"].items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def _discovery(ex, cfg):
    if not cfg["discovery"]:
        return ex.send(404, "not found\n")
    ex.json_response(200, metadata(ex, cfg))


HANDLERS = {
    "authorize": profile_authorize.authorize_endpoint,
    "token": profile_token.token,
    "par": par.par,
    "jwks": jwks.serve,
    "userinfo": userinfo.userinfo,
    "resource": userinfo.resource,
    "attacker-jwks": jwks.serve_attacker,
    "attacker.pem": jwks.serve_attacker,
    **{name: _discovery for name in DISCOVERY},
}


def route(ex):
    """Dispatch /t/<run>/<signed|fapi2>/<rest>."""
    if ex.rest == "cb":
        return ex.send(200, "callback reached\n")
    if not jose_keys.available():
        return ex.send(501, "cryptography not installed\n")
    rest = ex.rest
    if rest.startswith("mtls/") and rest[5:] in MTLS:
        if peer_certificate(ex) is None:
            return ex.json_response(401, {
                "error": "invalid_client" if rest[5:] in ("token", "par") else "invalid_token",
                "error_description": "no client certificate on this connection"})
        rest = rest[5:]
    handler = HANDLERS.get(rest)
    if handler is None:
        return ex.send(404, "not found\n")
    try:
        handler(ex, profile_config.load(ex))
    except ConfigError as exc:
        ex.send(500, f"fixture config error: {exc}\n")
