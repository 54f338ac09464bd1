"""The run's signing keys and the JWKS at <issuer>/jwks: which key signs,
under which kid, rotation after N fetches or by a config switch, and the
broken key sets of `jwks_fault`.

Key choice: the algorithm's kind (RS*/PS* rsa, or rsa1024 with
`signing_key`; ES256 p256, ES384 p384, ES512 p521, EdDSA ed25519).
The key of `id_token_alg`'s kind (the primary kind) carries `kid` (after
rotation `rotated_kid`); keys of other kinds used by jarm_alg/userinfo_alg
carry "<kind>-<generation>". Rotation swaps generation 1 for 2.
"""
import json
import time

import jose_keys
import profile_state
from profile_config import ConfigError

ALG_KIND = {"ES256": "p256", "ES384": "p384", "ES512": "p521", "EdDSA": "ed25519"}
ATTACKER = 4  # generation of keys that are in no JWKS of ours (forged headers)


def kind_for(cfg, alg):
    """The key kind that signs `alg`, or None for HS*/none."""
    if alg is None or alg == "none" or alg.startswith("HS"):
        return None
    if cfg.get("signing_key") not in (None, "rsa", "rsa1024"):
        raise ConfigError("signing_key must be rsa or rsa1024")
    if alg[:2] in ("RS", "PS"):
        return cfg.get("signing_key") or "rsa"
    return ALG_KIND[alg]


def primary_kind(cfg):
    return kind_for(cfg, cfg["id_token_alg"]) or "rsa"


def _fetches(ex):
    with ex.state.lock:
        return ex.state.stats.get("jwks_fetches", 0)


def rotated(ex, cfg, fetches=None) -> bool:
    """Rotated by the switch, or once the JWKS was fetched `jwks_rotate_after`
    times (a fetch numbered above N serves the new set)."""
    after = cfg.get("jwks_rotate_after")
    if cfg.get("jwks_rotated"):
        return True
    if after is None:
        return False
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        raise ConfigError("jwks_rotate_after must be a non-negative integer")
    return (_fetches(ex) if fetches is None else fetches) >= after


def kid_of(cfg, kind, generation):
    if kind == primary_kind(cfg) and generation in (1, 2):
        return cfg["kid"] if generation == 1 else cfg["rotated_kid"]
    return f"{kind}-{generation}"


def signing_key(ex, cfg, alg):
    """(private key, kid or None, kind, generation) that signs `alg` now."""
    kind = kind_for(cfg, alg)
    generation = 2 if rotated(ex, cfg) else 1
    return jose_keys.private_key(kind, generation), kid_of(cfg, kind, generation), kind, generation


def _jwk(cfg, kind, generation, kid, extra=None):
    jwk = {**jose_keys.public_jwk(jose_keys.private_key(kind, generation)), "use": "sig"}
    if kid is not None:
        jwk["kid"] = kid
    if kind == primary_kind(cfg) and generation in (1, 2):
        jwk.update(cfg.get("jwk_members") or {})
    jwk.update(extra or {})
    return {k: v for k, v in jwk.items() if v is not None}


def key_set(ex, cfg, is_rotated) -> dict:
    kinds = []
    for key in ("id_token_alg", "jarm_alg", "userinfo_alg"):
        kind = kind_for(cfg, cfg.get(key))
        if kind and kind not in kinds:
            kinds.append(kind)
    if not kinds:
        kinds = [primary_kind(cfg)]  # JWT access tokens of an HS256 run
    generations = ([2, 1] if cfg.get("jwks_keep_old") else [2]) if is_rotated else [1]
    keys = [_jwk(cfg, kind, g, kid_of(cfg, kind, g)) for kind in kinds for g in generations]
    for entry in cfg["jwks_extra"]:
        spec = {"kind": entry} if isinstance(entry, str) else dict(entry)
        kind = spec.pop("kind", None)
        if kind not in jose_keys.KINDS:
            raise ConfigError(f"jwks_extra: unknown key kind {kind!r}")
        kid = spec.pop("kid", f"{kind}-extra")
        keys.append(_jwk(cfg, kind, 3, kid, spec))
    return {"keys": keys}


HUGE_SIZE = 5 * 1024 * 1024  # over a client's 4 MiB body limit


def huge_json(obj) -> str:
    """`obj` with a `padding` member making it exactly HUGE_SIZE bytes."""
    head = json.dumps(obj, separators=(",", ":"))[:-1] + ',"padding":"'
    return head + "x" * (HUGE_SIZE - len(head) - 2) + '"}'


def serve(ex, cfg):
    """GET <issuer>/jwks; every request counts in /_stats jwks_fetches."""
    profile_state.count(ex.state, "jwks_fetches")
    fault = cfg.get("jwks_fault")
    if fault == "slow":
        time.sleep(float(cfg.get("jwks_delay") or 0))
    elif fault == "500":
        return ex.html(500, "<html><body><h1>Internal Server Error</h1></body></html>")
    elif fault == "404":
        return ex.send(404, "not found\n")
    elif fault == "not-json":
        return ex.send(200, "<html><body>Service temporarily unavailable</body></html>",
                       "application/json")
    elif fault == "not-keyset":
        return ex.json_response(200, {"issuer": ex.issuer, "status": "ok"})
    elif fault == "keys-not-array":
        return ex.json_response(200, {"keys": {"kty": "RSA", "kid": "k1"}})
    elif fault == "array":
        return ex.json_response(200, key_set(ex, cfg, False)["keys"])
    elif fault == "empty":
        return ex.json_response(200, {"keys": []})
    elif fault == "huge":
        return ex.send(200, huge_json(key_set(ex, cfg, False)), "application/json")
    elif fault is not None:
        raise ConfigError(f"unknown jwks_fault {fault!r}")
    # This fetch is number n: served rotated when n > jwks_rotate_after.
    ex.json_response(200, key_set(ex, cfg, rotated(ex, cfg, _fetches(ex) - 1)))


def serve_attacker(ex, cfg):
    """<issuer>/attacker-jwks and <issuer>/attacker.pem: where the forged
    jku / x5u headers point. A client that fetches them is following keys
    the token brings itself."""
    kind = ex.query_params.get("kind")
    if kind not in jose_keys.KINDS:
        kind = primary_kind(cfg)
    key = jose_keys.private_key(kind, ATTACKER)
    if ex.rest == "attacker.pem":
        return ex.send(200, jose_keys.attacker_certificate_pem(key), "application/x-pem-file")
    # Under the kid the forged token names, so a client that merges it wins.
    kid = kid_of(cfg, kind, 2 if rotated(ex, cfg) else 1)
    jwk = {**jose_keys.public_jwk(key), "use": "sig", **({"kid": kid} if kid is not None else {})}
    ex.json_response(200, {"keys": [jwk]})
