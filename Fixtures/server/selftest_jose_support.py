"""selftest helpers for the signing scenarios: the client side of JOSE.

Written apart from the server's signing.py / jose_keys.py on purpose (only
`cryptography`'s primitives are shared), so a fault in the server's JWS code
cannot hide behind the same fault here; id_tokens are also checked with
jwcrypto, an independent JOSE library, when it is installed (the venv has
it through django-oauth-toolkit).
"""
import base64
import hashlib
import json
import os
import sys
import time
import uuid
from urllib.parse import parse_qs, urlencode, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selftest_support import CHALLENGE, RUN, VERIFIER, Client  # noqa: E402

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives import hmac as crypto_hmac
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import (decode_dss_signature,
                                                                 encode_dss_signature)
    HAVE_CRYPTO = True
except ImportError:
    HAVE_CRYPTO = False

try:
    from jwcrypto import jwk as jwc_jwk
    from jwcrypto import jws as jwc_jws
    HAVE_JWCRYPTO = True
except ImportError:
    HAVE_JWCRYPTO = False

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
_counter = [0]


def run_name(tag):
    """A run of its own per check: fresh config, replay sets and nonces."""
    _counter[0] += 1
    return f"{RUN}-{tag}-{_counter[0]}"


def iss_of(base, run, scenario="signed"):
    return f"{base}/t/{run}/{scenario}"


def configure(c, base, run, cfg):
    r = c.request("POST", f"{base}/_config/{run}", json.dumps(cfg),
                  {"Content-Type": "application/json"})
    assert r.status == 200, r.text


def hits_of(c, base, run):
    return c.request("GET", f"{base}/_hits/{run}").json()


def stats_of(c, base, run):
    return c.request("GET", f"{base}/_stats/{run}").json()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def parts(token):
    h, p, s = token.split(".")
    payload = unb64u(p)
    try:
        claims = json.loads(payload)
    except ValueError:
        claims = None
    return json.loads(unb64u(h)), claims, unb64u(s)


# ---- keys ---------------------------------------------------------------------

def new_key(kind):
    if kind == "rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if kind == "rsa1024":
        return rsa.generate_private_key(public_exponent=65537, key_size=1024)
    if kind == "ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    return ec.generate_private_key({"p256": ec.SECP256R1(), "p384": ec.SECP384R1(),
                                    "p521": ec.SECP521R1()}[kind])


def _b64_int(n, size=None):
    size = size or (n.bit_length() + 7) // 8
    return b64u(n.to_bytes(size, "big"))


def jwk_of(key, **extra):
    pub = key.public_key() if hasattr(key, "private_bytes") else key
    if isinstance(pub, rsa.RSAPublicKey):
        nums = pub.public_numbers()
        out = {"kty": "RSA", "e": _b64_int(nums.e), "n": _b64_int(nums.n)}
    elif isinstance(pub, ec.EllipticCurvePublicKey):
        nums = pub.public_numbers()
        size = (pub.curve.key_size + 7) // 8
        out = {"kty": "EC", "crv": {256: "P-256", 384: "P-384", 521: "P-521"}[pub.curve.key_size],
               "x": _b64_int(nums.x, size), "y": _b64_int(nums.y, size)}
    else:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        out = {"kty": "OKP", "crv": "Ed25519",
               "x": b64u(pub.public_bytes(Encoding.Raw, PublicFormat.Raw))}
    out.update(extra)
    return out


def thumbprint(jwk):
    req = {"RSA": ["e", "kty", "n"], "EC": ["crv", "kty", "x", "y"], "OKP": ["crv", "kty", "x"]}
    members = {k: jwk[k] for k in req[jwk["kty"]]}
    return b64u(hashlib.sha256(json.dumps(members, sort_keys=True, separators=(",", ":")).encode()).digest())


def _hash(alg):
    return {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}[alg[-3:]]


