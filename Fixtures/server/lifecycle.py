"""Refresh tokens (RFC 6749 §6) and their rotation.

Every code redemption stores its refresh token (bound to client, issuer,
user and scope). grant_type=refresh_token, with the same client
authentication as the code grant:
- unknown / revoked / another client's or issuer's token -> 400 invalid_grant
- `scope` must be a subset of the original grant -> else 400 invalid_scope;
  the answer carries the narrowed scope, the token keeps the original one
- answer: a fresh access token; an id_token without nonce when the scope
  has openid (OIDC Core §12.2)
- rotate: a new refresh_token each time, the old one invalid (reuse -> 400
  invalid_grant; RFC 9700 §4.14.2)
- refresh-keep: no refresh_token in the answer (the client keeps its own)
- any other scenario: the same refresh_token back, still valid
"""
import token_response
from oauth_store import RefreshGrant


def _error(ex, status, error, description=None):
    obj = {"error": error}
    if description:
        obj["error_description"] = description
    ex.json_response(status, obj)


def issue(ex, client_id, user, scope):
    return ex.state.put_refresh(RefreshGrant(client_id, ex.issuer, user, scope))


def refresh(ex, client_id):
    token = ex.form.get("refresh_token", "")
    grant = ex.state.get_refresh(token)
    if grant is None or grant.client_id != client_id or grant.issuer != ex.issuer:
        return _error(ex, 400, "invalid_grant", "unknown, revoked or rotated refresh token")
    scope = grant.scope
    if "scope" in ex.form:
        asked = ex.form["scope"].split()
        if not set(asked) <= set(grant.scope.split()):
            return _error(ex, 400, "invalid_scope", "scope exceeds the original grant")
        scope = " ".join(asked)
    if ex.scenario == "rotate":
        if ex.state.get_refresh(token, pop=True) is None:  # a concurrent use won
            return _error(ex, 400, "invalid_grant", "unknown, revoked or rotated refresh token")
        answer_token = issue(ex, client_id, grant.user, grant.scope)
    elif ex.scenario == "refresh-keep":
        answer_token = None
    else:
        answer_token = token
    ex.state.count("refreshes")
    token_response.send(ex, token_response.body(ex, client_id, grant.user, scope, None, answer_token))
