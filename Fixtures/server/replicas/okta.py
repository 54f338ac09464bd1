"""Replica of an Okta org (okta.md): `okta-classic` (Classic Engine: the
Authentication API) and `okta-idx` (Identity Engine: the IDX API).

The scenario root `<base>/t/<run>/<scenario>` is the org; its default
authorization server, the issuer, is `<org>/oauth2/default`.
"""
from . import okta_authn, okta_idx, okta_oauth, replica_otp
from .okta_http import error

SCENARIOS = {"okta-classic", "okta-idx"}
AS = okta_oauth.AS_PATH
DISCOVERY = (AS + "/.well-known/openid-configuration", AS + "/.well-known/oauth-authorization-server")

# rest -> (method, handler(ex, idx_org))
ROUTES = {
    AS + "/v1/authorize": (None, lambda ex, idx: okta_oauth.authorize(ex, idx)),
    AS + "/v1/authorize/redirect": ("GET", lambda ex, idx: okta_oauth.authorize_redirect(ex)),
    AS + "/v1/token": ("POST", lambda ex, idx: okta_oauth.token(ex)),
    "api/v1/authn": ("POST", lambda ex, idx: okta_authn.primary(ex, idx)),
    "api/v1/authn/cancel": ("POST", lambda ex, idx: okta_authn.cancel(ex)),
    "login/login.htm": ("GET", lambda ex, idx: okta_oauth.login_page(ex)),
    "login/sessionCookieRedirect": ("GET", lambda ex, idx: okta_oauth.session_cookie_redirect(ex)),
    "login/step-up/redirect": ("GET", lambda ex, idx: okta_oauth.step_up_redirect(ex)),
    "login/token/redirect": ("GET", lambda ex, idx: okta_oauth.token_redirect(ex)),
}
IDX_PATHS = ("introspect", "identify", "challenge", "challenge/answer", "challenge/poll",
             "challenge/resend", "cancel")


def route(ex):
    if not replica_otp.available():
        return ex.send(501, "pyotp not installed\n")
    idx_org = ex.scenario == "okta-idx"
    ex.issuer = ex.issuer + "/" + AS  # codes and id_tokens carry the AS's issuer
    rest = ex.rest
    if rest in DISCOVERY:
        return ex.json_response(200, okta_oauth.metadata(ex))
    if rest == "cb":
        return ex.send(200, "callback reached\n")
    method, handler = ROUTES.get(rest, (None, None))
    if handler is None and rest.startswith("api/v1/authn/factors/") and rest.endswith("/verify"):
        factor_id = rest[len("api/v1/authn/factors/"):-len("/verify")]
        method, handler = "POST", lambda ex, idx: okta_authn.verify(ex, factor_id)
    if handler is None and idx_org and rest.startswith("idp/idx/") and rest[8:] in IDX_PATHS:
        path = rest[8:]
        method, handler = "POST", lambda ex, idx: okta_idx.handle(ex, path)
    if handler is None or (rest == "login/login.htm" and idx_org) or (rest == "login/token/redirect" and not idx_org):
        return error(ex, 404, "E0000007", "Not found: Resource not found: " + rest)
    if method is not None and ex.method != method:
        return error(ex, 405, "E0000022", "The endpoint does not support the provided HTTP method")
    handler(ex, idx_org)
