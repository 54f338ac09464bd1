"""HTTP helpers of the signing scenarios: RFC 6749 §5.2 error bodies, every
value of a repeated parameter (RFC 8707 `resource`), the URL a request was
sent to (DPoP htu, assertion aud) and the TLS client certificate.
"""
import hashlib
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from jose_keys import b64url


def oauth_error(ex, status, error, description=None, headers=()):
    body = {"error": error}
    if description:
        body["error_description"] = description
    ex.json_response(status, body, headers)


def all_values(ex, name) -> list:
    """Every value of `name` in the query string, then in a form body."""
    values = [v for k, v in parse_qsl(ex.query, keep_blank_values=True) if k == name]
    if ex.is_form:
        body = ex.body.decode("utf-8", errors="replace")
        values += [v for k, v in parse_qsl(body, keep_blank_values=True) if k == name]
    return values


def request_url(ex) -> str:
    """scheme://Host/path as the client addressed it (no query)."""
    scheme = urlsplit(ex.base).scheme
    host = ex.headers.get("host") or urlsplit(ex.base).netloc
    return f"{scheme}://{host}{ex.path}"


_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


def _remove_dot_segments(path):
    out = []
    for seg in path.split("/"):
        if seg == "..":
            if len(out) > 1:
                out.pop()
        elif seg != ".":
            out.append(seg)
    if path.endswith(("/.", "/..")):
        out.append("")
    return "/".join(out) or "/"


def normalise_url(url: str) -> str:
    """RFC 3986 §6.2.2 syntax-based and §6.2.3 scheme-based normalisation
    (case of scheme and host, percent-encoding, dot segments, default port,
    empty path), as RFC 9449 §4.3 asks for comparing htu. The query and the
    fragment, if any, are kept: a proof's htu must not have them."""
    try:
        u = urlsplit(url)
        port = u.port
    except ValueError:
        return "\x00invalid"
    scheme, host = u.scheme.lower(), (u.hostname or "").lower()
    if port is not None and (scheme, port) not in (("http", 80), ("https", 443)):
        host = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    path = quote(unquote(u.path or "/"), safe="/!$&'()*+,;=:@" + _UNRESERVED)
    out = f"{scheme}://{host}{_remove_dot_segments(path)}"
    if u.query or url.split("#")[0].endswith("?"):
        out += "?" + u.query
    if "#" in url:
        out += "#" + u.fragment
    return out


def peer_certificate(ex):
    """DER of the TLS client certificate of this connection, or None."""
    sock = ex.handler.request
    getpeercert = getattr(sock, "getpeercert", None)
    if getpeercert is None:
        return None
    try:
        return getpeercert(binary_form=True)
    except ValueError:
        return None


def subject_dn(der) -> str:
    """RFC 4514 string of the certificate's subject (e.g. CN=alice)."""
    from cryptography import x509  # noqa: PLC0415
    return x509.load_der_x509_certificate(der).subject.rfc4514_string()


def certificate_thumbprint(der) -> str:
    """RFC 8705 §3.1 x5t#S256: base64url SHA-256 of the DER certificate."""
    return b64url(hashlib.sha256(der).digest())
