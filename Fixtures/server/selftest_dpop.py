"""selftest: DPoP (RFC 9449) at token, PAR, userinfo and the resource
endpoint; the FAPI 2.0 scenario end to end; tls_client_auth over mTLS (a
server of its own with --tls-client-optional); the signing scenarios
without `cryptography` (a server whose import of it fails).
"""
import datetime
import http.client
import ipaddress
import json
import os
import ssl
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlencode, urlsplit

import selftest_jose_support as J
from selftest_jose_support import (BASIC, HAVE_CRYPTO, answer, authz_params, basic_redeem,
                                   code_of, configure, hits_of, iss_of, parts, run_name)
from selftest_jose_support import expect_oauth_error, skip_without_crypto
from selftest_support import Client

HERE = os.path.dirname(os.path.abspath(__file__))


def _api(c, url, token, key, alg="ES256", method="GET", nonce=None, scheme="DPoP", **proof):
    headers = {"Authorization": f"{scheme} {token}"}
    if key is not None:
        headers["DPoP"] = J.dpop_proof(key, alg, proof.pop("htm", method), proof.pop("htu", url), nonce=nonce,
                                       token=proof.pop("ath_token", token), **proof)
    return c.request(method, url, headers=headers)


def t_dpop_token_and_resource(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("dpop")
    iss = iss_of(base, run)
    configure(c, base, run, {"access_token_format": "jwt"})
    key, other = J.new_key("p256"), J.new_key("p256")
    jkt = J.thumbprint(J.jwk_of(key))
    r = basic_redeem(c, iss, code_of(c, iss), {"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token")})
    body = r.json()
    assert r.status == 200 and body["token_type"] == "DPoP", r.text
    assert parts(body["access_token"])[1]["cnf"] == {"jkt": jkt}
    assert hits_of(c, base, run)[-1]["decoded"]["dpop"]["jkt"] == jkt
    at, res = body["access_token"], iss + "/resource"
    r = _api(c, res, at, key)
    assert r.status == 200 and r.json()["token_type"] == "DPoP" and r.json()["cnf"] == {"jkt": jkt}
    assert _api(c, res, at, key, method="POST").json()["method"] == "POST"
    u = urlsplit(iss)
    assert _api(c, res, at, key, htu=f"HTTP://{u.netloc}/./{u.path[1:]}/%72esource").status == 200
    assert _api(c, iss + "/userinfo", at, key).json()["sub"] == "alice"

    def refused(r, error, description):
        assert r.status == 401 and r.json() == {"error": error, "error_description": description}, r.text
        challenge = r.header_all("WWW-Authenticate")[0]
        assert challenge.startswith('DPoP algs="RS256') and f'error="{error}"' in challenge, challenge
    refused(_api(c, res, at, None, scheme="Bearer"), "invalid_token",
            "DPoP-bound access token sent as a Bearer token")
    refused(_api(c, res, at, None), "invalid_dpop_proof", "DPoP proof required")
    refused(_api(c, res, at, key, ath_token="other"), "invalid_dpop_proof",
            "DPoP proof ath does not match the access token")
    refused(_api(c, res, at, key, htu=res + "?x=1"), "invalid_dpop_proof",
            "DPoP proof htu does not match the request URL")
    refused(_api(c, res, at, key, htu=iss + "/token"), "invalid_dpop_proof",
            "DPoP proof htu does not match the request URL")
    refused(_api(c, res, at, key, htm="POST"), "invalid_dpop_proof",
            "DPoP proof htm does not match the request method")
    refused(_api(c, res, at, key, iat=int(time.time()) - 60), "invalid_dpop_proof",
            "DPoP proof iat is missing or outside the accepted window (10 s)")
    refused(_api(c, res, at, key, header={"typ": "JWT"}), "invalid_dpop_proof", "DPoP proof typ must be dpop+jwt")
    refused(_api(c, res, at, key, header={"jwk": {**J.jwk_of(key), "d": "AAAA"}}), "invalid_dpop_proof",
            "DPoP proof jwk holds private key members")
    refused(_api(c, res, at, key, header={"jwk": J.jwk_of(other)}), "invalid_dpop_proof",
            "DPoP proof signature does not verify")
    refused(_api(c, res, at, other), "invalid_dpop_proof",
            "DPoP proof key does not match the access token binding")
    refused(_api(c, res, at, key, jti=None), "invalid_dpop_proof", "DPoP proof jti is missing")
    hs = J.jws("HS256", b"k", {"htm": "GET"}, typ="dpop+jwt", jwk=J.jwk_of(key))
    r = c.request("GET", res, headers={"Authorization": "DPoP " + at, "DPoP": hs})
    refused(r, "invalid_dpop_proof", "DPoP proof alg HS256 is not accepted")
    proof = J.dpop_proof(key, "ES256", "GET", res, token=at)
    assert c.request("GET", res, headers={"Authorization": "DPoP " + at, "DPoP": proof}).status == 200
    r = c.request("GET", res, headers={"Authorization": "DPoP " + at, "DPoP": proof})
    refused(r, "invalid_dpop_proof", "DPoP proof jti was used before")
    # An unbound token sent with the DPoP scheme; a bound code (dpop_jkt).
    plain = basic_redeem(c, iss, code_of(c, iss)).json()["access_token"]
    refused(_api(c, res, plain, key), "invalid_token", "access token is not DPoP-bound")
    assert _api(c, res, plain, None, scheme="Bearer").status == 200
    code = code_of(c, iss, dpop_jkt=J.thumbprint(J.jwk_of(other)))
    expect_oauth_error(basic_redeem(c, iss, code, {"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token")}),
           400, "invalid_grant", "DPoP proof key does not match the dpop_jkt of the authorization request")
    expect_oauth_error(basic_redeem(c, iss, code_of(c, iss), {"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/par")}),
           400, "invalid_dpop_proof", "DPoP proof htu does not match the request URL")
    for kind, alg in (("rsa", "PS256"), ("ed25519", "EdDSA"), ("p384", "ES384"), ("rsa", "RS256")):
        k = J.new_key(kind)
        r = basic_redeem(c, iss, code_of(c, iss), {"DPoP": J.dpop_proof(k, alg, "POST", iss + "/token")})
        assert r.status == 200 and r.json()["token_type"] == "DPoP", (alg, r.text)
        assert _api(c, res, r.json()["access_token"], k, alg).status == 200, alg


