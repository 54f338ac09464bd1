"""smoke.py, parts e) and f): the second factors of factors.py, walked the way
Glewlwyd's own login app does it (webapp-src/src/Login/App.js, the scheme
forms under Login/scheme/, Profile/SchemeWebauthn.js in its repository):

  password  POST /api/auth/ {username, password}
  grant     GET /api/auth/grant/<client>/<scopes>, PUT /api/auth/grant/<client> {"scope": "a b"}
  what's left  GET /api/auth/scheme/?scope=<scopes>
  TOTP      POST /api/auth/ {username, scheme_type "otp", scheme_name, value: {value: <code>}}
  passkey   POST /api/profile/scheme/register/ new-credential, then register-credential;
            POST /api/auth/scheme/trigger/, then POST /api/auth/ with the assertion
  back      the authorization URL again with g_continue

TOTP codes come from pyotp, passkeys from soft_authenticator.py (cryptography
+ cbor2), the verifier is Glewlwyd. Standard base64 (btoa) for every binary
value, as the login app sends them.
"""
import base64
import json
import time
import urllib.parse

import pyotp

from cryptography.hazmat.primitives.asymmetric import ec

from soft_authenticator import FLAG_UP, SoftAuthenticator, b64url


def b64(data):
    return base64.b64encode(data).decode()


