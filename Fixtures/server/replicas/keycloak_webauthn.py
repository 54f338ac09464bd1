"""WebAuthn for the Keycloak replica, verified by PyPI's `webauthn` (py_webauthn).

Keycloak verifies with webauthn4j (WebAuthnAuthenticator.java,
WebAuthnRegister.java); the replica hands the same inputs to py_webauthn,
an independent relying-party implementation, never to code of ours:
- registration: clientDataJSON, attestationObject (base64url, as
  webauthnRegister.js posts them), the challenge kept in the auth session,
  the origin and rpId of the request's host, user verification as the
  policy requires;
- assertion: credentialId, clientDataJSON, authenticatorData, signature,
  userHandle (base64url, webauthnAuthenticate.js), the stored COSE key and
  signCount. py_webauthn refuses a signCount that does not grow when either
  count is non-zero, as webauthn4j does by default.
`webauthn`, `cbor2` and `cryptography` are imported lazily: a python
without them serves every other page; WebAuthn pages then answer 501.
"""
import base64
import hashlib

from . import keycloak_realm as realm
from .keycloak_state import WebAuthnCredential


def available() -> bool:
    try:
        import cbor2  # noqa: F401, PLC0415
        import webauthn  # noqa: F401, PLC0415
        from cryptography.hazmat.primitives.asymmetric import ec  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def b64url_decode(text: str) -> bytes:
    """Lenient like rfc4648's `loose` parse and Java's URL decoder: padding optional."""
    text = (text or "").strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def fixed_private_key(seed: str):
    """The P-256 key of a pre-registered passkey: d = SHA-256("keycloak-replica-webauthn-"
    + seed) mod n. Test authenticators derive the same key (keycloak.md)."""
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    d = int.from_bytes(hashlib.sha256(b"keycloak-replica-webauthn-" + seed.encode()).digest(), "big") % n
    return ec.derive_private_key(d, ec.SECP256R1())


def cose_key(public_key) -> bytes:
    """COSE_Key of an EC2 P-256 key for ES256 (RFC 9053 §7.1.1)."""
    import cbor2  # noqa: PLC0415
    numbers = public_key.public_numbers()
    return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                        -3: numbers.y.to_bytes(32, "big")})


def fixed_credential(spec, created):
    """The stored credential of a pre-registered passkey, or None without the libraries."""
    if not available():
        return None
    public = fixed_private_key(spec.seed).public_key()
    return WebAuthnCredential(realm.passkey_credential_id(spec.seed), cose_key(public), 0,
                              spec.label, spec.passwordless, created, ("internal",))


def verify_registration(form, challenge: str, rp_id: str, origin: str, require_uv: bool):
    """(VerifiedRegistration, None) or (None, the verifier's message)."""
    import webauthn  # noqa: PLC0415
    try:
        raw_id = b64url_decode(form.get("publicKeyCredentialId", ""))
        credential = {
            "id": b64url(raw_id), "rawId": b64url(raw_id), "type": "public-key",
            "response": {"clientDataJSON": form.get("clientDataJSON", ""),
                         "attestationObject": form.get("attestationObject", "")},
        }
        verified = webauthn.verify_registration_response(
            credential=credential, expected_challenge=b64url_decode(challenge),
            expected_rp_id=rp_id, expected_origin=origin, require_user_verification=require_uv)
    except Exception as exc:  # py_webauthn raises several types; Keycloak catches Exception too
        return None, str(exc) or type(exc).__name__
    return verified, None


def verify_assertion(form, stored: WebAuthnCredential, challenge: str, rp_id: str, origin: str,
                     require_uv: bool):
    """(new sign count, None) or (None, the verifier's message)."""
    import webauthn  # noqa: PLC0415
    try:
        credential = {
            "id": form.get("credentialId", ""), "rawId": form.get("credentialId", ""), "type": "public-key",
            "response": {"clientDataJSON": form.get("clientDataJSON", ""),
                         "authenticatorData": form.get("authenticatorData", ""),
                         "signature": form.get("signature", ""),
                         "userHandle": form.get("userHandle") or None},
        }
        verified = webauthn.verify_authentication_response(
            credential=credential, expected_challenge=b64url_decode(challenge),
            expected_rp_id=rp_id, expected_origin=origin, credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count, require_user_verification=require_uv)
    except Exception as exc:  # as in WebAuthnAuthenticator: any verifier failure is a WebAuthnException
        return None, str(exc) or type(exc).__name__
    return verified.new_sign_count, None


def new_challenge() -> str:
    """DefaultChallenge: 16 random bytes, base64url."""
    import secrets  # noqa: PLC0415
    return b64url(secrets.token_bytes(16))
