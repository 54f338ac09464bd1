"""What the replicas of server-rendered providers (dex.py, gitea.py,
gitlab.py, zitadel.py, entra.py, adfs.py) share: per-run state buckets,
random handles, cookies, the OAuth ends (authorization response, token
endpoint, discovery) delegated to the fixture's own modules, and a TOTP
check by pyotp.

Each provider keeps its own state machine in its module; nothing here knows
a provider's pages.
"""
import secrets
from contextlib import contextmanager
from html import escape

import pages
import token_endpoint
from authorize import answer_code, answer_error
from exchange import add_params

esc = escape

# RFC 6238 Appendix B's SHA-1 key ("12345678901234567890"): the fixture's TOTP
# seed (Fixtures/server/README.md), so every replica's TOTP user shares it.
TOTP_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"


def handle(nbytes=16):
    """An opaque random handle (session ids, flow tokens, CSRF secrets)."""
    return secrets.token_urlsafe(nbytes)


def guid():
    h = secrets.token_hex(16)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@contextmanager
def locked(ex):
    """The run's lock: every bucket read-modify-write happens under it."""
    with ex.state.lock:
        yield


def bucket(ex, name):
    """A dict of this run kept under `name` (e.g. "dex.requests"); callers
    hold `locked(ex)` while they change what it holds. (dict.setdefault is
    atomic, so this takes no lock itself: it is called under `locked`.)"""
    return ex.state.ext.setdefault(name, {})


def config(ex):
    """The run's POST /_config/<run> object (a copy)."""
    with ex.state.lock:
        return dict(ex.state.config)


def cookie(name, value, path="/", http_only=True, extra=""):
    flags = "; HttpOnly" if http_only else ""
    return ("Set-Cookie", f"{name}={value}; Path={path}{flags}{extra}")


def expire_cookie(name, path="/"):
    return ("Set-Cookie", f"{name}=; Path={path}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT")


def finish(ex, pending, user, issuer, status=302, extra=(), headers=()):
    """The authorization response for `user` (a redirect to the redirect_uri
    with code and state — `status` as the provider sends it — or the
    form_post page), with a code redeemable at `issuer`'s token endpoint;
    `extra` adds the provider's own parameters (session_state…)."""
    ex.issuer = issuer
    if status == 302 and not extra:
        return answer_code(ex, pending, user, headers)
    fields = [("code", ex.state.issue_code(pending, issuer, user))]
    if pending.state is not None:
        fields.append(("state", pending.state))
    fields += list(extra)
    if pending.response_mode == "form_post":
        return ex.html(200, pages.form_post_page(pending.redirect_uri, fields), headers)
    if pending.response_mode == "fragment":
        from urllib.parse import urlencode
        location = pending.redirect_uri.partition("#")[0] + "#" + urlencode(fields)
    else:
        location = add_params(pending.redirect_uri, fields)
    ex.redirect(status, location, headers)


def deny(ex, pending, issuer, error, description):
    ex.issuer = issuer
    answer_error(ex, pending, error, description)


def token(ex, issuer):
    """The fixture's token endpoint (client authentication, PKCE, codes,
    refresh), answering as `issuer`."""
    ex.issuer = issuer
    token_endpoint.token(ex)


def discovery(issuer, authorization_endpoint, token_endpoint_url, **extra):
    """An OpenID Provider Metadata document (OpenID Connect Discovery 1.0 §3)."""
    doc = {
        "issuer": issuer,
        "authorization_endpoint": authorization_endpoint,
        "token_endpoint": token_endpoint_url,
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["HS256"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
        "code_challenge_methods_supported": ["S256", "plain"],
    }
    doc.update(extra)
    return doc


def password_ok(users, username, password):
    """Constant-time check against a {username: password} table."""
    expected = users.get(username or "")
    return expected is not None and secrets.compare_digest(
        expected.encode(), (password or "").encode())


def totp_counter(code, seed=TOTP_SEED, window=1, digits=6, period=30):
    """The RFC 6238 time step `code` belongs to (within ±window steps of
    now), checked by pyotp; None when it matches none. Providers that refuse
    a replayed code keep the last accepted step and compare."""
    import time
    import pyotp  # noqa: PLC0415 (the venv's; replicas with TOTP need it)
    checker = pyotp.TOTP(seed, digits=digits, interval=period)
    now = time.time()
    for delta in range(window, -window - 1, -1):
        at = now + delta * period
        if secrets.compare_digest(checker.at(at), (code or "").strip()):
            return int(at // period)
    return None