def jws(alg, key, claims, **header):
    """Compact JWS; key is a private key, or bytes for HS*."""
    head = b64u(json.dumps({"alg": alg, **header}).encode())
    body = b64u(json.dumps(claims).encode()) if not isinstance(claims, bytes) else b64u(claims)
    data = f"{head}.{body}".encode()
    if alg.startswith("HS"):
        mac = crypto_hmac.HMAC(key, _hash(alg))
        mac.update(data)
        sig = mac.finalize()
    elif alg.startswith("RS"):
        sig = key.sign(data, padding.PKCS1v15(), _hash(alg))
    elif alg.startswith("PS"):
        sig = key.sign(data, padding.PSS(padding.MGF1(_hash(alg)), _hash(alg).digest_size), _hash(alg))
    elif alg.startswith("ES"):
        r, s = decode_dss_signature(key.sign(data, ec.ECDSA(_hash(alg))))
        size = (key.curve.key_size + 7) // 8
        sig = r.to_bytes(size, "big") + s.to_bytes(size, "big")
    else:
        sig = key.sign(data)
    return f"{head}.{body}.{b64u(sig)}"


def _public_from_jwk(jwk):
    if jwk["kty"] == "RSA":
        return rsa.RSAPublicNumbers(int.from_bytes(unb64u(jwk["e"]), "big"),
                                    int.from_bytes(unb64u(jwk["n"]), "big")).public_key()
    if jwk["kty"] == "EC":
        curve = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(), "P-521": ec.SECP521R1()}[jwk["crv"]]
        return ec.EllipticCurvePublicNumbers(int.from_bytes(unb64u(jwk["x"]), "big"),
                                             int.from_bytes(unb64u(jwk["y"]), "big"), curve).public_key()
    return ed25519.Ed25519PublicKey.from_public_bytes(unb64u(jwk["x"]))


def signature_ok(token, key) -> bool:
    """Verify with a public key object or HMAC bytes, by the header's alg."""
    head, body, sig = token.split(".")
    alg = json.loads(unb64u(head))["alg"]
    data, raw = f"{head}.{body}".encode(), unb64u(sig)
    try:
        if alg.startswith("HS"):
            mac = crypto_hmac.HMAC(key, _hash(alg))
            mac.update(data)
            mac.verify(raw)
        elif alg.startswith("RS"):
            key.verify(raw, data, padding.PKCS1v15(), _hash(alg))
        elif alg.startswith("PS"):
            key.verify(raw, data, padding.PSS(padding.MGF1(_hash(alg)), _hash(alg).digest_size), _hash(alg))
        elif alg.startswith("ES"):
            half = len(raw) // 2
            key.verify(encode_dss_signature(int.from_bytes(raw[:half], "big"),
                                            int.from_bytes(raw[half:], "big")), data, ec.ECDSA(_hash(alg)))
        elif alg == "EdDSA":
            key.verify(raw, data)
        else:
            return False
        return True
    except (InvalidSignature, ValueError, TypeError, AttributeError):  # also a key of another type
        return False


def verify_with_jwks(token, jwks):
    """(header, claims) when some JWKS key (kid match if the token names one)
    verifies the token; AssertionError otherwise. Cross-checked by jwcrypto."""
    header, claims, _ = parts(token)
    keys = [k for k in jwks["keys"] if "kid" not in header or k.get("kid") == header["kid"]]
    ok = any(signature_ok(token, _public_from_jwk(k)) for k in keys)
    assert ok, f"no JWKS key verifies the token (header {header})"
    if HAVE_JWCRYPTO:
        key = jwc_jwk.JWK(**next(k for k in keys if signature_ok(token, _public_from_jwk(k))))
        obj = jwc_jws.JWS()
        obj.deserialize(token)
        obj.allowed_algs = [header["alg"]]
        obj.verify(key)  # raises if jwcrypto disagrees
    return header, claims


# ---- client-made JWTs --------------------------------------------------------------

