"""The token endpoint of the signing scenarios (<issuer>/token and
<issuer>/mtls/token): DPoP proof first (so a nonce challenge consumes no
client assertion), client authentication (client_auth.py), then the code
grant (RFC 6749 §4.1.3, RFC 7636, RFC 9449 §10 dpop_jkt binding) or the
refresh grant (RFC 6749 §6, OIDC Core §12.2 faults by `refresh_id_token`).

Issued access tokens are remembered (profile_state.TokenInfo) for userinfo
and the resource endpoint, bound to the proof key (DPoP) or to the client
certificate (tls_client_auth).
"""
import time

import client_auth
import dpop
import lifecycle
import profile_authorize
import profile_state
import server_jwt
from oauth_store import CLIENTS, random_token, verify_pkce
from profile_config import ConfigError
from profile_http import all_values, certificate_thumbprint, oauth_error, peer_certificate

FORM = "application/x-www-form-urlencoded"
REFRESH_FAULTS = ("same", "none", "other-sub", "other-iss", "other-aud", "auth-time-changed")
OTHER_ISSUER = "https://other-issuer.example"


def token(ex, cfg):
    if ex.method != "POST":
        return oauth_error(ex, 405, "invalid_request", "use POST", [("Allow", "POST")])
    ctype = ex.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != FORM:
        return oauth_error(ex, 400, "invalid_request",
                           "expected an application/x-www-form-urlencoded body")
    try:
        jkt = dpop.verify(ex, cfg, "token")
    except dpop.DPoPError as exc:
        return dpop.as_error(ex, cfg, "token", exc)
    auth = client_auth.authenticate(ex, cfg, ex.issuer + "/" + ex.rest)
    if auth is None:
        return
    client_id, method = auth
    if jkt is None and cfg["dpop_required"] and method != "tls_client_auth":
        return oauth_error(ex, 400, "invalid_request", "DPoP proof required")
    resources = all_values(ex, "resource")
    if resources:
        profile_state.note(ex, "resource", resources)
    asked_details = None
    if "authorization_details" in ex.form:  # RFC 9396 §6.1: asked again at token
        profile_state.note(ex, "authorization_details", ex.form["authorization_details"])
        try:
            asked_details = profile_authorize.parse_authorization_details(
                ex.form["authorization_details"])
        except profile_authorize.AuthzProblem as exc:
            return oauth_error(ex, 400, exc.error, str(exc))
    x5t = None
    if method == "tls_client_auth":
        x5t = certificate_thumbprint(peer_certificate(ex))
    grant_type = ex.form.get("grant_type")
    if grant_type == "authorization_code":
        return _code(ex, cfg, client_id, jkt, x5t, resources, asked_details)
    if grant_type == "refresh_token":
        return _refresh(ex, cfg, client_id, jkt, x5t, resources, asked_details)
    oauth_error(ex, 400, "unsupported_grant_type")


def _code(ex, cfg, client_id, jkt, x5t, resources, asked_details):
    form = ex.form
    grant = ex.state.take_code(form.get("code", ""), ex.issuer)
    if grant is None:
        return oauth_error(ex, 400, "invalid_grant", "unknown, used or expired code")
    pending = grant.pending
    if pending.client_id != client_id:
        return oauth_error(ex, 400, "invalid_grant", "code was issued to another client")
    if form.get("redirect_uri") != pending.redirect_uri:
        return oauth_error(ex, 400, "invalid_grant", "redirect_uri mismatch")
    if not verify_pkce(pending, form.get("code_verifier")):
        return oauth_error(ex, 400, "invalid_grant", "PKCE verification failed")
    bound = pending.data.get("dpop_jkt")
    if bound is not None and jkt != bound:
        return oauth_error(ex, 400, "invalid_grant",
                           "DPoP proof key does not match the dpop_jkt of the authorization request")
    ex.state.count("codes_redeemed")
    data = pending.data
    details = data.get("authorization_details")
    refresh = lifecycle.issue(ex, client_id, grant.user, pending.scope)
    profile_state.put_refresh_extra(ex.state, refresh, profile_state.RefreshExtra(
        data["auth_time"], jkt if CLIENTS[client_id] is None else None, details))
    id_token = None
    if "openid" in pending.scope.split():
        id_token = server_jwt.id_token(ex, cfg, client_id, grant.user, pending.nonce,
                                       data["auth_time"], data.get("max_age"),
                                       cfg["id_token_faults"])
    _answer(ex, cfg, client_id, grant.user, pending.scope, jkt, x5t, refresh, id_token,
            asked_details or details, resources or data.get("resource") or [])


def _refresh(ex, cfg, client_id, jkt, x5t, resources, asked_details):
    token = ex.form.get("refresh_token", "")
    grant = ex.state.get_refresh(token)
    if grant is None or grant.client_id != client_id or grant.issuer != ex.issuer:
        return oauth_error(ex, 400, "invalid_grant", "unknown or revoked refresh token")
    extra = profile_state.get_refresh_extra(ex.state, token) or \
        profile_state.RefreshExtra(int(time.time()), None)
    scope = grant.scope
    if "scope" in ex.form:
        asked = ex.form["scope"].split()
        if not set(asked) <= set(grant.scope.split()):
            return oauth_error(ex, 400, "invalid_scope", "scope exceeds the original grant")
        scope = " ".join(asked)
    if extra.jkt is not None and jkt != extra.jkt:
        return oauth_error(ex, 400, "invalid_grant", "refresh token is bound to another DPoP key")
    kind = cfg["refresh_id_token"]
    if kind not in REFRESH_FAULTS:
        raise ConfigError(f"refresh_id_token {kind!r} is not one of {', '.join(REFRESH_FAULTS)}")
    ex.state.count("refreshes")
    id_token = None
    if "openid" in scope.split() and kind != "none":
        user = server_jwt.OTHER_USER if kind == "other-sub" else grant.user
        auth_time = extra.auth_time - 60 if kind == "auth-time-changed" else extra.auth_time
        faults = ["aud"] if kind == "other-aud" else []
        id_token = server_jwt.id_token(ex, cfg, client_id, user, None, auth_time, None, faults,
                                       issuer=OTHER_ISSUER if kind == "other-iss" else None)
    details = asked_details or extra.authorization_details
    _answer(ex, cfg, client_id, grant.user, scope, jkt, x5t, token, id_token, details, resources)


def _answer(ex, cfg, client_id, user, scope, jkt, x5t, refresh, id_token, details, resources):
    expires_in = cfg["expires_in"]
    lifetime = expires_in if isinstance(expires_in, int) and expires_in > 0 else 3600
    cnf = {"jkt": jkt} if jkt else {"x5t#S256": x5t} if x5t else None
    if cfg["access_token_format"] == "jwt":
        access = server_jwt.access_token_jwt(ex, cfg, client_id, user, scope, lifetime, cnf,
                                             resources)
    elif cfg["access_token_format"] == "opaque":
        access = random_token("at-")
    else:
        raise ConfigError("access_token_format must be opaque or jwt")
    profile_state.put_token(ex.state, access, profile_state.TokenInfo(
        client_id, user, scope, ex.issuer, time.monotonic() + lifetime, jkt, x5t, details,
        list(resources)))
    body = {"access_token": access, "token_type": cfg["token_type"] or ("DPoP" if jkt else "Bearer")}
    if expires_in is not None:
        body["expires_in"] = expires_in
    body["refresh_token"] = refresh
    body["scope"] = scope
    if id_token is not None:
        body["id_token"] = id_token
    if details is not None:
        body["authorization_details"] = details
    ex.json_response(200, body, dpop.nonce_headers(ex, cfg, "token"))
