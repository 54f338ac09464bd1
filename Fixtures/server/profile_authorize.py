"""The authorization endpoint of the signing scenarios: plain requests,
pushed ones (`request_uri`, RFC 9126 §4), request objects (RFC 9101), JARM
response modes, RFC 9207 `iss`, RFC 8707 `resource` and RFC 9396
`authorization_details`. The code is issued at once, like the "direct"
scenarios: `sub` names the user; username/password, if sent, must be right.

build_pending() is shared with the PAR endpoint (par.py), which reports the
same problems as 400 JSON instead of redirecting them.
"""
import json
import time
from urllib.parse import urlsplit

import authorize
import pages
import profile_state
import request_object
import server_jwt
from oauth_store import CLIENTS, Pending, check_user
from profile_http import all_values

JARM_MODES = {"jwt": "query", "query.jwt": "query", "fragment.jwt": "fragment",
              "form_post.jwt": "form_post"}
MODES = ("query", "fragment", "form_post", *JARM_MODES)


class AuthzProblem(Exception):
    def __init__(self, error, description):
        super().__init__(description)
        self.error = error


def resources_of(ex, params, from_object) -> list:
    """RFC 8707 resources: every `resource` of the query/body, or the
    request object's (a string or an array)."""
    if not from_object:
        return all_values(ex, "resource")
    value = params.get("resource")
    return value if isinstance(value, list) else [] if value is None else [value]


def parse_authorization_details(text):
    """RFC 9396 §2: a JSON array of objects, each with a string `type`."""
    try:
        value = json.loads(text)
    except ValueError:
        raise AuthzProblem("invalid_authorization_details",
                           "authorization_details is not JSON") from None
    if not isinstance(value, list) or not value or not all(
            isinstance(d, dict) and isinstance(d.get("type"), str) for d in value):
        raise AuthzProblem("invalid_authorization_details",
                           "authorization_details must be a non-empty array of objects with a string type")
    return value


def build_pending(ex, cfg, params, client_id, resources) -> Pending:
    """Validate authorization parameters (taken from the query/body, a request
    object or a PAR body); AuthzProblem names what is wrong."""
    mode = params.get("response_mode") or "query"
    challenge = params.get("code_challenge") or None
    method = params.get("code_challenge_method") or ("plain" if challenge else None)
    pending = Pending(
        client_id=client_id, redirect_uri=params.get("redirect_uri"), state=params.get("state"),
        challenge=challenge, challenge_method=method, nonce=params.get("nonce"),
        scope=params.get("scope", ""), response_mode=JARM_MODES.get(mode, mode)
        if mode in MODES else "query", issuer=ex.issuer)
    pending.data.update(jarm=mode in JARM_MODES, resource=resources, max_age=None,
                        authorization_details=None, dpop_jkt=params.get("dpop_jkt"),
                        user=params.get("sub"), username=params.get("username"),
                        password=params.get("password"))
    if mode not in MODES:
        raise AuthzProblem("invalid_request", "unsupported response_mode")
    if params.get("response_type") != "code":
        raise AuthzProblem("invalid_request", "response_type must be code")
    if method is not None and method not in cfg["pkce_methods"]:
        raise AuthzProblem("invalid_request", f"code_challenge_method {method} is not allowed")
    if method and not challenge:
        raise AuthzProblem("invalid_request", "code_challenge_method without code_challenge")
    if not challenge and (CLIENTS.get(client_id, "") is None or cfg["pkce_required"]):
        raise AuthzProblem("invalid_request", "code_challenge is required")
    if cfg["nonce_required"] and "openid" in pending.scope.split() and not pending.nonce:
        raise AuthzProblem("invalid_request", "nonce is required")
    for uri in resources:
        parts = urlsplit(uri) if isinstance(uri, str) else None
        if parts is None or not parts.scheme or "#" in uri:
            raise AuthzProblem("invalid_target", "resource must be an absolute URI without a fragment")
    if "max_age" in params:
        if not str(params["max_age"]).isdigit():
            raise AuthzProblem("invalid_request", "max_age must be a non-negative integer")
        pending.data["max_age"] = int(params["max_age"])
    if "authorization_details" in params:
        details = parse_authorization_details(params["authorization_details"])
        allowed = cfg["authorization_details_types"]
        if allowed is not None and any(d["type"] not in allowed for d in details):
            raise AuthzProblem("invalid_authorization_details",
                               "authorization_details type is not supported")
        pending.data["authorization_details"] = details
    return pending


def _iss_fields(ex, cfg):
    iss = cfg["authorization_iss"]
    if iss is True:
        return [("iss", ex.issuer)]
    return [("iss", iss)] if isinstance(iss, str) else []


