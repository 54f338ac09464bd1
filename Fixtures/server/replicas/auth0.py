"""Replica of an Auth0 tenant (auth0.md): `auth0-ul` (Universal Login,
server-rendered prompts) and `auth0-classic` (Classic Login: the Lock page
and /usernamepassword/login).

The scenario root `<base>/t/<run>/<scenario>` is the tenant's domain; the
issuer is the root with a trailing slash, as Auth0's are.
"""
from . import auth0_classic, auth0_oauth, auth0_universal, replica_otp

SCENARIOS = {"auth0-ul", "auth0-classic"}


def route(ex):
    if not replica_otp.available():
        return ex.send(501, "pyotp not installed\n")
    classic = ex.scenario == "auth0-classic"
    ex.issuer = ex.issuer + "/"  # codes and id_tokens carry Auth0's issuer form
    rest, method = ex.rest, ex.method
    if rest in (".well-known/openid-configuration", ".well-known/oauth-authorization-server"):
        return ex.json_response(200, auth0_oauth.metadata(ex))
    if rest == "authorize":
        return auth0_oauth.authorize(ex, classic)
    if rest == "authorize/resume" and method == "GET":
        return auth0_oauth.resume(ex)
    if rest == "oauth/token":
        return auth0_oauth.token(ex)
    if not classic and rest in auth0_universal.PAGES:
        return auth0_universal.handle(ex, rest)
    if classic and rest == "login" and method == "GET":
        return auth0_classic.login_page(ex)
    if classic and rest.startswith("client/") and rest.endswith(".js") and method == "GET":
        return auth0_classic.client_js(ex, rest[len("client/"):-len(".js")])
    if classic and rest == "usernamepassword/login" and method == "POST":
        return auth0_classic.login(ex)
    if classic and rest == "login/callback" and method == "POST":
        return auth0_classic.callback(ex)
    ex.send(404, "Not Found\n")
