"""A Keycloakify login theme: the page is a React app's shell, no form.

Keycloakify (keycloakify/keycloakify) turns the app's index.html into one
FreeMarker template per page; src/bin/keycloakify/generateFtl/
kcContextDeclarationTemplate.ftl prepends a script that writes the
template's whole data model as a JavaScript literal, `const kcContext = {…};`,
then sets pageId and friends and `window.kcContext = kcContext`. Its shape,
reproduced here: 4-space indents, `"key": value,` with trailing commas,
strings through FreeMarker's ?js_string, messagesPerField as functions, a
`/* … */` comment where a value was left out. The app (src/login/pages/*.tsx)
then posts to kcContext.url.loginAction (url.oauthAction on the consent
page, whose loginAction the declaration leaves out) with the field names of
Keycloak's own templates.
"""
import json

KEYCLOAKIFY_VERSION = "11.8.0"
THEME_NAME = "keycloakify-starter"


def js_string(text) -> str:
    """FreeMarker ?js_string: quotes and backslashes escaped, `<` as \\x3C
    (so no `</script>` can end the script), control characters escaped."""
    out = json.dumps(str(text))[1:-1]
    return out.replace("'", "\\'").replace("<", "\\x3C").replace(">", "\\x3E")


def _value(value, depth) -> str:
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, dict):
        lines = [f'{inner}"{key}": {_value(v, depth + 1)},' for key, v in value.items() if v is not None]
        return "{\n" + "\n".join(lines) + ("\n" if lines else "") + pad + "}"
    if isinstance(value, (list, tuple)):
        lines = [f"{inner}{_value(v, depth + 1)}," for v in value]
        return "[\n" + "\n".join(lines) + ("\n" if lines else "") + pad + "]"
    return '"' + js_string(value) + '"'


def _fields_function(errors, names, kind) -> str:
    """messagesPerField.get / existsError as the declaration writes them:
    one `if(fieldName === '…')` per field name the theme uses."""
    code = "function (fieldName) { "
    for name in names:
        text = errors.get(name, "")
        if kind == "get":
            body = f'return decodeHtmlEntities("{js_string(text)}"); ' if text else "return ''; "
        else:
            body = "return true; " if text else "return false; "
        code += f"if(fieldName === '{name}'){{ {body}}} "
    return code + "}"


FIELD_NAMES = ("username", "password", "password-confirm", "password-new", "totp", "userLabel",
               "email", "firstName", "lastName", "global")


def declaration(m) -> str:
    errors = dict(m.get("messagesPerField") or {})
    if m["pageId"] == "login.ftl" and (errors.get("username") or errors.get("password")):
        # The declaration reports login.ftl's username/password errors under both names.
        errors["username"] = errors["password"] = errors.get("username") or errors.get("password")
    model = {k: v for k, v in m.items() if k not in ("messagesPerField", "pageId", "lang", "darkMode")}
    url = dict(model.get("url") or {})
    if m["pageId"] in ("login-oauth-grant.ftl", "error.ftl"):
        url.pop("loginAction", None)   # left out of these pages by the declaration
    model["url"] = url
    body = _value(model, 0)[:-1]
    body += (f'    "messagesPerField": {{\n        "get": {_fields_function(errors, FIELD_NAMES, "get")},\n'
             f'        "existsError": {_fields_function(errors, FIELD_NAMES, "exists")},\n    }},\n}}')
    return f"""const kcContext = {body};
kcContext.keycloakifyVersion = "{KEYCLOAKIFY_VERSION}";
kcContext.themeVersion = "1.0.0";
kcContext.themeType = "login";
kcContext.themeName = "{THEME_NAME}";
kcContext.pageId = "{m['pageId']}";
kcContext.ftlTemplateFileName = "{m['pageId']}";
kcContext["x-keycloakify"] = {{}};
kcContext["x-keycloakify"].resourcesPath = "{js_string(url.get('resourcesPath', ''))}";
{{
    var messages = {{}};
    kcContext["x-keycloakify"].messages = messages;
}}
if( kcContext.url instanceof Object && typeof kcContext.url.resourcesPath === "string" ){{
    kcContext.url.resourcesCommonPath = kcContext.url.resourcesPath + "/resources-common";
}}
if( kcContext.messagesPerField ){{
    var existsError_singleFieldName = kcContext.messagesPerField.existsError;
    kcContext.messagesPerField.existsError = function (){{
        for( let i = 0; i < arguments.length; i++ ){{
            if( existsError_singleFieldName(arguments[i]) ){{ return true; }}
        }}
        return false;
    }};
    kcContext.messagesPerField.exists = function (fieldName) {{
        return kcContext.messagesPerField.get(fieldName) !== "";
    }};
}}
window.kcContext = kcContext;
function decodeHtmlEntities(htmlStr){{
    var element = decodeHtmlEntities.element;
    if (!element) {{
        element = document.createElement("textarea");
        decodeHtmlEntities.element = element;
    }}
    element.innerHTML = htmlStr;
    return element.value;
}}"""


def render(m) -> str:
    dist = (m.get("url") or {}).get("resourcesPath", "") + "/dist"
    return f"""<!doctype html>
<html lang="en">
  <head>
<script>
{declaration(m)}
</script>
<base href="{dist}/" />
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Keycloakify</title>
    <script type="module" crossorigin src="{dist}/assets/index-C5Iu3V9d.js"></script>
    <link rel="stylesheet" crossorigin href="{dist}/assets/index-BZl9Kb2r.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
"""