class Factors:
    def __init__(self, smoke, session_class):
        self.sm, self.Session = smoke, session_class
        self.base = smoke.base
        self.info = smoke.fx["factors"]
        self.iss = smoke.issuer()

    # -- building blocks

    def api(self, s, method, path, body=None):
        return s.request(method, self.base + path, json_body=body)

    def start(self, scope):
        """A fresh browser: the authorization request (no session yet) and its PKCE verifier."""
        verifier, challenge = self.sm.pkce()
        params = self.sm.code_params("public-pkce", challenge, scope=scope)
        s = self.Session(self.base)
        r = s.request("GET", self.iss + "/auth?" + urllib.parse.urlencode(params))
        return s, params, verifier, r

    def scheme_state(self, s, scope, name):
        """The scope's entry of GET /api/auth/scheme/ and its one scheme."""
        j = self.api(s, "GET", "/api/auth/scheme/?scope=" + urllib.parse.quote(scope)).json() or {}
        entry = j.get(name, {})
        group = (entry.get("schemes") or {}).get("factor") or [{}]
        return entry, group[0]

    def finish(self, label, s, params, verifier, scope, amr):
        """Back to the authorization URL with g_continue; the code, the token,
        the granted scope and the id_token's amr."""
        r, q = self.sm.authorize(s, self.iss, params)
        if not self.sm.check(label + ": authorize + g_continue -> 302 code", "code" in q, r.brief()):
            return
        t = self.sm.redeem(self.iss, q["code"], verifier, client="public-pkce")
        j = t.json() or {}
        claims = self.sm_claims(j.get("id_token", ""))
        self.sm.check(label + ": token scope '%s', id_token amr %s" % (scope, amr),
                      t.status == 200 and j.get("scope") == scope and claims.get("amr") == amr,
                      "scope %r amr %r" % (j.get("scope"), claims.get("amr")))

    @staticmethod
    def sm_claims(token):
        try:
            part = token.split(".")[1]
            return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        except (IndexError, ValueError):
            return {}

    # -- e) TOTP

    def totp(self):
        info = self.info["totp"]
        scope, scheme = "openid " + info["scope"], info["scheme"]
        print("# e) password + TOTP: scope '%s' asks for the otp scheme (pyotp codes)" % info["scope"])
        user = info["users"][0]
        otp = pyotp.TOTP(info["seed"], digits=info["digits"], interval=info["period"])
        s, params, verifier, r = self.start(scope)
        self.sm.check("totp: authorize without a session -> login.html, scope in the query",
                      r.status == 302 and "/login.html?" in (r.header("Location") or "")
                      and "scope=openid+totp" in (r.header("Location") or ""), r.brief())
        wrong = self.api(self.Session(self.base), "POST", "/api/auth/", {"username": user, "password": "not-it"})
        self.sm.expect("totp: wrong password -> 401, empty body", wrong, 401, b"")
        self.sm.expect("totp: password -> 200", self.api(s, "POST", "/api/auth/",
                                                         {"username": user, "password": info["password"]}), 200)
        entry, state = self.scheme_state(s, scope, info["scope"])
        self.sm.check("totp: /api/auth/scheme/ -> password done, otp registered, not authenticated",
                      entry.get("password_authenticated") is True and state.get("scheme_name") == scheme
                      and state.get("scheme_registered") is True and state.get("scheme_authenticated") is False,
                      str(state))
        grant = self.api(s, "GET", "/api/auth/grant/public-pkce/" + urllib.parse.quote(scope)).json() or {}
        granted = {g.get("name"): g.get("granted") for g in grant.get("scope", [])}
        self.sm.check("totp: grant list -> '%s' not granted yet" % info["scope"], granted.get(info["scope"]) is False,
                      str(granted))
        # Without the grant the scope is dropped, and the second factor with it.
        r, q = self.sm.authorize(s, self.iss, params)
        t = self.sm.redeem(self.iss, q.get("code", ""), verifier, client="public-pkce")
        self.sm.check("totp: ungranted scope -> code at once, token scope 'openid' (no TOTP asked)",
                      (t.json() or {}).get("scope") == "openid", t.brief())
        s, params, verifier, _ = self.start(scope)
        self.api(s, "POST", "/api/auth/", {"username": user, "password": info["password"]})
        self.sm.expect("totp: PUT grant 'openid totp' (space-separated) -> 200",
                       self.api(s, "PUT", "/api/auth/grant/public-pkce", {"scope": scope}), 200)
        r, q = self.sm.authorize(s, self.iss, params)
        self.sm.check("totp: granted, no code yet -> login.html again",
                      r.status == 302 and "/login.html?" in (r.header("Location") or ""), r.brief())

        def code_attempt(value):
            return self.api(s, "POST", "/api/auth/", {"username": user, "scheme_type": "otp", "scheme_name": scheme,
                                                      "value": {"value": value}})

        # Glewlwyd's TOTP window is 0 (only the current step): keep clear of a step's end.
        if info["period"] - time.time() % info["period"] < 3:
            time.sleep(info["period"] - time.time() % info["period"] + 0.2)
        now = time.time()
        self.sm.expect("totp: a wrong code -> 401, empty body", code_attempt("000000"
                       if otp.at(now) != "000000" else "111111"), 401, b"")
        self.sm.expect("totp: the previous step's code -> 401 (window 0)",
                       code_attempt(otp.at(now - info["period"])), 401, b"")
        self.sm.expect("totp: a 5-digit code -> 401", code_attempt(otp.at(now)[:5]), 401, b"")
        self.sm.expect("totp: the current code -> 200", code_attempt(otp.at(now)), 200)
        self.sm.expect("totp: the same code again -> 401 (one code per user per step)", code_attempt(otp.at(now)), 401)
        entry, state = self.scheme_state(s, scope, info["scope"])
        self.sm.check("totp: /api/auth/scheme/ -> otp authenticated", state.get("scheme_authenticated") is True,
                      str(state))
        self.finish("totp", s, params, verifier, scope, ["password", "otp"])
        alice = self.Session(self.base)
        self.api(alice, "POST", "/api/auth/", {"username": self.sm.user["username"],
                                               "password": self.sm.user["password"]})
        self.sm.expect("totp: a code for a user with no TOTP (alice) -> 401",
                       self.api(alice, "POST", "/api/auth/", {"username": self.sm.user["username"],
                                                              "scheme_type": "otp", "scheme_name": scheme,
                                                              "value": {"value": otp.now()}}), 401)

    # -- f) WebAuthn

    def passkey(self):
        info = self.info["passkey"]
        scope, scheme, user = "openid " + info["scope"], info["scheme"], info["users"][0]
        origin, rp_id = self.info["origin"], self.info["rp_id"]
        print("# f) password + passkey: scope '%s' asks for the webauthn scheme (attestation none)" % info["scope"])
        W = {"username": user, "scheme_type": "webauthn", "scheme_name": scheme}
        s, params, verifier, r = self.start(scope)
        self.sm.check("passkey: origin and rpId are %s, %s" % (origin, rp_id),
                      origin == self.base and rp_id == "localhost")
        anonymous = self.api(s, "POST", "/api/profile/scheme/register/", dict(W, value={"register": "new-credential"}))
        self.sm.expect("passkey: new-credential before any login -> 401", anonymous, 401)
        self.api(s, "POST", "/api/auth/", {"username": user, "password": info["password"]})
        entry, state = self.scheme_state(s, scope, info["scope"])
        self.sm.check("passkey: /api/auth/scheme/ -> webauthn not registered",
                      state.get("scheme_registered") is False and state.get("scheme_authenticated") is False, str(state))
        self.sm.expect("passkey: trigger with no credential -> 401 (the app says: register first)",
                       self.api(s, "POST", "/api/auth/scheme/trigger/", dict(W, value={})), 401, b"")

        def new_credential():
            r = self.api(s, "POST", "/api/profile/scheme/register/", dict(W, value={"register": "new-credential"}))
            return r, r.json() or {}

        auth = SoftAuthenticator(rp_id, origin)

        def register(options, encode=b64, **kw):
            client_data, attestation = auth.create(base64.b64decode(options["challenge"]), **kw)
            credential = {"id": b64url(auth.credential_id), "rawId": encode(auth.credential_id), "type": "public-key",
                          "response": {"clientDataJSON": encode(client_data), "attestationObject": encode(attestation)}}
            return self.api(s, "POST", "/api/profile/scheme/register/",
                            dict(W, value={"register": "register-credential", "session": options["session"],
                                           "credential": credential}))

        refusals = (
            ("origin http://127.0.0.1:PORT", {"origin": origin.replace("//localhost:", "//127.0.0.1:")},
             b'["clientDataJSON.origin invalid - Client send %s, required %s"]'
             % (origin.replace("//localhost:", "//127.0.0.1:").encode(), origin.encode())),
            ("rpIdHash of 127.0.0.1", {"rp_id": "127.0.0.1"}, b'["authData.rpIdHash invalid"]'),
            ("fmt packed", {"fmt": "packed"}, b'["Format \'packed\' is not supported by Glewlwyd WebAuthn scheme"]'),
            ("fmt none with a non-empty attStmt", {"att_stmt": {"alg": -7}}, b'["response invalid"]'),
            ("base64url instead of base64", {"encode": b64url}, b'["Internal error"]'),
        )
        for label, kw, body in refusals:
            self.sm.expect("passkey: register, %s -> 400 %s" % (label, body.decode()), register(new_credential()[1], **kw),
                           400, body)
        stale = new_credential()[1]
        r, opt = new_credential()
        self.sm.check("passkey: new-credential -> 200 session, base64 challenge (64 bytes), ES256, 'none', "
                      "rpId = the origin URL",
                      r.status == 200 and len(base64.b64decode(opt.get("challenge", ""))) == 64
                      and opt.get("pubKey-cred-params") == [{"type": "public-key", "alg": -7}]
                      and opt.get("attestation-required") == "none" and opt.get("rpId") == origin
                      and opt.get("user", {}).get("name") == user, r.brief())
        self.sm.expect("passkey: an older new-credential session after a newer one -> 404", register(stale), 404, b"")
        self.sm.expect("passkey: register-credential (attestation none) -> 200", register(opt), 200, b"")
        self.sm.expect("passkey: its session a second time -> 404", register(opt), 404, b"")
        listed = self.api(s, "PUT", "/api/profile/scheme/register/", W).json() or []
        self.sm.check("passkey: registration list -> one credential, name 'none', id in base64",
                      [(c.get("credential_id"), c.get("name"), c.get("status")) for c in listed]
                      == [(b64(auth.credential_id), "none", "registered")], str(listed))
        self.api(s, "PUT", "/api/auth/grant/public-pkce", {"scope": scope})
        r, _ = self.sm.authorize(s, self.iss, params)
        self.sm.check("passkey: password only -> login.html again",
                      "/login.html?" in (r.header("Location") or ""), r.brief())

        def trigger(session=s):
            r = self.api(session, "POST", "/api/auth/scheme/trigger/", dict(W, value={}))
            return r, r.json() or {}

        def assertion(t, session=s, encode=b64, **kw):
            client_data, auth_data, signature = auth.get(base64.b64decode(t["challenge"]), **kw)
            credential = {"id": b64url(auth.credential_id), "rawId": encode(auth.credential_id), "type": "public-key",
                          "response": {"clientDataJSON": encode(client_data), "authenticatorData": encode(auth_data),
                                       "signature": encode(signature), "userHandle": t["user"]["id"]}}
            return self.api(session, "POST", "/api/auth/",
                            dict(W, value={"session": t["session"], "credential": credential}))

        r, t = trigger()
        self.sm.check("passkey: trigger -> allowCredentials [our id, base64], base64 challenge, rpId = origin URL",
                      r.status == 200 and [c.get("credential_id") for c in t.get("allowCredentials", [])]
                      == [b64(auth.credential_id)] and t.get("rpId") == origin
                      and len(base64.b64decode(t.get("challenge", ""))) == 64, r.brief())
        self.sm.expect("passkey: assertion signed by another key -> 401, empty body",
                       assertion(trigger()[1], key=ec.generate_private_key(ec.SECP256R1())), 401, b"")
        self.sm.expect("passkey: assertion, origin 127.0.0.1 -> 400 'bad scheme response'",
                       assertion(trigger()[1], origin=origin.replace("//localhost:", "//127.0.0.1:")), 400,
                       b"bad scheme response")
        self.sm.expect("passkey: assertion, type webauthn.create -> 400", assertion(trigger()[1], kind="webauthn.create"),
                       400, b"bad scheme response")
        stale, t = t, trigger()[1]
        self.sm.expect("passkey: an older trigger session after a newer one -> 401", assertion(stale), 401, b"")
        ok = assertion(t)
        self.sm.expect("passkey: assertion (signCount %d) -> 200" % auth.sign_count, ok, 200, b"")
        stored = auth.sign_count
        self.sm.expect("passkey: the same trigger session again -> 401", assertion(t), 401, b"")
        self.finish("passkey", s, params, verifier, scope, ["password", "webauthn"])
        # A second login in a new browser: the counter must rise.
        s, params, verifier, _ = self.start(scope)
        self.api(s, "POST", "/api/auth/", {"username": user, "password": info["password"]})
        auth.sign_count = stored
        self.sm.expect("passkey: second login, signCount %d again (not above the stored one) -> 401" % stored,
                       assertion(trigger(s)[1], session=s, count_up=False), 401, b"")
        auth.sign_count = 0
        self.sm.expect("passkey: second login, signCount 1 (below) -> 401",
                       assertion(trigger(s)[1], session=s), 401, b"")
        auth.sign_count = stored + 40
        self.sm.expect("passkey: second login, signCount %d (jumps are fine) -> 200" % (stored + 41),
                       assertion(trigger(s)[1], session=s), 200, b"")
        self.finish("passkey, second login", s, params, verifier, scope, ["password", "webauthn"])
        self.passkey_without_counter(info)

    def passkey_without_counter(self, info):
        """An authenticator whose counter stays 0, flags without UV, a userHandle
        that is not the user's: what Glewlwyd does not check."""
        user, origin = info["users"][-1], self.info["origin"]
        W = {"username": user, "scheme_type": "webauthn", "scheme_name": info["scheme"]}
        s = self.Session(self.base)
        self.api(s, "POST", "/api/auth/", {"username": user, "password": info["password"]})
        opt = self.api(s, "POST", "/api/profile/scheme/register/", dict(W, value={"register": "new-credential"})).json()
        auth = SoftAuthenticator(self.info["rp_id"], origin)
        client_data, attestation = auth.create(base64.b64decode(opt["challenge"]))
        credential = {"id": b64url(auth.credential_id), "rawId": b64(auth.credential_id), "type": "public-key",
                      "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation)}}
        self.api(s, "POST", "/api/profile/scheme/register/",
                 dict(W, value={"register": "register-credential", "session": opt["session"], "credential": credential}))

        def assertion(user_handle=None, **kw):
            t = self.api(s, "POST", "/api/auth/scheme/trigger/", dict(W, value={})).json() or {}
            client_data, auth_data, signature = auth.get(base64.b64decode(t.get("challenge", "")), count_up=False, **kw)
            credential = {"id": b64url(auth.credential_id), "rawId": b64(auth.credential_id), "type": "public-key",
                          "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                                       "signature": b64(signature),
                                       "userHandle": user_handle or t.get("user", {}).get("id")}}
            return self.api(s, "POST", "/api/auth/", dict(W, value={"session": t.get("session"),
                                                                       "credential": credential}))

        self.sm.expect("passkey: signCount 0, first assertion -> 200", assertion(), 200, b"")
        self.sm.expect("passkey: signCount 0 again (a counter that never moves) -> 200", assertion(), 200, b"")
        self.sm.expect("passkey: flags UP without UV -> 200 (UV not checked)", assertion(flags=FLAG_UP), 200, b"")
        self.sm.expect("passkey: flags without UP -> 400 'bad scheme response'", assertion(flags=0), 400,
                       b"bad scheme response")
        self.sm.expect("passkey: another user's userHandle -> 200 (not read)",
                       assertion(user_handle=b64(b"someone else")), 200, b"")


def run(smoke, session_class):
    factors = Factors(smoke, session_class)
    return [factors.totp, factors.passkey]
