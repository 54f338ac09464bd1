#!/usr/bin/env python3
"""The independent side of authcode's JOSE tests (Tests/JOSETests): keys,
tokens and verification made with PyPI's `cryptography` (in the test venv,
`make venv`), never with authcode's own code.

    jose_tool.py keys DIR      write keys in every format and tokens signed
                               with them, and DIR/manifest.json naming them
    jose_tool.py verify FILE   verify each job of FILE (JSON lines: token,
                               alg, key as a public JWK or secret as hex;
                               optional typ, kid, payload as hex) and print
                               one line per job: "ok" or "fail: <why>"

The JWS logic here (RFC 7515 §5.2, RFC 7518 §3) is written from the RFCs
for this file; only the primitives come from `cryptography`.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

HASHES = {"256": hashes.SHA256, "384": hashes.SHA384, "512": hashes.SHA512}
CURVES = {"P-256": (ec.SECP256R1, 32), "P-384": (ec.SECP384R1, 48), "P-521": (ec.SECP521R1, 66)}
ES_CURVE = {"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    if "=" in text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def uint(number, size=None):
    size = size or max(1, (number.bit_length() + 7) // 8)
    return number.to_bytes(size, "big")


# ---- keys ---------------------------------------------------------------

def public_jwk(key, kid=None):
    if isinstance(key, rsa.RSAPublicKey):
        numbers = key.public_numbers()
        jwk = {"kty": "RSA", "n": b64(uint(numbers.n)), "e": b64(uint(numbers.e))}
    elif isinstance(key, ec.EllipticCurvePublicKey):
        name = {"secp256r1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"}[key.curve.name]
        size = CURVES[name][1]
        numbers = key.public_numbers()
        jwk = {"kty": "EC", "crv": name, "x": b64(uint(numbers.x, size)), "y": b64(uint(numbers.y, size))}
    else:
        raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(raw)}
    if kid:
        jwk["kid"] = kid
    return jwk


def private_jwk(key, kid=None):
    jwk = public_jwk(key.public_key(), kid)
    if isinstance(key, rsa.RSAPrivateKey):
        numbers = key.private_numbers()
        for name, value in (("d", numbers.d), ("p", numbers.p), ("q", numbers.q),
                            ("dp", numbers.dmp1), ("dq", numbers.dmq1), ("qi", numbers.iqmp)):
            jwk[name] = b64(uint(value))
    elif isinstance(key, ec.EllipticCurvePrivateKey):
        jwk["d"] = b64(uint(key.private_numbers().private_value, CURVES[jwk["crv"]][1]))
    else:
        jwk["d"] = b64(key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                         serialization.NoEncryption()))
    return jwk


def pem(key, private_format, password=None):
    encryption = (serialization.BestAvailableEncryption(password) if password
                  else serialization.NoEncryption())
    return key.private_bytes(serialization.Encoding.PEM, private_format, encryption).decode()


def from_jwk(jwk):
    """A public key from a JWK, written from RFC 7518 §6 and RFC 8037 §2."""
    if jwk["kty"] == "RSA":
        return rsa.RSAPublicNumbers(int.from_bytes(unb64(jwk["e"]), "big"),
                                    int.from_bytes(unb64(jwk["n"]), "big")).public_key()
    if jwk["kty"] == "EC":
        curve, _ = CURVES[jwk["crv"]]
        return ec.EllipticCurvePublicNumbers(int.from_bytes(unb64(jwk["x"]), "big"),
                                             int.from_bytes(unb64(jwk["y"]), "big"), curve()).public_key()
    if jwk["kty"] == "OKP" and jwk["crv"] == "Ed25519":
        return ed25519.Ed25519PublicKey.from_public_bytes(unb64(jwk["x"]))
    raise ValueError("unsupported key")


# ---- signatures (RFC 7518 §3) ---------------------------------------------

def sign(alg, key, signing_input, pss_salt=None):
    family, bits = alg[:2], alg[2:]
    if alg == "EdDSA":
        return key.sign(signing_input)
    if family == "HS":
        return hmac.new(key, signing_input, getattr(hashlib, "sha" + bits)).digest()
    if family == "RS":
        return key.sign(signing_input, padding.PKCS1v15(), HASHES[bits]())
    if family == "PS":
        salt = padding.PSS.DIGEST_LENGTH if pss_salt is None else pss_salt
        return key.sign(signing_input, padding.PSS(mgf=padding.MGF1(HASHES[bits]()), salt_length=salt), HASHES[bits]())
    if family == "ES":
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(HASHES[bits]())))
        size = CURVES[ES_CURVE[alg]][1]
        return uint(r, size) + uint(s, size)
    raise ValueError("unknown alg " + alg)


def check(alg, key, signing_input, signature):
    """Raises unless `signature` is valid; `key` is a public key or an HMAC secret."""
    family, bits = alg[:2], alg[2:]
    if alg == "EdDSA":
        if not isinstance(key, ed25519.Ed25519PublicKey):
            raise ValueError("EdDSA needs an Ed25519 key")
        key.verify(signature, signing_input)
    elif family == "HS":
        expected = hmac.new(key, signing_input, getattr(hashlib, "sha" + bits)).digest()
        if not hmac.compare_digest(expected, signature):
            raise InvalidSignature()
    elif family in ("RS", "PS"):
        if not isinstance(key, rsa.RSAPublicKey):
            raise ValueError(alg + " needs an RSA key")
        if len(signature) != (key.key_size + 7) // 8:
            raise InvalidSignature()
        pad = (padding.PKCS1v15() if family == "RS"
               else padding.PSS(mgf=padding.MGF1(HASHES[bits]()), salt_length=HASHES[bits]().digest_size))
        key.verify(signature, signing_input, pad, HASHES[bits]())
    elif family == "ES":
        if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != CURVES[ES_CURVE[alg]][0].name:
            raise ValueError(alg + " needs a " + ES_CURVE[alg] + " key")
        size = CURVES[ES_CURVE[alg]][1]
        if len(signature) != 2 * size:
            raise InvalidSignature()
        r, s = int.from_bytes(signature[:size], "big"), int.from_bytes(signature[size:], "big")
        key.verify(encode_dss_signature(r, s), signing_input, ec.ECDSA(HASHES[bits]()))
    else:
        raise ValueError("unknown alg " + alg)


def compact(alg, key, payload, header_extra=None, pss_salt=None):
    header = {"alg": alg}
    header.update(header_extra or {})
    signing_input = (b64(json.dumps(header, separators=(",", ":")).encode()) + "." + b64(payload)).encode()
    return signing_input.decode() + "." + b64(sign(alg, key, signing_input, pss_salt))


# ---- commands -----------------------------------------------------------

def make_keys(directory):
    os.makedirs(directory, exist_ok=True)
    manifest = {"keys": {}, "tokens": []}

    def save(name, text):
        path = os.path.join(directory, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    made = {
        "rsa2048": rsa.generate_private_key(public_exponent=65537, key_size=2048),
        "rsa2048b": rsa.generate_private_key(public_exponent=65537, key_size=2048),
        "rsa3072": rsa.generate_private_key(public_exponent=65537, key_size=3072),
        "rsa1024": rsa.generate_private_key(public_exponent=65537, key_size=1024),
        "p256": ec.generate_private_key(ec.SECP256R1()),
        "p384": ec.generate_private_key(ec.SECP384R1()),
        "p521": ec.generate_private_key(ec.SECP521R1()),
        "ed25519": ed25519.Ed25519PrivateKey.generate(),
    }
    for name, key in made.items():
        entry = {
            "public": public_jwk(key.public_key(), kid=name),
            "jwk": save(name + ".jwk", json.dumps(private_jwk(key, kid=name))),
            "pkcs8": save(name + ".pkcs8.pem", pem(key, serialization.PrivateFormat.PKCS8)),
            "encrypted": save(name + ".encrypted.pem", pem(key, serialization.PrivateFormat.PKCS8, b"pass phrase")),
        }
        if not isinstance(key, ed25519.Ed25519PrivateKey):
            # PKCS#1 for RSA, SEC1 for EC: OpenSSL's "traditional" formats.
            entry["traditional"] = save(name + ".traditional.pem",
                                        pem(key, serialization.PrivateFormat.TraditionalOpenSSL))
            entry["traditional_encrypted"] = save(name + ".traditional-encrypted.pem",
                                                  pem(key, serialization.PrivateFormat.TraditionalOpenSSL, b"pass phrase"))
        manifest["keys"][name] = entry

    payload = json.dumps({"iss": "https://issuer.example", "sub": "alice", "aud": "cli", "n": "ü"}).encode()
    plan = [(alg, "rsa2048") for alg in ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")]
    plan += [(alg, "rsa3072") for alg in ("RS256", "PS512")]
    plan += [("ES256", "p256"), ("ES384", "p384"), ("ES512", "p521"), ("EdDSA", "ed25519"), ("RS256", "rsa1024")]
    for alg, name in plan:
        manifest["tokens"].append({"alg": alg, "key": name, "payload": payload.hex(),
                                   "token": compact(alg, made[name], payload, {"kid": name})})
    for alg in ("HS256", "HS384", "HS512"):
        secret = os.urandom(48)
        manifest["tokens"].append({"alg": alg, "secret": secret.hex(), "payload": payload.hex(),
                                   "token": compact(alg, secret, payload, {"typ": "JWT"})})
    # RSASSA-PSS with the longest salt instead of the hash's length: valid
    # PSS, but not PS256 as RFC 7518 §3.5 defines it.
    manifest["tokens"].append({"alg": "PS256", "key": "rsa2048", "payload": payload.hex(), "case": "max-salt",
                               "token": compact("PS256", made["rsa2048"], payload, {"kid": "rsa2048"},
                                                pss_salt=padding.PSS.MAX_LENGTH)})
    save("manifest.json", json.dumps(manifest, indent=1))
    print(os.path.join(directory, "manifest.json"))


def verify_jobs(path):
    with open(path) as handle:
        for line in handle:
            if not line.strip():
                continue
            job = json.loads(line)
            try:
                header_part, payload_part, signature_part = job["token"].split(".")
                header = json.loads(unb64(header_part))
                if header.get("alg") != job["alg"]:
                    raise ValueError("alg is %r" % header.get("alg"))
                for name in ("typ", "kid"):
                    if job.get(name) is not None and header.get(name) != job[name]:
                        raise ValueError("%s is %r" % (name, header.get(name)))
                if "jwk" in job:
                    if header.get("jwk") != job["jwk"]:
                        raise ValueError("jwk header differs")
                if job.get("payload") is not None and unb64(payload_part) != bytes.fromhex(job["payload"]):
                    raise ValueError("payload differs")
                key = bytes.fromhex(job["secret"]) if "secret" in job else from_jwk(job["key"])
                check(job["alg"], key, (header_part + "." + payload_part).encode(), unb64(signature_part))
                print("ok")
            except InvalidSignature:
                print("fail: bad signature")
            except Exception as error:  # one line per job, whatever went wrong
                print("fail: %s" % (str(error).splitlines() or ["error"])[0])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "keys":
        make_keys(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "verify":
        verify_jobs(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
