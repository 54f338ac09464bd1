"""The OpenID Connect side of the Keycloak replica: discovery, the
authorization endpoint, and the answer to the client.

- <issuer>/.well-known/openid-configuration: the endpoints a client needs.
  Keycloak also publishes jwks_uri and signs id_tokens RS256; the replica
  redeems codes at the fixture's shared token endpoint (token_endpoint.py,
  PKCE checked), whose id_tokens are HS256, so it publishes no jwks_uri.
- <issuer>/protocol/openid-connect/auth: an unknown client or a missing
  redirect_uri is Keycloak's error page (never a redirect); the rest is
  checked by authorize.validate. A valid KEYCLOAK_IDENTITY cookie (SSO)
  skips the login; otherwise a new authentication session (AUTH_SESSION_ID,
  KC_RESTART, KC_AUTH_SESSION) and the flow's first page, at once.
- The answer: 302 redirect_uri?state=…&session_state=…&iss=…&code=… (that
  order, as OIDCLoginProtocol.authenticated adds them), or the response
  mode's; errors (cancel, terms declined) error=access_denied&state&iss.
"""
import hashlib
import secrets

from authorize import deliver, validate
from jwt_util import b64url
from oauth_store import CLIENTS

from . import keycloak_flow as flow
from .keycloak_pages import error_page


def discovery(ctx):
    issuer = ctx.realm_url
    base = issuer + "/protocol/openid-connect"
    ctx.ex.json_response(200, {
        "issuer": issuer,
        "authorization_endpoint": base + "/auth",
        "token_endpoint": base + "/token",
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["public", "pairwise"],
        "id_token_signing_alg_values_supported": ["HS256"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "scopes_supported": ["openid", "profile", "email", "roles", "offline_access"],
        "claims_parameter_supported": True,
        "request_parameter_supported": False,
        "authorization_response_iss_parameter_supported": True,
    })


def signed_in_user(ctx):
    return _identity(ctx)


def _identity(ctx):
    """The user of a valid KEYCLOAK_IDENTITY cookie, or None."""
    value = ctx.ex.cookies.get("KEYCLOAK_IDENTITY", "")
    sid, _, mac = value.partition(".")
    good = b64url(hashlib.sha256(ctx.rr.restart_key + sid.encode()).digest())
    if not sid or not secrets.compare_digest(mac, good):
        return None
    return ctx.rr.user_sessions.get(sid)


def authorize(ctx):
    ex = ctx.ex
    params = ex.params()
    if params.get("client_id") not in CLIENTS:
        return error_page(ctx, "clientNotFoundMessage")
    if not params.get("redirect_uri"):
        return error_page(ctx, "invalidParameterMessage", "redirect_uri")
    pending = validate(ex)
    if pending is None:
        return None
    if params.get("login_hint"):
        pending.data["login_hint"] = params["login_hint"]
    root = ctx.rr.root(ex.cookies.get("AUTH_SESSION_ID"), ctx.settings) or ctx.rr.new_root(ctx.settings)
    ctx.root = root
    ctx.tab = ctx.rr.new_auth_session(root, pending, ctx.settings)
    ctx.set_cookie("AUTH_SESSION_ID", root.id)
    ctx.set_cookie("KC_RESTART", ctx.rr.restart_cookie(ctx.tab))
    ctx.set_cookie("KC_AUTH_SESSION", hashlib.sha256(root.id.encode()).hexdigest()[:32], max_age=60,
                   http_only=False)
    sso_user = _identity(ctx) if params.get("prompt") != "login" else None
    if sso_user is not None:
        ctx.tab.user = sso_user
        from . import keycloak_required_actions as actions  # noqa: PLC0415
        return actions.next_step(ctx)
    return flow.advance(ctx)


def _end_session(ctx):
    ctx.root.tabs.pop(ctx.tab.tab_id, None)
    ctx.expire_cookie("KC_RESTART")


def finish(ctx):
    """The login is done: a user session, its cookies, the code to the client."""
    user = ctx.rr.users[ctx.tab.user]
    sid = ctx.ex.cookies.get("KEYCLOAK_IDENTITY", "").partition(".")[0]
    if ctx.rr.user_sessions.get(sid) != user.username:
        sid = secrets.token_hex(16)
        ctx.rr.user_sessions[sid] = user.username
    mac = b64url(hashlib.sha256(ctx.rr.restart_key + sid.encode()).digest())
    ctx.set_cookie("KEYCLOAK_IDENTITY", f"{sid}.{mac}")
    ctx.set_cookie("KEYCLOAK_SESSION", b64url(hashlib.sha256(sid.encode()).digest()), http_only=False)
    _end_session(ctx)
    pending = ctx.tab.pending
    code = ctx.ex.state.issue_code(pending, ctx.realm_url, user.id)
    fields = [("state", pending.state)] if pending.state is not None else []
    if ctx.settings.session_state:
        fields.append(("session_state", sid))
    fields += [("iss", ctx.realm_url), ("code", code)]
    deliver(ctx.ex, pending, fields, ctx.headers)


def send_error(ctx, error):
    """OIDCLoginProtocol.sendError: the error to the client, the login ended."""
    _end_session(ctx)
    pending = ctx.tab.pending
    fields = [("error", error)]
    if pending.state is not None:
        fields.append(("state", pending.state))
    fields.append(("iss", ctx.realm_url))
    deliver(ctx.ex, pending, fields, ctx.headers)
