"""Token answers just under a client's 4 MiB body limit, each making one
value huge: what a client keeps of them (to print, to verify, to scrub from
its messages) must not multiply their size.

The code is validated and redeemed as usual; the answer is a well-formed
success object with an id_token (HS256 under the fixture key, like every
direct scenario's), padded with a `padding` member so the body is exactly
BODY_SIZE bytes:

token-large-kid      the id_token's header names a 1,000,000-character `kid`
token-large-access   a 3,000,000-character access token
token-large-refresh  a 3,000,000-character refresh token
token-large-claim    the id_token carries a 2,900,000-character `note` claim
"""
import json

import jwt_util
from oauth_store import random_token

BODY_SIZE = 4_150_000  # 3.96 MiB: under authcode's 4 MiB (4,194,304 bytes)
HUGE = {"kid": 1_000_000, "access": 3_000_000, "refresh": 3_000_000, "claim": 2_900_000}
SCENARIOS = {f"token-large-{name}" for name in HUGE}


def _filler(length: int) -> str:
    """base64url characters that no two scenarios share by chance."""
    seed = random_token("")
    return (seed * (length // len(seed) + 1))[:length]


def body(scenario: str, obj: dict):
    """The answer's bytes for a large scenario, else None."""
    if scenario not in SCENARIOS:
        return None
    kind = scenario[len("token-large-"):]
    out = dict(obj)
    if kind == "access":
        out["access_token"] = "at-" + _filler(HUGE[kind])
    if kind == "refresh":
        out["refresh_token"] = "rt-" + _filler(HUGE[kind])
    claims = jwt_util.decode_unverified(obj["id_token"]) if "id_token" in obj else None
    if claims is not None:
        if kind == "claim":
            claims["note"] = _filler(HUGE[kind])
        header = {"alg": "HS256", "typ": "JWT"}
        if kind == "kid":
            header["kid"] = _filler(HUGE[kind])
        out["id_token"] = jwt_util.encode_with_header(header, claims)
    head = json.dumps(out, separators=(",", ":"))[:-1] + ',"padding":"'
    tail = '"}'
    pad = BODY_SIZE - len(head) - len(tail)
    if pad < 0:
        raise ValueError(f"{scenario}: the answer is {-pad} bytes over {BODY_SIZE}")
    return (head + "x" * pad + tail).encode()
