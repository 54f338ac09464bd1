"""One HTTP request/response, decoupled from BaseHTTPRequestHandler.

Scenario code reads the parsed request from an Exchange and answers through
its helpers, which always send Content-Length so keep-alive keeps working.
"""
import json
import time
from urllib.parse import parse_qsl, urlencode

COMPACT = (",", ":")


def _first_wins(pairs) -> dict:
    out = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


class Exchange:
    def __init__(self, handler, method, path, query, body, base):
        self.handler = handler
        self.method = method
        self.path = path            # raw path, no query
        self.query = query          # raw query string, no '?'
        self.body = body            # raw request body (bytes)
        self.base = base            # e.g. http://127.0.0.1:8080
        self.headers = {}           # lower-case name -> values joined with ", "
        for name in handler.headers.keys():
            key = name.lower()
            if key not in self.headers:
                self.headers[key] = ", ".join(handler.headers.get_all(name))
        self.query_params = _first_wins(parse_qsl(query, keep_blank_values=True))
        ctype = self.headers.get("content-type", "").split(";")[0].strip().lower()
        # A body with no Content-Type is treated as a form unless it looks like JSON.
        self.is_form = bool(body) and (ctype == "application/x-www-form-urlencoded" or (
            ctype == "" and not body.lstrip().startswith((b"{", b"["))))
        self.form = {}
        if self.is_form:
            text = body.decode("utf-8", errors="replace")
            self.form = _first_wins(parse_qsl(text, keep_blank_values=True))
        self.json = None
        if "json" in ctype and body:
            try:
                self.json = json.loads(body)
            except ValueError:
                self.json = None
        self.cookies = {}
        for part in "; ".join(handler.headers.get_all("Cookie") or []).split(";"):
            name, eq, value = part.strip().partition("=")
            if eq and name:
                self.cookies.setdefault(name, value)
        self.listener = ""          # host:port of the listener that got it
        # Filled in by the router for /t/<run>/<scenario>/<rest>:
        self.run = self.scenario = self.rest = self.issuer = self.state = None

    def hit(self) -> dict:
        """The record kept for GET /_hits/<run>."""
        return {"method": self.method, "path": self.path, "query": self.query,
                "headers": self.headers, "form": self.form, "json": self.json,
                "listener": self.listener, "status": None,
                "decoded": None}  # profile_state.note: decoded JOSE objects

    def params(self) -> dict:
        """Authorization parameters: query string, overridden by a form body."""
        merged = dict(self.query_params)
        merged.update(self.form)
        return merged

    # ---- responses -------------------------------------------------------

    def send(self, status, body=b"", ctype="text/plain; charset=utf-8", headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        h = self.handler
        h.send_response(status)
        if body or status not in (204, 304):
            h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            h.send_header(name, value)
        h.send_header("Cache-Control", "no-store")
        h.end_headers()
        if self.method != "HEAD":
            h.wfile.write(body)
        h.wfile.flush()

    def html(self, status, text, headers=()):
        self.send(status, text, "text/html; charset=utf-8", headers)

    def json_response(self, status, obj, headers=(), indent=None):
        seps = None if indent else COMPACT
        self.send(status, json.dumps(obj, separators=seps, indent=indent),
                  "application/json", headers)

    def redirect(self, status, location, headers=()):
        """A redirect with a tiny body; `location` None omits the header."""
        extra = list(headers)
        if location is not None:
            extra.append(("Location", location))
        self.send(status, "Redirecting\n", headers=extra)

    def stream(self, status, ctype, length, chunks, delay=0.0, headers=()):
        """Write `chunks` one by one (sleeping `delay` between them).

        The declared Content-Length may exceed what is written (token-stall);
        then the connection is closed afterwards, since it cannot be reused.
        """
        h = self.handler
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(length))
        for name, value in headers:
            h.send_header(name, value)
        h.end_headers()
        h.wfile.flush()
        sent = 0
        for chunk in chunks:
            if delay and sent:
                time.sleep(delay)
            h.wfile.write(chunk)
            h.wfile.flush()
            sent += len(chunk)
        if sent != length:
            h.close_connection = True


    def chunked(self, status, ctype, chunks, headers=(), trailers=(), delay=0.0):
        """Transfer-Encoding: chunked (RFC 9112 §7.1), optional trailer fields.

        Trailers are written as they are, even ones RFC 9110 §6.5.1 forbids
        there (Set-Cookie, Location): a client must ignore those.
        """
        h = self.handler
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Transfer-Encoding", "chunked")
        if trailers:
            h.send_header("Trailer", ", ".join(name for name, _ in trailers))
        for name, value in headers:
            h.send_header(name, value)
        h.end_headers()
        for n, chunk in enumerate(chunks):
            if delay and n:
                time.sleep(delay)
            if isinstance(chunk, str):
                chunk = chunk.encode("utf-8")
            if chunk:
                h.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        tail = "".join(f"{name}: {value}\r\n" for name, value in trailers)
        h.wfile.write(b"0\r\n" + tail.encode("latin-1") + b"\r\n")
        h.wfile.flush()

    def raw(self, data: bytes, close=True):
        """Bytes straight onto the connection, no status line or headers of ours."""
        self.handler.wfile.write(data)
        self.handler.wfile.flush()
        if close:
            self.handler.close_connection = True


def add_params(uri: str, params) -> str:
    """Append params to uri's query ('?' or '&'), keeping any '#fragment' last."""
    base, hashmark, fragment = uri.partition("#")
    sep = "" if base.endswith(("?", "&")) else "&" if "?" in base else "?"
    return base + sep + urlencode(params) + hashmark + fragment
