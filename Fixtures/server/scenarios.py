"""Scenario registry and routing for /t/<run>/<scenario>/<rest>.

Every scenario shares /authorize (validated by authorize.validate), /token
and /cb; a few add pages of their own. See README.md for the table.
"""
import time
from html import escape as html_escape

import delivery
import echo
import error_pages
import field_names
import folding
import form_targets
import framing
import hostile
import large
import location_fields
import login_flows
import metadata_origins
import pages
import proxy
import real_servers
import replicas
import signed_scenarios
import standing_banners
import token_endpoint
import totp
import unparsed
import users
import xorigin
from authorize import CONTROL_TEXT, FORGED_DESCRIPTION, SPOOF_TEXT, answer_code, answer_error, validate
from exchange import add_params
from oauth_store import check_user

# Scenarios whose authorize issues the code at once (the "direct family").
DIRECT = {
    "direct", "status-301", "status-303", "status-307", "status-308", "relative",
    "relative-dots", "iss", "wrong-iss", "wrong-state", "dup-code", "form-post",
    "authorize-slow", "pkce-required", "discovery", "discovery-8414",
    "discovery-wrong-issuer", "discovery-no-s256", "discovery-iss-missing",
    "token-400", "token-401", "token-500", "token-bad-json", "token-no-access-token",
    "token-expires-string", "token-pretty", "token-huge", "token-deep", "token-slow",
    "token-stall", "token-drip", "idtoken-wrong-iss", "idtoken-wrong-aud",
    "idtoken-expired", "idtoken-wrong-nonce", "idtoken-aud-array-azp",
    "idtoken-aud-array-no-azp", "idtoken-bad", "answer-elsewhere",
    # iss and redirect spellings (authorize.py)
    "iss-other-origin", "iss-same-origin", "redirect-normalised",
    # token shapes and lifecycle (token_response.py, lifecycle.py)
    "rotate", "refresh-keep", "short-lived", "no-expiry", "jwt-access",
    "echo-token", "token-control", "token-spoof", *framing.TOKEN, *hostile.SCENARIOS, *large.SCENARIOS,
    # token answers that hold a token but do not parse (unparsed.py)
    *unparsed.SCENARIOS,
}
LONG_CHAIN_HOPS = 25
HUGE_HTML_SIZE = 50 * 1000 * 1000


def direct(ex, pending):
    """Code on the first request. `sub` names the user; username/password, if
    sent (an IdP taking credentials POSTed to authorize), must be right."""
    p = ex.params()
    user = p.get("sub") or "alice"
    if "username" in p or "password" in p:
        if not check_user(p.get("username"), p.get("password")):
            return answer_error(ex, pending, "access_denied", "Invalid username or password")
        user = p["username"]
    answer_code(ex, pending, user)


def _with_txn(ex, pending, status, target):
    """Redirect to `target?txn=...`, keeping the pending request server-side."""
    pending.hop_method, pending.hop_body = ex.method, ex.body
    ex.redirect(status, f"{target}?txn={ex.state.put_txn(pending)}")


def _cookie_flood(ex, pending):
    cookies = [("Set-Cookie", f"c{i}=v{i}; Path=/") for i in range(200)]
    answer_code(ex, pending, "alice", cookies)


def _html_huge(ex, pending):
    # One 64 KiB block written again and again: 50 MB never held in memory.
    block = (b"<p>" + b"lorem ipsum " * 5458 + b"</p>\n")[:65536]
    full, rest = divmod(HUGE_HTML_SIZE, len(block))
    chunks = [block] * full + [block[:rest]]
    ex.stream(200, "text/html; charset=utf-8", HUGE_HTML_SIZE, iter(chunks))


