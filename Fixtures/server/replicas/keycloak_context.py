"""One request to the Keycloak replica: settings, realm state, URLs, cookies.

Keycloak builds every URL from the request it is answering (no fixed
hostname configured), so a replica reached as http://localhost:PORT has the
issuer http://localhost:PORT/t/<run>/<scenario>/realms/demo and WebAuthn's
rpId `localhost` (WebAuthnAuthenticator.getRpID: the base URI's host) —
WebAuthn allows no IP literal as rpId, so passkey tests use localhost.
Cookies are host-only and scoped to the realm path, as CookiePath.REALM.
"""
import base64
import json
import re
from urllib.parse import urlencode, urlsplit

from . import keycloak_realm as realm
from . import keycloak_state as state
from .keycloak_kccontext import THEME_NAME

_HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")


def frontend_base(ex) -> str:
    """scheme://Host of the request (the listener's base if Host is odd)."""
    host = ex.headers.get("host", "")
    scheme = urlsplit(ex.base).scheme
    return f"{scheme}://{host}" if _HOST.match(host) else ex.base


class Ctx:
    def __init__(self, ex):
        self.ex = ex
        self.settings = realm.settings(ex)
        self.scenario = self.settings.scenario
        self.rr = state.realm_run(ex, self.settings)
        self.base = frontend_base(ex)
        self.root_url = f"{self.base}/t/{ex.run}/{ex.scenario}"
        self.realm_url = f"{self.root_url}/realms/{realm.REALM}"
        self.cookie_path = f"/t/{ex.run}/{ex.scenario}/realms/{realm.REALM}/"
        self.headers = []        # Set-Cookie headers for the answer
        self.root = None         # RootSession
        self.tab = None          # AuthSession
        ex.issuer = self.realm_url   # codes and id_tokens carry the realm's issuer

    # ---- time, WebAuthn origin ------------------------------------------------

    def now(self) -> float:
        return state.now(self.settings)

    @property
    def origin(self) -> str:
        return self.base

    @property
    def rp_id(self) -> str:
        return urlsplit(self.base).hostname or ""

    # ---- cookies ------------------------------------------------------------------

    def set_cookie(self, name, value, max_age=None, http_only=True):
        parts = [f"{name}={value}", f"Path={self.cookie_path}"]
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        if self.base.startswith("https:"):
            parts += ["Secure", "SameSite=None"]
        if http_only:
            parts.append("HttpOnly")
        self.headers.append(("Set-Cookie", "; ".join(parts)))

    def expire_cookie(self, name):
        self.headers.append(("Set-Cookie", f"{name}=; Expires=Thu, 01-Jan-1970 00:00:10 GMT; "
                                           f"Max-Age=0; Path={self.cookie_path}; HttpOnly"))

    # ---- URLs -----------------------------------------------------------------------

    def client_data(self) -> str:
        """client_data of the action URLs (Keycloak 26): the client's request in brief."""
        p = self.tab.pending
        data = {"ru": p.redirect_uri, "rt": "code", "rm": p.response_mode}
        if p.state is not None:
            data["st"] = p.state
        return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()

    def tab_query(self) -> list:
        return [("client_id", self.tab.client_id), ("tab_id", self.tab.tab_id),
                ("client_data", self.client_data())]

    def action_url(self, with_code=True, path=None, execution=None) -> str:
        """url.loginAction: login-actions/<flow>?session_code&execution&client_id&tab_id&client_data."""
        tab = self.tab
        query = []
        if with_code:
            query.append(("session_code", tab.code()))
        exe = execution if execution is not None else tab.execution
        if exe:
            query.append(("execution", exe))
        return f"{self.realm_url}/login-actions/{path or tab.flow_path}?" + urlencode(query + self.tab_query())

    def tab_url(self, path) -> str:
        return f"{self.realm_url}/login-actions/{path}?" + urlencode(self.tab_query())

    def resources_path(self) -> str:
        theme = THEME_NAME if self.scenario.theme == "keycloakify" else self.scenario.theme
        return f"/t/{self.ex.run}/{self.ex.scenario}/resources/kc26/login/{theme}"

    def urls(self, with_action=True) -> dict:
        """The template's `url` bean."""
        common = f"/t/{self.ex.run}/{self.ex.scenario}/resources/kc26/common/keycloak"
        urls = {"resourcesPath": self.resources_path(), "resourcesCommonPath": common,
                "loginUrl": self.realm_url + "/protocol/openid-connect/auth"}
        if self.tab is not None:
            urls.update({
                "loginRestartFlowUrl": self.tab_url("restart"),
                "loginResetCredentialsUrl": self.tab_url("reset-credentials"),
                "registrationUrl": self.tab_url("registration"),
                "ssoLoginInOtherTabsUrl": self.tab_url("authenticate"),
                "oauthAction": self.tab_url("consent"),
            })
            if with_action:
                urls["loginAction"] = self.action_url()
        return urls
