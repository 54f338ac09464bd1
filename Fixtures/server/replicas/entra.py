"""Replica of Microsoft Entra ID's sign-in (login.microsoftonline.com): the
converged pages and their script's calls, managed and federated users, the
second factors, "Stay signed in?", and the authorization code. See entra.md.

  <root>/<tenant>/oauth2/v2.0/authorize   ConvergedSignIn ($Config: sFT, sCtx, canary, apiCanary, urlPost,
                                          urlGetCredentialType…); an ESTSAUTH session gets the code at once
  <root>/common/GetCredentialType         managed or federated (FederationRedirectUrl -> the ADFS replica)
  <root>/<tenant>/login                   POST login, loginfmt, passwd, ctx, flowToken, canary
  <root>/common/SAS/BeginAuth|EndAuth     JSON (second factors); <root>/common/SAS/ProcessAuth: POST flowToken, request
  <root>/kmsi                             POST flowToken, ctx, LoginOptions (1 = stay signed in, 3 = no)
  <root>/login.srf                        POST wa=wsignin1.0, wresult, wctx (back from ADFS)
  <root>/jsdisabled, /cookiesdisabled     where a browser without scripts or cookies lands
  <root>/<tenant>/oauth2/v2.0/token       the fixture's token endpoint; discovery at <root>/<tenant>/v2.0/.well-known/…
"""
from urllib.parse import quote

from authorize import validate

from . import entra_api as api
from . import entra_pages as pages
from . import entra_state as st
from .adfs_wsfed import read_wresult
from .replica_kit import config, cookie, deny, discovery, finish, guid, handle, locked, password_ok, token

SCENARIOS = {"entra"}
T = st.TENANT

ERRORS = {  # sErrorCode -> AADSTS text (Microsoft's error code reference)
    "50008": "AADSTS50008: SAML assertion is missing or misconfigured in the token.",
    "50034": "AADSTS50034: The user account does not exist in the directory.",
    "50053": "AADSTS50053: The account is locked, you've tried to sign in too many times with an incorrect user ID "
             "or password.",
    "50074": "AADSTS50074: Strong authentication is required and the user did not pass the MFA challenge.",
    "50089": "AADSTS50089: Authentication failed due to flow token expired.",
    "50126": "AADSTS50126: Error validating credentials due to invalid username or password.",
}


def _root(ex):
    return ex.issuer


def _path(ex):
    return ex.issuer[len(ex.base):]


def _issuer(ex):
    return f"{_root(ex)}/{T}/v2.0"


def _error_text(ex, code):
    return "" if config(ex).get("entra_error_text") == "empty" else ERRORS.get(code, "")


# ---- pages ------------------------------------------------------------------------------

def _signin_page(ex, flow, code="50058", headers=()):
    root = _root(ex)
    conf = pages.base_config(root, flow, "ConvergedSignIn")
    conf.update({
        "urlPost": f"{_path(ex)}/{T}/login", "urlGetCredentialType": f"{root}/common/GetCredentialType?mkt=en-US",
        "sErrorCode": code, "sErrTxt": "" if code == "50058" else _error_text(ex, code), "arrValErrs": [code],
        "iLoginMode": 1, "fKMSIEnabled": False, "fIsFidoSupported": False, "fAllowPhoneSignIn": True,
        "urlResetPassword": f"{root}/common/reprocess?ctx={flow['ctx']}", "showCantAccessAccountLink": True,
        "urlResume": f"{root}/common/resume?ctx={flow['ctx']}",
    })
    ex.html(200, pages.converged(root, conf), headers)


def _tfa_page(ex, flow, code=""):
    root = _root(ex)
    conf = pages.base_config(root, flow, "ConvergedTFA")
    conf.update({
        "urlPost": f"{root}/common/SAS/ProcessAuth", "urlBeginAuth": f"{root}/common/SAS/BeginAuth",
        "urlEndAuth": f"{root}/common/SAS/EndAuth",
        "arrUserProofs": [{"authMethodId": m, "data": m, "display": d, "isDefault": dflt, "isLocationAware": False}
                          for m, d, dflt in st.USERS[flow["user"]][1]],
        "oPerAuthPollingInterval": {"PhoneAppNotification": 1.0}, "iPollingInterval": 1000, "iMaxPollAttempts": 10,
        "sAuthMethodInputFieldName": "mfaAuthMethod", "sTrustedDeviceCheckboxName": "rememberMFA",
        "iTotpOtcLength": 6, "iSAOtcLength": 6, "fProofIndexedByType": True, "iRememberMfaDuration": 14.0,
        "sErrorCode": code, "sErrTxt": _error_text(ex, code) if code else "",
    })
    ex.html(200, pages.converged(root, conf))


