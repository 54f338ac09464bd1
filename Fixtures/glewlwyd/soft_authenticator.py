"""A test-only WebAuthn authenticator for smoke.py: one P-256 credential,
attestation format `none`, with PyPI `cryptography` (keys, ECDSA) and `cbor2`
(the attestation object and the COSE key). It plays what a browser and a
platform authenticator hand to a page (WebAuthn Level 3 §5.1.3 create,
§5.1.4 get; §6.1 authenticator data; §6.5.3 attested credential data; §8.7
`none`), so Glewlwyd's WebAuthn scheme can be checked with no browser and
without authcode on either side.

Binary values come back as bytes; encoding them (Glewlwyd's login app sends
standard base64 from btoa, not base64url) is the caller's business.
"""
import base64
import hashlib
import json
import os
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

FLAG_UP, FLAG_UV, FLAG_AT = 0x01, 0x04, 0x40


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftAuthenticator:
    """One credential for one relying party, with its signature counter."""

    def __init__(self, rp_id, origin, credential_id=None, key=None, sign_count=0):
        self.rp_id, self.origin = rp_id, origin
        self.credential_id = credential_id or os.urandom(32)
        self.key = key or ec.generate_private_key(ec.SECP256R1())
        self.sign_count = sign_count

    def _client_data(self, kind, challenge, origin=None):
        # The challenge is base64url without padding in clientDataJSON (§5.8.1).
        return json.dumps({"type": kind, "challenge": b64url(challenge), "origin": origin or self.origin,
                           "crossOrigin": False}, separators=(",", ":")).encode()

    def _auth_data(self, flags, attested=b"", rp_id=None):
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.sign_count) + attested

    def cose_key(self):
        """The public key as a COSE_Key (RFC 9053 §7.1.1: EC2, P-256, ES256)."""
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def create(self, challenge, origin=None, rp_id=None, fmt="none", att_stmt=None):
        """navigator.credentials.create: (clientDataJSON, attestationObject)."""
        attested = (bytes(16)  # AAGUID: zero, as authenticators answering `none` may send
                    + struct.pack(">H", len(self.credential_id)) + self.credential_id + self.cose_key())
        auth_data = self._auth_data(FLAG_UP | FLAG_UV | FLAG_AT, attested, rp_id)
        attestation = cbor2.dumps({"fmt": fmt, "attStmt": {} if att_stmt is None else att_stmt,
                                   "authData": auth_data})
        return self._client_data("webauthn.create", challenge, origin), attestation

    def get(self, challenge, origin=None, rp_id=None, count_up=True, key=None, kind="webauthn.get",
            flags=FLAG_UP | FLAG_UV):
        """navigator.credentials.get: (clientDataJSON, authenticatorData,
        DER signature); the counter rises first unless count_up is false."""
        if count_up:
            self.sign_count += 1
        client_data = self._client_data(kind, challenge, origin)
        auth_data = self._auth_data(flags, rp_id=rp_id)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = (key or self.key).sign(signed, ec.ECDSA(hashes.SHA256()))  # DER (§6.3.3)
        return client_data, auth_data, signature