def deliver(ex, cfg, pending, fields):
    """Plain modes through authorize.deliver (with iss); JARM modes as one
    `response` JWT whose claims hold the fields (iss is in the JWT)."""
    if pending.data.get("jarm"):
        token = server_jwt.jarm_response(ex, cfg, pending.client_id, fields)
        return authorize.deliver(ex, pending, [("response", token)])
    authorize.deliver(ex, pending, fields + _iss_fields(ex, cfg))


def _state(pending):
    return [("state", pending.state)] if pending.state is not None else []


def report(ex, cfg, pending, error, description):
    deliver(ex, cfg, pending, [("error", error), ("error_description", description)]
            + _state(pending))


def _refuse(ex, cfg, params, client_id, error, description):
    """An error for a request we could not build: redirected when the client
    is known and a redirect_uri was given, else a 400 page."""
    if client_id in CLIENTS and isinstance(params.get("redirect_uri"), str):
        mode = params.get("response_mode") or "query"
        pending = Pending(client_id=client_id, redirect_uri=params["redirect_uri"],
                          state=params.get("state"), challenge=None, challenge_method=None,
                          nonce=None, scope="", response_mode=JARM_MODES.get(mode, mode)
                          if mode in MODES else "query", issuer=ex.issuer)
        pending.data["jarm"] = mode in JARM_MODES
        return report(ex, cfg, pending, error, description)
    ex.html(400, pages.message_page("Error", f"{error}: {description}"))


def answer_code(ex, cfg, pending):
    data = pending.data
    if data.get("username") is not None or data.get("password") is not None:
        if not check_user(data.get("username"), data.get("password")):
            return report(ex, cfg, pending, "access_denied", "Invalid username or password")
        data["user"] = data["username"]
    data["auth_time"] = int(time.time())
    code = ex.state.issue_code(pending, ex.issuer, data.get("user") or "alice")
    deliver(ex, cfg, pending, [("code", code)] + _state(pending))


def authorize_endpoint(ex, cfg):
    p = ex.params()
    if "request_uri" in p:
        return _pushed(ex, cfg, p)
    client_id = p.get("client_id")
    if client_id not in CLIENTS:
        return ex.html(400, pages.message_page("Error", "unknown client"))
    if cfg["par_required"]:
        return _refuse(ex, cfg, p, client_id, "invalid_request",
                       "pushed authorization request required")
    params = p
    if "request" in p:
        try:
            params = request_object.verify(ex, cfg, p["request"], client_id)
        except request_object.RequestObjectError as exc:
            # Outer redirect_uri/state/response_mode first, else the object's (unverified).
            return _refuse(ex, cfg, {**exc.inner, **p}, client_id, "invalid_request_object", str(exc))
        outside = sorted(k for k in p if k not in ("client_id", "request"))
        if outside and cfg["request_object_outer_params"] == "reject":
            return _refuse(ex, cfg, params, client_id, "invalid_request",
                           "parameters outside the request object: " + ", ".join(outside))
    elif cfg["request_object_required"]:
        return _refuse(ex, cfg, p, client_id, "invalid_request", "a request object is required")
    if not isinstance(params.get("redirect_uri"), str):
        return ex.html(400, pages.message_page("Error", "missing redirect_uri"))
    resources = resources_of(ex, params, "request" in p)
    note_request(ex, params, resources)
    try:
        pending = build_pending(ex, cfg, params, client_id, resources)
    except AuthzProblem as exc:
        return _refuse(ex, cfg, params, client_id, exc.error, str(exc))
    answer_code(ex, cfg, pending)


def note_request(ex, params, resources):
    if resources:
        profile_state.note(ex, "resource", resources)
    if "authorization_details" in params:
        profile_state.note(ex, "authorization_details", params["authorization_details"])
    if "dpop_jkt" in params:
        profile_state.note(ex, "dpop_jkt", params["dpop_jkt"])


def _pushed(ex, cfg, p):
    uri, client_id = p["request_uri"], p.get("client_id")
    if not uri.startswith(profile_state.PAR_PREFIX):
        return ex.html(400, pages.message_page(
            "Error", "invalid_request_uri: request_uri must come from the PAR endpoint"))
    entry = profile_state.take_pushed(ex.state, uri, ex.issuer)
    if entry is None:
        return ex.html(400, pages.message_page(
            "Error", "invalid_request_uri: unknown, used or expired request_uri"))
    pending, pushed_by = entry
    if client_id != pushed_by:
        return ex.html(400, pages.message_page(
            "Error", "invalid_request: client_id does not match the pushed request"))
    outside = sorted(k for k in p if k not in ("client_id", "request_uri"))
    if outside:
        profile_state.note(ex, "outside_pushed_request", outside)
        if cfg["par_outer_params"] == "reject":
            return report(ex, cfg, pending, "invalid_request",
                          "parameters beside client_id and request_uri: " + ", ".join(outside))
    answer_code(ex, cfg, pending)
