"""Authorization request validation and authorization response delivery.

Shared by every scenario: validate() turns the request into a Pending (or
answers with an error itself); answer_code()/answer_error() send the
authorization response the way the response_mode and the scenario ask for.
"""
from urllib.parse import urlencode

import pages
import uri_variants
from exchange import add_params
from oauth_store import CLIENTS, Pending, random_token

RESPONSE_MODES = ("query", "fragment", "form_post")

# Scenario -> HTTP status of the redirect carrying the answer (default 302).
REDIRECT_STATUS = {"status-301": 301, "status-303": 303, "status-307": 307, "status-308": 308}

# Scenarios that add iss (RFC 9207); the value None means "the real issuer",
# a callable computes it from the exchange.
ISS_SCENARIOS = {
    "iss": None, "wrong-iss": "https://evil.example", "form-post": None,
    "discovery": None, "discovery-8414": None, "discovery-wrong-issuer": None,
    "discovery-no-s256": None, "discovery-other-revocation": None, "discovery-other-userinfo": None,
    # Another origin than the authorization endpoint's (RFC 9207 §2.4: iss
    # must match the issuer the request was sent to).
    "iss-other-origin": "http://127.0.0.2:1/evil",
    # This origin, another path: passes an origin check, fails an exact one.
    "iss-same-origin": lambda ex: ex.base + "/other-tenant",
}

# error= answers whose state is missing or forged carry text an attacker
# would write: nothing ties them to our request (RFC 6749 §10.12), so a client
# must not show them. The ESC makes any
# leak to a terminal visible too.
FORGED_DESCRIPTION = "\x1b[2JSession expired. Sign in again at https://evil.example/login"

# Terminal control characters a hostile server may put in text a client shows
# or prints: ESC (an OSC retitle and a CSI), BEL, C1 CSI, DEL and a bidi override.
CONTROL_TEXT = "Denied\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\x7f"

# Text that fakes or reorders a line without a single control character:
# a LINE SEPARATOR then what reads as authcode's own note, a PARAGRAPH
# SEPARATOR, every other Bidi_Control character and the invisible ones
# (ARCHITECTURE "Security rules").
SPOOF_TEXT = ("Denied\u2028authcode: note: the login worked\u2029"
              "\u061c\u200e\u200f\u2066x\u2069\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeffend")


def validate(ex):
    """Check the authorization request; return a Pending, or None once answered.

    An unknown client or a missing redirect_uri gets an HTML 400 page: the
    redirect_uri cannot be trusted, so we never redirect to it. Later problems
    are reported to the redirect_uri with error=invalid_request.
    """
    p = ex.params()
    client_id = p.get("client_id")
    if client_id not in CLIENTS:
        ex.html(400, pages.message_page("Error", "unknown client"))
        return None
    redirect_uri = p.get("redirect_uri")
    if not redirect_uri:
        ex.html(400, pages.message_page("Error", "missing redirect_uri"))
        return None
    mode = p.get("response_mode") or "query"
    challenge = p.get("code_challenge") or None
    method = p.get("code_challenge_method") or ("plain" if challenge else None)
    pending = Pending(
        client_id=client_id, redirect_uri=redirect_uri, state=p.get("state"),
        challenge=challenge, challenge_method=method, nonce=p.get("nonce"),
        scope=p.get("scope", ""), response_mode=mode if mode in RESPONSE_MODES else "query",
        issuer=ex.issuer)
    problem = None
    if mode not in RESPONSE_MODES:
        problem = "unsupported response_mode"
    elif p.get("response_type") != "code":
        problem = "response_type must be code"
    elif method not in (None, "S256", "plain"):
        problem = "unsupported code_challenge_method"
    elif method and not challenge:
        problem = "code_challenge_method without code_challenge"
    elif not challenge and CLIENTS[client_id] is None:
        problem = "PKCE (code_challenge) is required for public clients"
    elif not challenge and ex.scenario == "pkce-required":
        problem = "code_challenge is required"
    if problem:
        answer_error(ex, pending, "invalid_request", problem)
        return None
    return pending


def _state_and_iss(ex, pending, with_state=True):
    fields = []
    if ex.scenario in ("wrong-state", "error-wrong-state"):
        fields.append(("state", random_token("forged-")))
    elif with_state and pending.state is not None:
        fields.append(("state", pending.state))
    if ex.scenario in ISS_SCENARIOS:
        iss = ISS_SCENARIOS[ex.scenario]
        fields.append(("iss", iss(ex) if callable(iss) else iss or ex.issuer))
    return fields


def answer_code(ex, pending, user, headers=()):
    """Issue a code for `user` and deliver it (two codes for dup-code)."""
    fields = [("code", ex.state.issue_code(pending, ex.issuer, user))]
    if ex.scenario == "dup-code":
        fields.append(("code", ex.state.issue_code(pending, ex.issuer, user)))
    deliver(ex, pending, fields + _state_and_iss(ex, pending), headers)


def answer_error(ex, pending, error, description=None, with_state=True):
    fields = [("error", error)]
    if description:
        fields.append(("error_description", description))
    deliver(ex, pending, fields + _state_and_iss(ex, pending, with_state))


def deliver(ex, pending, fields, headers=()):
    """Send the authorization response per response_mode (form-post forces form_post)."""
    mode = "form_post" if ex.scenario == "form-post" else pending.response_mode
    if mode == "form_post":
        return ex.html(200, pages.form_post_page(pending.redirect_uri, fields), headers)
    if mode == "fragment":
        location = pending.redirect_uri.partition("#")[0] + "#" + urlencode(fields)
    elif ex.scenario == "answer-elsewhere":
        # The answer sent to another callback than the one registered: a
        # client must not follow it (that would hand the code over).
        location = add_params(ex.issuer + "/other-callback", fields)
    elif ex.scenario == "redirect-normalised":
        # Equal to the redirect_uri only after RFC 3986 §6.2.2 normalisation.
        variant = uri_variants.rewrite(pending.redirect_uri, ex.params().get("variant") or "all")
        location = add_params(variant, fields)
    else:
        location = add_params(pending.redirect_uri, fields)
    ex.redirect(REDIRECT_STATUS.get(ex.scenario, 302), _relativize(ex, location), headers)


def _relativize(ex, location):
    """relative: path-absolute Location; relative-dots: '../relative-dots/...'.

    Only when the redirect_uri is on this server (tests use <issuer>/cb);
    otherwise the absolute redirect_uri is kept.
    """
    if ex.scenario == "relative" and location.startswith(ex.base + "/"):
        return location[len(ex.base):]
    if ex.scenario == "relative-dots" and location.startswith(ex.issuer + "/"):
        return "../relative-dots/" + location[len(ex.issuer) + 1:]
    return location
