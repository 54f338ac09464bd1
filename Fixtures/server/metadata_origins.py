"""Metadata that names endpoints on another origin (RFC 8414 §2, OIDC
Discovery §3), and a login form that posts there. A client trusts with
credentials only the origins of the endpoints it uses (authorization,
token, userinfo, PAR, the key set and their mTLS aliases), never that of
every `*_endpoint` member.

discovery-other-revocation  revocation_endpoint, registration_endpoint,
                            end_session_endpoint, an unknown
                            x_enrol_endpoint and mtls_endpoint_aliases.
                            revocation_endpoint on the other origin
discovery-other-userinfo    userinfo_endpoint on the other origin

Both serve the `discovery` metadata plus those members; authorize -> 302
<issuer>/login?txn=T, whose form posts to the other origin, as
xorigin-form's does (start with --extra-listen).
"""
import xorigin
from listeners import other_base

SCENARIOS = {"discovery-other-revocation", "discovery-other-userinfo"}


def members(ex):
    """The extra metadata members for a scenario of this module ({} otherwise)."""
    if ex.scenario not in SCENARIOS:
        return {}
    with ex.state.lock:
        other = ex.state.config.get("other")
    other = (other or other_base(ex.base) or "").rstrip("/")
    if not other:
        return {}
    there = f"{other}/t/{ex.run}/{ex.scenario}"
    if ex.scenario == "discovery-other-userinfo":
        return {"userinfo_endpoint": there + "/userinfo"}
    return {"revocation_endpoint": there + "/revoke", "registration_endpoint": there + "/register",
            "end_session_endpoint": there + "/logout", "x_enrol_endpoint": there + "/enrol",
            "mtls_endpoint_aliases": {"revocation_endpoint": there + "/mtls/revoke"}}


AUTHORIZE = {name: xorigin.form_authorize for name in SCENARIOS}
PAGES = {(name, "login"): xorigin.form_login for name in SCENARIOS}