def _kmsi_page(ex, flow):
    root = _root(ex)
    conf = pages.base_config(root, flow, "KmsiInterrupt")
    conf.update({"urlPost": f"{_path(ex)}/kmsi", "strings": {"desktopsso": {"authenticatingmessage":
                                                                              "Trying to sign you in"}}})
    ex.html(200, pages.converged(root, conf))


def _proofup_page(ex, flow):
    root = _root(ex)
    conf = pages.base_config(root, flow, "ConvergedProofUpRedirect")
    conf.update({"urlPost": f"{root}/{T}/login", "sErrorCode": "",
                 "urlSkipMfaRegistration": f"{root}/{T}/proofup/skip?ctx={quote(flow['ctx'])}&flowToken={quote(flow['ft'])}",
                 "iRemainingDaysToSkipMfaRegistration": 14})
    ex.html(200, pages.converged(root, conf))


def _error_page(ex, code):
    """ConvergedError: the flow cannot go on (no usable context)."""
    root = _root(ex)
    flow = {"ft": "", "ctx": "", "canary": "", "api_canary": "", "correlation_id": guid(), "session_id": guid(),
            "user": None}
    conf = pages.base_config(root, flow, "ConvergedError")
    conf.update({"sErrorCode": code, "iErrorCode": int(code), "strServiceExceptionMessage": ERRORS[code],
                 "urlLogin": f"{root}/{T}/oauth2/v2.0/authorize"})
    ex.html(200, pages.converged(root, conf))


# ---- the flow ---------------------------------------------------------------------------

def _authorize(ex):
    pending = validate(ex)
    if pending is None:
        return
    params = ex.params()
    user = st.session_user(ex)
    if user is not None and params.get("prompt") != "login":
        return _deliver(ex, pending, user, ())
    if params.get("prompt") == "none":
        return deny(ex, pending, _issuer(ex), "login_required",
                    "AADSTS50058: A silent sign-in request was sent but no user is signed in.")
    flow = st.new_flow(ex, pending)
    flow["user"] = params.get("login_hint") or None
    path = _path(ex) + "/"
    headers = [cookie("esctx", flow["esctx"], path, extra="; SameSite=None"),
               cookie("buid", handle(24), path, extra="; SameSite=None"),
               cookie("fpc", handle(16), path, extra="; SameSite=None"),
               cookie("x-ms-gateway-slice", "estsfd", path), cookie("stsservicecookie", "estsfd", path)]
    _signin_page(ex, flow, headers=headers)


def _flow_of_post(ex, ctx_field, token_field, want_stage, check_canary=True):
    """The flow a form POST continues, or None once an error page is sent."""
    flow = st.flow_by_ctx(ex, ex.form.get(ctx_field))
    if flow is None:
        _error_page(ex, "50089")
        return None
    if ex.cookies.get("esctx") != flow["esctx"]:
        ex.redirect(302, _root(ex) + "/cookiesdisabled")
        return None
    if ex.form.get(token_field) != flow["ft"] or flow["stage"] != want_stage \
            or (check_canary and ex.form.get("canary") != flow["canary"]):
        _error_page(ex, "50089")
        return None
    return flow


def _login(ex):
    if ex.method != "POST":
        return ex.send(405, "Method Not Allowed\n")
    flow = _flow_of_post(ex, "ctx", "flowToken", "signin")
    if flow is None:
        return
    username = (ex.form.get("login") or ex.form.get("loginfmt") or "").strip().lower()
    with locked(ex):
        flow["user"] = username
    st.rotate(ex, flow)
    if st.federated(username):
        return ex.redirect(302, api.federation_url(ex, flow, username))
    if username not in st.USERS:
        return _signin_page(ex, flow, "50034")
    if st.is_locked(ex, username):
        return _signin_page(ex, flow, "50053")
    if not password_ok({username: st.USERS[username][0]}, username, ex.form.get("passwd")):
        return _signin_page(ex, flow, "50053" if st.record_failure(ex, username) else "50126")
    _primary_done(ex, flow)


def _primary_done(ex, flow):
    user = flow["user"]
    if user in st.PROOF_UP:
        with locked(ex):
            flow["stage"] = "proofup"
        return _proofup_page(ex, flow)
    if st.USERS.get(user, ("", []))[1]:
        with locked(ex):
            flow["stage"] = "mfa"
        return _tfa_page(ex, flow)
    _after_auth(ex, flow)


def _after_auth(ex, flow):
    if config(ex).get("entra_kmsi", True):
        with locked(ex):
            flow["stage"] = "kmsi"
        st.rotate(ex, flow)
        return _kmsi_page(ex, flow)
    _finish(ex, flow, persistent=False)


