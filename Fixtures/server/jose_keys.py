"""Keys of the signing scenarios (README "Signatures and the modern client
profile"): the server's own signing keys, their JWK form, RFC 7638
thumbprints, and public keys read from JWKs that clients send.

All key work goes through PyPI's `cryptography`, imported lazily: without it
the signing scenarios answer 501 (signed_scenarios.py) and everything else still runs
on a bare python3. Nothing here implements a primitive by hand.

Server keys are made once per process (RSA generation is slow) and named by
kind and generation: kind one of KINDS, generation 1 (the run's current key),
2 (the key after rotation, also the "other key" of forged signatures) or 3
(keys listed beside them by `jwks_extra`). Every run sees the same keys.
"""
import base64
import binascii
import hashlib
import json
import re
import threading

KINDS = ("rsa", "rsa1024", "p256", "p384", "p521", "ed25519")
CURVES = {"p256": ("P-256", 32), "p384": ("P-384", 48), "p521": ("P-521", 66)}
_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")
_lock = threading.Lock()
_keys: dict = {}   # (kind, generation) -> private key object


class JoseError(Exception):
    """A JOSE input that cannot be used; str() is the error_description."""


def available() -> bool:
    try:
        import cryptography  # noqa: F401, PLC0415 (optional dependency)
    except ImportError:
        return False
    return True


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text, what="value") -> bytes:
    """Strict base64url (RFC 7515 §2): no padding, no other characters."""
    if not isinstance(text, str) or not _B64URL.match(text) or len(text) % 4 == 1:
        raise JoseError(f"{what} is not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise JoseError(f"{what} is not base64url") from None


def _curve(kind):
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    return {"p256": ec.SECP256R1, "p384": ec.SECP384R1, "p521": ec.SECP521R1}[kind]()


def private_key(kind: str, generation: int = 1):
    """The process-wide key of that kind and generation, made on first use."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa  # noqa: PLC0415
    with _lock:
        key = _keys.get((kind, generation))
        if key is None:
            if kind in ("rsa", "rsa1024"):
                key = rsa.generate_private_key(65537, 1024 if kind == "rsa1024" else 2048)
            elif kind in CURVES:
                key = ec.generate_private_key(_curve(kind))
            elif kind == "ed25519":
                key = ed25519.Ed25519PrivateKey.generate()
            else:
                raise ValueError(f"unknown key kind {kind!r}")
            _keys[(kind, generation)] = key
    return key


def _int_b64(value: int) -> str:
    return b64url(value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big"))


def public_jwk(key) -> dict:
    """The public JWK (RFC 7517/7518/8037) of a private or public key object."""
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa  # noqa: PLC0415
    pub = key.public_key() if hasattr(key, "public_key") else key
    if isinstance(pub, rsa.RSAPublicKey):
        numbers = pub.public_numbers()
        return {"kty": "RSA", "n": _int_b64(numbers.n), "e": _int_b64(numbers.e)}
    if isinstance(pub, ec.EllipticCurvePublicKey):
        numbers = pub.public_numbers()
        name, size = {"secp256r1": CURVES["p256"], "secp384r1": CURVES["p384"],
                      "secp521r1": CURVES["p521"]}[pub.curve.name]
        return {"kty": "EC", "crv": name, "x": b64url(numbers.x.to_bytes(size, "big")),
                "y": b64url(numbers.y.to_bytes(size, "big"))}
    if isinstance(pub, ed25519.Ed25519PublicKey):
        raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw)}
    raise ValueError("unsupported key type")


THUMBPRINT_MEMBERS = {"RSA": ("e", "kty", "n"), "EC": ("crv", "kty", "x", "y"),
                      "OKP": ("crv", "kty", "x")}


def thumbprint(jwk: dict) -> str:
    """RFC 7638 SHA-256 thumbprint: the required members, sorted, no spaces."""
    members = THUMBPRINT_MEMBERS.get(jwk.get("kty"))
    if members is None or any(not isinstance(jwk.get(m), str) for m in members):
        raise JoseError("jwk lacks the members of its kty")
    canonical = json.dumps({m: jwk[m] for m in members}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


PRIVATE_MEMBERS = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")


def public_key_from_jwk(jwk):
    """A public key object from a client's JWK; JoseError when unusable.

    EC points are checked to lie on their curve by `cryptography`."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa  # noqa: PLC0415
    if not isinstance(jwk, dict):
        raise JoseError("jwk is not a JSON object")
    kty = jwk.get("kty")
    try:
        if kty == "RSA":
            n = int.from_bytes(b64url_decode(jwk.get("n"), "jwk n"), "big")
            e = int.from_bytes(b64url_decode(jwk.get("e"), "jwk e"), "big")
            return rsa.RSAPublicNumbers(e, n).public_key()
        if kty == "EC":
            match = [k for k, (name, _) in CURVES.items() if name == jwk.get("crv")]
            if not match:
                raise JoseError("jwk crv is not P-256, P-384 or P-521")
            size = CURVES[match[0]][1]
            x, y = b64url_decode(jwk.get("x"), "jwk x"), b64url_decode(jwk.get("y"), "jwk y")
            if len(x) != size or len(y) != size:
                raise JoseError("jwk x or y has the wrong length")
            return ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"),
                                                 _curve(match[0])).public_key()
        if kty == "OKP":
            if jwk.get("crv") != "Ed25519":
                raise JoseError("jwk crv is not Ed25519")
            return ed25519.Ed25519PublicKey.from_public_bytes(b64url_decode(jwk.get("x"), "jwk x"))
    except ValueError as exc:  # cryptography: point not on the curve, bad sizes
        raise JoseError(f"jwk is not a valid {kty} public key") from exc
    raise JoseError("jwk kty is not RSA, EC or OKP")


def rsa_bits(key) -> int:
    return getattr(key, "key_size", 0)


def attacker_certificate_pem(key) -> bytes:
    """A self-signed certificate for `key` (served at the x5u of a forged
    header): a client that fetched it could verify the forgery with it."""
    import datetime  # noqa: PLC0415
    from cryptography import x509  # noqa: PLC0415
    from cryptography.hazmat.primitives import hashes, serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ed25519  # noqa: PLC0415
    from cryptography.x509.oid import NameOID  # noqa: PLC0415
    digest = None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "attacker.example")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1)
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=30))
            .sign(key, digest))
    return cert.public_bytes(serialization.Encoding.PEM)


def public_pem(key) -> bytes:
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)
