"""JWTs the signing scenarios issue — id_tokens, JARM responses, signed
userinfo, JWT access tokens — with the faults a test asks for.

A fault list names claim faults (CLAIM_FAULTS: the payload is changed, the
signature stays valid) and header/signature faults (JWS_FAULTS). Unknown
names are a ConfigError. README.md lists every fault and what it does.
"""
import time

import jose_keys
import jwks
import signing
from oauth_store import CLIENTS, random_token
from profile_config import ConfigError

OTHER_USER = "mallory"
EVIL_ISS = "https://evil.example"


def _pop(*names):
    def apply(c, x):
        for name in names:
            c.pop(name, None)
    return apply


def _set(**values):
    def apply(c, x):
        c.update({k: (v(x) if callable(v) else v) for k, v in values.items()})
    return apply


# x: {"now", "client_id", "max_age", "user"}
CLAIM_FAULTS = {
    "iss": _set(iss=EVIL_ISS),
    "iss-missing": _pop("iss"),
    "aud": _set(aud="other-client"),
    "aud-missing": _pop("aud"),
    "aud-array": _set(aud=lambda x: [x["client_id"]]),
    "aud-extra": _set(aud=lambda x: [x["client_id"], "other-audience"]),
    "aud-extra-azp": _set(aud=lambda x: [x["client_id"], "other-audience"],
                          azp=lambda x: x["client_id"]),
    "azp": _set(azp="other-client"),
    "exp-past": _set(exp=lambda x: x["now"] - 3600, iat=lambda x: x["now"] - 3900),
    "exp-string": _set(exp=lambda x: str(x["now"] + 300)),
    "exp-missing": _pop("exp"),
    "iat-future": _set(iat=lambda x: x["now"] + 3600),
    "iat-missing": _pop("iat"),
    "nbf-future": _set(nbf=lambda x: x["now"] + 3600),
    "nbf-past": _set(nbf=lambda x: x["now"] - 10),
    "sub-missing": _pop("sub"),
    "sub-empty": _set(sub=""),
    "sub-number": _set(sub=42),
    "sub-mismatch": _set(sub=OTHER_USER),
    "nonce-wrong": _set(nonce=lambda x: random_token("wrong-")),
    "nonce-missing": _pop("nonce"),
    "auth-time-missing": _pop("auth_time"),
    "auth-time-old": _set(auth_time=lambda x: x["now"] - (x["max_age"] or 0) - 3600),
    "state-wrong": _set(state=lambda x: random_token("forged-")),
}
PAYLOAD_FAULTS = ("payload-array", "payload-not-json")
JWS_FAULTS = ("alg-none", "header-no-kid", "kid-unknown", "header-jku", "header-x5u",
              "header-jwk", "header-crit", "sig-other-key", "signature", "signature-empty",
              "alg-confusion")


def check_faults(faults, key, allowed=None):
    known = set(CLAIM_FAULTS) | set(PAYLOAD_FAULTS) | set(JWS_FAULTS)
    for fault in faults:
        if fault not in (allowed or known):
            raise ConfigError(f"{key}: unknown fault {fault!r}")


def apply_claim_faults(claims, faults, x):
    for fault in faults:
        if fault in CLAIM_FAULTS:
            CLAIM_FAULTS[fault](claims, x)
    return claims


def _payload(claims, faults):
    if "payload-array" in faults:
        return [1, 2]
    if "payload-not-json" in faults:
        return b"not json"
    return claims


