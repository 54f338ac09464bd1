"""A tiny software WebAuthn authenticator for the replicas' self-tests only.

It answers what navigator.credentials.create / .get answer, with PyPI's
`cryptography` (P-256, ECDSA over SHA-256, DER signatures) and `cbor2`
(the attestation object, COSE_Key): attestation format "none", flags UP
and UV set (and AT on registration), a signCount that grows by one per
assertion. The replicas verify with py_webauthn, so neither side is the
other's code. Binary values are returned base64url without padding, as
Keycloak's webauthn*.js post them.
"""
import base64
import hashlib
import json
import os

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

N_P256 = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Passkey:
    def __init__(self, rp_id, private_key=None, credential_id=None, user_handle=None, sign_count=0):
        self.rp_id = rp_id
        self.key = private_key or ec.generate_private_key(ec.SECP256R1())
        self.credential_id = credential_id or os.urandom(32)
        self.user_handle = user_handle
        self.sign_count = sign_count

    @classmethod
    def from_seed(cls, rp_id, seed, credential_id, user_handle=None, prefix=b"keycloak-replica-webauthn-"):
        """A key whose scalar is SHA-256(prefix + seed) mod n (a replica's pre-registered user)."""
        d = int.from_bytes(hashlib.sha256(prefix + seed.encode()).digest(), "big") % N_P256
        return cls(rp_id, ec.derive_private_key(d, ec.SECP256R1()), credential_id, user_handle)

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    @staticmethod
    def client_data(kind, challenge, origin) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False},
                          separators=(",", ":")).encode()

    def create(self, challenge, origin, user_handle=None) -> dict:
        """navigator.credentials.create: clientDataJSON, attestationObject, rawId."""
        self.user_handle = user_handle if user_handle is not None else self.user_handle
        cdj = self.client_data("webauthn.create", challenge, origin)
        auth_data = (hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x45]) + self.sign_count.to_bytes(4, "big")
                     + bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id + self._cose())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"clientDataJSON": b64url(cdj), "attestationObject": b64url(attestation),
                "rawId": b64url(self.credential_id)}

    def get(self, challenge, origin, rp_id=None) -> dict:
        """navigator.credentials.get: clientDataJSON, authenticatorData, signature, id, userHandle."""
        self.sign_count += 1
        cdj = self.client_data("webauthn.get", challenge, origin)
        auth_data = (hashlib.sha256((rp_id or self.rp_id).encode()).digest() + bytes([0x05])
                     + self.sign_count.to_bytes(4, "big"))
        signature = self.key.sign(auth_data + hashlib.sha256(cdj).digest(), ec.ECDSA(hashes.SHA256()))
        out = {"clientDataJSON": b64url(cdj), "authenticatorData": b64url(auth_data),
               "signature": b64url(signature), "credentialId": b64url(self.credential_id)}
        out["userHandle"] = b64url(self.user_handle) if self.user_handle else ""
        return out
