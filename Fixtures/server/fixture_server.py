#!/usr/bin/env python3
"""Local OAuth 2.0 authorization server fixture for authcode's tests.

    python3 Fixtures/server/fixture_server.py [--port N] [--host 127.0.0.1]
        [--extra-listen HOST:PORT]... [--nodelay] [--max-hits N]
        [--watch-stdin] [--tls-cert CERT --tls-key KEY [--tls-client-ca CA [--tls-client-optional]]]
        [--log]

Prints `LISTEN <url>` per extra listener, then one line `READY <url>` (the
primary listener) once listening. Everything lives under
/t/<run>/<scenario>/...; /_hits, /_config, /_stats and /_tokens are the
test-facing endpoints (admin.py); /_tls_stats counts TLS handshakes
(tls_stats.py). See README.md. Python standard library only.
"""
import argparse
import os
import re
import signal
import socket
import ssl
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # run from any cwd

import admin  # noqa: E402
import listeners  # noqa: E402
import scenarios  # noqa: E402
import tls_stats  # noqa: E402
from exchange import Exchange  # noqa: E402
from oauth_store import STORE  # noqa: E402

RUN = r"[A-Za-z0-9_.-]+"
SCENARIO_PATH = re.compile(rf"^/t/({RUN})/([A-Za-z0-9-]+)(?:/(.*))?$")
# RFC 8414 §3.1: the well-known segment inserted before the issuer's path.
RFC8414_PATH = re.compile(rf"^/\.well-known/oauth-authorization-server/t/({RUN})/([A-Za-z0-9-]+)$")
MAX_BODY = 10 * 1024 * 1024
# A client going away mid-response is normal here (timeouts, size limits).
QUIET_ERRORS = (ConnectionError, TimeoutError, socket.timeout, ssl.SSLError, EOFError)