def sign(ex, cfg, alg, claims, client_id, faults=(), typ="JWT"):
    """The compact JWS of `claims` under `alg` (the run's key, or the client
    secret for HS*), with the JWS faults in `faults` applied."""
    payload = _payload(claims, faults)
    header = {"alg": alg, **({"typ": typ} if typ else {})}
    if alg == "none" or "alg-none" in faults:
        return signing.sign({**header, "alg": "none"}, payload, None)
    if alg in signing.HMAC_ALGS:
        secret = CLIENTS.get(client_id)
        if secret is None:
            raise ConfigError(f"{alg} needs a client with a secret; {client_id} has none")
        token = signing.sign(header, payload, secret.encode("utf-8"))
        return _corrupt(token, faults)
    key, kid, kind, generation = jwks.signing_key(ex, cfg, alg)
    if "kid-unknown" in faults:
        header["kid"] = "unknown-kid"
    elif kid is not None and "header-no-kid" not in faults:
        header["kid"] = kid
    attacker = jose_keys.private_key(kind, jwks.ATTACKER)
    # The forger's key set and certificate; ?kind= when not the primary kind.
    suffix = "" if kind == jwks.primary_kind(cfg) else "?kind=" + kind
    if "header-jku" in faults:
        header["jku"] = ex.issuer + "/attacker-jwks" + suffix
        key = attacker
    if "header-x5u" in faults:
        header["x5u"] = ex.issuer + "/attacker.pem" + suffix
        key = attacker
    if "header-jwk" in faults:
        header["jwk"] = jose_keys.public_jwk(attacker)
        key = attacker
    if "header-crit" in faults:
        header["crit"] = ["urn:fixture:unknown-extension"]
        header["urn:fixture:unknown-extension"] = True
    if "sig-other-key" in faults:
        key = attacker
    if "alg-confusion" in faults:
        # HS256 keyed with the PEM of the public key: what a verifier that
        # lets the header pick the algorithm would accept.
        return signing.sign({**header, "alg": "HS256"}, payload, jose_keys.public_pem(key))
    return _corrupt(signing.sign(header, payload, key), faults)


def _corrupt(token, faults):
    head, _, sig = token.rpartition(".")
    if "signature-empty" in faults:
        return head + "."
    if "signature" in faults:
        raw = bytearray(jose_keys.b64url_decode(sig))
        raw[len(raw) // 2] ^= 0xFF
        return head + "." + jose_keys.b64url(bytes(raw))
    return token


def id_token(ex, cfg, client_id, user, nonce, auth_time, max_age, faults, issuer=None):
    now = int(time.time())
    claims = {"iss": issuer or ex.issuer, "sub": user, "aud": client_id,
              "exp": now + int(cfg["id_token_lifetime"]), "iat": now, "auth_time": auth_time}
    if nonce is not None:
        claims["nonce"] = nonce
    check_faults(faults, "id_token_faults")
    apply_claim_faults(claims, faults, {"now": now, "client_id": client_id, "max_age": max_age})
    return sign(ex, cfg, cfg["id_token_alg"], claims, client_id, faults)


def jarm_alg(cfg):
    alg = cfg.get("jarm_alg") or cfg["id_token_alg"]
    return "RS256" if alg == "none" else alg


def jarm_response(ex, cfg, client_id, fields):
    """JARM (OpenID JARM §2.1): the authorization response fields inside a
    JWT with iss, aud and exp."""
    now = int(time.time())
    claims = {"iss": ex.issuer, "aud": client_id, "exp": now + int(cfg["jarm_lifetime"]),
              "iat": now, **dict(fields)}
    faults = cfg["jarm_faults"]
    check_faults(faults, "jarm_faults")
    apply_claim_faults(claims, faults, {"now": now, "client_id": client_id, "max_age": None})
    return sign(ex, cfg, jarm_alg(cfg), claims, client_id, faults)


def userinfo_claims(user):
    return {"sub": user, "name": user.capitalize(), "preferred_username": user,
            "email": f"{user}@example.com", "email_verified": True}


def userinfo_jwt(ex, cfg, client_id, claims, faults):
    now = int(time.time())
    claims = {"iss": ex.issuer, "aud": client_id, "iat": now, **claims}
    apply_claim_faults(claims, faults, {"now": now, "client_id": client_id, "max_age": None})
    alg = cfg.get("userinfo_alg") or cfg["id_token_alg"]
    return sign(ex, cfg, alg, claims, client_id, faults)


def access_token_jwt(ex, cfg, client_id, user, scope, lifetime, cnf, audience):
    """RFC 9068 JWT access token (typ at+jwt), with cnf (RFC 9449 §6 jkt, RFC
    8705 §3.1 x5t#S256) when bound. Signed like the id_token, RS256 if that
    one is HS*/none."""
    now = int(time.time())
    claims = {"iss": ex.issuer, "sub": user, "aud": audience or ex.issuer + "/resource",
              "client_id": client_id, "scope": scope, "iat": now, "exp": now + lifetime,
              "jti": random_token()}
    if cnf:
        claims["cnf"] = cnf
    alg = cfg["id_token_alg"]
    if alg == "none" or alg.startswith("HS"):
        alg = "RS256"
    return sign(ex, cfg, alg, claims, client_id, (), typ="at+jwt")
