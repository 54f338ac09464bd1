"""selftest: the signing scenarios, client profile side: private_key_jwt and
client_secret_jwt, PAR, request objects, resource indicators and RAR.

The client's assertions and request objects are signed here with
`cryptography` (selftest_jose_support) and verified by the server.
"""
import json
import time
from urllib.parse import urlencode

import selftest_jose_support as J
from selftest_jose_support import (BASIC, HAVE_CRYPTO, answer, authz_params, code_form, code_of,
                                   configure, hits_of, iss_of, parts, run_name, stats_of,
                                   token_request)
from selftest_jose_support import expect_oauth_error, skip_without_crypto
from selftest_support import Client


def t_private_key_jwt(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("pkjwt")
    iss = iss_of(base, run)
    keys = {"c1": (J.new_key("p256"), "ES256"), "c2": (J.new_key("rsa"), "PS256"),
            "c3": (J.new_key("ed25519"), "EdDSA"), "c4": (J.new_key("p384"), "ES384")}
    jwks = {"keys": [J.jwk_of(k, kid=kid) for kid, (k, _) in keys.items()]}
    cfg = {"client_jwks": jwks}
    configure(c, base, run, cfg)
    key, alg = keys["c1"]

    def redeem(form, headers=None):
        return token_request(c, iss, {**code_form(iss, code_of(c, iss)), **form}, headers)

    def signed(aud=iss, kid="c1", k=key, a=alg, **kw):
        return J.assertion_form(k, a, "demo-app", aud, kid=kid, **kw)
    r = redeem(signed())
    assert r.status == 200, r.text
    hit = [h for h in hits_of(c, base, run) if h["path"].endswith("/token")][-1]
    decoded = hit["decoded"]
    assert decoded["client_auth"] == {"client_id": "demo-app", "method": "private_key_jwt"}
    assert decoded["client_assertion"]["header"] == {"alg": "ES256", "kid": "c1"}
    assert decoded["client_assertion"]["claims"]["aud"] == iss
    for kid, (k, a) in keys.items():
        assert redeem(signed(kid=kid, k=k, a=a)).status == 200, kid
    assert redeem(signed(kid=None)).status == 200  # no kid: every key is tried
    refresh = r.json()["refresh_token"]
    r = token_request(c, iss, {"grant_type": "refresh_token", "refresh_token": refresh, **signed()})
    assert r.status == 200 and r.json()["refresh_token"] == refresh
    form = signed()
    assert redeem(form).status == 200
    expect_oauth_error(redeem(form), 401, "invalid_client", "client_assertion jti was used before")
    assert redeem(signed(aud=iss + "/token")).status == 200
    accepted = f"(accepted: {iss}, {iss}/token)"
    expect_oauth_error(redeem(signed(aud="https://elsewhere.example")), 401, "invalid_client",
           "client_assertion aud is not accepted here " + accepted)
    assert redeem(signed(aud=[iss, "x"])).status == 200
    now = int(time.time())
    for claims, description in (
            ({"exp": now - 100, "iat": now - 160}, "client_assertion has expired"),
            ({"exp": now + 3600}, "client_assertion lives longer than 300 s"),
            ({"exp": None}, "client_assertion exp is missing or not a number"),
            ({"iat": now + 600, "exp": now + 660}, "client_assertion iat is not a number or is in the future"),
            ({"nbf": now + 600}, "client_assertion is not valid yet (nbf)"),
            ({"sub": "other"}, "client_assertion iss and sub must both be the client_id"),
            ({"jti": None}, "client_assertion jti is missing")):
        expect_oauth_error(redeem(signed(**claims)), 401, "invalid_client", description)
    expect_oauth_error(redeem({**signed(), "client_assertion_type": "jwt"}), 401, "invalid_client",
           "client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    expect_oauth_error(redeem(signed(k=J.new_key("p256"))), 401, "invalid_client",
           "client_assertion: signature does not verify")
    expect_oauth_error(redeem(signed(kid="zz")), 401, "invalid_client", "client_assertion: no registered key has kid zz")
    expect_oauth_error(redeem(signed(kid="c2")), 401, "invalid_client", "client_assertion: no registered key fits alg ES256")
    unsigned = J.b64u(b'{"alg":"none"}') + "." + J.b64u(json.dumps({"iss": "demo-app", "sub": "demo-app"}).encode()) + "."
    expect_oauth_error(redeem({**signed(), "client_assertion": unsigned}), 401, "invalid_client",
           "client_assertion: alg none is not accepted")
    expect_oauth_error(redeem({**signed(), "client_assertion": "a.b"}), 401, "invalid_client",
           "client_assertion: not a compact JWS (three base64url parts)")
    expect_oauth_error(redeem({**signed(), "client_id": "public-app"}), 401, "invalid_client",
           "client_id differs from the client_assertion iss")
    expect_oauth_error(redeem(signed(), BASIC), 400, "invalid_request", "more than one client authentication method")
    assert redeem(J.assertion_form(key, alg, "demo-app", iss, "c1", with_client_id=False)).status == 200
    # client_secret_jwt: HS256 keyed with the secret.
    r = redeem(signed(k=b"demo-secret", a="HS256", kid=None))
    assert r.status == 200
    expect_oauth_error(redeem(signed(k=b"wrong", a="HS256", kid=None)), 401, "invalid_client",
           "client_assertion: signature does not verify")
    for extra, form, expected in (
            ({"assertion_aud": ["issuer"]}, signed(aud=iss + "/token"),
             (401, "invalid_client", f"client_assertion aud is not accepted here (accepted: {iss})")),
            ({"assertion_aud": ["endpoint"]}, signed(),
             (401, "invalid_client", f"client_assertion aud is not accepted here (accepted: {iss}/token)")),
            ({"assertion_aud_array": False}, signed(aud=[iss]),
             (401, "invalid_client", "client_assertion aud must be a single string")),
            ({"assertion_max_lifetime": 30}, signed(),
             (401, "invalid_client", "client_assertion lives longer than 30 s")),
            ({"assertion_algs": ["PS256"]}, signed(),
             (401, "invalid_client", "client_assertion: alg ES256 is not accepted")),
            ({"assertion_require_client_id": True},
             J.assertion_form(key, alg, "demo-app", iss, "c1", with_client_id=False),
             (400, "invalid_request", "client_id is required beside client_assertion")),
            ({"token_auth_methods": ["client_secret_basic"]}, signed(),
             (401, "invalid_client", "client authentication method private_key_jwt is not allowed here")),
            ({"client_jwks": None}, signed(),
             (401, "invalid_client", "no client_jwks registered for private_key_jwt"))):
        configure(c, base, run, {**cfg, **extra})
        expect_oauth_error(redeem(form), *expected)
    configure(c, base, run, {**cfg, "assertion_aud": ["endpoint"]})
    assert redeem(signed(aud=iss + "/token")).status == 200
    configure(c, base, run, {**cfg, "token_auth_methods": ["private_key_jwt"]})
    expect_oauth_error(redeem({}, BASIC), 401, "invalid_client",
           "client authentication method client_secret_basic is not allowed here")


def t_par(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("par")
    iss = iss_of(base, run)

    def push(headers=BASIC, **extra):
        form = {**authz_params(iss), **extra}
        return c.request("POST", iss + "/par", form={k: v for k, v in form.items() if v is not None},
                         headers=headers)

    def via_uri(uri, client_id="demo-app", **extra):
        return c.request("GET", iss + "/authorize?" + urlencode({"client_id": client_id,
                                                                 "request_uri": uri, **extra}))
    r = push()
    body = r.json()
    assert r.status == 201 and body["expires_in"] == 60, r.text
    assert body["request_uri"].startswith("urn:ietf:params:oauth:request_uri:")
    a = answer(via_uri(body["request_uri"], state="evil"))
    assert a["state"] == "st-1" and a["iss"] == iss  # outside parameters are ignored
    assert hits_of(c, base, run)[-1]["decoded"]["outside_pushed_request"] == ["state"]
    assert J.basic_redeem(c, iss, a["code"]).status == 200
    r = via_uri(body["request_uri"])
    assert r.status == 400 and "invalid_request_uri: unknown, used or expired request_uri" in r.text
    r = via_uri(push().json()["request_uri"], client_id="public-app")
    assert r.status == 400 and "client_id does not match the pushed request" in r.text
    uri = push().json()["request_uri"]  # pushed to `signed`, used at `fapi2`
    r = c.request("GET", iss_of(base, run, "fapi2") + "/authorize?" + urlencode(
        {"client_id": "demo-app", "request_uri": uri}))
    assert r.status == 400 and "unknown, used or expired request_uri" in r.text
    r = via_uri("https://client.example/req.jwt")
    assert r.status == 400 and "request_uri must come from the PAR endpoint" in r.text
    r = push(headers={}, client_id="public-app")  # a public client pushes with client_id only
    assert r.status == 201 and "code" in answer(via_uri(r.json()["request_uri"], "public-app"))
    expect_oauth_error(push(headers={}), 401, "invalid_client", "client authentication required")
    expect_oauth_error(push(response_type="token"), 400, "invalid_request", "response_type must be code")
    expect_oauth_error(push(redirect_uri=None), 400, "invalid_request", "missing redirect_uri")
    expect_oauth_error(push(request_uri="urn:x"), 400, "invalid_request", "request_uri is not allowed at the PAR endpoint")
    expect_oauth_error(push(code_challenge_method="S512"), 400, "invalid_request", "code_challenge_method S512 is not allowed")
    r = c.request("GET", iss + "/par")
    assert r.status == 405
    key = J.new_key("p256")
    configure(c, base, run, {"client_jwks": J.jwk_of(key), "assertion_aud": ["endpoint"]})
    assert push(headers={}, **J.assertion_form(key, "ES256", "demo-app", iss + "/par")).status == 201
    expect_oauth_error(push(headers={}, **J.assertion_form(key, "ES256", "demo-app", iss)), 401, "invalid_client",
           f"client_assertion aud is not accepted here (accepted: {iss}/par)")
    configure(c, base, run, {"par_outer_params": "reject"})
    a = answer(via_uri(push().json()["request_uri"], state="evil", scope="admin"))
    assert a == {"error": "invalid_request", "error_description":
                 "parameters beside client_id and request_uri: scope, state", "state": "st-1", "iss": iss}
    configure(c, base, run, {"par_required": True})
    a = answer(J.authorize(c, iss))
    assert a["error"] == "invalid_request" and a["error_description"] == "pushed authorization request required"
    assert "code" in answer(via_uri(push().json()["request_uri"]))
    assert c.request("GET", iss + "/.well-known/openid-configuration").json()[
        "require_pushed_authorization_requests"] is True
    posts = [h for h in hits_of(c, base, run) if h["method"] == "POST" and h["path"].endswith("/par")]
    assert stats_of(c, base, run)["par_requests"] == len(posts) == 13


def t_request_object(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("jar")
    iss = iss_of(base, run)
    key, other = J.new_key("p256"), J.new_key("p256")
    configure(c, base, run, {"client_jwks": {"keys": [J.jwk_of(key, kid="r1")]}})

    def send(ro, **outer):
        return answer(c.request("GET", iss + "/authorize?" + urlencode(
            {"client_id": "demo-app", "request": ro, **outer})))
    a = send(J.request_object(key, "ES256", iss, kid="r1"), state="outer", scope="admin")
    assert a["state"] == "st-ro" and "code" in a, a
    t = J.basic_redeem(c, iss, a["code"]).json()
    assert parts(t["id_token"])[1]["nonce"] == "n-ro" and t["scope"] == "openid"
    hit = [h for h in hits_of(c, base, run) if h["path"].endswith("/authorize")][-1]
    assert hit["decoded"]["request_object"]["claims"]["state"] == "st-ro"
    assert hit["decoded"]["request_object"]["header"]["typ"] == "oauth-authz-req+jwt"
    a = send(J.request_object(key, "ES256", iss, kid="r1", typ=None, max_age=60))
    assert "code" in a
    now = int(time.time())
    for ro, description in (
            (J.request_object(key, "ES256", iss, kid="r1", aud="https://other.example"),
             "request object aud must be the issuer"),
            (J.request_object(key, "ES256", iss, kid="r1", exp=None), "request object exp is missing or not a number"),
            (J.request_object(key, "ES256", iss, kid="r1", exp=now - 600), "request object has expired"),
            (J.request_object(key, "ES256", iss, kid="r1", nbf=now + 600), "request object is not valid yet (nbf)"),
            (J.request_object(key, "ES256", iss, kid="r1", nbf=now - 7200),
             "request object lives longer than 3600 s"),
            (J.request_object(key, "ES256", iss, kid="r1", client_id=None),
             "request object client_id is missing or differs from client_id"),
            (J.request_object(key, "ES256", iss, kid="r1", iss="someone"), "request object iss must be the client_id"),
            (J.request_object(key, "ES256", iss, kid="r1", typ="JWT"), "request object typ must be oauth-authz-req+jwt"),
            (J.request_object(key, "ES256", iss, kid="r1", response_type=None), "request object lacks response_type"),
            (J.request_object(other, "ES256", iss, kid="r1"), "request object: signature does not verify")):
        a = send(ro)
        assert a == {"error": "invalid_request_object", "error_description": description,
                     "state": "st-ro", "iss": iss}, (description, a)
    ro = J.request_object(key, "ES256", iss, kid="r1")
    assert "code" in send(ro)
    assert send(ro)["error_description"] == "request object jti was used before"
    r = c.request("GET", iss + "/authorize?" + urlencode({"request": ro}))
    assert r.status == 400 and "unknown client" in r.text
    a = send(J.request_object(b"demo-secret", "HS256", iss, typ="oauth-authz-req+jwt"))
    assert "code" in a
    r = c.request("POST", iss + "/par", form={"request": J.request_object(key, "ES256", iss, kid="r1"),
                                              "client_id": "demo-app"}, headers=BASIC)
    assert r.status == 201, r.text
    a = answer(c.request("GET", iss + "/authorize?" + urlencode(
        {"client_id": "demo-app", "request_uri": r.json()["request_uri"]})))
    assert a["state"] == "st-ro"
    r = c.request("POST", iss + "/par", form={"request": J.request_object(other, "ES256", iss, kid="r1"),
                                              "client_id": "demo-app"}, headers=BASIC)
    expect_oauth_error(r, 400, "invalid_request_object", "request object: signature does not verify")
    configure(c, base, run, {"client_jwks": J.jwk_of(key, kid="r1"), "request_object_typ": "required",
                             "request_object_outer_params": "reject"})
    a = send(J.request_object(key, "ES256", iss, typ=None))
    assert a["error_description"] == "request object typ must be oauth-authz-req+jwt"
    a = send(J.request_object(key, "ES256", iss), state="x")
    assert a["error_description"] == "parameters outside the request object: state"
    configure(c, base, run, {"request_object_required": True})
    a = answer(J.authorize(c, iss))
    assert a["error_description"] == "a request object is required"


def t_resource_and_authorization_details(base):
    if skip_without_crypto():
        return
    c, run = Client(base), run_name("rar")
    iss = iss_of(base, run)
    configure(c, base, run, {"access_token_format": "jwt"})
    details = [{"type": "payment_initiation", "instructedAmount": {"currency": "EUR", "amount": "12.00"}}]
    query = urlencode(list(authz_params(iss).items()) + [
        ("resource", "https://api.example/a"), ("resource", "https://api.example/b"),
        ("authorization_details", json.dumps(details))])
    a = answer(c.request("GET", iss + "/authorize?" + query))
    hit = hits_of(c, base, run)[-1]
    assert hit["decoded"]["resource"] == ["https://api.example/a", "https://api.example/b"]
    assert json.loads(hit["decoded"]["authorization_details"]) == details
    form = list(code_form(iss, a["code"]).items()) + [("resource", "https://api.example/a")]
    r = c.request("POST", iss + "/token", form=form, headers=BASIC)
    body = r.json()
    assert r.status == 200 and body["authorization_details"] == details
    assert hits_of(c, base, run)[-1]["decoded"]["resource"] == ["https://api.example/a"]
    assert parts(body["access_token"])[1]["aud"] == ["https://api.example/a"]
    a = answer(J.authorize(c, iss, resource="api/relative"))
    assert a["error"] == "invalid_target"
    a = answer(J.authorize(c, iss, authorization_details="{"))
    assert a == {"error": "invalid_authorization_details", "error_description": "authorization_details is not JSON",
                 "state": "st-1", "iss": iss}
    a = answer(J.authorize(c, iss, authorization_details='[{"no":"type"}]'))
    assert a["error_description"] == "authorization_details must be a non-empty array of objects with a string type"
    r = c.request("POST", iss + "/par", form=list(authz_params(iss).items()) + [
        ("resource", "https://api.example/p"), ("authorization_details", json.dumps(details))], headers=BASIC)
    assert r.status == 201 and hits_of(c, base, run)[-1]["decoded"]["resource"] == ["https://api.example/p"]
    configure(c, base, run, {"authorization_details_types": ["account_information"]})
    a = answer(J.authorize(c, iss, authorization_details=json.dumps(details)))
    assert a["error_description"] == "authorization_details type is not supported"
    r = c.request("POST", iss + "/par", form={**authz_params(iss), "authorization_details": json.dumps(details)},
                  headers=BASIC)
    expect_oauth_error(r, 400, "invalid_authorization_details", "authorization_details type is not supported")