AUTHORIZE = {
    "error": lambda ex, p: answer_error(ex, p, "access_denied", "The user denied the request"),
    "error-no-state": lambda ex, p: answer_error(ex, p, "invalid_scope", FORGED_DESCRIPTION,
                                                 with_state=False),
    "error-wrong-state": lambda ex, p: answer_error(ex, p, "access_denied", FORGED_DESCRIPTION),
    "error-control": lambda ex, p: answer_error(ex, p, "access_denied", CONTROL_TEXT),
    "error-spoof": lambda ex, p: answer_error(ex, p, "access_denied", SPOOF_TEXT),
    "no-location": lambda ex, p: ex.redirect(302, None),
    "bad-location": lambda ex, p: ex.redirect(302, "http://[::1"),
    "elsewhere": lambda ex, p: ex.redirect(302, ex.issuer + "/somewhere"),
    "chain": lambda ex, p: _with_txn(ex, p, 302, "step1"),
    "chain-307": lambda ex, p: _with_txn(ex, p, 307, "./step3"),
    "loop": lambda ex, p: ex.redirect(302, "a"),
    "long-chain": lambda ex, p: _with_txn(ex, p, 302, "hop1"),
    "meta-refresh": lambda ex, p: _interstitial(ex, p),
    "refresh-answer": lambda ex, p: _refresh_answer(ex, p),
    "cookie-flood": _cookie_flood,
    "html-huge": _html_huge,
    "non-utf8": lambda ex, p: ex.send(
        200, b"<html><body><p>caf\xff\xfe bad bytes \xc3(</p></body></html>",
        "text/html; charset=utf-8"),
    **login_flows.AUTHORIZE,
    **xorigin.AUTHORIZE,
    **proxy.AUTHORIZE,
    **location_fields.AUTHORIZE,
    **form_targets.AUTHORIZE,
    **metadata_origins.AUTHORIZE,
    **delivery.AUTHORIZE,
    **framing.AUTHORIZE,
    **echo.AUTHORIZE,
    **real_servers.AUTHORIZE,
    **standing_banners.AUTHORIZE,
    **field_names.AUTHORIZE,
    **totp.AUTHORIZE,
    **users.AUTHORIZE,
    **folding.AUTHORIZE,
    **error_pages.AUTHORIZE,
}
AUTHORIZE.update({name: direct for name in DIRECT})
SCENARIOS = frozenset(AUTHORIZE)


def authorize(ex):
    if ex.scenario == "authorize-slow":
        time.sleep(3)
    if ex.scenario == "login-direct" and "txn" in ex.params():
        return login_flows.direct_login_submit(ex)
    if ex.scenario == "xorigin-307" and "txn" in ex.query_params:
        return xorigin.s307_replay(ex)
    pending = validate(ex)
    if pending is not None:
        AUTHORIZE[ex.scenario](ex, pending)


# ---- pages of the redirect-game scenarios ------------------------------------

