"""The browser side of Keycloak's login for selftest_keycloak.py: what a
browser (for the server-rendered themes) or a Keycloakify app (for
kcContext pages) reads from a page and posts. Standard library only.

- forms(html): every <form> with its action and fields, as a browser
  would submit it (hidden inputs, checked radios, the clicked button);
- text(html, id): the text of the element with that id (error spans);
- kc_context(html): the `const kcContext = {…};` literal of a Keycloakify
  page, read by a small parser of the JavaScript literal keycloakify's
  declaration template writes (quoted keys, trailing commas, comments,
  function values kept as their source text);
- script_args(html): the literals the WebAuthn module scripts hand to
  webauthnAuthenticate.js / webauthnRegister.js.
"""
import re
from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self.current = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = {"id": a.get("id"), "action": a.get("action", ""), "method": (a.get("method") or "get").lower(),
                            "fields": [], "buttons": []}
            self.forms.append(self.current)
        elif self.current is not None and tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind == "submit":
                self.current["buttons"].append((a["name"], a.get("value", "")))
            else:
                self.current["fields"].append({"name": a["name"], "type": kind, "value": a.get("value", ""),
                                               "checked": "checked" in a, "id": a.get("id")})
        elif self.current is not None and tag == "button" and a.get("name"):
            self.current["buttons"].append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None


def forms(html) -> list:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def form(html, form_id=None, having=None) -> dict:
    """The form with that id, or the first having a field of that name."""
    for f in forms(html):
        if form_id is not None and f["id"] == form_id:
            return f
        if having is not None and any(x["name"] == having for x in f["fields"]):
            return f
    raise AssertionError(f"no form {form_id or having!r} on the page")


def submission(f, **typed) -> dict:
    """What a browser posts: hidden fields and checked boxes/radios, then
    what the user typed (`typed`, overriding)."""
    data = {}
    for x in f["fields"]:
        if x["type"] in ("checkbox", "radio"):
            if x["checked"]:
                data[x["name"]] = x["value"] or "on"
        elif x["type"] not in ("password",):
            data.setdefault(x["name"], x["value"])
    data.update(typed)
    return data


class _Text(HTMLParser):
    def __init__(self, ident):
        super().__init__(convert_charrefs=True)
        self.ident, self.depth, self.parts, self.done = ident, 0, [], False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        if self.depth:
            self.depth += tag not in ("br", "input", "img", "hr", "meta", "link")
        elif dict(attrs).get("id") == self.ident:
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth and not self.done:
            self.depth -= 1
            self.done = self.depth == 0

    def handle_data(self, data):
        if self.depth and not self.done:
            self.parts.append(data)


def text(html, ident):
    """The whitespace-normalised text of the element with that id, or None."""
    parser = _Text(ident)
    parser.feed(html)
    if not parser.parts and not parser.done:
        return None
    return " ".join("".join(parser.parts).split())


def has_id(html, ident) -> bool:
    return re.search(rf'\bid="{re.escape(ident)}"', html) is not None


# ---- kcContext -----------------------------------------------------------------------------

class _JsLiteral:
    def __init__(self, src):
        self.s, self.i = src, 0

    def ws(self):
        while True:
            m = re.compile(r"\s+|/\*.*?\*/|//[^\n]*", re.S).match(self.s, self.i)
            if not m or m.end() == self.i:
                return
            self.i = m.end()

    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c in "\"'":
            return self.string()
        if self.s.startswith("function", self.i):
            start = self.s.index("{", self.i)
            depth, j = 0, start
            while True:
                depth += {"{": 1, "}": -1}.get(self.s[j], 0)
                j += 1
                if depth == 0:
                    break
            text, self.i = self.s[self.i:j], j
            return ("function", text)
        m = re.compile(r"true|false|null|-?\d+(?:\.\d+)?").match(self.s, self.i)
        token, self.i = m.group(0), m.end()
        if token in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[token]
        return float(token) if "." in token else int(token)

    def string(self):
        quote, out = self.s[self.i], []
        self.i += 1
        while self.s[self.i] != quote:
            c = self.s[self.i]
            if c == "\\":
                n = self.s[self.i + 1]
                if n == "x":
                    out.append(chr(int(self.s[self.i + 2:self.i + 4], 16)))
                    self.i += 4
                    continue
                if n == "u":
                    out.append(chr(int(self.s[self.i + 2:self.i + 6], 16)))
                    self.i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(n, n))
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        self.i += 1
        return "".join(out)

    def obj(self):
        self.i += 1
        out = {}
        while True:
            self.ws()
            if self.s[self.i] == "}":
                self.i += 1
                return out
            key = self.string()
            self.ws()
            assert self.s[self.i] == ":", self.s[self.i - 20:self.i + 20]
            self.i += 1
            out[key] = self.value()
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1

    def arr(self):
        self.i += 1
        out = []
        while True:
            self.ws()
            if self.s[self.i] == "]":
                self.i += 1
                return out
            out.append(self.value())
            self.ws()
            if self.s[self.i] == ",":
                self.i += 1


def kc_context(html) -> dict:
    """window.kcContext of a Keycloakify page, with pageId set as the script sets it."""
    m = re.search(r"const kcContext = ", html)
    assert m, "no kcContext on the page"
    ctx = _JsLiteral(html[m.end():]).value()
    page = re.search(r'kcContext\.pageId = "([^"]*)"', html)
    ctx["pageId"] = page.group(1) if page else None
    return ctx


def kc_field_error(ctx, name):
    """What messagesPerField.get(name) returns, read from the function's source."""
    get = ctx["messagesPerField"]["get"][1]
    m = re.search(rf"fieldName === '{re.escape(name)}'\)\{{ return decodeHtmlEntities\(\"((?:[^\"\\\\]|\\\\.)*)\"\)", get)
    return _JsLiteral('"' + m.group(1) + '"').string() if m else ""


def script_args(html) -> dict:
    """`name : value` pairs of the WebAuthn scripts' input objects."""
    out = {}
    for name, value in re.findall(r"\b(\w+) : (\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\[[^\]]*\]|[\w.-]+)", html):
        out.setdefault(name, _JsLiteral(value).value() if value[0] in "\"'[" else value)
    return out
