"""selftest: hostile numbers in token responses, refresh and token lifetimes."""
import base64
import json
import time

from jwt_util import decode_unverified
from selftest_support import RUN, Client, answer, authorize_get, issuer, redeem, refresh


def t_hostile_numbers(base):
    c = Client(base)

    def token_text(scenario):
        iss, r = authorize_get(c, base, scenario)
        return redeem(c, iss, answer(r.location)["code"]).text
    for name, literal in (("neg-huge", "-1e999"), ("pos-huge", "1e999"), ("big", "1e300"),
                          ("nan-string", '"nan"'), ("null", "null"), ("pow70", "1180591620717411303424")):
        assert f'"expires_in":{literal},' in token_text(f"token-expires-{name}"), name
    assert '"expires_in":"3600"' in token_text("token-expires-string")
    for name, literal in (("neg-huge", "-1e999"), ("string", '"1700000000"'), ("pow70", "1180591620717411303424")):
        body = json.loads(token_text(f"idtoken-exp-{name}").replace(literal, "0"))  # Python reads 1e999 as inf
        payload = body["id_token"].split(".")[1]
        text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
        assert f'"exp":{literal}' in text and '"nonce":"n-1"' in text, text
    assert json.loads(token_text("idtoken-not-string"))["id_token"] == 42
    assert json.loads(token_text("idtoken-null"))["id_token"] is None
    assert decode_unverified(json.loads(token_text("idtoken-payload-array"))["id_token"]) == [1, 2]


def t_refresh_lifecycle(base):
    c = Client(base)
    stats0 = c.request("GET", f"{base}/_stats/{RUN}").json()
    iss, r = authorize_get(c, base, "direct")
    first = redeem(c, iss, answer(r.location)["code"]).json()
    again = refresh(c, iss, first["refresh_token"], scope="openid")
    body = again.json()
    assert again.status == 200 and body["refresh_token"] == first["refresh_token"] and body["scope"] == "openid"
    claims = decode_unverified(body["id_token"])
    assert "nonce" not in claims and claims["sub"] == "alice" and body["access_token"] != first["access_token"]
    assert refresh(c, iss, first["refresh_token"], scope="admin").json()["error"] == "invalid_scope"
    assert refresh(c, issuer(base, "rotate"), first["refresh_token"]).json()["error"] == "invalid_grant"
    assert refresh(c, iss, "rt-unknown").json()["error"] == "invalid_grant"
    assert refresh(c, iss, first["refresh_token"], "weird:app id", "p@ss:w/rd+ =%&").json()["error"] == "invalid_grant"
    iss, r = authorize_get(c, base, "rotate")
    rt1 = redeem(c, iss, answer(r.location)["code"]).json()["refresh_token"]
    rt2 = refresh(c, iss, rt1).json()["refresh_token"]
    assert rt2 != rt1 and refresh(c, iss, rt1).json()["error"] == "invalid_grant"
    assert refresh(c, iss, rt2).status == 200
    iss, r = authorize_get(c, base, "refresh-keep", scope="email")
    rt = redeem(c, iss, answer(r.location)["code"]).json()["refresh_token"]
    kept = refresh(c, iss, rt).json()
    assert "refresh_token" not in kept and "id_token" not in kept and refresh(c, iss, rt).status == 200
    iss, r = authorize_get(c, base, "short-lived")
    t = redeem(c, iss, answer(r.location)["code"]).json()
    assert t["expires_in"] == 2 and refresh(c, iss, t["refresh_token"]).json()["expires_in"] == 2
    iss, r = authorize_get(c, base, "no-expiry")
    t = redeem(c, iss, answer(r.location)["code"]).json()
    assert "expires_in" not in t and t["access_token"].startswith("at-") and "." not in t["access_token"]
    iss, r = authorize_get(c, base, "jwt-access")
    t = redeem(c, iss, answer(r.location)["code"]).json()
    claims = decode_unverified(t["access_token"])
    assert "expires_in" not in t and claims["exp"] > time.time() + 3000 and claims["sub"] == "alice"
    stats = c.request("GET", f"{base}/_stats/{RUN}").json()
    assert stats["codes_redeemed"] - stats0["codes_redeemed"] == 6
    assert stats["refreshes"] - stats0["refreshes"] == 6, stats
    assert c.request("DELETE", f"{base}/_tokens/{RUN}").json()["revoked"] >= 5
    assert refresh(c, iss, t["refresh_token"]).json()["error"] == "invalid_grant"
