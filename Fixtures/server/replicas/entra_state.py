"""The Entra replica's users and its per-run sign-in flows (one per sCtx):
flow tokens that change on every page, canaries, the esctx cookie, the
smart-lockout counter. See entra.md."""
import time

from .replica_kit import TOTP_SEED, bucket, config, guid, handle, locked

TENANT = "5d2c1e3f-0a4b-4c6d-8e9f-0123456789ab"   # the directory's id, as issuers spell it
DOMAIN = "contoso.example"                        # managed
FEDERATED_DOMAIN = "fabrikam.example"             # federated to the ADFS replica
DEFAULT_LOCKOUT_THRESHOLD = 10                    # smart lockout's default

# UPN -> (password, proofs): each proof (authMethodId, display, isDefault).
USERS = {
    "alice@contoso.example": ("wonderland", []),
    "bob@contoso.example": ("builder", [("PhoneAppOTP", "Authenticator app", True),
                                        ("PhoneAppNotification", "Authenticator app", False)]),
    "carol@contoso.example": ("wonderland", [("PhoneAppNotification", "Authenticator app", True)]),
    "dave@contoso.example": ("wonderland", [("OneWaySMS", "+X XXXXXXXX89", True)]),
    "frank@contoso.example": ("wonderland", []),      # asked to register security info (skippable)
    "mallory@contoso.example": ("wonderland", []),    # locked
}
TOTP = {"bob@contoso.example": TOTP_SEED}
PROOF_UP = {"frank@contoso.example"}
LOCKED = {"mallory@contoso.example"}


def federated(username):
    return (username or "").lower().endswith("@" + FEDERATED_DOMAIN)


def new_flow(ex, pending):
    """A sign-in flow for an authorization request: its ctx and cookie secret."""
    flow = {"scenario": ex.scenario, "pending": pending, "ctx": handle(48), "ft": handle(96),
            "canary": handle(64), "api_canary": handle(64), "session_id": guid(), "correlation_id": guid(),
            "esctx": handle(32), "user": None, "stage": "signin", "mfa": None, "kmsi": None,
            "created": time.monotonic()}
    with locked(ex):
        bucket(ex, "entra.flows")[flow["ctx"]] = flow
    return flow


def flow_by_ctx(ex, ctx):
    with locked(ex):
        flow = bucket(ex, "entra.flows").get(ctx or "")
    return flow if flow is not None and flow["scenario"] == ex.scenario else None


def rotate(ex, flow):
    """A new flow token (and canary) for the next page; the old ones die."""
    with locked(ex):
        flow["ft"], flow["canary"] = handle(96), handle(64)
    return flow["ft"]


def end(ex, flow):
    with locked(ex):
        bucket(ex, "entra.flows").pop(flow["ctx"], None)


def lockout_threshold(ex):
    return int(config(ex).get("entra_lockout_threshold") or DEFAULT_LOCKOUT_THRESHOLD)


def record_failure(ex, username):
    """Count a wrong password; True once the account is locked."""
    threshold = lockout_threshold(ex)  # reads the run's config under its own lock: not inside ours
    with locked(ex):
        failures = bucket(ex, "entra.failures")
        key = (ex.scenario, username)
        failures[key] = failures.get(key, 0) + 1
        return failures[key] >= threshold


def is_locked(ex, username):
    if username in LOCKED:
        return True
    threshold = lockout_threshold(ex)
    with locked(ex):
        return bucket(ex, "entra.failures").get((ex.scenario, username), 0) >= threshold


def new_session(ex, username, persistent):
    """The ESTSAUTH session a finished sign-in leaves (SSO for the next request)."""
    sid = handle(48)
    with locked(ex):
        bucket(ex, "entra.sessions")[sid] = {"scenario": ex.scenario, "user": username, "persistent": persistent}
    return sid


def session_user(ex):
    for name in ("ESTSAUTH", "ESTSAUTHPERSISTENT"):
        sid = ex.cookies.get(name, "")
        with locked(ex):
            entry = bucket(ex, "entra.sessions").get(sid)
        if entry is not None and entry["scenario"] == ex.scenario:
            return entry["user"]
    return None
