"""Test-facing endpoints outside /t/: hits, per-run config, counters, tokens.

GET/DELETE /_hits/<run>     the recorded requests / clear them
GET/POST   /_config/<run>   a JSON object scenarios of that run read
                            (e.g. {"other": "http://127.0.0.2:PORT"}); POST replaces it
GET        /_stats/<run>    counters (requests, codes issued/redeemed, refreshes)
DELETE     /_tokens/<run>   revoke every refresh token of the run
DELETE     /_access/<run>   revoke every access token the signing scenarios issued
                            for the run (a resource then answers 401 invalid_token)
None of these requests is recorded as a hit.
"""
import re

import profile_state
from oauth_store import STORE

RUN = r"[A-Za-z0-9_.-]+"
ADMIN_PATH = re.compile(rf"^/_(hits|config|stats|tokens|access)/({RUN})$")


def handle(ex) -> bool:
    """Answer an admin request; False when the path is not one."""
    match = ADMIN_PATH.match(ex.path)
    if not match:
        return False
    kind, state = match.group(1), STORE.run(match.group(2))
    allowed = {"hits": ("GET", "DELETE"), "config": ("GET", "POST"),
               "stats": ("GET",), "tokens": ("DELETE",), "access": ("DELETE",)}[kind]
    if ex.method not in allowed:
        ex.json_response(405, {"error": "method not allowed"}, [("Allow", ", ".join(allowed))])
    elif kind == "hits" and ex.method == "DELETE":
        with state.lock:
            cleared, state.hits = len(state.hits), []
        ex.json_response(200, {"cleared": cleared})
    elif kind == "hits":
        with state.lock:
            hits = list(state.hits)
        ex.json_response(200, hits)
    elif kind == "config" and ex.method == "POST":
        if not isinstance(ex.json, dict):
            ex.json_response(400, {"error": "expected a JSON object (Content-Type: application/json)"})
        else:
            with state.lock:
                state.config = dict(ex.json)
            ex.json_response(200, {"ok": True})
    elif kind == "config":
        with state.lock:
            config = dict(state.config)
        ex.json_response(200, config)
    elif kind == "stats":
        with state.lock:
            stats = dict(state.stats)
        ex.json_response(200, stats)
    elif kind == "access":
        ex.json_response(200, {"revoked": profile_state.revoke_access(state)})
    else:
        ex.json_response(200, {"revoked": state.revoke_refresh()})
    return True
