"""JWS compact serialisation (RFC 7515) signed and verified with PyPI's
`cryptography`: RS256/384/512, PS256/384/512 (salt = hash size, RFC 7518
§3.5), ES256/384/512 (raw R‖S of fixed size, RFC 7518 §3.4, converted to and
from DER by cryptography's own helpers), EdDSA (Ed25519, RFC 8037) and
HS256/384/512. `none` signs with an empty signature and never verifies.
"""
import json

from jose_keys import JoseError, b64url, b64url_decode

HASH_BITS = {"256": 256, "384": 384, "512": 512}
ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
              "ES256", "ES384", "ES512", "EdDSA")
HMAC_ALGS = ("HS256", "HS384", "HS512")
ALL_ALGS = ASYMMETRIC + HMAC_ALGS
# The curve and the size of R (and S) in bytes of each ES algorithm.
EC_ALGS = {"ES256": ("secp256r1", 32), "ES384": ("secp384r1", 48), "ES512": ("secp521r1", 66)}


def _hash(alg):
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415
    return {"256": hashes.SHA256, "384": hashes.SHA384, "512": hashes.SHA512}[alg[-3:]]()


def key_fits(alg: str, key) -> bool:
    """Whether a public (or private) key object can serve `alg`."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa  # noqa: PLC0415
    if alg[:2] in ("RS", "PS"):
        return isinstance(key, (rsa.RSAPublicKey, rsa.RSAPrivateKey))
    if alg in EC_ALGS:
        return (isinstance(key, (ec.EllipticCurvePublicKey, ec.EllipticCurvePrivateKey))
                and key.curve.name == EC_ALGS[alg][0])
    if alg == "EdDSA":
        return isinstance(key, (ed25519.Ed25519PublicKey, ed25519.Ed25519PrivateKey))
    return False


def _pss(alg):
    from cryptography.hazmat.primitives.asymmetric import padding  # noqa: PLC0415
    return padding.PSS(mgf=padding.MGF1(_hash(alg)), salt_length=_hash(alg).digest_size)


def raw_signature(alg: str, key, data: bytes) -> bytes:
    """Sign `data` (the JWS signing input). HS* take the secret as bytes."""
    from cryptography.hazmat.primitives import hmac  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec, padding, utils  # noqa: PLC0415
    if alg == "none":
        return b""
    if alg in HMAC_ALGS:
        mac = hmac.HMAC(key, _hash(alg))
        mac.update(data)
        return mac.finalize()
    if not key_fits(alg, key):
        raise ValueError(f"key does not fit {alg}")
    if alg.startswith("RS"):
        return key.sign(data, padding.PKCS1v15(), _hash(alg))
    if alg.startswith("PS"):
        return key.sign(data, _pss(alg), _hash(alg))
    if alg in EC_ALGS:
        r, s = utils.decode_dss_signature(key.sign(data, ec.ECDSA(_hash(alg))))
        size = EC_ALGS[alg][1]
        return r.to_bytes(size, "big") + s.to_bytes(size, "big")
    if alg == "EdDSA":
        return key.sign(data)
    raise ValueError(f"unsupported alg {alg!r}")


def verify_raw(alg: str, key, data: bytes, signature: bytes) -> bool:
    """True iff `signature` is valid for `data` under `alg` and `key`."""
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415
    from cryptography.hazmat.primitives import hmac  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec, padding, utils  # noqa: PLC0415
    try:
        if alg in HMAC_ALGS:
            mac = hmac.HMAC(key, _hash(alg))
            mac.update(data)
            mac.verify(signature)
            return True
        if alg not in ASYMMETRIC or not key_fits(alg, key):
            return False
        if alg.startswith("RS"):
            key.verify(signature, data, padding.PKCS1v15(), _hash(alg))
        elif alg.startswith("PS"):
            key.verify(signature, data, _pss(alg), _hash(alg))
        elif alg in EC_ALGS:
            size = EC_ALGS[alg][1]
            if len(signature) != 2 * size:
                return False
            der = utils.encode_dss_signature(int.from_bytes(signature[:size], "big"),
                                             int.from_bytes(signature[size:], "big"))
            key.verify(der, data, ec.ECDSA(_hash(alg)))
        else:
            key.verify(signature, data)
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


def _segment(value) -> str:
    if isinstance(value, (bytes, bytearray)):
        return b64url(bytes(value))
    if isinstance(value, str):  # JSON text given as written (hostile payloads)
        return b64url(value.encode("utf-8"))
    return b64url(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def sign(header: dict, payload, key, alg=None) -> str:
    """header.payload.signature; `payload` a JSON value, a JSON text or bytes.

    `alg` (default header["alg"]) is the algorithm actually used, so a test
    can sign with one algorithm while the header names another."""
    signing_input = _segment(header) + "." + _segment(payload)
    signature = raw_signature(alg or header["alg"], key, signing_input.encode("ascii"))
    return signing_input + "." + b64url(signature)


class Parsed:
    """A compact JWS split and decoded; `claims` is the parsed payload (any
    JSON value) or None when the payload is not JSON."""

    def __init__(self, token):
        if not isinstance(token, str) or token.count(".") != 2:
            raise JoseError("not a compact JWS (three base64url parts)")
        head, body, sig = token.split(".")
        try:
            self.header = json.loads(b64url_decode(head, "JWS header").decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            if isinstance(exc, JoseError):
                raise
            raise JoseError("JWS header is not JSON") from None
        if not isinstance(self.header, dict):
            raise JoseError("JWS header is not a JSON object")
        self.payload = b64url_decode(body, "JWS payload")
        self.signature = b64url_decode(sig, "JWS signature")
        self.signing_input = (head + "." + body).encode("ascii")
        try:
            self.claims = json.loads(self.payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.claims = None
        self.alg = self.header.get("alg")

    def summary(self) -> dict:
        """What a hit records: the decoded header and claims."""
        return {"header": self.header, "claims": self.claims}


def verify_with_keys(parsed: Parsed, keys, allowed_algs, secret=None) -> str:
    """Check the signature against `keys` ([(kid or None, public key)]) or, for
    HS*, against `secret` (bytes). Returns "" or the error_description."""
    alg = parsed.alg
    if alg == "none" or not isinstance(alg, str):
        return "alg none is not accepted" if alg == "none" else "JWS header lacks alg"
    if alg not in allowed_algs:
        return f"alg {alg} is not accepted"
    if alg in HMAC_ALGS:
        if secret is None:
            return f"alg {alg} needs a client secret"
        ok = verify_raw(alg, secret, parsed.signing_input, parsed.signature)
        return "" if ok else "signature does not verify"
    kid = parsed.header.get("kid")
    candidates = [k for i, k in keys if kid is None or i == kid]
    if not candidates:
        return f"no registered key has kid {kid}"
    candidates = [k for k in candidates if key_fits(alg, k)]
    if not candidates:
        return f"no registered key fits alg {alg}"
    if any(verify_raw(alg, k, parsed.signing_input, parsed.signature) for k in candidates):
        return ""
    return "signature does not verify"
