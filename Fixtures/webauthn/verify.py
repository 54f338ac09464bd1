#!/usr/bin/env python3
"""The relying party's side of authcode's passkey tests: every registration
and assertion authcode's software authenticator makes (Sources/Walk/WebAuthn)
is checked here with PyPI's `webauthn` (py_webauthn, in the test venv,
`make venv`), never with authcode's own code.

    verify.py JOBS   read JOBS (JSON lines), check each in order, print one
                     line per job: "ok …" or "fail: <why>"

Jobs, as a relying party meets them:

    {"op": "register", "challenge": B64URL, "rpId": …, "origin": …,
     "credential": <RegistrationResponseJSON>, "requireUV": bool}
        webauthn.verify_registration_response; then what the spec asks of
        every registration besides (WebAuthn Level 3 §7.1): the attested
        credential ID is the response's rawId, the attestation object is in
        CTAP2 canonical CBOR, clientDataJSON has the exact bytes of §5.8.1.1.
        The credential is kept (public key, count) for later assertions.
        "ok fmt=<fmt> alg=<alg> count=<n> uv=<bool> aaguid=<hex>"

    {"op": "enrol", "credentialId": B64URL, "publicKey": B64URL (COSE_Key),
     "signCount": n}
        a credential the relying party learnt elsewhere (a published test
        vector's key). "ok"

    {"op": "authenticate", "challenge": …, "rpId": …, "origin": …,
     "credential": <AuthenticationResponseJSON>, "requireUV": bool}
        webauthn.verify_authentication_response with the kept key and count
        (so a count that does not rise fails, as at a real relying party),
        and the exact clientDataJSON bytes. "ok count=<n> uv=<bool>"

The checks beyond py_webauthn's are written from the WebAuthn spec for this
file; only the parsing and signature checks come from the libraries.
"""
import base64
import json
import sys

import cbor2
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.structs import AttestationFormat


def unb64(text):
    if "=" in text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text):
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def ccd_string(text):
    """CCDToString of WebAuthn Level 3 §5.8.1.1."""
    out = '"'
    for ch in text:
        point = ord(ch)
        if ch == '"':
            out += '\\"'
        elif ch == "\\":
            out += "\\\\"
        elif point < 0x20:
            out += "\\u%04x" % point
        else:
            out += ch
    return out + '"'


def expected_client_data(kind, challenge, origin):
    """The bytes of §5.8.1.1 for a same-origin request with no other member."""
    text = '{"type":' + ccd_string(kind) + ',"challenge":' + ccd_string(b64(challenge))
    text += ',"origin":' + ccd_string(origin) + ',"crossOrigin":false}'
    return text.encode()


def ctap2_canonical(value):
    """CTAP2's canonical CBOR: cbor2 writes RFC 7049 §3.9 canonical form,
    whose key order (shorter encoded key first, then bytewise) is CTAP2's for
    the maps a registration holds: text keys only (the attestation object),
    one-byte integer labels only (a COSE_Key)."""
    return cbor2.dumps(value, canonical=True)


class Failed(Exception):
    pass


def check_client_data(raw, kind, challenge, origin):
    if raw != expected_client_data(kind, challenge, origin):
        raise Failed("clientDataJSON is not the exact serialization of WebAuthn §5.8.1.1")


def register(job, credentials):
    challenge = unb64(job["challenge"])
    credential = job["credential"]
    verified = verify_registration_response(
        credential=credential,
        expected_challenge=challenge,
        expected_rp_id=job["rpId"],
        expected_origin=job["origin"],
        require_user_verification=job.get("requireUV", False),
    )
    raw_id = unb64(credential["rawId"])
    if verified.credential_id != raw_id:
        raise Failed("the attested credential ID is not the rawId")
    attestation = unb64(credential["response"]["attestationObject"])
    if ctap2_canonical(cbor2.loads(attestation)) != attestation:
        raise Failed("the attestation object is not in canonical CBOR")
    key = verified.credential_public_key
    if ctap2_canonical(cbor2.loads(key)) != key:
        raise Failed("the credential public key is not in canonical CBOR")
    check_client_data(unb64(credential["response"]["clientDataJSON"]), "webauthn.create", challenge, job["origin"])
    credentials[raw_id] = (key, verified.sign_count)
    return "ok fmt=%s alg=%d count=%d uv=%s aaguid=%s" % (
        AttestationFormat(verified.fmt).value,
        cbor2.loads(key)[3],
        verified.sign_count,
        "true" if verified.user_verified else "false",
        verified.aaguid.replace("-", ""),
    )


def enrol(job, credentials):
    credentials[unb64(job["credentialId"])] = (unb64(job["publicKey"]), job["signCount"])
    return "ok"


def authenticate(job, credentials):
    challenge = unb64(job["challenge"])
    credential = job["credential"]
    raw_id = unb64(credential["rawId"])
    if raw_id not in credentials:
        raise Failed("unknown credential")
    key, count = credentials[raw_id]
    verified = verify_authentication_response(
        credential=credential,
        expected_challenge=challenge,
        expected_rp_id=job["rpId"],
        expected_origin=job["origin"],
        credential_public_key=key,
        credential_current_sign_count=count,
        require_user_verification=job.get("requireUV", False),
    )
    check_client_data(unb64(credential["response"]["clientDataJSON"]), "webauthn.get", challenge, job["origin"])
    credentials[raw_id] = (key, verified.new_sign_count)
    return "ok count=%d uv=%s" % (verified.new_sign_count, "true" if verified.user_verified else "false")


OPERATIONS = {"register": register, "enrol": enrol, "authenticate": authenticate}


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    credentials = {}
    with open(sys.argv[1], encoding="utf-8") as jobs:
        for line in jobs:
            if not line.strip():
                continue
            job = json.loads(line)
            try:
                print(OPERATIONS[job["op"]](job, credentials))
            except Exception as error:  # every refusal is a verdict, not a crash
                print("fail: %s" % (str(error) or type(error).__name__))
    return 0


if __name__ == "__main__":
    sys.exit(main())
