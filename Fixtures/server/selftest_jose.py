"""selftest: the signing scenarios, verification side (README "Signatures and
the modern client profile"): discovery, JWKS, keys and rotation, id_token
algorithms and faults, token shapes, JARM, userinfo, refreshed id_tokens.

Every signature the server makes is verified here by selftest_jose_support
(and jwcrypto when installed), never by the server's own code. Skipped with a
note when `cryptography` is missing (then the server answers 501).
"""
import time

import selftest_jose_support as J
from selftest_jose_support import (BASIC, HAVE_CRYPTO, answer, authorize, basic_redeem,
                                   code_of, configure, iss_of, parts, run_name, stats_of)
from selftest_jose_support import skip_without_crypto
from selftest_support import Client


def _flow(c, iss, **extra):
    """Authorize + redeem with Basic auth; returns the token response JSON."""
    t = basic_redeem(c, iss, code_of(c, iss, **extra))
    assert t.status == 200, t.text
    return t.json()


def t_signed_discovery_and_jwks(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("disc")
    iss = iss_of(base, run)
    meta = c.request("GET", iss + "/.well-known/openid-configuration").json()
    for key, value in (("jwks_uri", iss + "/jwks"), ("userinfo_endpoint", iss + "/userinfo"),
                       ("pushed_authorization_request_endpoint", iss + "/par"),
                       ("authorization_response_iss_parameter_supported", True),
                       ("require_pushed_authorization_requests", False)):
        assert meta[key] == value, key
    assert "jwt" in meta["response_modes_supported"] and "form_post.jwt" in meta["response_modes_supported"]
    assert "EdDSA" in meta["id_token_signing_alg_values_supported"]
    assert "PS256" in meta["authorization_signing_alg_values_supported"]
    root = c.request("GET", f"{base}/.well-known/oauth-authorization-server/t/{run}/signed").json()
    assert root == meta
    configure(c, base, run, {"metadata": {"jwks_uri": None, "userinfo_endpoint": "https://x.example/ui"}})
    meta = c.request("GET", iss + "/.well-known/openid-configuration").json()
    assert "jwks_uri" not in meta and meta["userinfo_endpoint"] == "https://x.example/ui"
    configure(c, base, run, {"discovery": False})
    assert c.request("GET", iss + "/.well-known/openid-configuration").status == 404
    configure(c, base, run, {"id_token_faults": ["no-such-fault"]})
    r = basic_redeem(c, iss, code_of(c, iss))
    assert r.status == 500 and "fixture config error: id_token_faults: unknown fault" in r.text
    meta = c.request("GET", iss_of(base, run, "fapi2") + "/.well-known/openid-configuration").json()
    assert meta["id_token_signing_alg_values_supported"] == ["PS256", "ES256", "EdDSA"]
    assert meta["require_pushed_authorization_requests"] is True
    assert meta["token_endpoint_auth_methods_supported"] == ["private_key_jwt", "tls_client_auth"]


ALG_CASES = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
             "EdDSA", "HS256", "HS384", "HS512")


def t_signed_id_token_every_alg(base):
    if skip_without_crypto():
        return
    c = Client(base)
    for alg in ALG_CASES:
        run = run_name("alg")
        iss = iss_of(base, run)
        configure(c, base, run, {"id_token_alg": alg})
        body = _flow(c, iss)
        assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
        token = body["id_token"]
        header, claims, _ = parts(token)
        assert header["alg"] == alg, (alg, header)
        if alg.startswith("HS"):
            assert "kid" not in header and J.signature_ok(token, b"demo-secret"), alg
            assert not J.signature_ok(token, b"other-secret")
        else:
            assert header["kid"] == "k1", header
            jwks = c.request("GET", iss + "/jwks").json()
            J.verify_with_jwks(token, jwks)
            assert [k["kid"] for k in jwks["keys"]] == ["k1"] and jwks["keys"][0]["use"] == "sig"
        assert claims["iss"] == iss and claims["aud"] == "demo-app" and claims["sub"] == "alice"
        assert claims["nonce"] == "n-1" and claims["exp"] - claims["iat"] == 300
        assert abs(claims["auth_time"] - time.time()) < 60
    # alg none: unsigned, empty signature; discovery does not list none.
    run = run_name("none")
    iss = iss_of(base, run)
    configure(c, base, run, {"id_token_alg": "none"})
    token = _flow(c, iss)["id_token"]
    assert token.endswith(".") and parts(token)[0] == {"alg": "none", "typ": "JWT"}
    meta = c.request("GET", iss + "/.well-known/openid-configuration").json()
    assert "none" not in meta["id_token_signing_alg_values_supported"]


