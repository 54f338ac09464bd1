"""Hostile values in the token response and the id_token: no arithmetic a
client does on a claim or on expires_in may trap on them.

The numbers are JSON literals written as they are, never through a Python
float: `-1e999` is valid RFC 8259 §6 syntax whose value no double holds.

idtoken-exp-VARIANT      id_token `exp` is LITERALS[VARIANT]
token-expires-VARIANT    `expires_in` is LITERALS[VARIANT] (not `string`:
                         token-expires-string predates these and sends "3600")
idtoken-not-string       "id_token": 42
idtoken-null             "id_token": null
idtoken-payload-array    an id_token whose payload is the JSON `[1,2]`
"""
import json

import jwt_util

LITERALS = {
    "neg-huge": "-1e999",
    "pos-huge": "1e999",
    "big": "1e300",
    "nan-string": '"nan"',
    "string": '"1700000000"',
    "null": "null",
    "pow70": "1180591620717411303424",  # 2**70: overflows Int64
}
IDTOKEN_EXP = {f"idtoken-exp-{name}": text for name, text in LITERALS.items()}
TOKEN_EXPIRES = {f"token-expires-{name}": text for name, text in LITERALS.items()
                 if name != "string"}
ID_TOKEN_VALUES = {"idtoken-not-string": 42, "idtoken-null": None}
SCENARIOS = set(IDTOKEN_EXP) | set(TOKEN_EXPIRES) | set(ID_TOKEN_VALUES) | {"idtoken-payload-array"}

_MARK = "\u0000hostile\u0000"  # never produced by json.dumps of real claims


def _with_literal(obj: dict, key: str, literal: str, **dumps) -> str:
    """json.dumps(obj) with obj[key] written as the raw literal."""
    text = json.dumps({**obj, key: _MARK}, **dumps)
    return text.replace(json.dumps(_MARK), literal, 1)


def id_token(scenario: str, claims: dict):
    """The id_token value for a hostile scenario, else NotImplemented."""
    if scenario in ID_TOKEN_VALUES:
        return ID_TOKEN_VALUES[scenario]
    if scenario == "idtoken-payload-array":
        return jwt_util.encode_text("[1,2]")
    if scenario in IDTOKEN_EXP:
        return jwt_util.encode_text(_with_literal(claims, "exp", IDTOKEN_EXP[scenario],
                                                  separators=(",", ":")))
    return NotImplemented


def token_body(scenario: str, body: dict):
    """The token response text with a hostile expires_in, else None."""
    if scenario not in TOKEN_EXPIRES:
        return None
    return _with_literal(body, "expires_in", TOKEN_EXPIRES[scenario], separators=(",", ":"))
