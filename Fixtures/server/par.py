"""The pushed authorization request endpoint (RFC 9126) at <issuer>/par
(and <issuer>/mtls/par): a DPoP proof if any (RFC 9449 §10.1, nonce when
`dpop_nonce` names "par"), client authentication, the authorization
parameters (or a request object) validated like at authorize, `dpop_jkt`
checked against the proof key, then 201 with a one-time request_uri.
Errors are 400 JSON (RFC 9126 §2.3); client authentication ones 401.
"""
import client_auth
import dpop
import profile_authorize
import profile_state
import request_object
from profile_http import oauth_error

FORM = "application/x-www-form-urlencoded"
# Fields that authenticate the client rather than describe the request.
AUTH_FIELDS = ("client_id", "client_secret", "client_assertion", "client_assertion_type")


def par(ex, cfg):
    if ex.method != "POST":
        return oauth_error(ex, 405, "invalid_request", "use POST", [("Allow", "POST")])
    profile_state.count(ex.state, "par_requests")
    ctype = ex.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != FORM:
        return oauth_error(ex, 400, "invalid_request",
                           "expected an application/x-www-form-urlencoded body")
    try:
        jkt = dpop.verify(ex, cfg, "par")
    except dpop.DPoPError as exc:
        return dpop.as_error(ex, cfg, "par", exc)
    auth = client_auth.authenticate(ex, cfg, ex.issuer + "/" + ex.rest)
    if auth is None:
        return
    client_id = auth[0]
    form = ex.form
    if "request_uri" in form:
        return oauth_error(ex, 400, "invalid_request",
                           "request_uri is not allowed at the PAR endpoint")
    if "request" in form:
        try:
            params = request_object.verify(ex, cfg, form["request"], client_id)
        except request_object.RequestObjectError as exc:
            return oauth_error(ex, 400, "invalid_request_object", str(exc))
        outside = sorted(k for k in form if k not in AUTH_FIELDS + ("request",))
        if outside and cfg["request_object_outer_params"] == "reject":
            return oauth_error(ex, 400, "invalid_request",
                               "parameters outside the request object: " + ", ".join(outside))
    elif cfg["request_object_required"]:
        return oauth_error(ex, 400, "invalid_request", "a request object is required")
    else:
        params = {k: v for k, v in form.items() if k not in AUTH_FIELDS[1:]}
    if params.get("client_id", client_id) != client_id:
        return oauth_error(ex, 400, "invalid_request", "client_id differs from the authenticated client")
    if not isinstance(params.get("redirect_uri"), str):
        return oauth_error(ex, 400, "invalid_request", "missing redirect_uri")
    resources = profile_authorize.resources_of(ex, params, "request" in form)
    profile_authorize.note_request(ex, params, resources)
    try:
        pending = profile_authorize.build_pending(ex, cfg, params, client_id, resources)
    except profile_authorize.AuthzProblem as exc:
        return oauth_error(ex, 400, exc.error, str(exc))
    bound = params.get("dpop_jkt")
    if bound is not None and jkt is not None and bound != jkt:
        return oauth_error(ex, 400, "invalid_request", "dpop_jkt does not match the DPoP proof key")
    pending.data["dpop_jkt"] = bound or jkt
    lifetime = int(cfg["par_lifetime"])
    uri = profile_state.push(ex.state, pending, client_id, lifetime)
    ex.json_response(201, {"request_uri": uri, "expires_in": lifetime},
                     dpop.nonce_headers(ex, cfg, "par"))
