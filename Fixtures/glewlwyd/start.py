#!/usr/bin/env python3
"""Start a throw-away Glewlwyd (Debian's package, installed by install.sh) as
a real authorization server for authcode's interop tests.

    .venv/bin/python Fixtures/glewlwyd/start.py [--watch-stdin] [--log] [--keep]

It makes a temp state dir, generates keys with openssl, seeds an SQLite
database from the package's schema, writes a config for 127.0.0.1 on a free
port (named http://localhost:PORT, see HOST), starts glewlwyd, waits for its
first answer, then logs in as admin over the REST API and creates three OpenID
Connect plugin instances (RS256, ES256, EdDSA id_tokens; PAR, DPoP, RAR,
resource indicators, request objects and RFC 9207 iss switched on), a scope,
a user and the clients, and (factors.py) a TOTP and a WebAuthn scheme with the
scopes that ask for them and their users. Then it prints machine-readable
lines on stdout, READY last:

    STATE <dir>                  fixture.json inside holds everything below
    ISSUER <name> <issuer-url>   one per plugin instance: rs256, es256, eddsa
    USER <username> <password>
    CLIENT <kind> <client_id> [<secret>]   kinds: public, confidential, private_key_jwt
    KEY <name> <alg> <kid> <pem-path> <jwk-path>   private keys of the private_key_jwt client
    REDIRECT <redirect_uri>      registered for every client
    RESOURCE <uri> <scope>       the resource indicator allowed with that scope
    RAR <type>                   the authorization_details type allowed with that scope
    TOTP_USER <username> <password> <base32 seed> <scope>   one line per user (factors.py)
    PASSKEY_USER <username> <password> <scope>              one line per user, no credential yet
    RP <rpId> <origin>           the WebAuthn relying party: localhost, http://localhost:PORT
    READY <base-url>             http://localhost:PORT

and keeps running until SIGTERM/SIGINT or, with --watch-stdin, until its stdin
reaches EOF; then it stops glewlwyd and deletes the state dir (unless --keep).
Glewlwyd's own log goes to <dir>/glewlwyd.log, and to stderr with --log.

Needs only the standard library and `openssl`; the JWKs of the client keys are
computed with PyPI's `cryptography` when it is importable (the venv's python),
else parsed from `openssl pkey -text`.
"""
import argparse
import base64
import gzip
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import factors

SCHEMA = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz"
WEBAPP = "/usr/share/glewlwyd/webapp/"
MODULES = "/usr/lib/glewlwyd"
REDIRECT_URI = "http://127.0.0.1:8765/callback"
INSTALL_HINT = "run 'make glewlwyd' (Fixtures/glewlwyd/install.sh: apt-get install glewlwyd dbconfig-no-thanks sqlite3)"

# The name the server is reached by and names itself (external_url: issuers,
# endpoints, the login page). Not 127.0.0.1: WebAuthn has no IP-literal
# relying party (the rpId is a domain; README "Passkeys"), and Glewlwyd takes its
# rpId from the WebAuthn scheme's rp-origin, which must be the origin the
# login page is on. It still listens on 127.0.0.1 only.
HOST = "localhost"

USER = ("alice", "wonderland")
ADMIN = ("admin", "password")  # made by the package's schema
SCOPE_API = "api"
RESOURCE = "https://api.example.test/"
RAR_TYPE = "payment_initiation"

PUBLIC_CLIENT = "public-pkce"
CONFIDENTIAL_CLIENT = ("confidential", "glewlwyd-client-secret")
PKJWT_CLIENT = "pkjwt"

