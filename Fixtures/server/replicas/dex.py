"""Replica of Dex (dexidp/dex): connector choice, the password connectors'
login, TOTP as a second factor, the approval screen. Two shapes (dex.md):

  dex      the main branch: every step returns to the /auth dispatcher with
           an HMAC verifier per step (server/authflow/dispatch.go,
           server/internal/flowstep.go), MFA (server/mfa) before consent
           (server/consent)
  dex-v2   release v2.45: password login goes straight to
           /approval?req=&hmac= (HMAC over the request id), no MFA
           (server/handlers.go at v2.45.1)

Issuer <root>/dex. Connectors `local` (Dex's password database: the login is
an e-mail address) and `ldap` (a username). Users: local alice@example.com /
wonderland, bob@example.com / builder; ldap alice / wonderland (no TOTP
enrolled: the first login enrols one), bob / builder (TOTP enrolled with the
fixture's seed). In `dex`, the TOTP authenticator applies to the ldap
connector only, as `connectorTypes` allows.

Config (POST /_config/<run>): dex_connectors (list, default ["local",
"ldap"]), dex_skip_approval (bool), dex_always_show_login (bool).
"""
import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlencode, urlsplit

from authorize import validate

from . import dex_pages as pages
from .replica_kit import TOTP_SEED, bucket, config, discovery, finish, locked, password_ok, token, totp_counter

SCENARIOS = {"dex", "dex-v2"}

CONNECTORS = {  # id -> (name, type, username prompt, users)
    "local": ("Email", "local", "Email Address",
              {"alice@example.com": "wonderland", "bob@example.com": "builder"}),
    "ldap": ("LDAP", "ldap", "Username", {"alice": "wonderland", "bob": "builder"}),
}
TOTP_CONNECTORS = {"ldap"}
ENROLLED = {("ldap", "bob"): TOTP_SEED}
TOTP_ISSUER = "dex"


def _issuer(ex):
    return ex.issuer + "/dex"


def _path(ex, rest=""):
    return urlsplit(_issuer(ex)).path + rest


def _main(ex):
    return ex.scenario == "dex"


def _connectors(ex):
    wanted = config(ex).get("dex_connectors") or list(CONNECTORS)
    return [c for c in wanted if c in CONNECTORS]


def _error(ex, status, message):
    names = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 500: "Internal Server Error"}
    ex.html(status, pages.error(_issuer(ex), _path(ex), names.get(status, "Error"), message))


# ---- requests and their verifiers ------------------------------------------------------