def _chain_step(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"))
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    step, txn = ex.rest, pending.txn
    if step == "step1":
        return ex.redirect(303, f"/t/{ex.run}/{ex.scenario}/step2?txn={txn}")
    if step == "step2":
        return _with_txn(ex, pending, 307, "./step3")
    # step3 follows a 307: same method and body as the request that got it.
    same = ex.method == pending.hop_method and ex.body == pending.hop_body
    if not same or (ex.method == "POST" and "client_id" not in ex.form):
        return ex.html(400, pages.message_page("Error", "307 did not keep method and body."))
    ex.state.get_txn(txn, pop=True)
    answer_code(ex, pending, "alice")


def _interstitial(ex, pending):
    """A "Redirecting…" page that moves on by <meta http-equiv=refresh>, the
    way ADFS- and Shibboleth-style servers do, with entities in the URL."""
    pending.hop_method, pending.hop_body = ex.method, ex.body
    txn = ex.state.put_txn(pending)
    ex.html(200, "<!DOCTYPE html><html><head><title>Redirecting</title>"
                 f"<META HTTP-EQUIV='Refresh' CONTENT='0; URL=continue?txn={txn}&amp;step=1'>"
                 "</head><body><p>Redirecting&hellip;</p></body></html>")


def _refresh_answer(ex, pending):
    """The answer itself delivered by refresh: the client must read it from
    the URL and never fetch the redirect_uri."""
    code = ex.state.issue_code(pending, ex.issuer, "alice")
    target = add_params(pending.redirect_uri, [("code", code), ("state", pending.state)])
    ex.html(200, f'<html><head><meta http-equiv="refresh" content="0;url={html_escape(target)}"></head></html>')


def _continue(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"), pop=True)
    if pending is None or ex.query_params.get("step") != "1":
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    answer_code(ex, pending, "alice")


def _hop(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"))
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    n = int(ex.rest[3:])
    if n < LONG_CHAIN_HOPS:
        return ex.redirect(302, f"hop{n + 1}?txn={pending.txn}")
    ex.state.get_txn(pending.txn, pop=True)
    answer_code(ex, pending, "alice")


PAGES = {
    ("elsewhere", "somewhere"): lambda ex: ex.html(200, "<p>nothing here</p>"),
    ("chain", "step1"): _chain_step,
    ("chain", "step2"): _chain_step,
    ("chain", "step3"): _chain_step,
    ("chain-307", "step3"): _chain_step,
    ("meta-refresh", "continue"): _continue,
    ("loop", "a"): lambda ex: ex.redirect(302, "b"),
    ("loop", "b"): lambda ex: ex.redirect(302, "a"),
    **{("long-chain", f"hop{n}"): _hop for n in range(1, LONG_CHAIN_HOPS + 1)},
    **login_flows.PAGES,
    **xorigin.PAGES,
    **proxy.PAGES,
    **location_fields.PAGES,
    **form_targets.PAGES,
    **metadata_origins.PAGES,
    **delivery.PAGES,
    **echo.PAGES,
    **real_servers.PAGES,
    **standing_banners.PAGES,
    **field_names.PAGES,
    **totp.PAGES,
    **users.PAGES,
    **folding.PAGES,
}
CATCH_ALL = {**real_servers.CATCH_ALL}  # scenario -> handler of every other sub-path


# ---- discovery -------------------------------------------------------------------

def metadata(ex):
    issuer = "https://other.example" if ex.scenario == "discovery-wrong-issuer" else ex.issuer
    methods = ["plain"] if ex.scenario == "discovery-no-s256" else ["S256"]
    return {
        **metadata_origins.members(ex),
        "issuer": issuer,
        "authorization_endpoint": ex.issuer + "/authorize",
        "token_endpoint": ex.issuer + "/token",
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "grant_types_supported": ["authorization_code"],
        "token_endpoint_auth_methods_supported":
            ["client_secret_basic", "client_secret_post", "none"],
        "code_challenge_methods_supported": methods,
        "authorization_response_iss_parameter_supported": True,
    }


def discovery(ex):
    """Metadata only for discovery* scenarios; discovery-8414 has no OIDC document."""
    oidc = ex.rest == ".well-known/openid-configuration"
    if not ex.scenario.startswith("discovery") or (oidc and ex.scenario == "discovery-8414"):
        return ex.send(404, "not found\n")
    ex.json_response(200, metadata(ex))


# ---- router ----------------------------------------------------------------------

def route(ex):
    """Dispatch a request whose ex.run/scenario/rest/issuer/state are set."""
    if ex.scenario in signed_scenarios.SCENARIOS:  # signed, fapi2: every path of their own
        return signed_scenarios.route(ex)
    if ex.scenario in replicas.SCENARIOS:  # identity-provider replicas: every path of their own
        return replicas.route(ex)
    if ex.scenario not in SCENARIOS:
        return ex.send(404, "unknown scenario\n")
    rest = ex.rest
    if rest == "authorize":
        return authorize(ex)
    if rest == "token":
        return token_endpoint.token(ex)
    if rest == "cb":
        return ex.send(200, "callback reached\n")
    if rest in (".well-known/openid-configuration", ".well-known/oauth-authorization-server"):
        return discovery(ex)
    page = PAGES.get((ex.scenario, rest)) or CATCH_ALL.get(ex.scenario)
    if page is None:
        return ex.send(404, "not found\n")
    page(ex)