def assertion(key, alg, client_id, aud, kid=None, **claims):
    now = int(time.time())
    body = {"iss": client_id, "sub": client_id, "aud": aud, "iat": now, "exp": now + 60,
            "jti": str(uuid.uuid4()), **claims}
    body = {k: v for k, v in body.items() if v is not None}
    return jws(alg, key, body, **({"kid": kid} if kid else {}))


def assertion_form(key, alg, client_id, aud, kid=None, with_client_id=True, **claims):
    form = {"client_assertion_type": ASSERTION_TYPE,
            "client_assertion": assertion(key, alg, client_id, aud, kid, **claims)}
    if with_client_id:
        form["client_id"] = client_id
    return form


def dpop_proof(key, alg, htm, htu, nonce=None, token=None, header=None, **claims):
    body = {"jti": str(uuid.uuid4()), "htm": htm, "htu": htu, "iat": int(time.time())}
    if nonce is not None:
        body["nonce"] = nonce
    if token is not None:
        body["ath"] = b64u(hashlib.sha256(token.encode()).digest())
    body.update(claims)
    body = {k: v for k, v in body.items() if v is not None}
    head = {"typ": "dpop+jwt", "jwk": jwk_of(key)}
    head.update(header or {})
    head = {k: v for k, v in head.items() if v is not None}
    return jws(alg, key, body, **head)


def request_object(key, alg, issuer, client_id="demo-app", kid=None, typ="oauth-authz-req+jwt", **params):
    now = int(time.time())
    body = {"iss": client_id, "aud": issuer, "exp": now + 300, "nbf": now, "iat": now,
            "jti": str(uuid.uuid4()), "client_id": client_id, "response_type": "code",
            "redirect_uri": issuer + "/cb", "scope": "openid", "state": "st-ro", "nonce": "n-ro",
            "code_challenge": CHALLENGE, "code_challenge_method": "S256", **params}
    body = {k: v for k, v in body.items() if v is not None}
    head = {k: v for k, v in (("kid", kid), ("typ", typ)) if v is not None}
    return jws(alg, key, body, **head)


# ---- flows ------------------------------------------------------------------------

def authz_params(iss, **extra):
    p = {"response_type": "code", "client_id": "demo-app", "redirect_uri": iss + "/cb",
         "state": "st-1", "scope": "openid email", "nonce": "n-1",
         "code_challenge": CHALLENGE, "code_challenge_method": "S256"}
    p.update(extra)
    return {k: v for k, v in p.items() if v is not None}


def authorize(c, iss, **extra):
    return c.request("GET", iss + "/authorize?" + urlencode(authz_params(iss, **extra)))


def answer(r):
    """Parameters of an authorization response (query, fragment or form_post)."""
    if r.location:
        u = urlsplit(r.location)
        part = u.fragment or u.query
        return {k: v[0] for k, v in parse_qs(part).items()}
    import re
    return dict(re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)"', r.text))


def code_of(c, iss, **extra):
    r = authorize(c, iss, **extra)
    a = answer(r)
    assert "code" in a, (r.status, r.location, r.text[:200])
    return a["code"]


def token_request(c, iss, form, headers=None, path="/token"):
    return c.request("POST", iss + path, form=form, headers=headers or {})


def code_form(iss, code, **extra):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": iss + "/cb",
            "code_verifier": VERIFIER, **extra}
    return {k: v for k, v in form.items() if v is not None}


BASIC = {"Authorization": "Basic " + base64.b64encode(b"demo-app:demo-secret").decode()}


def basic_redeem(c, iss, code, headers=None, **extra):
    return token_request(c, iss, code_form(iss, code, **extra), {**BASIC, **(headers or {})})


def new_client(base):
    return Client(base)


def skip_without_crypto():
    """True (and says so) when this python lacks `cryptography`."""
    if not HAVE_CRYPTO:
        print("     (skipped: cryptography not installed for this python)")
        return True
    return False


def expect_oauth_error(r, status, error, description):
    """The answer is exactly this RFC 6749 error object."""
    assert r.status == status, (r.status, r.text)
    assert r.json() == {"error": error, "error_description": description}, r.text