def _skip_proofup(ex):
    flow = st.flow_by_ctx(ex, ex.query_params.get("ctx"))
    if flow is None or flow["stage"] != "proofup" or ex.query_params.get("flowToken") != flow["ft"]:
        return _error_page(ex, "50089")
    st.rotate(ex, flow)
    _after_auth(ex, flow)


def _process_auth(ex):
    flow = _flow_of_post(ex, "request", "flowToken", "mfa", check_canary=False)
    if flow is None:
        return
    if not (flow.get("mfa") or {}).get("done"):
        st.rotate(ex, flow)
        return _tfa_page(ex, flow, "50074")
    _after_auth(ex, flow)


def _kmsi(ex):
    flow = _flow_of_post(ex, "ctx", "flowToken", "kmsi", check_canary=False)
    if flow is None:
        return
    choice = ex.form.get("LoginOptions")
    if choice not in ("1", "3"):
        st.rotate(ex, flow)
        return _kmsi_page(ex, flow)
    _finish(ex, flow, persistent=choice == "1")


def _wsfed_return(ex):
    """login.srf: the federated IdP's answer; Entra checks it and goes on."""
    wctx = ex.form.get("wctx", "")
    ctx = dict(part.partition("=")[::2] for part in wctx.split("&")).get("estsrequest", "")
    flow = st.flow_by_ctx(ex, ctx)
    if flow is None or ex.form.get("wa") != "wsignin1.0":
        return _error_page(ex, "50089")
    adfs = config(ex).get("entra_adfs_base") or f"{ex.base}/t/{ex.run}/adfs"
    upn, why = read_wresult(ex.form.get("wresult", ""), adfs + "/adfs/services/trust")
    if upn is None or not st.federated(upn):
        return _error_page(ex, "50008")
    with locked(ex):
        flow["user"], flow["stage"] = upn.lower(), "federated"
    st.rotate(ex, flow)
    _after_auth(ex, flow)


def _finish(ex, flow, persistent):
    st.end(ex, flow)
    sid = st.new_session(ex, flow["user"], persistent)
    path = _path(ex) + "/"
    headers = [cookie("ESTSAUTH", sid, path, extra="; SameSite=None"),
               cookie("ESTSAUTHLIGHT", "+" + guid(), path, http_only=False, extra="; SameSite=None")]
    if persistent:
        headers.append(cookie("ESTSAUTHPERSISTENT", sid, path, extra="; Max-Age=7776000; SameSite=None"))
    _deliver(ex, flow["pending"], flow["user"], headers)


def _deliver(ex, pending, user, headers):
    """302 <redirect_uri>?code&state&session_state, or Entra's "Working..."
    self-posting form for response_mode=form_post."""
    extra = [("session_state", guid())]
    if pending.response_mode == "form_post":
        ex.issuer = _issuer(ex)
        fields = [("code", ex.state.issue_code(pending, ex.issuer, user))]
        if pending.state is not None:
            fields.append(("state", pending.state))
        return ex.html(200, pages.hidden_form(pending.redirect_uri, fields + extra), headers)
    finish(ex, pending, user, _issuer(ex), extra=extra, headers=headers)


def route(ex):
    rest = ex.rest
    root = _root(ex)
    if rest in (f"{T}/v2.0/.well-known/openid-configuration", f"{st.DOMAIN}/v2.0/.well-known/openid-configuration"):
        iss = _issuer(ex)
        return ex.json_response(200, discovery(
            iss, f"{root}/{T}/oauth2/v2.0/authorize", f"{root}/{T}/oauth2/v2.0/token",
            userinfo_endpoint="https://graph.microsoft.com/oidc/userinfo", jwks_uri=f"{root}/{T}/discovery/v2.0/keys",
            response_modes_supported=["query", "fragment", "form_post"], tenant_region_scope="EU"))
    handlers = {
        f"{T}/oauth2/v2.0/authorize": _authorize, f"{T}/login": _login,
        "common/GetCredentialType": lambda ex: api.get_credential_type(ex, root),
        "common/SAS/BeginAuth": api.begin_auth, "common/SAS/EndAuth": api.end_auth,
        "common/SAS/ProcessAuth": _process_auth, "kmsi": _kmsi, "login.srf": _wsfed_return,
        f"{T}/proofup/skip": _skip_proofup,
        "jsdisabled": lambda ex: ex.html(200, pages.js_disabled(root)),
        "cookiesdisabled": lambda ex: ex.html(200, pages.js_disabled(root).replace("JavaScript", "cookies")),
    }
    if rest == f"{T}/oauth2/v2.0/token":
        return token(ex, _issuer(ex))
    handler = handlers.get(rest)
    if handler is None:
        return ex.send(404, "Not Found\n")
    handler(ex)
