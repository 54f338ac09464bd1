"""The JSON calls of Entra's converged pages: GetCredentialType (is the user
managed or federated?) and the strong-authentication service's BeginAuth /
EndAuth (SAS). Request and answer members as Versent/saml2aws
pkg/provider/aad/aad.go sends and reads them and its testdata
(GetCredentialType_{default,adfs}.json, BeginAuth.json, EndAuth.json); result
values as Microsoft's MFA documentation names them (OathCodeIncorrect,
SMSAuthFailedWrongCodeEntered). See entra.md."""
import json
from datetime import datetime, timezone
from urllib.parse import quote

from . import entra_state as st
from .replica_kit import config, guid, locked, totp_counter

PUSH_POLLS = 3   # EndAuth polls answered "pending" before the push is given up on


def _json(ex):
    try:
        return json.loads(ex.body or b"{}")
    except ValueError:
        return {}


def federation_url(ex, flow, username):
    """Where a federated user is sent: the ADFS replica's WS-Federation
    endpoint (the run's `adfs` scenario, or `entra_adfs_base` from the run's
    config), with Entra's context in wctx."""
    adfs = config(ex).get("entra_adfs_base") or f"{ex.base}/t/{ex.run}/adfs"
    wctx = quote("estsredirect=2&estsrequest=" + flow["ctx"], safe="")
    return (f"{adfs}/adfs/ls/?username={quote(username, safe='')}&wa=wsignin1.0"
            f"&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx={wctx}")


def get_credential_type(ex, root):
    """POST urlGetCredentialType {username, flowToken, originalRequest, …},
    header canary = apiCanary."""
    body = _json(ex)
    flow = st.flow_by_ctx(ex, body.get("originalRequest"))
    if flow is None or body.get("flowToken") != flow["ft"] or ex.headers.get("canary") != flow["api_canary"]:
        # The page's state does not match: the scripts start over.
        return ex.json_response(200, {"Username": body.get("username", ""), "IfExistsResult": 0, "ThrottleStatus": 0,
                                      "Credentials": {"PrefCredential": 1, "HasPassword": True},
                                      "ErrorHR": "0x80048820", "apiCanary": flow["api_canary"] if flow else ""})
    username = (body.get("username") or "").strip()
    lower = username.lower()
    creds = {"PrefCredential": 1, "HasPassword": True, "RemoteNgcParams": None, "FidoParams": None,
             "SasParams": None, "CertAuthParams": None, "GoogleParams": None, "FacebookParams": None}
    props = {"UserTenantBranding": None, "DomainType": 3}
    exists, throttle = 0, 0
    if st.federated(lower):
        creds["PrefCredential"] = 4
        creds["FederationRedirectUrl"] = federation_url(ex, flow, username)
        props["DomainType"], throttle = 4, 1
    elif lower not in st.USERS:
        exists = 1
    ex.json_response(200, {"Username": username, "Display": username, "IfExistsResult": exists, "IsUnmanaged": False,
                           "ThrottleStatus": throttle, "Credentials": creds, "EstsProperties": props,
                           "FlowToken": flow["ft"], "IsSignupDisallowed": True, "apiCanary": flow["api_canary"]})


def _sas_answer(flow, method, success, result, retry=False, err=0, entropy=0):
    return {"Success": success, "ResultValue": result, "Message": None, "AuthMethodId": method, "ErrCode": err,
            "Retry": retry, "FlowToken": flow["ft"], "Ctx": flow["ctx"], "SessionId": flow["mfa"]["session"]
            if flow.get("mfa") else None, "CorrelationId": flow["correlation_id"],
            "Timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "Entropy": entropy}


def _flow_for(ex, body):
    """The MFA flow named by Ctx/ctx with the current FlowToken/flowToken."""
    flow = st.flow_by_ctx(ex, body.get("Ctx") or body.get("ctx"))
    token = body.get("FlowToken") or body.get("flowToken")
    if flow is None or flow["stage"] != "mfa" or token != flow["ft"]:
        return None
    return flow


def begin_auth(ex):
    body = _json(ex)
    flow = _flow_for(ex, body)
    method = body.get("AuthMethodId", "")
    if flow is None or body.get("Method") != "BeginAuth":
        return ex.json_response(200, {"Success": False, "ResultValue": "InvalidSession", "Message": None,
                                      "AuthMethodId": method, "ErrCode": 0, "Retry": False})
    proofs = [p[0] for p in st.USERS[flow["user"]][1]]
    if method not in proofs:
        st.rotate(ex, flow)
        return ex.json_response(200, _sas_answer(flow, method, False, "AuthMethodNotRegistered", err=500121))
    entropy = 0
    if method == "PhoneAppNotification" and config(ex).get("entra_number_match", True):
        entropy = 42  # the number the user would pick in the app
    with locked(ex):
        flow["mfa"] = {"method": method, "session": guid(), "polls": 0, "done": False}
    st.rotate(ex, flow)
    ex.json_response(200, _sas_answer(flow, method, True, "Success", entropy=entropy))


def end_auth(ex):
    body = _json(ex)
    flow = _flow_for(ex, body)
    method = body.get("AuthMethodId", "")
    mfa = flow and flow.get("mfa")
    if flow is None or mfa is None or body.get("Method") != "EndAuth" or method != mfa["method"] \
            or body.get("SessionId") != mfa["session"]:
        return ex.json_response(200, {"Success": False, "ResultValue": "InvalidSession", "Message": None,
                                      "AuthMethodId": method, "ErrCode": 0, "Retry": False})
    st.rotate(ex, flow)
    if method == "PhoneAppOTP":
        ok = totp_counter(body.get("AdditionalAuthData", ""), st.TOTP[flow["user"]]) is not None
        if ok:
            with locked(ex):
                mfa["done"] = True
            return ex.json_response(200, _sas_answer(flow, method, True, "Success"))
        return ex.json_response(200, _sas_answer(flow, method, False, "OathCodeIncorrect"))
    if method == "OneWaySMS":
        # No message was sent anywhere a test could read: no code is right.
        return ex.json_response(200, _sas_answer(flow, method, False, "SMSAuthFailedWrongCodeEntered"))
    # PhoneAppNotification: nobody approves on a phone; pending, then given up.
    with locked(ex):
        mfa["polls"] += 1
        polls = mfa["polls"]
    if polls < PUSH_POLLS:
        return ex.json_response(200, _sas_answer(flow, method, False, "AuthenticationPending", retry=True))
    ex.json_response(200, _sas_answer(flow, method, False, "PhoneAppNoResponse"))
