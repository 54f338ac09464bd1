#!/usr/bin/env python3
"""Smoke test of the Glewlwyd fixture, independent of authcode: a hand-made
client (standard library HTTP, PyPI `cryptography` for every signature) walks
the flows authcode is meant to speak and records what Glewlwyd 2.7.5 accepted
and refused, with its answers.

    .venv/bin/python Fixtures/glewlwyd/smoke.py [-v]

It starts Fixtures/glewlwyd/start.py (stops it at the end), then checks:

  a) the code flow for the public client with PKCE + nonce, logging in through
     Glewlwyd's JSON API, on every plugin instance (RS256, ES256, EdDSA); the
     id_token and the JARM response JWT verified against the instance's JWKS;
  b) private_key_jwt (RSA, EC and Ed25519 client keys) with PAR, with and
     without DPoP proofs; the assertion audiences and client_id rules;
  c) a signed request object, pushed in PAR and sent in the authorization request;
  d) a resource indicator (RFC 8707) and RAR authorization_details (RFC 9396).

Each line says `ok`/`FAIL`, what was sent and the status and body Glewlwyd
answered (secrets cut). Exit 0 when every expectation held. The expectations
are the facts Fixtures/glewlwyd/README.md lists.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

import smoke_factors

HERE = os.path.dirname(os.path.abspath(__file__))
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
# What the authorization endpoint answers to a request it refuses (403, no Content-Type).
INVALID_REQUEST_PAGE = b"<html><head><title>Glewlwyd</title></head><body><h1>Invalid request</h1></body></html>"

# ---------------------------------------------------------------- JOSE (cryptography)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_int(value, size=None):
    size = size or (value.bit_length() + 7) // 8
    return b64url(value.to_bytes(size, "big"))


def jwk_int(text):
    return int.from_bytes(b64url_decode(text), "big")


def sign_jws(key, alg, payload, header=None):
    head = {"alg": alg}
    head.update(header or {})
    signing_input = (b64url(json.dumps(head, separators=(",", ":")).encode()) + "."
                     + b64url(json.dumps(payload, separators=(",", ":")).encode())).encode()
    if alg == "RS256":
        sig = key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    elif alg == "PS256":
        sig = key.sign(signing_input, padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256())
    elif alg == "ES256":
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    elif alg == "EdDSA":
        sig = key.sign(signing_input)
    else:
        raise ValueError(alg)
    return signing_input.decode() + "." + b64url(sig)


def public_key_from_jwk(jwk):
    if jwk["kty"] == "RSA":
        return rsa.RSAPublicNumbers(jwk_int(jwk["e"]), jwk_int(jwk["n"])).public_key()
    if jwk["kty"] == "EC":
        assert jwk["crv"] == "P-256", jwk["crv"]
        return ec.EllipticCurvePublicNumbers(jwk_int(jwk["x"]), jwk_int(jwk["y"]), ec.SECP256R1()).public_key()
    if jwk["kty"] == "OKP":
        assert jwk["crv"] == "Ed25519", jwk["crv"]
        return ed25519.Ed25519PublicKey.from_public_bytes(b64url_decode(jwk["x"]))
    raise ValueError(jwk["kty"])


def verify_jws(token, jwks):
    """Verify a compact JWS against a JWKS; returns (header, payload) or raises."""
    head_b64, payload_b64, sig_b64 = token.split(".")
    header = json.loads(b64url_decode(head_b64))
    payload = json.loads(b64url_decode(payload_b64))
    signing_input = (head_b64 + "." + payload_b64).encode()
    sig = b64url_decode(sig_b64)
    candidates = [k for k in jwks["keys"] if "kid" not in header or k.get("kid") == header["kid"]]
    if not candidates:
        raise ValueError("no key with kid %s" % header.get("kid"))
    alg = header["alg"]
    for jwk in candidates:
        key = public_key_from_jwk(jwk)
        try:
            if alg == "RS256":
                key.verify(sig, signing_input, padding.PKCS1v15(), hashes.SHA256())
            elif alg == "PS256":
                key.verify(sig, signing_input, padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256())
            elif alg == "ES256":
                if len(sig) != 64:
                    raise ValueError("ES256 signature is %d bytes, not 64 (raw R||S)" % len(sig))
                key.verify(encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")),
                           signing_input, ec.ECDSA(hashes.SHA256()))
            elif alg == "EdDSA":
                key.verify(sig, signing_input)
            else:
                raise ValueError("unexpected alg %s" % alg)
            return header, payload
        except InvalidSignature:
            continue
    raise ValueError("signature does not verify (%s, kid %s)" % (alg, header.get("kid")))


def unverified_payload(token):
    return json.loads(b64url_decode(token.split(".")[1]))


def thumbprint(jwk):
    required = {"RSA": ("e", "kty", "n"), "EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x")}[jwk["kty"]]
    canon = json.dumps({k: jwk[k] for k in required}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canon.encode()).digest())


class DPoPKey:
    """A fresh P-256 key and its proofs (RFC 9449 §4.2; Glewlwyd implements draft 04)."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        n = self.key.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64url_int(n.x, 32), "y": b64url_int(n.y, 32)}
        self.jkt = thumbprint(self.jwk)

    def proof(self, method, url, access_token=None, iat=None, typ="dpop+jwt", extra=None):
        payload = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": url,
                   "iat": int(time.time()) if iat is None else iat}
        if access_token is not None:
            payload["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
        payload.update(extra or {})
        return sign_jws(self.key, "ES256", payload, {"typ": typ, "jwk": self.jwk})


# ---------------------------------------------------------------- HTTP


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def brief(self):
        """Status and body with tokens, codes and assertions cut."""
        text = self.body.decode(errors="replace")
        loc = self.header("Location")
        if loc:
            text = (text + " Location: " + loc).strip()
        return "%d %s" % (self.status, redact(text)[:300])


def redact(text):
    out = []
    for word in text.replace("&", " & ").replace('"', ' " ').replace("=", " = ").split(" "):
        out.append("[…]" if len(word) > 40 and "/" not in word[:12] else word)
    return " ".join(out).replace(" & ", "&").replace(' " ', '"').replace(" = ", "=")


class Session:
    """HTTP/1.1 to the fixture with a cookie jar of one name=value per cookie."""

    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port
        self.cookies = {}

    def request(self, method, url, form=None, json_body=None, headers=None):
        u = urllib.parse.urlsplit(url)
        path = u.path + ("?" + u.query if u.query else "")
        hdrs = dict(headers or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            body = json.dumps(json_body).encode()
            hdrs["Content-Type"] = "application/json"
        if self.cookies:
            hdrs["Cookie"] = "; ".join("%s=%s" % kv for kv in self.cookies.items())
        conn = http.client.HTTPConnection(self.host, self.port, timeout=15)
        conn.request(method, path, body=body, headers=hdrs)
        resp = conn.getresponse()
        data = resp.read()
        headers = resp.getheaders()
        conn.close()
        for k, v in headers:
            if k.lower() == "set-cookie":
                name, _, value = v.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = value.strip()
        return Response(resp.status, headers, data)


# ---------------------------------------------------------------- fixture


def start_fixture():
    python = sys.executable
    proc = subprocess.Popen([python, os.path.join(HERE, "start.py"), "--watch-stdin"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=None)
    lines = []
    while True:
        line = proc.stdout.readline().decode()
        if not line:
            raise SystemExit("start.py exited before READY:\n" + "".join(lines))
        lines.append(line)
        if line.startswith("READY "):
            break
    state = next(l.split(" ", 1)[1].strip() for l in lines if l.startswith("STATE "))
    with open(os.path.join(state, "fixture.json")) as f:
        return proc, json.load(f)


class Smoke:
    def __init__(self, fx, verbose):
        self.fx, self.verbose = fx, verbose
        self.base = fx["base"]
        self.redirect = fx["redirect_uri"]
        self.user = fx["user"]
        self.failures = 0
        self.keys = {}
        for name, k in fx["client_keys"].items():
            with open(k["pem"], "rb") as f:
                self.keys[name] = (serialization.load_pem_private_key(f.read(), None), k["alg"], k["kid"])

    # -- reporting

    def check(self, name, ok, detail=""):
        if not ok:
            self.failures += 1
        print("%-4s %-58s %s" % ("ok" if ok else "FAIL", name, detail))
        return ok

    def expect(self, name, resp, status, body=None):
        """resp.status == status and, when given, the body (bytes) exactly or the JSON fields listed."""
        ok = resp.status == status
        if isinstance(body, bytes):
            ok = ok and resp.body == body
        elif isinstance(body, dict):
            j = resp.json() or {}
            ok = ok and all(j.get(k) == v for k, v in body.items())
        return self.check(name, ok, resp.brief())

    # -- building blocks

    def issuer(self, name="oidc"):
        return self.fx["issuers"][name]

    def session(self, client, scope="openid"):
        """A browser-less login through Glewlwyd's JSON API, then consent for client."""
        s = Session(self.base)
        r = s.request("POST", self.base + "/api/auth/", json_body=self.user)
        assert r.status == 200 and "GLEWLWYD2_SESSION_ID" in s.cookies, r.brief()
        # Scopes space-separated (API.md says comma; 2.7.5 answers a comma list with 401).
        r = s.request("PUT", self.base + "/api/auth/grant/" + client, json_body={"scope": scope})
        assert r.status == 200, r.brief()
        return s

    @staticmethod
    def pkce():
        verifier = secrets.token_urlsafe(48)
        return verifier, b64url(hashlib.sha256(verifier.encode()).digest())

    def assertion(self, keyname, aud, client="pkjwt", **claims):
        key, alg, kid = self.keys[keyname]
        now = int(time.time())
        payload = {"iss": client, "sub": client, "aud": aud, "jti": secrets.token_urlsafe(16), "iat": now, "exp": now + 60}
        payload.update(claims)
        return sign_jws(key, alg, payload, {"kid": kid, "typ": "JWT"})

    def client_auth(self, keyname, aud):
        return {"client_id": "pkjwt", "client_assertion_type": ASSERTION_TYPE,
                "client_assertion": self.assertion(keyname, aud)}

    def request_object(self, keyname, iss_url, **claims):
        key, alg, kid = self.keys[keyname]
        now = int(time.time())
        payload = {"iss": "pkjwt", "aud": iss_url, "client_id": "pkjwt", "response_type": "code",
                   "redirect_uri": self.redirect, "iat": now, "nbf": now, "exp": now + 60,
                   "jti": secrets.token_urlsafe(12)}
        payload.update(claims)
        return sign_jws(key, alg, payload, {"kid": kid, "typ": "oauth-authz-req+jwt"})

    def authorize(self, s, iss_url, params, method="GET"):
        """The authorization request with g_continue (else Glewlwyd bounces to its
        JavaScript login page); returns (response, parsed redirect query)."""
        params = dict(params, g_continue="true")
        if method == "GET":
            r = s.request("GET", iss_url + "/auth?" + urllib.parse.urlencode(params))
        else:
            r = s.request("POST", iss_url + "/auth", form=params)
        loc = r.header("Location") or ""
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(loc).query)) if loc.startswith(self.redirect) else {}
        return r, query

    def code_params(self, client, challenge, scope="openid", **extra):
        p = {"response_type": "code", "client_id": client, "redirect_uri": self.redirect, "scope": scope,
             "nonce": secrets.token_urlsafe(8), "state": secrets.token_urlsafe(8),
             "code_challenge": challenge, "code_challenge_method": "S256"}
        p.update(extra)
        return p

    def push(self, s, iss_url, form, headers=None):
        r = s.request("POST", iss_url + "/par", form=form, headers=headers)
        return r, (r.json() or {}).get("request_uri") if r.status == 201 else None

    def par_code(self, s, iss_url, keyname="ec", extra=None, headers=None):
        """PAR with private_key_jwt (aud = the PAR endpoint), then the code."""
        verifier, challenge = self.pkce()
        form = self.code_params("pkjwt", challenge, **(extra or {}))
        form.update(self.client_auth(keyname, iss_url + "/par"))
        r, request_uri = self.push(s, iss_url, form, headers)
        if not request_uri:
            return r, None, verifier
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request_uri": request_uri})
        return r, q, verifier

    def redeem(self, iss_url, code, verifier, client="pkjwt", keyname="ec", dpop=None, extra=None):
        token_url = iss_url + "/token"
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect, "code_verifier": verifier}
        if client == "pkjwt":
            form.update(self.client_auth(keyname, token_url))
        else:
            form["client_id"] = client
        form.update(extra or {})
        headers = {"DPoP": dpop.proof("POST", token_url)} if dpop else {}
        # A fresh session: the back channel carries no browser cookie.
        return Session(self.base).request("POST", token_url, form=form, headers=headers)

    def verify_id_token(self, name, iss_url, token, client, nonce):
        jwks = Session(self.base).request("GET", iss_url + "/jwks").json()
        try:
            header, claims = verify_jws(token, jwks)
        except Exception as e:  # noqa: BLE001 - report any verification failure
            return self.check(name, False, str(e))
        head, payload, sig = token.split(".")
        forged = head + "." + b64url(json.dumps(dict(claims, sub="someone-else")).encode()) + "." + sig
        try:
            verify_jws(forged, jwks)
            self.check(name + " (a changed payload must not verify)", False, "it verified")
        except ValueError:
            pass
        ok = claims.get("iss") == iss_url and claims.get("aud") == client and claims.get("nonce") == nonce
        return self.check(name, ok, "alg %s kid %s; iss, aud, nonce %s; auth_time %s"
                          % (header["alg"], header.get("kid", "")[:8] + "…", "match" if ok else "WRONG",
                             claims.get("auth_time")))

    def jarm(self, name, iss_url, r, mode, state):
        """JARM (the response_mode=jwt family): the response JWT is signed with the
        instance's key and holds iss, aud, exp, state and code (no iat)."""
        loc = r.header("Location") or ""
        if mode == "form_post.jwt":
            body = r.body.decode(errors="replace")
            start = body.find('name="response" value="')
            token = body[start + 23:body.find('"', start + 23)] if start >= 0 else ""
        else:
            part = urllib.parse.urlsplit(loc).fragment if mode == "fragment.jwt" else urllib.parse.urlsplit(loc).query
            token = dict(urllib.parse.parse_qsl(part)).get("response", "")
        jwks = Session(self.base).request("GET", iss_url + "/jwks").json()
        try:
            header, claims = verify_jws(token, jwks)
        except Exception as e:  # noqa: BLE001 - report any failure
            return self.check(name, False, "%s; %s" % (e, r.brief()[:100]))
        ok = (claims.get("iss") == iss_url and claims.get("aud") == "public-pkce" and claims.get("state") == state
              and "code" in claims and 3500 <= claims.get("exp", 0) - time.time() <= 3700 and "iat" not in claims)
        return self.check(name + " -> signed response (iss, aud, exp +1 h, state, code)", ok,
                          "alg %s; claims %s" % (header["alg"], sorted(claims)))

    # -- (a) code flow, public client, every instance

    def code_flow(self):
        print("# a) code flow: public client, PKCE S256 + nonce, JSON login API, id_token verified")
        s = self.session("public-pkce")
        for name, alg in (("oidc", "RS256"), ("oidc-es256", "ES256"), ("oidc-eddsa", "EdDSA")):
            iss_url = self.issuer(name)
            verifier, challenge = self.pkce()
            params = self.code_params("public-pkce", challenge)
            r, q = self.authorize(s, iss_url, params, method="POST")
            self.check("%s: authorize (POST, g_continue) -> 302 code, state, iss" % name,
                       r.status == 302 and "code" in q and q.get("state") == params["state"] and q.get("iss") == iss_url,
                       r.brief())
            t = self.redeem(iss_url, q.get("code", ""), verifier, client="public-pkce")
            if not self.expect("%s: token -> 200, token_type 'bearer' (lowercase)" % name, t, 200, {"token_type": "bearer"}):
                continue
            j = t.json()
            self.verify_id_token("%s: id_token %s verified with the published JWKS" % (name, alg), iss_url,
                                 j["id_token"], "public-pkce", params["nonce"])
            self.check("%s: auth_time is 0 without the session cookie at token" % name,
                       unverified_payload(j["id_token"]).get("auth_time") == 0)
            for mode in ("jwt", "fragment.jwt", "form_post.jwt"):
                params = self.code_params("public-pkce", self.pkce()[1], response_mode=mode)
                r, _ = self.authorize(s, iss_url, params)
                self.jarm("%s: JARM %s" % (name, mode), iss_url, r, mode, params["state"])
        iss_url = self.issuer()
        r, q = self.authorize(s, iss_url, {k: v for k, v in self.code_params("public-pkce", self.pkce()[1]).items()
                                           if k != "nonce"})
        self.check("no nonce with openid -> error=invalid_request in the redirect",
                   q.get("error") == "invalid_request" and q.get("error_description") == "nonce required", r.brief())
        params = self.code_params("public-pkce", self.pkce()[1])
        r = s.request("GET", iss_url + "/auth?" + urllib.parse.urlencode(params))
        self.check("without g_continue -> 302 to login.html (a JavaScript app)",
                   r.status == 302 and "/login.html?" in (r.header("Location") or ""), r.brief())
        r, q = self.authorize(s, iss_url, self.code_params("public-pkce", self.pkce()[1], response_mode="form_post"))
        self.check("form_post: iss value is URL-encoded inside the HTML",
                   r.status == 200 and ('name="iss" value="%s"' % urllib.parse.quote(iss_url, safe="")).encode() in r.body,
                   r.brief()[:120])
        wrong = Session(self.base).request("POST", self.base + "/api/auth/",
                                           json_body={"username": self.user["username"], "password": "not-it"})
        self.expect("wrong password at POST /api/auth/ -> 401, empty body", wrong, 401, b"")
        verifier, challenge = self.pkce()
        r, q = self.authorize(s, iss_url, self.code_params("public-pkce", challenge))
        t = self.redeem(iss_url, q["code"], verifier, client="public-pkce")
        again = self.redeem(iss_url, q["code"], verifier, client="public-pkce")
        self.expect("code replay -> 403 {\"error\":\"invalid_code\"}", again, 403, b'{"error":"invalid_code"}')
        at, rt = t.json()["access_token"], t.json()["refresh_token"]
        u = Session(self.base).request("GET", iss_url + "/userinfo", headers={"Authorization": "Bearer " + at})
        self.expect("userinfo with 'Bearer' -> 200", u, 200)
        u = Session(self.base).request("GET", iss_url + "/userinfo", headers={"Authorization": "bearer " + at})
        self.expect("userinfo with lowercase 'bearer' -> 401", u, 401)
        r = Session(self.base).request("POST", iss_url + "/token", form={
            "grant_type": "refresh_token", "refresh_token": rt, "client_id": "public-pkce"})
        j = r.json() or {}
        self.check("refresh -> 200 without refresh_token or id_token",
                   r.status == 200 and "access_token" in j and "refresh_token" not in j and "id_token" not in j,
                   r.brief())
        # Confidential client: secret in Basic and in the body.
        s2 = self.session("confidential")
        for how in ("basic", "post", "wrong"):
            verifier, challenge = self.pkce()
            r, q = self.authorize(s2, iss_url, self.code_params("confidential", challenge))
            form = {"grant_type": "authorization_code", "code": q["code"], "redirect_uri": self.redirect,
                    "code_verifier": verifier}
            headers = {}
            secret = self.fx["clients"]["confidential"]["client_secret"] if how != "wrong" else "not-it"
            if how == "post":
                form.update(client_id="confidential", client_secret=secret)
            else:
                headers["Authorization"] = "Basic " + base64.b64encode(("confidential:" + secret).encode()).decode()
            t = Session(self.base).request("POST", iss_url + "/token", form=form, headers=headers)
            if how == "wrong":
                self.expect("confidential, wrong secret -> 403 unauthorized_client", t, 403,
                            b'{"error":"unauthorized_client"}')
            else:
                self.expect("confidential, client_secret_%s -> 200" % how, t, 200, {"token_type": "bearer"})

    # -- (b) private_key_jwt + PAR, with and without DPoP

    def private_key_jwt(self):
        print("# b) private_key_jwt + PAR (aud = the receiving endpoint, client_id beside the assertion)")
        s = self.session("pkjwt")
        iss_url = self.issuer()
        par_url, token_url = iss_url + "/par", iss_url + "/token"
        for keyname in ("rsa", "ec", "ed25519"):
            alg = self.keys[keyname][1]
            r, q, verifier = self.par_code(s, iss_url, keyname)
            self.check("%s: PAR 201, then authorize(client_id, request_uri) -> code" % alg, bool(q and "code" in q),
                       r.brief())
            if q and "code" in q:
                self.check("%s: the redirect carries the pushed client_assertion (redact it)" % alg,
                           q.get("client_assertion", "").count(".") == 2)
                t = self.redeem(iss_url, q["code"], verifier, keyname=keyname)
                self.expect("%s: token with assertion aud = token endpoint -> 200" % alg, t, 200, {"token_type": "bearer"})
        verifier, challenge = self.pkce()
        for label, aud in (("issuer", iss_url), ("token endpoint", token_url), ("[PAR endpoint] (array)", [par_url])):
            form = self.code_params("pkjwt", challenge)
            form.update(self.client_auth("ec", aud))
            r, _ = self.push(s, iss_url, form)
            self.expect("PAR with assertion aud = %s -> 401, empty body" % label, r, 401, b"")
        cases = (("aud = issuer", {"client_assertion": self.assertion("ec", iss_url)}, 403, b""),
                 ("no client_id", {"client_id": None}, 400, b""),
                 ("exp 2 h ahead", {"client_assertion": self.assertion("ec", token_url, exp=int(time.time()) + 7200)},
                  403, b""),
                 ("no client_assertion_type", {"client_assertion_type": None}, 403, b'{"error":"unauthorized_client"}'))
        for label, change, status, body in cases:
            r, q, verifier = self.par_code(s, iss_url)
            form = {"grant_type": "authorization_code", "code": q["code"], "redirect_uri": self.redirect,
                    "code_verifier": verifier}
            form.update(self.client_auth("ec", token_url))
            form.update(change)
            form = {k: v for k, v in form.items() if v is not None}
            t = Session(self.base).request("POST", token_url, form=form)
            self.expect("token, assertion %s -> %d" % (label, status), t, status, body)
        r, q, verifier = self.par_code(s, iss_url)
        form = {"grant_type": "authorization_code", "code": q["code"], "redirect_uri": self.redirect,
                "code_verifier": verifier}
        form.update(self.client_auth("ec", token_url))
        first = Session(self.base).request("POST", token_url, form=form)
        r, q, verifier = self.par_code(s, iss_url)
        form.update(code=q["code"], code_verifier=verifier)
        second = Session(self.base).request("POST", token_url, form=form)
        self.check("a replayed assertion (same jti) -> 403", first.status == 200 and second.status == 403, second.brief())
        r, request_uri = self.push(s, iss_url, dict(self.code_params("public-pkce", challenge)))
        self.check("public client: PAR without authentication -> 201", r.status == 201, r.brief())
        self.authorize(s, iss_url, {"client_id": "public-pkce", "request_uri": request_uri})
        r, q = self.authorize(s, iss_url, {"client_id": "public-pkce", "request_uri": request_uri})
        self.expect("a used request_uri -> 403, an HTML page", r, 403, INVALID_REQUEST_PAGE)
        r, q, verifier = self.par_code(s, iss_url)
        t = self.redeem(iss_url, q["code"], "not-the-verifier")
        self.expect("a wrong code_verifier -> 403 invalid_code", t, 403, b'{"error":"invalid_code"}')

        print("# b') DPoP (draft 04 in 2.7.5): proofs at token, refresh, userinfo")
        d = DPoPKey()
        r, q, verifier = self.par_code(s, iss_url)
        t = self.redeem(iss_url, q["code"], verifier, dpop=d)
        j = t.json() or {}
        self.check("token with a DPoP proof -> 200, token_type 'DPoP', cnf.jkt = thumbprint",
                   t.status == 200 and j.get("token_type") == "DPoP"
                   and unverified_payload(j["access_token"]).get("cnf") == {"jkt": d.jkt}, t.brief())
        at, rt = j.get("access_token", ""), j.get("refresh_token", "")
        userinfo = iss_url + "/userinfo"

        def ui(label, status, auth, proof, url=userinfo):
            headers = {"Authorization": auth}
            if proof:
                headers["DPoP"] = proof
            self.expect("userinfo %s -> %d" % (label, status), Session(self.base).request("GET", url, headers=headers),
                        status)
        ui("'DPoP <at>' + proof with ath", 200, "DPoP " + at, d.proof("GET", userinfo, access_token=at))
        ui("'DPoP <at>' + proof without ath", 401, "DPoP " + at, d.proof("GET", userinfo))
        ui("'DPoP <at>' without proof", 401, "DPoP " + at, None)
        ui("'Bearer <at>' (a bound token)", 401, "Bearer " + at, d.proof("GET", userinfo, access_token=at))
        ui("proof by ANOTHER key (binding not checked!)", 200, "DPoP " + at,
           DPoPKey().proof("GET", userinfo, access_token=at))
        refresh = {"grant_type": "refresh_token", "refresh_token": rt}
        r = Session(self.base).request("POST", token_url, form=dict(refresh, **self.client_auth("ec", token_url)))
        self.expect("refresh of a bound token without proof -> 403 invalid_dpop_proof", r, 403,
                    {"error": "invalid_dpop_proof"})
        r = Session(self.base).request("POST", token_url, form=dict(refresh, **self.client_auth("ec", token_url)),
                                       headers={"DPoP": d.proof("POST", token_url)})
        self.expect("refresh with a proof -> 200, token_type 'DPoP'", r, 200, {"token_type": "DPoP"})
        # Each proof is signed right before its request (Glewlwyd allows no iat in the future).
        proofs = (("htu = token endpoint exactly", lambda: d.proof("POST", token_url), token_url, 200),
                  ("htu with a query", lambda: d.proof("POST", token_url + "?a=b"), token_url, 403),
                  ("htu with a trailing slash", lambda: d.proof("POST", token_url + "/"), token_url, 403),
                  ("POST to /token/, htu /token/", lambda: d.proof("POST", token_url + "/"), token_url + "/", 403),
                  ("POST to /token?x=1, htu /token", lambda: d.proof("POST", token_url), token_url + "?x=1", 200),
                  ("htu with '127.0.0.1' for 'localhost'",
                   lambda: d.proof("POST", token_url.replace("//localhost:", "//127.0.0.1:")),
                   token_url, 403),
                  ("htm GET", lambda: d.proof("GET", token_url), token_url, 403),
                  ("typ JWT", lambda: d.proof("POST", token_url, typ="JWT"), token_url, 403),
                  ("iat 8 s ago", lambda: d.proof("POST", token_url, iat=int(time.time()) - 8), token_url, 200),
                  ("iat 12 s ago", lambda: d.proof("POST", token_url, iat=int(time.time()) - 12), token_url, 403),
                  ("iat 2 s ahead", lambda: d.proof("POST", token_url, iat=int(time.time()) + 2), token_url, 403),
                  ("a nonce claim nobody asked for", lambda: d.proof("POST", token_url, extra={"nonce": "x"}),
                   token_url, 200))
        for label, proof, url, status in proofs:
            r, q, verifier = self.par_code(s, iss_url)
            form = {"grant_type": "authorization_code", "code": q["code"], "redirect_uri": self.redirect,
                    "code_verifier": verifier}
            form.update(self.client_auth("ec", token_url))
            t = Session(self.base).request("POST", url, form=form, headers={"DPoP": proof()})
            self.expect("proof: %s -> %d" % (label, status), t, status,
                        {"error": "invalid_dpop_proof"} if status == 403 else {"token_type": "DPoP"})
        r, q, verifier = self.par_code(s, iss_url)
        form = {"grant_type": "authorization_code", "code": q["code"], "redirect_uri": self.redirect,
                "code_verifier": verifier}
        form.update(self.client_auth("ec", token_url))
        proof = d.proof("POST", token_url)
        Session(self.base).request("POST", token_url, form=form, headers={"DPoP": proof})
        r, q, verifier = self.par_code(s, iss_url)
        form.update(self.client_auth("ec", token_url), code=q["code"], code_verifier=verifier)
        t = Session(self.base).request("POST", token_url, form=form, headers={"DPoP": proof})
        self.expect("a replayed proof (same jti) -> 403", t, 403, {"error": "invalid_dpop_proof"})
        for label, extra, headers in (("dpop_jkt at PAR", {"dpop_jkt": d.jkt}, lambda: None),
                                      ("a DPoP proof at PAR", None, lambda: {"DPoP": d.proof("POST", par_url)})):
            r, q, verifier = self.par_code(s, iss_url, extra=extra, headers=headers())
            other = self.redeem(iss_url, q["code"], verifier, dpop=DPoPKey())
            r, q, verifier = self.par_code(s, iss_url, extra=extra, headers=headers())
            same = self.redeem(iss_url, q["code"], verifier, dpop=d)
            self.check("%s binds the code: another key 403, the same key 200" % label,
                       other.status == 403 and same.status == 200, "%s / %s" % (other.brief(), same.brief()))

    # -- (c) request objects

    def request_objects(self):
        print("# c) signed request objects (JAR), in the authorization request and pushed")
        s = self.session("pkjwt")
        iss_url = self.issuer()
        for keyname in ("rsa", "ec", "ed25519"):
            verifier, challenge = self.pkce()
            nonce = secrets.token_urlsafe(8)
            jwt = self.request_object(keyname, iss_url, scope="openid", state="st", nonce=nonce,
                                      code_challenge=challenge, code_challenge_method="S256")
            r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request": jwt})
            alg = self.keys[keyname][1]
            if self.check("%s request object in the authorization request -> code" % alg, "code" in q, r.brief()):
                t = self.redeem(iss_url, q["code"], verifier)
                ok = t.status == 200 and unverified_payload(t.json()["id_token"]).get("nonce") == nonce
                self.check("%s: token; id_token nonce from inside the request object" % alg, ok, t.brief())
        verifier, challenge = self.pkce()
        jwt = self.request_object("ec", iss_url, scope="openid", state="st", nonce="n", code_challenge=challenge,
                                  code_challenge_method="S256")
        form = {"client_id": "pkjwt", "request": jwt}
        form.update(self.client_auth("ec", iss_url + "/par"))
        r, request_uri = self.push(s, iss_url, form)
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request_uri": request_uri}) if request_uri else (r, {})
        if self.check("request object pushed with private_key_jwt at PAR -> code", "code" in q, r.brief()):
            self.expect("  ... token -> 200", self.redeem(iss_url, q["code"], verifier), 200)
        verifier, challenge = self.pkce()
        jwt = self.request_object("ec", iss_url, scope="openid", state="st", nonce="n", code_challenge=challenge,
                                  code_challenge_method="S256")
        r, request_uri = self.push(s, iss_url, {"client_id": "pkjwt", "request": jwt})
        self.check("request object pushed WITHOUT client authentication -> 201 (the signature stands in)",
                   r.status == 201, r.brief())
        lax = (("aud = the token endpoint", {"aud": iss_url + "/token"}), ("no aud", {"aud": None}),
               ("expired (exp 10 s ago)", {"exp": int(time.time()) - 10}), ("no iss", {"iss": None}))
        for label, change in lax:
            claims = dict(scope="openid", state="st", nonce="n", code_challenge=challenge, code_challenge_method="S256")
            claims.update(change)
            jwt = self.request_object("ec", iss_url, **claims)
            if change.get("aud", 1) is None or change.get("iss", 1) is None:
                head, payload, sig = jwt.split(".")
                key, alg, kid = self.keys["ec"]
                body = {k: v for k, v in json.loads(b64url_decode(payload)).items() if v is not None}
                jwt = sign_jws(key, alg, body, {"kid": kid, "typ": "oauth-authz-req+jwt"})
            r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request": jwt})
            self.check("request object %s -> still a code (not checked)" % label, "code" in q, r.brief())
        forged_key = ec.generate_private_key(ec.SECP256R1())
        now = int(time.time())
        forged = sign_jws(forged_key, "ES256", {"iss": "pkjwt", "aud": iss_url, "client_id": "pkjwt",
                                                "response_type": "code", "redirect_uri": self.redirect,
                                                "scope": "openid", "nonce": "n", "exp": now + 60},
                          {"kid": "client-ec", "typ": "oauth-authz-req+jwt"})
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request": forged})
        self.expect("request object signed by another key -> 403, an HTML page", r, 403, INVALID_REQUEST_PAGE)
        unsigned = b64url(b'{"alg":"none"}') + "." + forged.split(".")[1] + "."
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request": unsigned})
        self.expect("unsigned request object (alg none) -> 403", r, 403, INVALID_REQUEST_PAGE)
        jwt = self.request_object("ec", iss_url, scope="openid", nonce="n", client_id=None)
        head, payload, sig = jwt.split(".")
        key, alg, kid = self.keys["ec"]
        body = {k: v for k, v in json.loads(b64url_decode(payload)).items() if v is not None}
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt",
                                           "request": sign_jws(key, alg, body, {"kid": kid})})
        self.expect("request object without a client_id claim -> 403", r, 403, INVALID_REQUEST_PAGE)

    # -- (d) resource indicators and RAR

    def resource_and_rar(self):
        print("# d) resource indicators (RFC 8707) and authorization_details (RFC 9396)")
        fx = self.fx
        resource, rar_type = fx["resource"], fx["rar_type"]
        scope = "openid " + fx["scope"]
        s = self.session("public-pkce", scope=scope)
        iss_url = self.issuer()
        details = [{"type": rar_type, "locations": [resource], "actions": ["initiate"], "datatypes": ["payment"]}]

        def flow(label, extra, expect_aud=None, expect_details=None, error=None):
            verifier, challenge = self.pkce()
            r, q = self.authorize(s, iss_url, self.code_params("public-pkce", challenge, scope=scope, **extra))
            if error:
                return self.check("%s -> error=%s in the redirect" % (label, error), q.get("error") == error, r.brief())
            t = self.redeem(iss_url, q.get("code", ""), verifier, client="public-pkce")
            j = t.json() or {}
            claims = unverified_payload(j["access_token"]) if "access_token" in j else {}
            ok = t.status == 200 and (expect_aud is None or claims.get("aud") == expect_aud)
            if expect_details is not None:
                ok = ok and j.get("authorization_details") == expect_details \
                    and claims.get("authorization_details") == expect_details
            return self.check(label, ok, "%s; access token aud %s" % (t.brief()[:90], claims.get("aud")))
        flow("no resource: access token aud = the scope list", {}, expect_aud=scope)
        flow("resource=%s -> access token aud = the resource" % resource, {"resource": resource}, expect_aud=resource)
        flow("an unregistered resource", {"resource": "https://other.example/"}, error="invalid_target")
        verifier, challenge = self.pkce()
        r, q = self.authorize(s, iss_url, self.code_params("public-pkce", challenge, scope=scope,
                                                           authorization_details=json.dumps(details)))
        self.check("authorization_details before the user's RAR consent -> login.html, prompt=consent",
                   r.status == 302 and "/login.html?" in (r.header("Location") or "")
                   and "prompt=consent" in r.header("Location"), r.brief())
        # The consent the login page's JavaScript records: PUT <issuer>/rar/<client>/<type>/1.
        r = s.request("PUT", "%s/rar/public-pkce/%s/1" % (iss_url, rar_type))
        self.expect("RAR consent: PUT <issuer>/rar/<client>/<type>/1 -> 200", r, 200)
        flow("authorization_details -> echoed in the token answer and the access token",
             {"authorization_details": json.dumps(details)}, expect_details=details)
        flow("authorization_details, an action not allowed",
             {"authorization_details": json.dumps([{"type": rar_type, "actions": ["steal"]}])}, error="invalid_request")
        flow("authorization_details, an unknown type",
             {"authorization_details": json.dumps([{"type": "nope"}])}, error="invalid_request")
        flow("resource + authorization_details", {"resource": resource, "authorization_details": json.dumps(details)},
             expect_aud=resource, expect_details=details)
        # The same through PAR with private_key_jwt, the way authcode sends them.
        s = self.session("pkjwt", scope=scope)
        s.request("PUT", "%s/rar/pkjwt/%s/1" % (iss_url, rar_type))
        verifier, challenge = self.pkce()
        form = self.code_params("pkjwt", challenge, scope=scope, resource=resource,
                                authorization_details=json.dumps(details))
        form.update(self.client_auth("ec", iss_url + "/par"))
        r, request_uri = self.push(s, iss_url, form)
        r, q = self.authorize(s, iss_url, {"client_id": "pkjwt", "request_uri": request_uri})
        t = self.redeem(iss_url, q.get("code", ""), verifier, extra={"resource": resource})
        j = t.json() or {}
        claims = unverified_payload(j["access_token"]) if "access_token" in j else {}
        self.check("PAR + private_key_jwt + resource + authorization_details (resource again at token)",
                   t.status == 200 and claims.get("aud") == resource and j.get("authorization_details") == details,
                   t.brief()[:120])
        form = self.code_params("pkjwt", challenge, scope=scope, resource="https://other.example/")
        form.update(self.client_auth("ec", iss_url + "/par"))
        r, _ = self.push(s, iss_url, form)
        self.expect("PAR with an unregistered resource -> 403, empty body", r, 403, b"")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    clock = time.monotonic()
    proc, fx = start_fixture()
    started = time.monotonic() - clock
    try:
        smoke = Smoke(fx, args.verbose)
        parts = [smoke.code_flow, smoke.private_key_jwt, smoke.request_objects, smoke.resource_and_rar]
        for part in parts + smoke_factors.run(smoke, Session):
            try:
                part()
            except Exception as e:  # noqa: BLE001 - one broken part must not hide the others
                smoke.check(part.__name__, False, "%s: %s" % (type(e).__name__, e))
    finally:
        proc.stdin.close()
        proc.wait(10)
    print("glewlwyd smoke: %s (fixture ready in %.2f s, total %.2f s)"
          % ("%d failed" % smoke.failures if smoke.failures else "all ok", started, time.monotonic() - clock))
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.exit(main())