def t_signed_keys_kid_and_rotation(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("kid")
    iss = iss_of(base, run)
    configure(c, base, run, {"kid": None, "id_token_alg": "ES256"})
    token = _flow(c, iss)["id_token"]
    jwks = c.request("GET", iss + "/jwks").json()
    assert "kid" not in parts(token)[0] and "kid" not in jwks["keys"][0]
    assert jwks["keys"][0]["crv"] == "P-256"
    J.verify_with_jwks(token, jwks)
    # Several keys: the token's kid picks one; extras have their own kids.
    configure(c, base, run, {"jwks_extra": ["p384", {"kind": "ed25519", "kid": "ed", "use": "enc"}, "rsa"],
                             "jwk_members": {"alg": "RS256"}})
    jwks = c.request("GET", iss + "/jwks").json()
    assert [k.get("kid") for k in jwks["keys"]] == ["k1", "p384-extra", "ed", "rsa-extra"]
    assert jwks["keys"][0]["alg"] == "RS256" and jwks["keys"][2]["use"] == "enc"
    J.verify_with_jwks(_flow(c, iss)["id_token"], jwks)
    # Rotation after one fetch: fetch 1 serves k1, then tokens name k2, fetch 2 serves k2.
    run = run_name("rot")
    iss = iss_of(base, run)
    configure(c, base, run, {"jwks_rotate_after": 1, "id_token_alg": "PS256"})
    first = _flow(c, iss)["id_token"]
    assert parts(first)[0]["kid"] == "k1"
    old = c.request("GET", iss + "/jwks").json()
    J.verify_with_jwks(first, old)
    rotated = _flow(c, iss)["id_token"]
    assert parts(rotated)[0]["kid"] == "k2"
    try:
        J.verify_with_jwks(rotated, old)
        raise RuntimeError("rotated token verified with the old key set")
    except AssertionError:
        pass
    new = c.request("GET", iss + "/jwks").json()
    assert [k["kid"] for k in new["keys"]] == ["k2"] and new["keys"][0]["n"] != old["keys"][0]["n"]
    J.verify_with_jwks(rotated, new)
    assert stats_of(c, base, run)["jwks_fetches"] == 2
    # The switch, keeping the old key listed too.
    configure(c, base, run, {"jwks_rotated": True, "jwks_keep_old": True, "rotated_kid": "next"})
    assert [k["kid"] for k in c.request("GET", iss + "/jwks").json()["keys"]] == ["next", "k1"]
    assert parts(_flow(c, iss)["id_token"])[0]["kid"] == "next"
    # RSA 1024.
    configure(c, base, run, {"signing_key": "rsa1024"})
    jwks = c.request("GET", iss + "/jwks").json()
    assert len(J.unb64u(jwks["keys"][0]["n"])) == 128
    J.verify_with_jwks(_flow(c, iss)["id_token"], jwks)


def t_signed_jwks_faults(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("jwksf")
    iss = iss_of(base, run)
    for fault, check in (
            ("500", lambda r: r.status == 500),
            ("404", lambda r: r.status == 404),
            ("not-json", lambda r: r.status == 200 and r.text.startswith("<html>")),
            ("not-keyset", lambda r: "keys" not in r.json()),
            ("keys-not-array", lambda r: isinstance(r.json()["keys"], dict)),
            ("array", lambda r: isinstance(r.json(), list) and r.json()[0]["kid"] == "k1"),
            ("empty", lambda r: r.json() == {"keys": []})):
        configure(c, base, run, {"jwks_fault": fault})
        assert check(c.request("GET", iss + "/jwks")), fault
    configure(c, base, run, {"jwks_fault": "slow", "jwks_delay": 0.2})
    assert c.request("GET", iss + "/jwks").json()["keys"][0]["kid"] == "k1"
    assert stats_of(c, base, run)["jwks_fetches"] == 8


CLAIM_CHECKS = {
    "iss": lambda c, x: c["iss"] == "https://evil.example",
    "aud": lambda c, x: c["aud"] == "other-client",
    "aud-array": lambda c, x: c["aud"] == ["demo-app"],
    "aud-extra": lambda c, x: c["aud"] == ["demo-app", "other-audience"] and "azp" not in c,
    "aud-extra-azp": lambda c, x: c["aud"][1] == "other-audience" and c["azp"] == "demo-app",
    "azp": lambda c, x: c["azp"] == "other-client",
    "exp-past": lambda c, x: c["exp"] < time.time() - 3000,
    "exp-string": lambda c, x: isinstance(c["exp"], str),
    "iat-future": lambda c, x: c["iat"] > time.time() + 3000,
    "iat-missing": lambda c, x: "iat" not in c,
    "nbf-future": lambda c, x: c["nbf"] > time.time() + 3000,
    "sub-missing": lambda c, x: "sub" not in c,
    "sub-empty": lambda c, x: c["sub"] == "",
    "nonce-wrong": lambda c, x: c["nonce"].startswith("wrong-"),
    "nonce-missing": lambda c, x: "nonce" not in c,
    "auth-time-missing": lambda c, x: "auth_time" not in c,
    "auth-time-old": lambda c, x: c["auth_time"] < time.time() - 3600 - 120,
}


def t_signed_id_token_faults(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("idf")
    iss = iss_of(base, run)
    jwks = c.request("GET", iss + "/jwks").json()
    for fault, check in CLAIM_CHECKS.items():
        configure(c, base, run, {"id_token_faults": [fault]})
        token = _flow(c, iss, max_age="120")["id_token"]
        _, claims = J.verify_with_jwks(token, jwks)  # the signature stays valid
        assert check(claims, None), (fault, claims)
    configure(c, base, run, {"id_token_faults": ["payload-array"]})
    token = _flow(c, iss)["id_token"]
    assert parts(token)[1] == [1, 2] and J.verify_with_jwks(token, jwks)
    # Signature faults: nothing in the JWKS verifies them.
    for fault in ("signature", "signature-empty", "sig-other-key", "header-jku", "header-x5u",
                  "header-jwk", "alg-confusion", "alg-none"):
        configure(c, base, run, {"id_token_faults": [fault]})
        token = _flow(c, iss)["id_token"]
        header = parts(token)[0]
        key = J._public_from_jwk(jwks["keys"][0])
        assert not J.signature_ok(token, key), fault
        if fault == "sig-other-key":
            assert header["kid"] == "k1"
        if fault == "header-jku":
            assert header["jku"] == iss + "/attacker-jwks"
            J.verify_with_jwks(token, c.request("GET", header["jku"]).json())  # the forgery is real
        if fault == "header-jwk":
            assert J.signature_ok(token, J._public_from_jwk(header["jwk"]))
        if fault == "header-x5u":
            from cryptography import x509
            cert = x509.load_pem_x509_certificate(c.request("GET", header["x5u"]).body)
            assert J.signature_ok(token, cert.public_key())
        if fault == "alg-confusion":
            from cryptography.hazmat.primitives import serialization
            pem = key.public_bytes(serialization.Encoding.PEM,
                                   serialization.PublicFormat.SubjectPublicKeyInfo)
            assert header["alg"] == "HS256" and J.signature_ok(token, pem)
        if fault == "alg-none":
            assert header["alg"] == "none" and token.endswith(".")
    configure(c, base, run, {"id_token_faults": ["kid-unknown"]})  # the right key, another kid
    token = _flow(c, iss)["id_token"]
    assert parts(token)[0]["kid"] == "unknown-kid"
    assert J.signature_ok(token, J._public_from_jwk(jwks["keys"][0]))
    configure(c, base, run, {"id_token_faults": ["header-crit"]})
    token = _flow(c, iss)["id_token"]
    header = parts(token)[0]
    assert header["crit"] == ["urn:fixture:unknown-extension"]
    assert J.signature_ok(token, J._public_from_jwk(jwks["keys"][0]))
    # A forged x5u for an Ed25519 key, and a jku for a JARM key of another kind.
    from cryptography import x509
    configure(c, base, run, {"id_token_alg": "EdDSA", "id_token_faults": ["header-x5u"]})
    token = _flow(c, iss)["id_token"]
    cert = x509.load_pem_x509_certificate(c.request("GET", parts(token)[0]["x5u"]).body)
    assert J.signature_ok(token, cert.public_key())
    configure(c, base, run, {"jarm_alg": "ES512", "jarm_faults": ["header-jku"]})
    token = answer(authorize(c, iss, response_mode="jwt"))["response"]
    assert parts(token)[0]["jku"] == iss + "/attacker-jwks?kind=p521"
    J.verify_with_jwks(token, c.request("GET", parts(token)[0]["jku"]).json())
    configure(c, base, run, {"id_token_faults": ["header-no-kid", "aud-array"]})
    token = _flow(c, iss)["id_token"]
    assert "kid" not in parts(token)[0] and parts(token)[1]["aud"] == ["demo-app"]
    assert J.signature_ok(token, J._public_from_jwk(jwks["keys"][0]))


def t_signed_token_shapes(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("shape")
    iss = iss_of(base, run)
    configure(c, base, run, {"token_type": "bearer", "expires_in": None})
    body = _flow(c, iss)
    assert body["token_type"] == "bearer" and "expires_in" not in body
    configure(c, base, run, {"token_type": "BEARER", "access_token_format": "jwt"})
    body = _flow(c, iss, scope="email")
    assert body["token_type"] == "BEARER" and "id_token" not in body
    header, claims = J.verify_with_jwks(body["access_token"], c.request("GET", iss + "/jwks").json())
    assert header["typ"] == "at+jwt" and claims["client_id"] == "demo-app" and "cnf" not in claims
    assert claims["aud"] == iss + "/resource" and claims["scope"] == "email"


def t_signed_jarm(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("jarm")
    iss = iss_of(base, run)
    configure(c, base, run, {"id_token_alg": "ES384"})
    jwks = c.request("GET", iss + "/jwks").json()
    for mode, where in (("jwt", "query"), ("query.jwt", "query"), ("fragment.jwt", "fragment"),
                        ("form_post.jwt", "form")):
        r = authorize(c, iss, response_mode=mode)
        a = answer(r)
        assert list(a) == ["response"], (mode, a)
        if where == "form":
            assert r.status == 200 and 'action="' + iss + '/cb"' in r.text
        else:
            assert ("#response=" in r.location) == (where == "fragment"), r.location
        header, claims = J.verify_with_jwks(a["response"], jwks)
        assert header["alg"] == "ES384" and claims["iss"] == iss and claims["aud"] == "demo-app"
        assert claims["state"] == "st-1" and claims["exp"] - time.time() > 500
        assert basic_redeem(c, iss, claims["code"]).status == 200
    configure(c, base, run, {"jarm_alg": "EdDSA", "id_token_alg": "RS256"})
    jwks = c.request("GET", iss + "/jwks").json()
    assert {k["kty"] for k in jwks["keys"]} == {"RSA", "OKP"}
    _, claims = J.verify_with_jwks(answer(authorize(c, iss, response_mode="jwt"))["response"], jwks)
    r = authorize(c, iss, response_mode="jwt", username="alice", password="bad")
    _, claims = J.verify_with_jwks(answer(r)["response"], jwks)
    assert claims["error"] == "access_denied" and "code" not in claims and claims["state"] == "st-1"
    for fault, check in (("iss", lambda h, cl: cl["iss"] == "https://evil.example"),
                         ("aud", lambda h, cl: cl["aud"] == "other-client"),
                         ("exp-past", lambda h, cl: cl["exp"] < time.time()),
                         ("alg-none", lambda h, cl: h["alg"] == "none"),
                         ("signature", lambda h, cl: True)):
        configure(c, base, run, {"jarm_faults": [fault], "jarm_alg": "EdDSA"})
        token = answer(authorize(c, iss, response_mode="query.jwt"))["response"]
        header, claims, _ = parts(token)
        assert check(header, claims), fault
        valid = any(J.signature_ok(token, J._public_from_jwk(k)) for k in jwks["keys"])
        assert valid == (fault not in ("alg-none", "signature")), fault
    r = authorize(c, iss, response_mode="jwt.bogus")
    assert answer(r)["error"] == "invalid_request"


def t_signed_userinfo(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("ui")
    iss = iss_of(base, run)
    body = _flow(c, iss, sub="bob")
    at = body["access_token"]
    r = c.request("GET", iss + "/userinfo", headers={"Authorization": "Bearer " + at})
    assert r.status == 200 and r.json()["sub"] == "bob" and r.json()["email"] == "bob@example.com"
    r = c.request("POST", iss + "/userinfo", form={"access_token": at})
    assert r.status == 200 and r.json()["sub"] == "bob"
    r = c.request("GET", iss + "/userinfo")
    assert r.status == 401 and r.header_all("WWW-Authenticate")[0].startswith("Bearer error=")
    r = c.request("GET", iss + "/userinfo", headers={"Authorization": "Bearer at-unknown"})
    assert r.status == 401 and r.json()["error_description"] == "unknown or expired access token"
    configure(c, base, run, {"userinfo_faults": ["sub-mismatch"]})
    assert c.request("GET", iss + "/userinfo", headers={"Authorization": "Bearer " + at}).json()["sub"] == "mallory"
    configure(c, base, run, {"userinfo_signed": True, "userinfo_alg": "PS384"})
    r = c.request("GET", iss + "/userinfo", headers={"Authorization": "Bearer " + at})
    assert r.header_all("Content-Type") == ["application/jwt"]
    header, claims = J.verify_with_jwks(r.text, c.request("GET", iss + "/jwks").json())
    assert header["alg"] == "PS384" and claims["sub"] == "bob" and claims["iss"] == iss
    assert claims["aud"] == "demo-app"
    configure(c, base, run, {"userinfo_signed": True, "userinfo_faults": ["signature", "sub-mismatch"]})
    r = c.request("GET", iss + "/userinfo", headers={"Authorization": "Bearer " + at})
    assert parts(r.text)[1]["sub"] == "mallory"
    assert not any(J.signature_ok(r.text, J._public_from_jwk(k))
                   for k in c.request("GET", iss + "/jwks").json()["keys"])
    assert stats_of(c, base, run)["userinfo_requests"] == 7
    hit = [h for h in J.hits_of(c, base, run) if h["path"].endswith("/userinfo")][0]
    assert hit["decoded"]["access_token"] == {"scheme": "bearer", "known": True}


def t_signed_refresh_id_token(base):
    if skip_without_crypto():
        return
    c = Client(base)
    run = run_name("rid")
    iss = iss_of(base, run)
    first = _flow(c, iss)
    original = parts(first["id_token"])[1]

    def refreshed(kind):
        configure(c, base, run, {"refresh_id_token": kind})
        r = c.request("POST", iss + "/token", form={"grant_type": "refresh_token",
                                                    "refresh_token": first["refresh_token"]}, headers=BASIC)
        assert r.status == 200, r.text
        return r.json()
    same = parts(refreshed("same")["id_token"])[1]
    assert "nonce" not in same and all(same[k] == original[k] for k in ("iss", "sub", "aud", "auth_time"))
    assert "id_token" not in refreshed("none")
    assert parts(refreshed("other-sub")["id_token"])[1]["sub"] == "mallory"
    assert parts(refreshed("other-iss")["id_token"])[1]["iss"] == "https://other-issuer.example"
    assert parts(refreshed("other-aud")["id_token"])[1]["aud"] == "other-client"
    assert parts(refreshed("auth-time-changed")["id_token"])[1]["auth_time"] == original["auth_time"] - 60
    J.verify_with_jwks(refreshed("other-iss")["id_token"], c.request("GET", iss + "/jwks").json())
