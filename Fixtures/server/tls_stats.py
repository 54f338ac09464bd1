"""The server's own count of TLS handshakes: full ones and resumed ones.

A client that keeps the session (TLS 1.3 tickets, RFC 8446 §2.2 and §4.6.1;
session IDs or tickets before 1.3) and offers it on its next connection
skips the certificate and key exchange; OpenSSL tells the server which
happened (`SSLSocket.session_reused`). Benchmarks and tests read these
counters instead of trusting the client's word.

Each connection is counted once, when its handshake is done:
- globally: `GET /_tls_stats` answers
  `{"handshakes","full","resumed","versions":{"TLSv1.3":N,...}}`,
  `DELETE /_tls_stats` answers the same and sets every counter to zero;
- for a run: the connection's first request under `/t/<run>/` adds one to
  `tls_full` or `tls_resumed` in `/_stats/<run>` (present once a TLS
  connection has reached the run). Connections that only ever ask `/_…`
  endpoints count globally only.
"""
import ssl
import threading

_LOCK = threading.Lock()
_COUNTS: dict = {}
_VERSIONS: dict = {}


def _zero() -> None:
    _COUNTS.update(handshakes=0, full=0, resumed=0)
    _VERSIONS.clear()


_zero()


def handshake_done(sock):
    """Counts the finished handshake of a server-side socket. Returns True
    (resumed), False (full), or None when the socket is not TLS."""
    if not isinstance(sock, ssl.SSLSocket):
        return None
    reused = bool(sock.session_reused)
    version = sock.version() or "unknown"
    with _LOCK:
        _COUNTS["handshakes"] += 1
        _COUNTS["resumed" if reused else "full"] += 1
        _VERSIONS[version] = _VERSIONS.get(version, 0) + 1
    return reused


def attribute(state, reused: bool) -> None:
    """Adds one connection's handshake to a run's /_stats counters."""
    key = "tls_resumed" if reused else "tls_full"
    with state.lock:
        state.stats.setdefault("tls_full", 0)
        state.stats.setdefault("tls_resumed", 0)
        state.stats[key] += 1


def snapshot() -> dict:
    with _LOCK:
        return dict(_COUNTS, versions=dict(_VERSIONS))


def handle(ex) -> bool:
    """Answers /_tls_stats; False for any other path."""
    if ex.path != "/_tls_stats":
        return False
    if ex.method == "GET":
        ex.json_response(200, snapshot())
    elif ex.method == "DELETE":
        with _LOCK:
            counts = dict(_COUNTS, versions=dict(_VERSIONS))
            _zero()
        ex.json_response(200, counts)
    else:
        ex.json_response(405, {"error": "method not allowed"}, [("Allow", "GET, DELETE")])
    return True
