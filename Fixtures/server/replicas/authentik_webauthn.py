"""WebAuthn for the Authentik replica. authentik itself uses py_webauthn
(authentik/stages/authenticator_validate/challenge.py: generate_authentication_options,
verify_authentication_response), so the replica calls the same library the
same way: options for the user's devices (allowCredentials) or for any
device (passkey login), the challenge kept in the session, the origin and
rpId of the request's host, the device's stored signCount.
Lazy imports: without webauthn/cryptography/cbor2 these devices do not work
and the stage says so (501).
"""
import hashlib

from . import authentik_realm as realm


def available() -> bool:
    try:
        import cbor2  # noqa: F401, PLC0415
        import webauthn  # noqa: F401, PLC0415
        from cryptography.hazmat.primitives.asymmetric import ec  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def fixed_key(seed: str):
    """(credential id as base64url, COSE key) of a pre-registered device: the
    private key is d = SHA-256("authentik-replica-webauthn-" + seed) mod n."""
    if not available():
        return "", b""
    import cbor2  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    from webauthn.helpers import bytes_to_base64url  # noqa: PLC0415
    n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    d = int.from_bytes(hashlib.sha256(realm.WEBAUTHN_KEY_PREFIX + seed.encode()).digest(), "big") % n
    numbers = ec.derive_private_key(d, ec.SECP256R1()).public_key().public_numbers()
    cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
    return bytes_to_base64url(realm.webauthn_credential_id(seed)), cose


def options(rp_id: str, devices, user_verification: str):
    """(options as JSON dict, challenge bytes): generate_authentication_options."""
    import webauthn  # noqa: PLC0415
    from webauthn.helpers import base64url_to_bytes, options_to_json_dict  # noqa: PLC0415
    from webauthn.helpers.structs import (AuthenticatorTransport, PublicKeyCredentialDescriptor,  # noqa: PLC0415
                                          UserVerificationRequirement)
    allow = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(d.credential_id),
                                           transports=[AuthenticatorTransport.INTERNAL]) for d in devices]
    opts = webauthn.generate_authentication_options(
        rp_id=rp_id, allow_credentials=allow,
        user_verification=UserVerificationRequirement(user_verification))
    return options_to_json_dict(opts), opts.challenge


def verify(data, device, challenge: bytes, rp_id: str, origin: str, require_uv: bool):
    """(new sign count, None) or (None, the verifier's message)."""
    import webauthn  # noqa: PLC0415
    try:
        verified = webauthn.verify_authentication_response(
            credential=data, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=device.public_key, credential_current_sign_count=device.sign_count,
            require_user_verification=require_uv)
    except Exception as exc:  # InvalidAuthenticationResponse and parse errors alike
        return None, str(exc)
    return verified.new_sign_count, None
