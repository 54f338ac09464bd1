"""Spellings of a URI that differ byte for byte but are equivalent after
RFC 3986 §6.2.2 normalisation (and §6.2.3 scheme-based: default port),
for the redirect-normalised scenario. A client that compares only bytes
would fetch the redirect_uri (ARCHITECTURE.md, Security rules: never, by any path).
"""
DEFAULT_PORTS = {"http": "80", "https": "443"}
UNRESERVED_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _split(uri):
    """scheme, authority, path, rest ('?query#fragment'), kept as written."""
    scheme, _, tail = uri.partition(":")
    authority = ""
    if tail.startswith("//"):
        end = len(tail)
        for mark in "/?#":
            if mark in tail[2:]:
                end = min(end, tail.index(mark, 2))
        authority, tail = tail[2:end], tail[end:]
    cut = min([i for i in (tail.find("?"), tail.find("#")) if i >= 0] or [len(tail)])
    return scheme, authority, tail[:cut], tail[cut:]


def _join(scheme, authority, path, rest, had_authority):
    return scheme + ":" + ("//" + authority if had_authority else "") + path + rest


def scheme_upper(scheme, authority, path):
    return scheme.upper(), authority, path       # §6.2.2.1: scheme is case-insensitive


def host_upper(scheme, authority, path):
    userinfo, at, hostport = authority.rpartition("@")
    return scheme, userinfo + at + hostport.upper(), path   # §6.2.2.1 (no-op on IPs)


def default_port(scheme, authority, path):
    """§6.2.3: add the scheme's default port when none is written, drop it when it is."""
    default = DEFAULT_PORTS.get(scheme.lower())
    if not default or not authority:
        return scheme, authority, path
    host, colon, port = authority.rpartition(":")
    if colon and "]" not in port:
        return scheme, (host if port == default else authority), path
    return scheme, authority + ":" + default, path


def percent_encoded(scheme, authority, path):
    """§6.2.2.2: an unreserved letter percent-encoded (the first one of the last segment)."""
    start = path.rfind("/") + 1
    for i in range(start, len(path)):
        if path[i] in UNRESERVED_LETTERS:
            return scheme, authority, path[:i] + "%%%02X" % ord(path[i]) + path[i + 1:]
    return scheme, authority, path


def dot_segments(scheme, authority, path):
    """§6.2.2.3: '/./' removed by remove_dot_segments."""
    return scheme, authority, "/." + (path if path.startswith("/") else "/" + path)


VARIANTS = {
    "scheme-upper": (scheme_upper,),
    "host-upper": (host_upper,),
    "default-port": (default_port,),
    "percent-encoded": (percent_encoded,),
    "dot-segments": (dot_segments,),
    "all": (scheme_upper, host_upper, percent_encoded, dot_segments),
}


def rewrite(uri, name):
    """The redirect_uri respelled by variant `name` (unknown names: 'all')."""
    scheme, authority, path, rest = _split(uri)
    had_authority = uri[len(scheme) + 1:].startswith("//")
    for step in VARIANTS.get(name, VARIANTS["all"]):
        scheme, authority, path = step(scheme, authority, path)
    return _join(scheme, authority, path, rest, had_authority)