# plugin name -> (jwt-type, openssl genpkey arguments)
INSTANCES = {
    "oidc": ("rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
    "oidc-es256": ("ecdsa", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
    "oidc-eddsa": ("eddsa", ["-algorithm", "ED25519"]),
}
# client key name -> (alg, openssl genpkey arguments)
CLIENT_KEYS = {
    "rsa": ("RS256", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
    "ec": ("ES256", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
    "ed25519": ("EdDSA", ["-algorithm", "ED25519"]),
}


class SetupError(Exception):
    pass


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--watch-stdin", action="store_true", help="exit when stdin reaches EOF")
    p.add_argument("--log", action="store_true", help="copy glewlwyd's log to stderr")
    p.add_argument("--keep", action="store_true", help="keep the state dir at exit")
    return p.parse_args()


# ---------------------------------------------------------------- keys

def openssl(*args, stdin=None):
    try:
        done = subprocess.run(["openssl", *args], input=stdin, capture_output=True, check=False)
    except FileNotFoundError:
        raise SetupError("openssl not found on PATH")
    if done.returncode != 0:
        raise SetupError("openssl %s failed: %s" % (" ".join(args[:2]), done.stderr.decode(errors="replace").strip()))
    return done.stdout


def genkey(path, genpkey_args):
    openssl("genpkey", *genpkey_args, "-out", path)
    os.chmod(path, 0o600)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_jwk(pem_path):
    """The public JWK (RFC 7517/7518/8037) of a private key PEM."""
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    except ImportError:
        return public_jwk_openssl(pem_path)
    with open(pem_path, "rb") as f:
        key = serialization.load_pem_private_key(f.read(), password=None)
    pub = key.public_key()
    if isinstance(pub, rsa.RSAPublicKey):
        n = pub.public_numbers()
        return {"kty": "RSA", "n": b64url(n.n.to_bytes((n.n.bit_length() + 7) // 8, "big")),
                "e": b64url(n.e.to_bytes((n.e.bit_length() + 7) // 8, "big"))}
    if isinstance(pub, ec.EllipticCurvePublicKey):
        n = pub.public_numbers()
        return {"kty": "EC", "crv": "P-256", "x": b64url(n.x.to_bytes(32, "big")), "y": b64url(n.y.to_bytes(32, "big"))}
    if isinstance(pub, ed25519.Ed25519PublicKey):
        raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw)}
    raise SetupError("unsupported key type in %s" % pem_path)


def public_jwk_openssl(pem_path):
    """Same as public_jwk, from the DER of `openssl pkey -pubout` (no cryptography)."""
    der = openssl("pkey", "-in", pem_path, "-pubout", "-outform", "DER")
    # SubjectPublicKeyInfo: the key bits are the BIT STRING at the end.
    text = openssl("pkey", "-in", pem_path, "-noout", "-text_pub").decode()
    if "RSA" in text.splitlines()[0] or "Modulus" in text:
        mod = "".join(l.strip() for l in text.split("Modulus:")[1].split("Exponent:")[0].splitlines()).replace(":", "")
        n = int(mod, 16)
        e = int(text.split("Exponent:")[1].split()[0])
        return {"kty": "RSA", "n": b64url(n.to_bytes((n.bit_length() + 7) // 8, "big")),
                "e": b64url(e.to_bytes((e.bit_length() + 7) // 8, "big"))}
    if "ED25519" in text:
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(der[-32:])}
    point = der[-65:]  # uncompressed P-256 point 04‖X‖Y
    return {"kty": "EC", "crv": "P-256", "x": b64url(point[1:33]), "y": b64url(point[33:])}


def jwk_thumbprint(jwk):
    """RFC 7638: SHA-256 over the required members in lexicographic order."""
    import hashlib
    required = {"RSA": ("e", "kty", "n"), "EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x")}[jwk["kty"]]
    canon = json.dumps({k: jwk[k] for k in required}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canon.encode()).digest())


def make_keys(state):
    """Server signing keys (PEM key + self-signed cert per plugin instance) and
    the private_key_jwt client's keys (PEM private key + public JWK). The
    openssl runs go in parallel (RSA key generation dominates)."""
    from concurrent.futures import ThreadPoolExecutor

    def server_key(name, jwt_type, args):
        key, cert = os.path.join(state, name + ".key"), os.path.join(state, name + ".crt")
        genkey(key, args)
        openssl("req", "-new", "-x509", "-key", key, "-subj", "/CN=authcode-glewlwyd-" + name, "-days", "2", "-out", cert)
        with open(key) as k, open(cert) as c:
            return {"jwt-type": jwt_type, "key": k.read(), "cert": c.read()}

    def client_key(name, alg, args):
        pem = os.path.join(state, "client-%s.pem" % name)
        genkey(pem, args)
        jwk = public_jwk(pem)
        jwk.update({"use": "sig", "alg": alg, "kid": "client-" + name})
        jwk_path = os.path.join(state, "client-%s.jwk" % name)
        with open(jwk_path, "w") as f:
            json.dump(jwk, f)
        return {"alg": alg, "kid": jwk["kid"], "pem": pem, "jwk": jwk_path, "public_jwk": jwk,
                "thumbprint": jwk_thumbprint(jwk)}

    with ThreadPoolExecutor(max_workers=4) as pool:
        servers = {n: pool.submit(server_key, n, t, a) for n, (t, a) in INSTANCES.items()}
        clients = {n: pool.submit(client_key, n, alg, a) for n, (alg, a) in CLIENT_KEYS.items()}
        return ({n: f.result() for n, f in servers.items()}, {n: f.result() for n, f in clients.items()})


# ---------------------------------------------------------------- database, config, process

def free_port():
    # glewlwyd binds by itself: pick a port the kernel considers free, then
    # hand it over (a rare race is retried by the caller).
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed_database(path):
    if not os.path.exists(SCHEMA):
        raise SetupError("%s missing: Glewlwyd is not installed; %s" % (SCHEMA, INSTALL_HINT))
    with gzip.open(SCHEMA, "rt") as f:
        script = f.read()
    db = sqlite3.connect(path)
    try:
        # One transaction without fsync: 3.4 s -> 0.01 s (the script has no
        # BEGIN/COMMIT, so each of its ~850 statements would be synced alone).
        db.executescript("PRAGMA synchronous=OFF;\nBEGIN;\n" + script + "\nCOMMIT;\n")
    finally:
        db.close()


def write_config(path, port, db_path):
    # libconfig syntax (glewlwyd.conf(5) sample in /usr/share/doc/glewlwyd).
    conf = """
port={port}
bind_address="127.0.0.1"
external_url="http://{host}:{port}"
login_url="login.html"
api_prefix="api"
static_files_path="{webapp}"
allow_origin="*"
log_mode="console"
log_level="INFO"
cookie_domain=""
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_scope="g_admin"
profile_scope="g_profile"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
add_x_frame_option_header_deny=true
max_post_size=16778240
user_module_path="{mods}/user"
user_middleware_module_path="{mods}/user_middleware"
client_module_path="{mods}/client"
user_auth_scheme_module_path="{mods}/scheme"
plugin_module_path="{mods}/plugin"
hash_algorithm="SHA512"
database = {{
  type = "sqlite3"
  path = "{db}"
}};
static_files_mime_types = (
  {{ extension = ".html" mime_type = "text/html" compress = 0 }},
  {{ extension = ".css" mime_type = "text/css" compress = 0 }},
  {{ extension = ".js" mime_type = "application/javascript" compress = 0 }},
  {{ extension = ".json" mime_type = "application/json" compress = 0 }}
)
""".format(port=port, host=HOST, webapp=WEBAPP, mods=MODULES, db=db_path)
    with open(path, "w") as f:
        f.write(conf)


def die_with_parent():
    """In the child before exec: SIGTERM when this launcher dies, even by SIGKILL
    (Linux prctl PR_SET_PDEATHSIG), so no glewlwyd outlives a killed test run."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass


class Glewlwyd:
    def __init__(self, state, log_to_stderr):
        self.state = state
        self.log_to_stderr = log_to_stderr
        self.log_path = os.path.join(state, "glewlwyd.log")
        self.proc = None
        self.port = None

    def start(self):
        binary = shutil.which("glewlwyd")
        if binary is None:
            raise SetupError("glewlwyd not found on PATH: %s" % INSTALL_HINT)
        db = os.path.join(self.state, "glewlwyd.db")
        seed_database(db)
        conf = os.path.join(self.state, "glewlwyd.conf")
        for attempt in range(3):
            self.port = free_port()
            write_config(conf, self.port, db)
            log = open(self.log_path, "ab")
            self.proc = subprocess.Popen([binary, "-c", conf, "-m", "console"], stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                         preexec_fn=die_with_parent)
            log.close()
            if self.wait_first_answer(10):
                if self.log_to_stderr:
                    threading.Thread(target=self.tail_log, daemon=True).start()
                return
            if self.proc.poll() is None:
                self.stop()
                break
        raise SetupError("glewlwyd did not answer on 127.0.0.1:%s; its log:\n%s" % (self.port, self.log_tail()))

    def wait_first_answer(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False  # exited: port taken, bad config...
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/config")
                conn.getresponse().read()
                conn.close()
                return True
            except OSError:
                time.sleep(0.01)
        return False

    def log_tail(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-4000:].decode(errors="replace")
        except OSError:
            return "(no log)"

    def tail_log(self):
        with open(self.log_path, "rb") as f:
            while self.proc and self.proc.poll() is None:
                chunk = f.read()
                if chunk:
                    sys.stderr.buffer.write(chunk)
                    sys.stderr.flush()
                else:
                    time.sleep(0.2)

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------- admin REST API

class Admin:
    """A JSON client with one session cookie (Glewlwyd's admin API)."""

    def __init__(self, port):
        self.port = port
        self.cookie = None

    def call(self, method, path, body=None, expect=(200,)):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie" and value.startswith("GLEWLWYD2_SESSION_ID="):
                self.cookie = value.split(";", 1)[0]
        conn.close()
        if resp.status not in expect:
            raise SetupError("%s %s: %s %s" % (method, path, resp.status, data.decode(errors="replace")[:2000]))
        return json.loads(data) if data.strip() else None

    def login(self, username, password):
        self.call("POST", "/api/auth/", {"username": username, "password": password})
        if not self.cookie:
            raise SetupError("POST /api/auth/ as %s set no session cookie" % username)


def plugin_parameters(issuer, jwt_type, key, cert):
    """Every parameter the OIDC plugin of Glewlwyd 2.7.5 checks (check_parameters in
    src/plugin/protocol_oidc.c; defaults as its admin web app sends them), with
    the modern profile switched on."""
    return {
        "iss": issuer,
        "jwt-type": jwt_type,
        "jwt-key-size": "256",
        "key": key,
        "cert": cert,
        "jwks-uri": "", "jwks-private": "", "default-kid": "", "client-sign_kid-parameter": "",
        "jwks-public": "", "jwks-public-uri": "",
        "jwks-show": True,
        "jwks-x5c": [],
        "access-token-duration": 3600,
        "refresh-token-duration": 1209600,
        "code-duration": 600,
        "refresh-token-rolling": True,
        "refresh-token-one-use": "never",
        "client-refresh-token-one-use-parameter": "refresh-token-one-use",
        "allow-non-oidc": True,
        "auth-type-code-enabled": True,
        "auth-type-code-revoke-replayed": False,
        "auth-type-token-enabled": False,
        "auth-type-id-token-enabled": True,
        "auth-type-none-enabled": True,
        "auth-type-password-enabled": False,
        "auth-type-client-enabled": True,
        "auth-type-device-enabled": False,
        "auth-type-refresh-enabled": True,
        "scope": [],
        "additional-parameters": [],
        "claims": [],
        "service-documentation": "",
        "op-policy-uri": "",
        "op-tos-uri": "",
        "request-parameter-allow": True,
        "request-uri-allow-https-non-secure": False,
        "request-parameter-allow-encrypted": False,
        "request-parameter-ietf-strict": False,
        "request-maximum-exp": 3600,
        "secret-type": "public",
        "address-claim": {"type": "no", "formatted": "", "street_address": "", "locality": "", "region": "",
                          "postal_code": "", "country": "", "mandatory": False},
        "name-claim": "on-demand",
        "name-claim-scope": [],
        "email-claim": "no",
        "email-claim-scope": [],
        "scope-claim": "no",
        "scope-claim-scope": [],
        "allowed-scope": ["openid", SCOPE_API, *factors.FACTOR_SCOPES],
        "pkce-allowed": True,
        "pkce-method-plain-allowed": True,
        "pkce-required": False,
        "pkce-required-public-client": False,
        "pkce-scopes": [],
        "introspection-revocation-allowed": False,
        "introspection-revocation-auth-scope": [],
        "introspection-revocation-allow-target-client": True,
        "register-client-allowed": False,
        "register-client-auth-scope": [],
        "register-client-credentials-scope": [],
        "register-client-token-one-use": True,
        "register-client-management-allowed": False,
        "register-resource-specify-allowed": False,
        "register-resource-default": [],
        "register-default-properties": {},
        "session-management-allowed": False,
        "session-cookie-name": "GLEWLWYD2_OIDC_SID",
        "session-cookie-expiration": 2419200,
        "front-channel-logout-allowed": False,
        "back-channel-logout-allowed": False,
        "client-pubkey-parameter": "",
        "client-jwks-parameter": "jwks",
        "client-jwks_uri-parameter": "jwks_uri",
        "encrypt-out-token-allow": False,
        "client-enc-parameter": "enc",
        "client-alg-parameter": "alg",
        "client-alg_kid-parameter": "alg_kid",
        "client-encrypt_code-parameter": "encrypt_code",
        "client-encrypt_at-parameter": "encrypt_at",
        "client-encrypt_userinfo-parameter": "encrypt_userinfo",
        "client-encrypt_id_token-parameter": "encrypt_id_token",
        "client-encrypt_refresh_token-parameter": "encrypt_refresh_token",
        "client-encrypt_introspection-parameter": "encrypt_introspection",
        "device-authorization-expiration": 600,
        "device-authorization-interval": 5,
        "client-cert-source": "no",
        "client-cert-header-name": "SSL_CLIENT_CERT",
        "client-cert-use-endpoint-aliases": False,
        "client-cert-self-signed-allowed": False,
        "oauth-dpop-allowed": True,
        "oauth-dpop-iat-duration": 10,
        # Glewlwyd compares iat with time(), the kernel's coarse clock, which
        # for ~4 ms after each second still says the last one: a proof signed
        # then by a client reading the precise clock (authcode, smoke.py) is
        # "1 s in the future" and refused (403 invalid_dpop_proof), about one
        # smoke run in six. One second of gap is Glewlwyd's own allowance.
        "oauth-dpop-iat-gap-duration": 1,
        "oauth-dpop-dpop_bound_access_tokens-property": "dpop_bound_access_tokens",
        "oauth-dpop-nonce-mandatory": False,
        "oauth-dpop-nonce-counter": 10,
        "resource-allowed": True,
        "resource-scope": {SCOPE_API: [RESOURCE]},
        "resource-client-property": "",
        "resource-scope-and-client-property": False,
        "resource-change-allowed": False,
        "oauth-rar-allowed": True,
        "rar-types-client-property": "authorization_details_types",
        "rar-allow-auth-unsigned": True,
        "rar-allow-auth-unencrypted": True,
        "rar-types": {RAR_TYPE: {"scopes": [SCOPE_API], "description": "Payment initiation",
                                 "locations": [RESOURCE], "actions": ["initiate", "status"],
                                 "datatypes": ["payment"], "enriched": []}},
        "oauth-par-allowed": True,
        "oauth-par-required": False,
        "oauth-par-duration": 90,
        "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:",
        "prompt-continue-client-property": "",
        "restrict-scope-client-property": "",
        "oauth-ciba-allowed": False,
        "oauth-fapi-check-all": False,
        "oauth-fapi-allow-jarm": True,
        "oauth-fapi-add-s_hash": False,
        "oauth-fapi-verify-nbf": False,
        "oauth-fapi-allow-restrict-alg": False,
        "oauth-fapi-restrict-alg": [],
        "oauth-fapi-allow-multiple-kid": False,
        "oauth-fapi-ciba-confidential-client": False,
        "oauth-fapi-ciba-push-forbidden": False,
        "oauth-as-iss-id": True,
    }


def provision(admin, base, server_keys, client_keys):
    admin.login(*ADMIN)
    issuers = {}
    for name, material in server_keys.items():
        issuer = "%s/api/%s" % (base, name)
        params = plugin_parameters(issuer, material["jwt-type"], material["key"], material["cert"])
        admin.call("POST", "/api/mod/plugin/", {"module": "oidc", "name": name, "display_name": "authcode " + name,
                                               "parameters": params})
        issuers[name] = issuer
    admin.call("POST", "/api/scope/", {"name": SCOPE_API, "display_name": "API", "description": "authcode test API",
                                       "password_required": False, "password_max_age": 0, "scheme": {}})
    admin.call("POST", "/api/user/", {"username": USER[0], "password": USER[1], "name": "Alice", "email": "",
                                      "enabled": True, "scope": ["openid", "g_profile", SCOPE_API]})
    common = {"enabled": True, "scope": ["openid", SCOPE_API, *factors.FACTOR_SCOPES], "redirect_uri": [REDIRECT_URI],
              "authorization_type": ["code", "refresh_token"], "authorization_details_types": [RAR_TYPE]}
    admin.call("POST", "/api/client/", dict(common, client_id=PUBLIC_CLIENT, name="public, PKCE", confidential=False,
                                            token_endpoint_auth_method=["none"]))
    admin.call("POST", "/api/client/", dict(common, client_id=CONFIDENTIAL_CLIENT[0], name="confidential, secret",
                                            confidential=True, client_secret=CONFIDENTIAL_CLIENT[1],
                                            token_endpoint_auth_method=["client_secret_basic", "client_secret_post"]))
    # The JWKS goes in as a JSON object: the database client module's
    # "jwks" property ("convert": "jwks" in init.sqlite3.sql) silently drops a
    # string, and every assertion is then a bare 401.
    jwks = {"keys": [k["public_jwk"] for k in client_keys.values()]}
    admin.call("POST", "/api/client/", dict(common, client_id=PKJWT_CLIENT, name="private_key_jwt", confidential=True,
                                            token_endpoint_auth_method=["private_key_jwt"], jwks=jwks))
    stored = admin.call("GET", "/api/client/" + PKJWT_CLIENT)
    if len((stored.get("jwks") or {}).get("keys", [])) != len(jwks["keys"]):
        raise SetupError("client %s was stored without its JWKS: %s" % (PKJWT_CLIENT, json.dumps(stored)[:500]))
    return issuers, factors.provision(admin, base)


# ---------------------------------------------------------------- main

def main():
    args = parse_args()
    clock = time.monotonic()
    # tmpfs when there is one: glewlwyd's SQLite syncs every write, and on
    # a disk that makes each admin call and token cost milliseconds.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    state = tempfile.mkdtemp(prefix="authcode-glewlwyd-", dir=shm)
    os.chmod(state, 0o700)
    server = Glewlwyd(state, args.log)
    stopping = threading.Event()

    def stop(*_):
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        try:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=1) as pool:
                keys = pool.submit(make_keys, state)  # while glewlwyd starts
                server.start()
                started = time.monotonic()
                server_keys, client_keys = keys.result()
            keys_done = time.monotonic()
            base = "http://%s:%d" % (HOST, server.port)
            issuers, factor_info = provision(Admin(server.port), base, server_keys, client_keys)
        except SetupError as e:
            print("glewlwyd fixture: %s" % e, file=sys.stderr)
            return 1
        info = {
            "base": base, "state": state, "issuers": issuers,
            "user": {"username": USER[0], "password": USER[1]},
            "clients": {"public": {"client_id": PUBLIC_CLIENT},
                        "confidential": {"client_id": CONFIDENTIAL_CLIENT[0], "client_secret": CONFIDENTIAL_CLIENT[1]},
                        "private_key_jwt": {"client_id": PKJWT_CLIENT}},
            "client_keys": {n: {k: v for k, v in key.items()} for n, key in client_keys.items()},
            "redirect_uri": REDIRECT_URI, "scope": SCOPE_API, "resource": RESOURCE, "rar_type": RAR_TYPE,
            "factors": factor_info,
            "timing": {"first_answer": round(started - clock, 3), "keys": round(keys_done - clock, 3),
                       "provision": round(time.monotonic() - keys_done, 3)},
        }
        with open(os.path.join(state, "fixture.json"), "w") as f:
            json.dump(info, f, indent=1)
        out = ["STATE %s" % state]
        out += ["ISSUER %s %s" % ({"oidc": "rs256", "oidc-es256": "es256", "oidc-eddsa": "eddsa"}[n], u)
                for n, u in issuers.items()]
        out.append("USER %s %s" % USER)
        out.append("CLIENT public %s" % PUBLIC_CLIENT)
        out.append("CLIENT confidential %s %s" % CONFIDENTIAL_CLIENT)
        out.append("CLIENT private_key_jwt %s" % PKJWT_CLIENT)
        out += ["KEY %s %s %s %s %s" % (n, k["alg"], k["kid"], k["pem"], k["jwk"]) for n, k in client_keys.items()]
        out.append("REDIRECT %s" % REDIRECT_URI)
        out.append("RESOURCE %s %s" % (RESOURCE, SCOPE_API))
        out.append("RAR %s" % RAR_TYPE)
        out += factors.lines(factor_info)
        out.append("READY %s" % base)
        sys.stdout.write("\n".join(out) + "\n")
        sys.stdout.flush()
        print("glewlwyd fixture: ready in %.2f s (first answer %.2f, keys %.2f, provisioning %.2f)"
              % (time.monotonic() - clock, started - clock, keys_done - clock, time.monotonic() - keys_done),
              file=sys.stderr)
        if args.watch_stdin:
            def watch():
                while sys.stdin.buffer.read(4096):
                    pass
                stopping.set()
            threading.Thread(target=watch, daemon=True).start()
        while not stopping.wait(0.5):
            if server.proc.poll() is not None:
                print("glewlwyd fixture: glewlwyd exited (%s); log:\n%s" % (server.proc.returncode, server.log_tail()),
                      file=sys.stderr)
                return 1
        return 0
    finally:
        server.stop()
        if not args.keep:
            shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