def t_dpop_nonce_refresh_and_par(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("nonce")
    iss = iss_of(base, run)
    configure(c, base, run, {"dpop_nonce": ["par", "token", "resource"], "dpop_required": True})
    key = J.new_key("p256")
    expect_oauth_error(basic_redeem(c, iss, code_of(c, iss)), 400, "invalid_request", "DPoP proof required")
    code = code_of(c, iss, client_id="public-app")
    form = J.code_form(iss, code, client_id="public-app")
    r = c.request("POST", iss + "/token", form=form,
                  headers={"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token")})
    expect_oauth_error(r, 400, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
    nonce = r.header_all("DPoP-Nonce")[0]
    r = c.request("POST", iss + "/token", form=form,
                  headers={"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token", nonce="bogus")})
    expect_oauth_error(r, 400, "use_dpop_nonce", "DPoP proof nonce is not one this server issued")
    r = c.request("POST", iss + "/token", form=form,
                  headers={"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token", nonce=nonce)})
    assert r.status == 200 and r.header_all("DPoP-Nonce") == [nonce], r.text
    body = r.json()
    res = iss + "/resource"
    r = _api(c, res, body["access_token"], key)
    assert r.status == 401 and r.header_all("DPoP-Nonce") == [nonce]
    assert 'error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"' in \
        r.header_all("WWW-Authenticate")[0]
    assert _api(c, res, body["access_token"], key, nonce=nonce).status == 200
    # A public client's refresh token is bound to the DPoP key.
    refresh = {"grant_type": "refresh_token", "refresh_token": body["refresh_token"], "client_id": "public-app"}
    r = c.request("POST", iss + "/token", form=refresh,
                  headers={"DPoP": J.dpop_proof(J.new_key("p256"), "ES256", "POST", iss + "/token", nonce=nonce)})
    expect_oauth_error(r, 400, "invalid_grant", "refresh token is bound to another DPoP key")
    r = c.request("POST", iss + "/token", form=refresh,
                  headers={"DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/token", nonce=nonce)})
    assert r.status == 200 and r.json()["token_type"] == "DPoP"
    # PAR: nonce challenge, then dpop_jkt checked against the proof key and bound to the code.
    par = {**authz_params(iss)}
    r = c.request("POST", iss + "/par", form=par, headers={**BASIC, "DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/par")})
    expect_oauth_error(r, 400, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
    other = J.new_key("p256")
    r = c.request("POST", iss + "/par", form={**par, "dpop_jkt": J.thumbprint(J.jwk_of(other))},
                  headers={**BASIC, "DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/par", nonce=nonce)})
    expect_oauth_error(r, 400, "invalid_request", "dpop_jkt does not match the DPoP proof key")
    r = c.request("POST", iss + "/par", form=par,
                  headers={**BASIC, "DPoP": J.dpop_proof(key, "ES256", "POST", iss + "/par", nonce=nonce)})
    assert r.status == 201 and r.header_all("DPoP-Nonce") == [nonce]
    a = answer(c.request("GET", iss + "/authorize?" + urlencode({"client_id": "demo-app",
                                                                 "request_uri": r.json()["request_uri"]})))
    r = basic_redeem(c, iss, a["code"], {"DPoP": J.dpop_proof(other, "ES256", "POST", iss + "/token", nonce=nonce)})
    expect_oauth_error(r, 400, "invalid_grant", "DPoP proof key does not match the dpop_jkt of the authorization request")


