"""Replica of AD FS's forms sign-in, as the federation provider Entra sends
federated users to (WS-Federation, /adfs/ls/) and as a standalone OpenID
Connect provider (AD FS 2019: /adfs/oauth2/authorize/, /adfs/oauth2/token/).
See adfs.md.

  GET  <root>/adfs/ls/?wa=wsignin1.0&wtrealm=…&wctx=…[&username=]   the login page (form#loginForm)
  POST (the form's action: the same URL + client-request-id)         UserName, Password, AuthMethod=FormsAuthentication
       wrong: 200 + #errorText; TOTP user: 200 the MFA adapter page (AuthMethod=AzureMfaAuthentication,
       Context, VerificationCode); right: 302 back to the same URL with the MSISAuth cookie
  GET  (with MSISAuth)   /adfs/ls/: 200 "Working..." form posting wa, wresult, wctx to Entra's login.srf
                         /adfs/oauth2/authorize/: 302 <redirect_uri>?code&state
"""
from urllib.parse import urlsplit

from authorize import validate

from . import adfs_pages as pages
from .adfs_wsfed import AUDIENCE, build_wresult
from .entra_pages import hidden_form
from .replica_kit import TOTP_SEED, bucket, config, cookie, discovery, finish, guid, handle, locked, password_ok, \
    token, totp_counter

SCENARIOS = {"adfs"}

USERS = {"erin@fabrikam.example": "wonderland", "bob@fabrikam.example": "builder",
         "mallory@fabrikam.example": "wonderland"}
NETBIOS = "FABRIKAM"
TOTP = {"bob@fabrikam.example": TOTP_SEED}
LOCKED = {"mallory@fabrikam.example"}
BAD_CODE = "The verification code you entered is not valid. Try again."


def _adfs(ex):
    return ex.issuer + "/adfs"


def _theme(ex):
    return config(ex).get("adfs_theme") or "2019"


def _upn(login):
    """UPN (user@domain) or down-level (DOMAIN\\user) logon name -> UPN."""
    login = (login or "").strip()
    if "\\" in login:
        domain, _, user = login.partition("\\")
        return f"{user.lower()}@fabrikam.example" if domain.upper() == NETBIOS else ""
    return login.lower()


def _action(ex):
    """The form posts to the URL it came from, plus a client-request-id."""
    url = ex.path + ("?" + ex.query if ex.query else "")
    if "client-request-id=" in url:
        return url
    return url + ("&" if "?" in url else "?") + "client-request-id=" + guid()


def _session(ex):
    with locked(ex):
        entry = bucket(ex, "adfs.sessions").get(ex.cookies.get("MSISAuth", ""))
    return entry["user"] if entry is not None and entry["scenario"] == ex.scenario else None


def _sign_in(ex, on_session):
    """The forms sign-in, shared by WS-Fed and OAuth: GET shows the form or
    (signed in) calls on_session(user); POST checks it."""
    user = _session(ex)
    if ex.method != "POST":
        if user is not None:
            return on_session(user)
        return ex.html(200, pages.login(_action(ex), ex.query_params.get("username", ""), theme=_theme(ex)))
    method = ex.form.get("AuthMethod")
    if method == "AzureMfaAuthentication":
        return _second_factor(ex)
    if method != "FormsAuthentication":
        return ex.html(200, pages.login(_action(ex), ex.form.get("UserName", ""), theme=_theme(ex)))
    upn = _upn(ex.form.get("UserName"))
    if upn not in USERS or upn in LOCKED or not password_ok(USERS, upn, ex.form.get("Password")):
        # AD FS says the same for an unknown user, a wrong password and a locked account.
        return ex.html(200, pages.login(_action(ex), ex.form.get("UserName", ""), pages.WRONG, _theme(ex)))
    if upn in TOTP:
        context = handle(48)
        with locked(ex):
            bucket(ex, "adfs.contexts")[context] = {"scenario": ex.scenario, "user": upn}
        return ex.html(200, pages.mfa(_action(ex), context, theme=_theme(ex)))
    _authenticated(ex, upn)


def _second_factor(ex):
    with locked(ex):
        entry = bucket(ex, "adfs.contexts").get(ex.form.get("Context", ""))
    if entry is None or entry["scenario"] != ex.scenario:
        return ex.html(200, pages.login(_action(ex), "", pages.WRONG, _theme(ex)))
    if totp_counter(ex.form.get("VerificationCode", ""), TOTP[entry["user"]]) is None:
        return ex.html(200, pages.mfa(_action(ex), ex.form["Context"], BAD_CODE, _theme(ex)))
    with locked(ex):
        bucket(ex, "adfs.contexts").pop(ex.form["Context"], None)
    _authenticated(ex, entry["user"])


def _authenticated(ex, upn):
    """302 back to the same URL with the authentication cookie (MSISAuth)."""
    sid = handle(48)
    with locked(ex):
        bucket(ex, "adfs.sessions")[sid] = {"scenario": ex.scenario, "user": upn}
    target = ex.path + ("?" + ex.query if ex.query else "")
    ex.redirect(302, target, [cookie("MSISAuth", sid, urlsplit(_adfs(ex)).path + "/")])


def _wsfed(ex):
    p = ex.params()
    if p.get("wa") != "wsignin1.0" or p.get("wtrealm") != AUDIENCE:
        return ex.html(400, "<html><body><p>An error occurred.</p><p>Contact your administrator for more "
                            "information.</p></body></html>")

    def answer(upn):
        entra = config(ex).get("adfs_entra_base") or f"{ex.base}/t/{ex.run}/entra"
        fields = [("wa", "wsignin1.0"), ("wresult", build_wresult(upn, _adfs(ex) + "/services/trust")),
                  ("wctx", p.get("wctx", ""))]
        path = urlsplit(_adfs(ex)).path + "/"
        stamp = handle(12)
        ex.html(200, hidden_form(entra + "/login.srf", fields),
                [cookie("MSISAuthenticated", stamp, path), cookie("MSISLoopDetectionCookie", stamp, path),
                 cookie("MSISSignout", handle(16), path)])
    _sign_in(ex, answer)


def _authorize(ex):
    pending = validate(ex)
    if pending is None:
        return
    _sign_in(ex, lambda upn: finish(ex, pending, upn, _adfs(ex)))


def route(ex):
    rest = ex.rest.rstrip("/")
    iss = _adfs(ex)
    if rest == "adfs/.well-known/openid-configuration":
        return ex.json_response(200, discovery(iss, iss + "/oauth2/authorize/", iss + "/oauth2/token/",
                                               userinfo_endpoint=iss + "/userinfo", jwks_uri=iss + "/discovery/keys",
                                               access_token_issuer=iss + "/services/trust"))
    if rest == "adfs/oauth2/token":
        return token(ex, iss)
    if rest == "adfs/oauth2/authorize":
        return _authorize(ex)
    if rest == "adfs/ls":
        return _wsfed(ex)
    ex.send(404, "Not Found\n")
