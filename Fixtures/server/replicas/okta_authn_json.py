"""The Classic Authentication API's transaction object, as Okta answers it:
`stateToken`, `expiresAt`, `status`, `factorResult`, `_embedded` (user,
factors, factor, policy) and `_links` (next, prev, cancel, resend), each
link with `hints.allow`. Shapes from the Authentication API reference and
the fixtures of okta-auth-js (test/support/xhr/mfa-required.js,
mfa-challenge-push.js, mfa-challenge-sms.js, locked-out.js,
password-expired.js, success.js) and of the Sign-In Widget
(playground/mocks/data/api/v1/authn/*.json).
"""
from .okta_http import iso
from .okta_users import profile

TX_SECONDS = 300


def link(href: str, name: str = "") -> dict:
    out = {"name": name} if name else {}
    out.update({"href": href, "hints": {"allow": ["POST"]}})
    return out


def verify_href(base: str, factor) -> str:
    return f"{base}/api/v1/authn/factors/{factor.factor_id}/verify"


def factor(base: str, user, f, with_links=True) -> dict:
    if f.kind == "sms":
        prof = dict(f.profile)
    else:
        prof = {"credentialId": user.login, **f.profile}
    out = {"id": f.factor_id, "factorType": f.factor_type, "provider": f.provider,
           "vendorName": f.provider, "profile": prof}
    if with_links:
        out["_links"] = {"verify": link(verify_href(base, f))}
    return out


def _links(base: str, tx) -> dict:
    cancel = link(base + "/api/v1/authn/cancel")
    status = tx.status
    if status == "UNAUTHENTICATED":
        return {"next": link(base + "/api/v1/authn", "authenticate")}
    if status == "LOCKED_OUT":
        return {"next": link(base + "/api/v1/authn/recovery/unlock", "unlock"), "cancel": cancel}
    if status == "PASSWORD_EXPIRED":
        return {"next": link(base + "/api/v1/authn/credentials/change_password", "changePassword"),
                "cancel": cancel}
    if status == "MFA_CHALLENGE":
        href = verify_href(base, tx.factor)
        return {"next": link(href, "poll" if tx.factor.kind == "push" else "verify"),
                "cancel": cancel, "prev": link(base + "/api/v1/authn/previous"),
                "resend": [link(href + "/resend", tx.factor.kind)]}
    if status == "SUCCESS" and tx.key is not None:
        # A transaction the sign-in page began goes back to its fromURI.
        return {"next": {"name": "original", "href": f"{base}/login/step-up/redirect?stateToken={tx.token}",
                         "hints": {"allow": ["GET"]}}}
    return {"cancel": cancel}


def transaction(base: str, tx, session_token: str = "") -> dict:
    out = {}
    # No stateToken once locked out, nor on a SUCCESS that hands out a
    # sessionToken alone; a page-begun SUCCESS keeps it for its step-up link.
    if tx.status != "LOCKED_OUT" and (tx.status != "SUCCESS" or tx.key is not None):
        out["stateToken"] = tx.token
    out["expiresAt"] = iso(TX_SECONDS)
    out["status"] = tx.status
    if tx.status == "SUCCESS":
        out["sessionToken"] = session_token
    if tx.status == "MFA_CHALLENGE":
        out["factorResult"] = tx.factor_result
    embedded = {}
    if tx.user is not None and tx.status not in ("LOCKED_OUT", "UNAUTHENTICATED"):
        embedded["user"] = profile(tx.user)
    if tx.status == "MFA_REQUIRED":
        embedded["factors"] = [factor(base, tx.user, f) for f in tx.user.factors]
    elif tx.status == "MFA_CHALLENGE":
        embedded["factor"] = factor(base, tx.user, tx.factor, with_links=False)
        embedded["policy"] = {"allowRememberDevice": False, "rememberDeviceLifetimeInMinutes": 0,
                              "rememberDeviceByDefault": False, "factorsPolicyInfo": {}}
    elif tx.status == "PASSWORD_EXPIRED":
        embedded["policy"] = {"complexity": {"minLength": 8, "minLowerCase": 1, "minUpperCase": 1,
                                             "minNumber": 1, "minSymbol": 0, "excludeUsername": True}}
    out["_embedded"] = embedded
    out["_links"] = _links(base, tx)
    return out