def _sign(req, step):
    """main: a verifier per step; v2: HMAC over the request id alone."""
    message = req["id"] if step is None else req["id"] + "\x00" + step
    mac = hmac.new(req["key"], message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def _step_url(ex, rest, req, step, extra=()):
    query = list(extra) + [("req", req["id"]), ("hmac", _sign(req, step))]
    return _path(ex, rest) + "?" + urlencode(query)


def _request(ex, req_id):
    with locked(ex):
        req = bucket(ex, "dex.requests").get(req_id or "")
    return req if req is not None and req["scenario"] == ex.scenario else None


def _verified(ex, step):
    """The request named by `req` when `hmac` is its verifier for `step`."""
    req = _request(ex, ex.params().get("req"))
    mac = ex.params().get("hmac", "")
    if req is None or not mac:
        return None
    return req if hmac.compare_digest(_sign(req, step), mac) else None


# ---- authorize and connector choice --------------------------------------------------

def _authorize(ex):
    p = ex.params()
    if _main(ex) and "req" in p and "hmac" in p:
        return _dispatch(ex)
    conns = _connectors(ex)
    query = {k: v for k, v in p.items() if k != "connector_id"}
    if p.get("connector_id"):
        if p["connector_id"] not in conns:
            return _error(ex, 400, "Connector ID does not match a valid Connector")
        return ex.redirect(302, _path(ex, "/auth/" + p["connector_id"]) + "?" + urlencode(query))
    if len(conns) == 1 and not config(ex).get("dex_always_show_login"):
        return ex.redirect(302, _path(ex, "/auth/" + conns[0]) + "?" + urlencode(query))
    entries = [(_path(ex, "/auth/" + c) + "?" + urlencode(query), CONNECTORS[c][0], CONNECTORS[c][1]) for c in conns]
    ex.html(200, pages.connectors(_issuer(ex), _path(ex), entries))


def _connector_login(ex, conn_id):
    if conn_id not in _connectors(ex):
        return _error(ex, 400, "Connector failed to initialize")
    pending = validate(ex)
    if pending is None:
        return
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    req = {"id": "".join(secrets.choice(alphabet) for _ in range(25)), "key": secrets.token_bytes(32),
           "scenario": ex.scenario, "pending": pending, "connector": conn_id, "user": None,
           "logged_in": False, "mfa_ok": False}
    with locked(ex):
        bucket(ex, "dex.requests")[req["id"]] = req
    query = [("state", req["id"])]
    if len(_connectors(ex)) > 1:
        back = {k: v for k, v in ex.params().items() if k != "connector_id"}
        if _main(ex):
            back["prompt"] = "select_account"
        query.append(("back", _path(ex, "/auth") + "?" + urlencode(back)))
    ex.redirect(302, _path(ex, f"/auth/{conn_id}/login") + "?" + urlencode(query))


def _password_login(ex, conn_id):
    req = _request(ex, ex.query_params.get("state"))
    if not ex.query_params.get("state"):
        return _error(ex, 400, "User session error.")
    if req is None:
        return _error(ex, 400, "Requested resource does not exist.")
    if conn_id != req["connector"]:
        return _error(ex, 400 if _main(ex) else 500, "Requested resource does not exist.")
    name, _, prompt, users = CONNECTORS[conn_id]
    post_url = ex.path + ("?" + ex.query if ex.query else "")
    back = ex.query_params.get("back", "")
    back = back if back.startswith("/") and not back.startswith(("//", "/\\")) else ""
    remember = False if _main(ex) else None  # main shows "Remember me" when sessions are on
    if ex.method == "GET":
        return ex.html(200, pages.password(_issuer(ex), _path(ex), post_url, prompt, back=back, remember=remember))
    if ex.method != "POST":
        return _error(ex, 400, "Unsupported request method.")
    username = ex.form.get("login", "")
    if not password_ok(users, username, ex.form.get("password")):
        # Both shapes answer 401 with the form again (templates.go: Password()).
        return ex.html(401, pages.password(_issuer(ex), _path(ex), post_url, prompt, username, True, back, remember))
    with locked(ex):
        req["user"], req["logged_in"] = username, True
    if _main(ex):
        return ex.redirect(303, _step_url(ex, "/auth", req, "step:continue"))
    if config(ex).get("dex_skip_approval"):
        return _send_code(ex, req)
    ex.redirect(303, _step_url(ex, "/approval", req, None))


# ---- main: the dispatcher, MFA, consent -------------------------------------------------

def _dispatch(ex):
    req = _request(ex, ex.params().get("req"))
    if req is None:
        return _error(ex, 400, "User session error.")
    if not req["logged_in"]:
        return _error(ex, 500, "Login process not yet finalized.")
    approved = _verified(ex, "step:approved") is not None
    if not approved and _verified(ex, "step:continue") is None:
        return _error(ex, 401, "Unauthorized request")
    if req["connector"] in TOTP_CONNECTORS and not req["mfa_ok"]:
        return ex.redirect(303, _step_url(ex, "/mfa", req, "step:mfa"))
    consent_key = (ex.scenario, req["connector"], req["user"], req["pending"].client_id)
    with locked(ex):
        remembered = consent_key in bucket(ex, "dex.consents")
    if not approved and not remembered and not config(ex).get("dex_skip_approval"):
        return ex.redirect(303, _step_url(ex, "/approval", req, "step:approval"))
    _send_code(ex, req)


def _mfa(ex):
    req = _request(ex, ex.params().get("req"))
    if req is None or not req["logged_in"]:
        return _error(ex, 500, "Login process not yet finalized.")
    if _verified(ex, "step:mfa") is None:
        return _error(ex, 401, "Unauthorized request.")
    ex.redirect(303, _step_url(ex, "/mfa/totp", req, "authenticator:totp", [("authenticator", "totp")]))


def _totp(ex):
    if ex.params().get("authenticator") != "totp":
        return _error(ex, 400, "Unknown authenticator.")
    req = _verified(ex, "authenticator:totp")
    if req is None or not req["logged_in"]:
        return _error(ex, 401, "Unauthorized request.")
    ident = (req["connector"], req["user"])
    with locked(ex):
        secrets_ = bucket(ex, "dex.totp")
        secret = secrets_.setdefault(ident, {"seed": ENROLLED[ident], "confirmed": True, "last": -1}) \
            if ident in ENROLLED else secrets_.get(ident)
    post_url = ex.path + "?" + ex.query
    if ex.method == "GET":
        if secret is None:  # first-time enrolment: a new secret, shown only as a QR code
            with locked(ex):
                secret = bucket(ex, "dex.totp").setdefault(
                    ident, {"seed": base64.b32encode(secrets.token_bytes(20)).decode(), "confirmed": False, "last": -1})
        return ex.html(200, pages.totp(_issuer(ex), _path(ex), post_url, TOTP_ISSUER, enrol=not secret["confirmed"]))
    if ex.method != "POST":
        return _error(ex, 400, "Unsupported request method.")
    if secret is None:
        return _error(ex, 400, "MFA not enrolled.")
    # totp.go validateTOTPCode: ±1 step, and a step at or below the last
    # accepted one is refused (single use).
    step = totp_counter(ex.form.get("totp", ""), secret["seed"], window=1)
    with locked(ex):
        ok = step is not None and step > secret["last"]
        if ok:
            secret["last"], secret["confirmed"] = step, True
            req["mfa_ok"] = True
    if not ok:
        return ex.html(200, pages.totp(_issuer(ex), _path(ex), post_url, TOTP_ISSUER,
                                       enrol=not secret["confirmed"], invalid=True))
    ex.redirect(303, _step_url(ex, "/auth", req, "step:continue"))


def _approval(ex):
    if not ex.params().get("hmac"):
        return _error(ex, 401, "Unauthorized request")
    req = _request(ex, ex.params().get("req"))
    if req is None:
        return _error(ex, 400 if _main(ex) else 500, "User session error." if _main(ex) else "Database error.")
    if not req["logged_in"]:
        return _error(ex, 500, "Login process not yet finalized.")
    if _verified(ex, "step:approval" if _main(ex) else None) is None:
        return _error(ex, 401, "Unauthorized request")
    pending = req["pending"]
    if ex.method == "GET":
        return ex.html(200, pages.approval(_issuer(ex), _path(ex), req["id"], pending.client_id,
                                           pending.scope.split()))
    if ex.form.get("approval") != "approve":
        return _error(ex, 500, "Approval rejected.")
    if not _main(ex):
        return _send_code(ex, req)
    with locked(ex):
        bucket(ex, "dex.consents")[(ex.scenario, req["connector"], req["user"], pending.client_id)] = True
    ex.redirect(303, _step_url(ex, "/auth", req, "step:approved"))


def _send_code(ex, req):
    with locked(ex):
        gone = bucket(ex, "dex.requests").pop(req["id"], None) is None
    if gone:
        return _error(ex, 400, "User session error.")
    finish(ex, req["pending"], req["user"], _issuer(ex), status=303)


# ---- router ---------------------------------------------------------------------------

def route(ex):
    rest = ex.rest
    if not (rest == "dex" or rest.startswith("dex/")):
        return ex.send(404, "404 page not found\n")
    sub = rest[3:]
    if sub == "/.well-known/openid-configuration":
        iss = _issuer(ex)
        return ex.json_response(200, discovery(iss, iss + "/auth", iss + "/token", userinfo_endpoint=iss + "/userinfo"))
    if sub == "/token":
        return token(ex, _issuer(ex))
    if sub == "/auth":
        return _authorize(ex)
    parts = sub.split("/")
    if len(parts) == 3 and parts[1] == "auth":
        return _connector_login(ex, parts[2])
    if len(parts) == 4 and parts[1] == "auth" and parts[3] == "login":
        return _password_login(ex, parts[2])
    if sub == "/approval":
        return _approval(ex)
    if _main(ex) and sub == "/mfa":
        return _mfa(ex)
    if _main(ex) and sub == "/mfa/totp":
        return _totp(ex)
    ex.send(404, "404 page not found\n")
