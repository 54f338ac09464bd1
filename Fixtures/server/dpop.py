"""DPoP proofs (RFC 9449 §4.3) at token, PAR, userinfo and the resource
endpoint, nonces (§8, §9) and the error answers of both kinds of server.

verify() returns None when the request has no DPoP header, the RFC 7638
thumbprint of the proof key when the proof is right, and raises DPoPError
otherwise. The nonce is checked after the proof itself and before its jti is
recorded, so a proof refused for its nonce can be retried with a new one.
"""
import hashlib
import time

import jose_keys
import profile_state
import signing
from profile_config import algs, asymmetric_default
from profile_http import normalise_url, oauth_error, request_url

AS_NONCE = "Authorization server requires nonce in DPoP proof"
RS_NONCE = "Resource server requires nonce in DPoP proof"


class DPoPError(Exception):
    def __init__(self, error, description):
        super().__init__(description)
        self.error = error


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def ath(access_token: str) -> str:
    return jose_keys.b64url(hashlib.sha256(access_token.encode("ascii", "replace")).digest())


def verify(ex, cfg, endpoint, access_token=None):
    """Check the DPoP header of this request for `endpoint` (par, token,
    userinfo, resource); `access_token` makes `ath` required."""
    proof = ex.headers.get("dpop")
    if proof is None:
        return None
    if "," in proof:
        raise DPoPError("invalid_dpop_proof", "more than one DPoP header")
    try:
        parsed = signing.Parsed(proof.strip())
    except jose_keys.JoseError as exc:
        raise DPoPError("invalid_dpop_proof", f"DPoP proof: {exc}") from None
    summary = parsed.summary()
    profile_state.note(ex, "dpop", summary)
    header, claims = parsed.header, parsed.claims
    if header.get("typ") != "dpop+jwt":
        raise DPoPError("invalid_dpop_proof", "DPoP proof typ must be dpop+jwt")
    if parsed.alg not in algs(cfg, "dpop_algs", asymmetric_default()) or \
            parsed.alg not in signing.ASYMMETRIC:
        raise DPoPError("invalid_dpop_proof", f"DPoP proof alg {parsed.alg} is not accepted")
    jwk = header.get("jwk")
    if not isinstance(jwk, dict):
        raise DPoPError("invalid_dpop_proof", "DPoP proof header lacks jwk")
    if any(m in jwk for m in jose_keys.PRIVATE_MEMBERS):
        raise DPoPError("invalid_dpop_proof", "DPoP proof jwk holds private key members")
    try:
        key = jose_keys.public_key_from_jwk(jwk)
        jkt = jose_keys.thumbprint(jwk)
    except jose_keys.JoseError as exc:
        raise DPoPError("invalid_dpop_proof", f"DPoP proof {exc}") from None
    profile_state.note(ex, "dpop", {**summary, "jkt": jkt})
    if jwk["kty"] == "RSA" and jose_keys.rsa_bits(key) < 2048:
        raise DPoPError("invalid_dpop_proof", "DPoP proof RSA key is shorter than 2048 bits")
    if not signing.verify_raw(parsed.alg, key, parsed.signing_input, parsed.signature):
        raise DPoPError("invalid_dpop_proof", "DPoP proof signature does not verify")
    if not isinstance(claims, dict):
        raise DPoPError("invalid_dpop_proof", "DPoP proof payload is not a JSON object")
    if claims.get("htm") != ex.method:
        raise DPoPError("invalid_dpop_proof", "DPoP proof htm does not match the request method")
    htu = claims.get("htu")
    if not isinstance(htu, str) or normalise_url(htu) != normalise_url(request_url(ex)):
        raise DPoPError("invalid_dpop_proof", "DPoP proof htu does not match the request URL")
    window = float(cfg["dpop_iat_window"])
    iat = claims.get("iat")
    if not _number(iat) or abs(time.time() - iat) > window:
        raise DPoPError("invalid_dpop_proof",
                        f"DPoP proof iat is missing or outside the accepted window ({window:g} s)")
    jti = claims.get("jti")
    if not isinstance(jti, str) or not jti:
        raise DPoPError("invalid_dpop_proof", "DPoP proof jti is missing")
    if access_token is not None and claims.get("ath") != ath(access_token):
        raise DPoPError("invalid_dpop_proof", "DPoP proof ath does not match the access token")
    if endpoint in cfg["dpop_nonce"]:
        nonce = claims.get("nonce")
        if nonce is None:
            raise DPoPError("use_dpop_nonce",
                            RS_NONCE if endpoint in ("userinfo", "resource") else AS_NONCE)
        if not profile_state.nonce_known(ex.state, nonce):
            raise DPoPError("use_dpop_nonce", "DPoP proof nonce is not one this server issued")
    if not profile_state.first_use(ex.state, "dpop", jkt, jti):
        raise DPoPError("invalid_dpop_proof", "DPoP proof jti was used before")
    return jkt


# dpop_nonce_fault: nonces no client may send back (RFC 9449 §8.1 allows
# 1*NQCHAR: printable ASCII but space, " and \), or of 100,000 characters.
NONCE_FAULTS = {"space": "dpop nonce", "quote": 'dpop"nonce', "backslash": "dpop\\nonce",
                "huge": "n" * 100_000}


def nonce_headers(ex, cfg, endpoint):
    """DPoP-Nonce on answers of endpoints that demand one (RFC 9449 §8.2);
    with `dpop_nonce_fault` a spoiled one instead, which is accepted back."""
    if endpoint in cfg["dpop_nonce"]:
        fault = cfg.get("dpop_nonce_fault")
        if fault is not None:
            if fault not in NONCE_FAULTS:
                raise ValueError(f"dpop_nonce_fault {fault!r} is not one of {', '.join(NONCE_FAULTS)}")
            profile_state.add_nonce(ex.state, NONCE_FAULTS[fault])
            return [("DPoP-Nonce", NONCE_FAULTS[fault])]
        return [("DPoP-Nonce", profile_state.current_nonce(ex.state))]
    return []


def as_error(ex, cfg, endpoint, exc: DPoPError):
    """Token/PAR: 400 JSON (RFC 9449 §5.10, §8)."""
    headers = nonce_headers(ex, cfg, endpoint) if exc.error == "use_dpop_nonce" else []
    oauth_error(ex, 400, exc.error, str(exc), headers)


def www_authenticate(cfg, error, description):
    algs_text = " ".join(a for a in algs(cfg, "dpop_algs", asymmetric_default())
                         if a in signing.ASYMMETRIC)
    value = f'DPoP algs="{algs_text}"'
    if error:
        value += f', error="{error}", error_description="{description}"'
    return value


def rs_error(ex, cfg, endpoint, error, description, scheme="DPoP"):
    """Userinfo/resource: 401 with WWW-Authenticate (RFC 9449 §7.1, §9;
    RFC 6750 §3 for Bearer)."""
    if scheme == "DPoP":
        headers = [("WWW-Authenticate", www_authenticate(cfg, error, description))]
    else:
        headers = [("WWW-Authenticate",
                    f'Bearer error="{error}", error_description="{description}"')]
    if error == "use_dpop_nonce":
        headers += nonce_headers(ex, cfg, endpoint)
    oauth_error(ex, 401, error, description, headers)