class BadRequest(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive; every response has Content-Length
    server_version = "FixtureAS/1.0"
    timeout = 120                   # idle keep-alive connections do not pin threads forever
    log_enabled = False
    nodelay = False
    _status = None                  # first final status sent (recorded in the hit)
    _tls_reused = None              # this connection's handshake, until a run counts it (tls_stats.py)

    def setup(self):
        super().setup()
        # By default this server behaves like http.server, Django's runserver
        # and most small servers: no TCP_NODELAY, and the headers and the body
        # go out in separate writes (wbufsize 0: end_headers() writes, then the
        # body is written). With Nagle on the server and a delayed ACK on the
        # client that can cost 40 ms per response; clients must cope, so the
        # fixture shows it. --nodelay turns it off (the benchmark's choice).
        if self.nodelay:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()  # in this thread, not in the accept loop
            self._tls_reused = tls_stats.handshake_done(self.request)

    def send_response(self, code, message=None):
        self._responded = True
        if self._status is None and code >= 200:
            self._status = code
        super().send_response(code, message)

    def do_GET(self):
        self._responded, self._status = False, None
        try:
            self._handle()
        except QUIET_ERRORS:
            self.close_connection = True
        except BadRequest as exc:
            self.send_error(400, str(exc))
        except Exception as exc:  # a fixture bug: report where, never what (secrets)
            self.close_connection = True
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            sys.stderr.write(f"fixture: internal error {type(exc).__name__} at "
                             f"{os.path.basename(frame.filename)}:{frame.lineno}\n")
            if not self._responded:
                try:
                    self.send_error(500, "fixture internal error")
                except QUIET_ERRORS:
                    pass

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            parts, total = [], 0
            while True:
                try:
                    size = int(self.rfile.readline(1024).split(b";")[0].strip(), 16)
                except ValueError:
                    raise BadRequest("bad chunk size")
                if size == 0:
                    while self.rfile.readline(1024).strip():  # trailers
                        pass
                    return b"".join(parts)
                total += size
                if total > MAX_BODY:
                    raise BadRequest("body too large")
                parts.append(self.rfile.read(size))
                if len(parts[-1]) < size:
                    raise ConnectionError("client went away mid-body")
                self.rfile.readline(1024)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise BadRequest("bad Content-Length")
        if length < 0 or length > MAX_BODY:
            raise BadRequest("bad Content-Length")
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            raise ConnectionError("client went away mid-body")
        return body

    def _handle(self):
        url = urlsplit(self.path)
        ex = Exchange(self, self.command, url.path, url.query, self._read_body(), self.server.base)
        ex.listener = self.server.listener
        if admin.handle(ex) or tls_stats.handle(ex):
            return
        match = SCENARIO_PATH.match(url.path)
        if match:
            rest = match.group(3) or ""
        else:  # the RFC 8414 document at the root is served (and recorded) as the run's
            match, rest = RFC8414_PATH.match(url.path), ".well-known/oauth-authorization-server"
        if not match:
            return ex.send(404, "not found\n")
        ex.run, ex.scenario, ex.rest = match.group(1), match.group(2), rest
        ex.issuer = f"{self.server.base}/t/{ex.run}/{ex.scenario}"
        ex.state = STORE.run(ex.run)
        if self._tls_reused is not None:  # the connection's first request under /t/
            tls_stats.attribute(ex.state, self._tls_reused)
            self._tls_reused = None
        hit = ex.record = ex.hit()
        ex.state.record(hit, STORE.max_hits)
        try:
            scenarios.route(ex)
        finally:
            hit["status"] = self._status  # the key exists already: safe beside a reader

    # Logging: off unless --log, and never the query string (codes, secrets).
    def log_request(self, code="-", size="-"):
        path = urlsplit(getattr(self, "path", "") or "").path  # unset for garbage requests
        self.log_message("%s %s %s", getattr(self, "command", None) or "-", path or "-", code)

    def log_message(self, format, *args):
        if self.log_enabled:
            sys.stderr.write(f"fixture: {format % args}\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # parallel tests: the default backlog of 5 stalls connects
    base = ""       # scheme://host:port of this listener (listeners.open_all)
    listener = ""   # host:port as bound, recorded in every hit

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if not isinstance(exc, QUIET_ERRORS):
            sys.stderr.write(f"fixture: connection error {type(exc).__name__}\n")


def _parse_args(argv):
    ap = argparse.ArgumentParser(description="authcode fixture authorization server")
    ap.add_argument("--port", type=int, default=0, help="0 = ephemeral (default)")
    ap.add_argument("--host", default="127.0.0.1", help="an IPv4 loopback address")
    ap.add_argument("--extra-listen", action="append", default=[], metavar="HOST:PORT",
                    help="also listen here (another origin; PORT 0 = ephemeral); repeatable")
    ap.add_argument("--nodelay", action="store_true",
                    help="set TCP_NODELAY (default off, like common servers)")
    ap.add_argument("--max-hits", type=int, default=20000, metavar="N",
                    help="hits kept per run; later ones are only counted (default 20000)")
    ap.add_argument("--watch-stdin", action="store_true", help="exit when stdin reaches EOF")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    ap.add_argument("--tls-client-ca", help="require client certificates signed by this CA")
    ap.add_argument("--tls-client-optional", action="store_true",
                    help="with --tls-client-ca: ask for a client certificate, do not require one")
    ap.add_argument("--log", action="store_true", help="log requests (no query strings) to stderr")
    args = ap.parse_args(argv)
    if not listeners.loopback_host(args.host):
        ap.error("--host must be an IPv4 loopback address such as 127.0.0.1")
    try:
        args.extra = [listeners.parse_listen(spec) for spec in args.extra_listen]
    except ValueError as exc:
        ap.error(str(exc))
    if bool(args.tls_cert) != bool(args.tls_key) or (args.tls_client_ca and not args.tls_cert):
        ap.error("--tls-cert and --tls-key go together; --tls-client-ca needs them")
    if args.tls_client_optional and not args.tls_client_ca:
        ap.error("--tls-client-optional needs --tls-client-ca")
    return args


def _watch_stdin(stop):
    """os.read, not sys.stdin: no buffered-reader lock held at shutdown."""
    try:
        while os.read(0, 65536):
            pass
    except OSError:
        pass
    stop.set()


def main(argv=None):
    args = _parse_args(argv)
    handler = type("FixtureHandler", (Handler,), {"log_enabled": args.log,
                                                   "nodelay": args.nodelay})
    STORE.max_hits = args.max_hits
    ctx = None
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        if args.tls_client_ca:
            ctx.load_verify_locations(args.tls_client_ca)
            # Optional: mTLS endpoints and tls_client_auth beside clients
            # without a certificate (signed_scenarios.py).
            ctx.verify_mode = ssl.CERT_OPTIONAL if args.tls_client_optional else ssl.CERT_REQUIRED
    servers = listeners.open_all(Server, handler, [(args.host, args.port)] + args.extra, ctx)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if args.watch_stdin:
        threading.Thread(target=_watch_stdin, args=(stop,), daemon=True).start()
    listeners.serve_all(servers)
    # Tests read the LISTEN lines, then READY (the only line older tests read).
    lines = [f"LISTEN {s.base}" for s in servers[1:]] + [f"READY {servers[0].base}"]
    print("\n".join(lines), flush=True)
    while not stop.wait(0.5):
        pass
    listeners.close_all(servers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
