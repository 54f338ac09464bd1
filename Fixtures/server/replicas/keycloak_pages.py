"""Keycloak's login pages: the data model a template gets, and rendering.

Keycloak's FreeMarkerLoginFormsProvider hands each template (`login.ftl`,
`login-otp.ftl`…) a data model: `url`, `realm`, `client`, `auth`, `message`,
`messagesPerField` and the page's own attributes. model() builds the same
model; the realm's login theme renders it — `keycloak` (base templates),
`keycloak.v2` (PatternFly 5 templates), or a Keycloakify theme, whose page
holds the model as `window.kcContext` and no form at all.
"""
import hashlib
from dataclasses import dataclass, field
from typing import Optional

from . import keycloak_kccontext, keycloak_theme_v1, keycloak_theme_v2
from .keycloak_messages import msg
from .keycloak_realm import REALM

RENDERERS = {"keycloak": keycloak_theme_v1.render, "keycloak.v2": keycloak_theme_v2.render,
             "keycloakify": keycloak_kccontext.render}


@dataclass
class Page:
    template: str                       # "login.ftl"
    attrs: dict = field(default_factory=dict)
    message: Optional[tuple] = None     # (type, summary): error | warning | success | info
    errors: dict = field(default_factory=dict)   # messagesPerField: field -> text
    status: int = 200
    show_username: bool = False         # auth.showUsername(): the attempted-username box
    try_another_way: bool = False       # auth.showTryAnotherWayLink()
    with_action: bool = True            # url.loginAction (error pages have none)
    headers: list = field(default_factory=list)


def error_message(key, *args) -> tuple:
    return ("error", msg(key, *args))


def model(ctx, page: Page) -> dict:
    tab = ctx.tab
    m = {
        "pageId": page.template,
        "url": ctx.urls(page.with_action and tab is not None),
        "realm": {"name": REALM, "displayName": REALM, "displayNameHtml": REALM,
                  "internationalizationEnabled": False, "registrationEmailAsUsername": False,
                  "loginWithEmailAllowed": True, "rememberMe": False, "password": True,
                  "resetPasswordAllowed": False, "registrationAllowed": False,
                  "duplicateEmailsAllowed": False, "editUsernameAllowed": False},
        "client": {"clientId": tab.client_id if tab else "", "attributes": {}},
        "messagesPerField": dict(page.errors),
        "properties": {},
        "lang": "en",
        "darkMode": True,
    }
    if tab is not None:
        m["auth"] = {"showUsername": page.show_username, "showResetCredentials": False,
                     "showTryAnotherWayLink": page.try_another_way}
        attempted = tab.notes.get("ATTEMPTED_USERNAME")
        if attempted and page.show_username:
            m["auth"]["attemptedUsername"] = attempted
        m["authenticationSession"] = {
            "authSessionIdHash": hashlib.sha256(ctx.root.id.encode()).hexdigest()[:32]}
    if page.message is not None:
        m["message"] = {"type": page.message[0], "summary": page.message[1]}
    attrs = dict(page.attrs)
    if "authenticationSelections" in attrs:
        m["auth"]["authenticationSelections"] = attrs.pop("authenticationSelections")
    m.update(attrs)
    return m


def render(ctx, page: Page):
    """Answer the request with the page in the realm's login theme."""
    html = RENDERERS[ctx.scenario.theme](model(ctx, page))
    ctx.ex.html(page.status, html, ctx.headers + page.headers)


def error_page(ctx, key, *args, status=400):
    """ErrorPage.error: error.ftl with the message, no action URL."""
    render(ctx, Page("error.ftl", message=error_message(key, *args), status=status, with_action=False,
                     attrs={"skipLink": True}))