def t_fapi2_flow(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("fapi2")
    iss = iss_of(base, run, "fapi2")
    ckey, dkey = J.new_key("p256"), J.new_key("ed25519")
    configure(c, base, run, {"client_jwks": {"keys": [J.jwk_of(ckey, kid="fapi-client")]}})

    def auth():
        return J.assertion_form(ckey, "ES256", "demo-app", iss, kid="fapi-client")

    def proof(url, nonce=None, token=None, method="POST"):
        return J.dpop_proof(dkey, "EdDSA", method, url, nonce=nonce, token=token)
    par = {**authz_params(iss)}
    r = c.request("POST", iss + "/par", form={**par, **auth()}, headers={"DPoP": proof(iss + "/par")})
    expect_oauth_error(r, 400, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
    nonce = r.header_all("DPoP-Nonce")[0]
    r = c.request("POST", iss + "/par", form={**par, **auth()}, headers={"DPoP": proof(iss + "/par", nonce)})
    assert r.status == 201, r.text
    a = answer(c.request("GET", iss + "/authorize?" + urlencode({"client_id": "demo-app",
                                                                 "request_uri": r.json()["request_uri"]})))
    assert a["iss"] == iss and a["state"] == "st-1"
    form = {**J.code_form(iss, a["code"]), **auth()}
    r = c.request("POST", iss + "/token", form=form, headers={"DPoP": proof(iss + "/token")})
    expect_oauth_error(r, 400, "use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
    r = c.request("POST", iss + "/token", form={**form, **auth()}, headers={"DPoP": proof(iss + "/token", nonce)})
    body = r.json()
    assert r.status == 200 and body["token_type"] == "DPoP", r.text
    header, claims = J.verify_with_jwks(body["id_token"], c.request("GET", iss + "/jwks").json())
    assert header["alg"] == "PS256" and claims["nonce"] == "n-1"
    res = iss + "/resource"
    r = c.request("GET", res, headers={"Authorization": "DPoP " + body["access_token"],
                                       "DPoP": proof(res, token=body["access_token"], method="GET")})
    assert r.status == 401 and r.header_all("DPoP-Nonce") == [nonce]
    r = c.request("GET", res, headers={"Authorization": "DPoP " + body["access_token"],
                                       "DPoP": proof(res, nonce, body["access_token"], "GET")})
    assert r.status == 200 and r.json()["sub"] == "alice", r.text
    # What the profile refuses.
    assert answer(J.authorize(c, iss))["error_description"] == "pushed authorization request required"
    def ok_proof():
        return {"DPoP": proof(iss + "/par", nonce)}
    for extra, headers, expected in (
            ({}, lambda: {**BASIC, **ok_proof()}, (401, "invalid_client",
                                                 "client authentication method client_secret_basic is not allowed here")),
            (J.assertion_form(ckey, "ES256", "demo-app", iss + "/par", kid="fapi-client"), ok_proof,
             (401, "invalid_client", f"client_assertion aud is not accepted here (accepted: {iss})")),
            (J.assertion_form(b"demo-secret", "HS256", "demo-app", iss), ok_proof,
             (401, "invalid_client", "client authentication method client_secret_jwt is not allowed here")),
            ({**auth(), "code_challenge_method": "plain"}, ok_proof,
             (400, "invalid_request", "code_challenge_method plain is not allowed")),
            ({**auth(), "code_challenge": None, "code_challenge_method": None}, ok_proof,
             (400, "invalid_request", "code_challenge is required")),
            (auth(), lambda: {"DPoP": J.dpop_proof(J.new_key("rsa"), "RS256", "POST", iss + "/par", nonce=nonce)},
             (400, "invalid_dpop_proof", "DPoP proof alg RS256 is not accepted"))):
        form = {k: v for k, v in {**par, **extra}.items() if v is not None}
        r = c.request("POST", iss + "/par", form=form, headers=headers())
        expect_oauth_error(r, *expected)
    r = c.request("POST", iss + "/token", form={**J.code_form(iss, "code-x"), **auth()})
    expect_oauth_error(r, 400, "invalid_request", "DPoP proof required")
    for alg in ("ES256", "EdDSA"):
        configure(c, base, run, {"client_jwks": J.jwk_of(ckey, kid="fapi-client"), "id_token_alg": alg,
                                 "dpop_nonce": []})
        r = c.request("POST", iss + "/par", form={**par, **auth()})
        a = answer(c.request("GET", iss + "/authorize?" + urlencode(
            {"client_id": "demo-app", "request_uri": r.json()["request_uri"]})))
        r = c.request("POST", iss + "/token", form={**J.code_form(iss, a["code"]), **auth()},
                      headers={"DPoP": proof(iss + "/token")})
        header, _ = J.verify_with_jwks(r.json()["id_token"], c.request("GET", iss + "/jwks").json())
        assert header["alg"] == alg


# ---- mTLS: a TLS server of its own ------------------------------------------------------

def _pki(directory):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    now = datetime.datetime.now(datetime.timezone.utc)

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def write(stem, key, cert):
        with open(os.path.join(directory, stem + ".key"), "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
        with open(os.path.join(directory, stem + ".pem"), "wb") as f:
            f.write(cert.public_bytes(serialization.Encoding.PEM))
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("selftest CA")).issuer_name(name("selftest CA"))
          .public_key(ca_key.public_key()).serial_number(1).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    write("ca", ca_key, ca)
    for stem, cn, usage, san in (("server", "127.0.0.1", ExtendedKeyUsageOID.SERVER_AUTH,
                                  x509.IPAddress(ipaddress.IPv4Address("127.0.0.1"))),
                                 ("alice", "alice", ExtendedKeyUsageOID.CLIENT_AUTH, x509.DNSName("alice.client")),
                                 ("bob", "bob", ExtendedKeyUsageOID.CLIENT_AUTH, x509.DNSName("bob.client"))):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (x509.CertificateBuilder().subject_name(name(cn)).issuer_name(ca.subject)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
                .add_extension(x509.SubjectAlternativeName([san]), critical=False)
                .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
                .sign(ca_key, hashes.SHA256()))
        write(stem, key, cert)


def _start(args, env=None):
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fixture_server.py"), "--watch-stdin", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline().split()
    assert line and line[0] == "READY", line
    return proc, line[1]


def _stop(proc):
    proc.stdin.close()
    proc.wait(timeout=10)


def _https(url, method="GET", cert=None, form=None, json_body=None, headers=None, pki=None):
    ctx = ssl.create_default_context(cafile=os.path.join(pki, "ca.pem"))
    if cert:
        ctx.load_cert_chain(os.path.join(pki, cert + ".pem"), os.path.join(pki, cert + ".key"))
    u = urlsplit(url)
    conn = http.client.HTTPSConnection(u.hostname, u.port, context=ctx, timeout=10)
    headers, body = dict(headers or {}), None
    if form is not None:
        body, headers["Content-Type"] = urlencode(form), "application/x-www-form-urlencoded"
    elif json_body is not None:
        body, headers["Content-Type"] = json.dumps(json_body), "application/json"
    conn.request(method, u.path + ("?" + u.query if u.query else ""), body, headers)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), data


def t_mtls_tls_client_auth(base):
    if skip_without_crypto():
        return
    with tempfile.TemporaryDirectory() as pki:
        _pki(pki)
        proc, tls_base = _start(["--tls-cert", f"{pki}/server.pem", "--tls-key", f"{pki}/server.key",
                                 "--tls-client-ca", f"{pki}/ca.pem", "--tls-client-optional"])
        try:
            _mtls_checks(tls_base, pki)
        finally:
            _stop(proc)


def _mtls_checks(tls_base, pki):
    import hashlib
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding
    run = run_name("mtls")
    iss = iss_of(tls_base, run)
    status, _, _ = _https(f"{tls_base}/_config/{run}", "POST", pki=pki, json_body={
        "tls_client_auth": {"demo-app": "CN=alice"}, "mtls_endpoint_aliases": True})
    assert status == 200
    _, _, meta = _https(iss + "/.well-known/openid-configuration", pki=pki)
    aliases = json.loads(meta)["mtls_endpoint_aliases"]
    assert aliases["token_endpoint"] == iss + "/mtls/token" and aliases["resource_endpoint"] == iss + "/mtls/resource"

    def code():
        _, headers, _ = _https(iss + "/authorize?" + urlencode(authz_params(iss)), pki=pki)
        return dict(p.split("=", 1) for p in urlsplit(headers["Location"]).query.split("&"))["code"]
    form = J.code_form(iss, code(), client_id="demo-app")
    status, _, body = _https(iss + "/mtls/token", "POST", cert="alice", form=form, pki=pki)
    assert status == 200, body
    token = json.loads(body)
    assert token["token_type"] == "Bearer"
    der = x509.load_pem_x509_certificate(open(f"{pki}/alice.pem", "rb").read()).public_bytes(Encoding.DER)
    x5t = J.b64u(hashlib.sha256(der).digest())
    auth = {"Authorization": "Bearer " + token["access_token"]}
    status, _, body = _https(iss + "/mtls/resource", cert="alice", headers=auth, pki=pki)
    assert status == 200 and json.loads(body)["cnf"] == {"x5t#S256": x5t}, body
    status, _, body = _https(iss + "/resource", headers=auth, pki=pki)
    assert status == 401 and json.loads(body)["error_description"] == \
        "access token is bound to another client certificate"
    status, _, body = _https(iss + "/resource", cert="bob", headers=auth, pki=pki)
    assert status == 401
    status, _, body = _https(iss + "/mtls/token", "POST", form=J.code_form(iss, code(), client_id="demo-app"), pki=pki)
    assert status == 401 and json.loads(body)["error_description"] == "no client certificate on this connection"
    status, _, body = _https(iss + "/mtls/token", "POST", cert="bob", pki=pki,
                             form=J.code_form(iss, code(), client_id="demo-app"))
    assert status == 401 and json.loads(body) == {
        "error": "invalid_client",
        "error_description": "tls_client_auth: the certificate subject does not match the registered DN"}
    status, _, body = _https(iss + "/token", "POST", pki=pki, form=J.code_form(iss, code(), client_id="demo-app"))
    assert status == 401 and json.loads(body)["error_description"] == \
        "tls_client_auth: no client certificate on this connection"
    # Clients without a certificate still work on this server (Basic auth).
    status, _, _ = _https(iss + "/token", "POST", pki=pki, headers=BASIC,
                          form=J.code_form(iss, code()))
    assert status == 200


def t_signed_without_cryptography(base):
    """The server starts and serves everything else when `cryptography`
    cannot be imported; the signing scenarios answer 501."""
    with tempfile.TemporaryDirectory() as shadow:
        os.mkdir(os.path.join(shadow, "cryptography"))
        with open(os.path.join(shadow, "cryptography", "__init__.py"), "w") as f:
            f.write('raise ImportError("cryptography hidden by the selftest")\n')
        env = {**os.environ, "PYTHONPATH": shadow}
        proc, plain = _start([], env)
        try:
            c = Client(plain)
            iss = f"{plain}/t/{run_name('nocrypto')}/signed"
            r = c.request("GET", iss + "/authorize?" + urlencode(authz_params(iss)))
            assert r.status == 501 and r.text == "cryptography not installed\n", (r.status, r.text)
            assert c.request("GET", iss + "/jwks").status == 501
            d = iss.replace("/signed", "/direct")
            r = c.request("GET", d + "/authorize?" + urlencode(authz_params(d)))
            assert r.status == 302 and "code=" in r.location
        finally:
            _stop(proc)
