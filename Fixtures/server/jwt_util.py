"""Minimal HS256 JWT encoding for the fixture's id_tokens.

The authcode client never verifies the signature (OIDC Core §3.1.3.7: the
id_token came straight from the token endpoint), so a fixed key is fine.
"""
import base64
import hashlib
import hmac
import json

FIXTURE_KEY = b"fixture-key"


def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _segment(obj) -> str:
    return b64url(json.dumps(obj, separators=(",", ":")).encode("utf-8"))


def encode(payload: dict, key: bytes = FIXTURE_KEY) -> str:
    """Return the compact serialisation header.payload.signature."""
    return encode_text(json.dumps(payload, separators=(",", ":")), key)


def encode_text(payload_text: str, key: bytes = FIXTURE_KEY) -> str:
    """Like encode(), with the payload JSON given as written (hostile.py)."""
    signing_input = _segment({"alg": "HS256", "typ": "JWT"}) + "." + b64url(payload_text.encode("utf-8"))
    signature = hmac.new(key, signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def encode_with_header(header: dict, payload: dict, key: bytes = FIXTURE_KEY) -> str:
    """Like encode(), with a header of the caller's (large.py: a huge `kid`)."""
    signing_input = _segment(header) + "." + _segment(payload)
    signature = hmac.new(key, signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def decode_verified(token: str, key: bytes):
    """The payload of an HS256 JWT made by encode() with `key`, or None when
    it does not verify or parse (the replicas' signed cookies)."""
    try:
        head, body, sig = token.split(".")
        good = b64url(hmac.new(key, f"{head}.{body}".encode("ascii"), hashlib.sha256).digest())
        if not hmac.compare_digest(good, sig):
            return None
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, UnicodeEncodeError):
        return None
    return payload if isinstance(payload, dict) else None


def decode_unverified(token: str) -> dict:
    """Payload of a JWT without checking anything (used by selftest.py)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
