"""Two Location fields in one redirect. Location is a singleton field
(RFC 9110 §10.2.2): a client that sees two that differ cannot know which
the server meant, and the one carrying a code must not be redeemed.

The code is issued for the request as `direct` would (so a client that
takes it could redeem it); `<issuer>/elsewhere` answers 200 and its hit
shows a client that followed the other field.

dup-location-code-first  302, `Location: <redirect_uri>?code=…&state=…`,
                         then `Location: <issuer>/elsewhere`
dup-location-code-last   the same two fields the other way round
dup-location-same        the answer's Location twice, byte for byte: one field
"""
from authorize import _state_and_iss
from exchange import add_params

SCENARIOS = {"dup-location-code-first", "dup-location-code-last", "dup-location-same"}


def authorize(ex, pending):
    code = ex.state.issue_code(pending, ex.issuer, "alice")
    answer = add_params(pending.redirect_uri, [("code", code)] + _state_and_iss(ex, pending))
    other = answer if ex.scenario == "dup-location-same" else ex.issuer + "/elsewhere"
    fields = [answer, other] if ex.scenario != "dup-location-code-last" else [other, answer]
    ex.send(302, "Redirecting\n", headers=[("Location", value) for value in fields])


AUTHORIZE = {name: authorize for name in SCENARIOS}
PAGES = {(name, "elsewhere"): lambda ex: ex.html(200, "<p>elsewhere</p>") for name in SCENARIOS}
