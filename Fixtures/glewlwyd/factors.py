"""Second factors on the throw-away Glewlwyd (start.py): a TOTP scheme, a
WebAuthn scheme that takes attestation format `none`, the scopes that ask for
them, and users enrolled (TOTP) or ready to enrol (WebAuthn).

Glewlwyd asks for a factor per scope, never per user (docs/SCOPE.md in its
repository): a scope lists groups of schemes, and a session is valid for the
scope once the password (when `password_required`) and enough schemes of every
group are authenticated. So a login asks for the TOTP code only when the
authorization request holds the scope `totp`, and for a passkey only with the
scope `passkey`; `openid` alone still takes the password.

Parameter names and checks are those of 2.7.5's scheme modules
(`src/scheme/otp.c`, `src/scheme/webauthn.c`, is_scheme_parameters_valid) and
of the admin API (`docs/API.md`: /api/mod/scheme/, /api/scope/,
/api/delegate/<user>/profile/scheme/register/). README.md in this folder says what
each one does to a client.
"""

# RFC 6238 Appendix B's SHA-1 key ("12345678901234567890"), the fixture
# server's TOTP seed too (Fixtures/server/README.md): 20 bytes, above the
# scheme's 16-byte minimum and pyotp's 112-bit floor.
TOTP_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
TOTP_DIGITS = 6
TOTP_PERIOD = 30

OTP_SCHEME = "otp"            # scheme instance names (also what `amr` lists: the module type)
WEBAUTHN_SCHEME = "webauthn"
SCOPE_TOTP = "totp"           # password + the otp scheme
SCOPE_PASSKEY = "passkey"     # password + the webauthn scheme
FACTOR_SCOPES = (SCOPE_TOTP, SCOPE_PASSKEY)

# Glewlwyd takes one TOTP code per user per time step: after a success the
# next one is refused until time_step_size seconds have passed
# (is_current_otp_available in otp.c), so tests that log in more than once
# within 30 s use different users. All share the seed and the password.
TOTP_USERS = ("bob", "bob2", "bob3")
TOTP_PASSWORD = "builder"
# Each starts with no credential: the first login registers one through the
# profile API. Several, so registration can be tested more than once per run.
PASSKEY_USERS = ("carol", "carol2", "carol3", "carol4")
PASSKEY_PASSWORD = "passkey-pw"


def scheme_modules(origin):
    """The two scheme instances (POST /api/mod/scheme/). `origin` is the page
    origin browsers and authcode see, http://localhost:PORT."""
    otp = {
        "module": "otp", "name": OTP_SCHEME, "display_name": "Authenticator app (TOTP)",
        "expiration": 600, "max_use": 0, "allow_user_register": True,
        "parameters": {
            "issuer": origin.split("://", 1)[1],
            "secret-minimum-size": 16,
            "otp-length": TOTP_DIGITS,
            "hotp-allow": False, "hotp-window": 0,
            "totp-allow": True, "totp-window": TOTP_PERIOD, "totp-start-offset": 0,
        },
    }
    webauthn = {
        "module": "webauthn", "name": WEBAUTHN_SCHEME, "display_name": "Passkey",
        "expiration": 600, "max_use": 0, "allow_user_register": True,
        "parameters": {
            # The relying party: clientDataJSON.origin must equal it byte for
            # byte, and the rpId Glewlwyd hashes is its host without the port.
            "rp-origin": origin,
            "challenge-length": 64,
            "pubKey-cred-params": [-7],           # ES256; 2.7.5 takes only ECDSA (-7, -35, -36)
            "credential-expiration": 120,          # seconds from new-credential to register-credential
            "credential-assertion": 120,           # seconds from trigger to the assertion
            # WebAuthn after the password only: the trigger then answers 401
            # when the user has no credential yet (the login app's "register
            # first"), never a made-up allowCredentials list (the seed's
            # decoys, used when this is false).
            "session-mandatory": True,
            "seed": "authcode-glewlwyd-fixture-decoy-credentials-seed",
            # Attestation `none` only: an authenticator without a certificate
            # chain (authcode's software one) can enrol; force-fmt-none makes
            # new-credential ask browsers for attestation "none".
            "fmt": {"packed": False, "tpm": False, "android-key": False, "android-safetynet": False,
                    "fido-u2f": False, "apple": False, "none": True},
            "force-fmt-none": True,
            "ctsProfileMatch": -1, "basicIntegrity": -1,
            "root-ca-list": [], "google-root-ca-r2": "", "apple-root-ca": "",
        },
    }
    return [otp, webauthn]


def scopes():
    """The scopes that ask for a factor (POST /api/scope/): the password, then
    one scheme of the group."""
    def scope(name, scheme_type, scheme_name, text):
        return {"name": name, "display_name": text, "description": "authcode test: " + text,
                "password_required": True, "password_max_age": 0,
                "scheme": {"factor": [{"scheme_type": scheme_type, "scheme_name": scheme_name}]},
                "scheme_required": {"factor": 1}}
    return [scope(SCOPE_TOTP, "otp", OTP_SCHEME, "password and TOTP"),
            scope(SCOPE_PASSKEY, "webauthn", WEBAUTHN_SCHEME, "password and passkey")]


def provision(admin, origin):
    """Schemes, scopes, users; each TOTP user enrolled with TOTP_SEED by the
    administrator (profile delegation). Returns what start.py prints."""
    for module in scheme_modules(origin):
        admin.call("POST", "/api/mod/scheme/", module)
    for scope in scopes():
        admin.call("POST", "/api/scope/", scope)
    for name in TOTP_USERS:
        admin.call("POST", "/api/user/", {"username": name, "password": TOTP_PASSWORD, "name": "Bob (TOTP)",
                                          "email": "", "enabled": True, "scope": ["openid", "g_profile", SCOPE_TOTP]})
        # API.md spells this /api/delegate/profile/scheme/register/?username=…,
        # which 2.7.5 answers 401; glewlwyd.c registers the user in the path.
        admin.call("POST", "/api/delegate/%s/profile/scheme/register/" % name, {
            "username": name, "scheme_type": "otp", "scheme_name": OTP_SCHEME,
            "value": {"type": "TOTP", "secret": TOTP_SEED, "time_step_size": TOTP_PERIOD}})
    for name in PASSKEY_USERS:
        admin.call("POST", "/api/user/", {"username": name, "password": PASSKEY_PASSWORD, "name": "Carol (passkey)",
                                          "email": "", "enabled": True,
                                          "scope": ["openid", "g_profile", SCOPE_PASSKEY]})
    return {
        "origin": origin, "rp_id": origin.split("://", 1)[1].rsplit(":", 1)[0],
        "totp": {"scope": SCOPE_TOTP, "scheme": OTP_SCHEME, "seed": TOTP_SEED, "digits": TOTP_DIGITS,
                 "period": TOTP_PERIOD, "password": TOTP_PASSWORD, "users": list(TOTP_USERS)},
        "passkey": {"scope": SCOPE_PASSKEY, "scheme": WEBAUTHN_SCHEME, "password": PASSKEY_PASSWORD,
                    "users": list(PASSKEY_USERS)},
    }


def lines(info):
    """start.py's stdout lines for the factors (after the existing ones, before READY)."""
    totp, passkey = info["totp"], info["passkey"]
    out = ["TOTP_USER %s %s %s %s" % (user, totp["password"], totp["seed"], totp["scope"]) for user in totp["users"]]
    out += ["PASSKEY_USER %s %s %s" % (user, passkey["password"], passkey["scope"]) for user in passkey["users"]]
    out.append("RP %s %s" % (info["rp_id"], info["origin"]))
    return out
