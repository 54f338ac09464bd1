"""Configuration of the signing scenarios: defaults, the per-scenario
defaults of `fapi2`, and the run's `/_config/<run>` keys over both.

Every key is documented in README.md ("Signatures and the modern client
profile"). A value the fixture cannot use raises ConfigError, which the
router answers with 500 `fixture config error: ...` so a typo in a test
shows up at once instead of passing for a server's behaviour.
"""
from signing import ALL_ALGS, ASYMMETRIC

AUTH_METHODS = ("client_secret_basic", "client_secret_post", "client_secret_jwt",
                "private_key_jwt", "tls_client_auth", "none")
FAPI_ALGS = ["PS256", "ES256", "EdDSA"]
NONCE_ENDPOINTS = ("par", "token", "userinfo", "resource")

DEFAULTS = {
    # verification side (issue 18)
    "id_token_alg": "RS256", "signing_key": None, "kid": "k1", "rotated_kid": "k2",
    "jwk_members": {}, "jwks_rotate_after": None, "jwks_rotated": False,
    "jwks_keep_old": False, "jwks_extra": [], "jwks_fault": None, "jwks_delay": 3,
    "id_token_faults": [], "id_token_lifetime": 300, "refresh_id_token": "same",
    "token_type": None, "expires_in": 3600, "access_token_format": "opaque",
    "jarm_alg": None, "jarm_faults": [], "jarm_lifetime": 600,
    "userinfo_signed": False, "userinfo_alg": None, "userinfo_faults": [],
    "authorization_iss": True, "discovery": True, "metadata": {},
    "id_token_algs_supported": None,
    # client profile side (issue 19)
    "token_auth_methods": list(AUTH_METHODS), "client_jwks": None,
    "assertion_aud": ["issuer", "endpoint"], "assertion_aud_array": True,
    "assertion_max_lifetime": 300, "assertion_require_client_id": False,
    "assertion_algs": None, "clock_skew": 30,
    "par_required": False, "par_outer_params": "ignore", "par_lifetime": 60,
    "request_object_required": False, "request_object_typ": "optional",
    "request_object_algs": None, "request_object_outer_params": "ignore",
    "request_object_max_lifetime": 3600,
    "dpop_required": False, "dpop_nonce": [], "dpop_iat_window": 10, "dpop_algs": None,
    "dpop_nonce_fault": None, "resource_require_dpop": False, "userinfo_delay": 3,
    "pkce_required": False, "pkce_methods": ["S256", "plain"], "nonce_required": False,
    "authorization_details_types": None,
    "tls_client_auth": {}, "mtls_endpoint_aliases": False,
}

SCENARIO_DEFAULTS = {
    "signed": {},
    # FAPI 2.0 Security Profile (final, 2025): PAR, PKCE S256, iss in the
    # authorization response, private_key_jwt (aud = issuer) or mTLS, DPoP
    # with nonces, PS256/ES256/EdDSA only.
    "fapi2": {
        "id_token_alg": "PS256", "id_token_algs_supported": FAPI_ALGS,
        "par_required": True, "pkce_required": True, "pkce_methods": ["S256"],
        "token_auth_methods": ["private_key_jwt", "tls_client_auth"],
        "assertion_aud": ["issuer"], "assertion_algs": FAPI_ALGS,
        "request_object_algs": FAPI_ALGS, "dpop_algs": FAPI_ALGS,
        "dpop_required": True, "dpop_nonce": ["par", "token", "resource"],
        "resource_require_dpop": True,
    },
}


class ConfigError(Exception):
    pass


def load(ex) -> dict:
    """DEFAULTS, then the scenario's defaults, then the run's config."""
    with ex.state.lock:
        run = dict(ex.state.config)
    cfg = {**DEFAULTS, **SCENARIO_DEFAULTS[ex.scenario], **run}
    for key in ("id_token_alg", "jarm_alg", "userinfo_alg"):
        alg = cfg[key]
        if alg is not None and alg not in ALL_ALGS + ("none",):
            raise ConfigError(f"{key} {alg!r} is not one of {', '.join(ALL_ALGS)}, none")
    for key in ("id_token_faults", "jarm_faults", "userinfo_faults", "dpop_nonce",
                "token_auth_methods", "assertion_aud", "jwks_extra", "pkce_methods"):
        cfg[key] = as_list(cfg[key], key)
    bad = [e for e in cfg["dpop_nonce"] if e not in NONCE_ENDPOINTS]
    if bad:
        raise ConfigError(f"dpop_nonce names unknown endpoints {bad}")
    bad = [m for m in cfg["token_auth_methods"] if m not in AUTH_METHODS]
    if bad:
        raise ConfigError(f"token_auth_methods has unknown methods {bad}")
    if not isinstance(cfg["metadata"], dict) or not isinstance(cfg["tls_client_auth"], dict):
        raise ConfigError("metadata and tls_client_auth must be JSON objects")
    return cfg


def as_list(value, key):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return value
    raise ConfigError(f"{key} must be a string or an array")


def algs(cfg, key, default=ALL_ALGS) -> list:
    """An algorithm list key (assertion_algs, dpop_algs, ...); null = default."""
    value = cfg.get(key)
    return list(default) if value is None else as_list(value, key)


def asymmetric_default():
    return list(ASYMMETRIC)
