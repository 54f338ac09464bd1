"""The sockets the fixture listens on: one primary listener plus any number
of `--extra-listen HOST:PORT` ones, all loopback, all sharing one state store.

Extra listeners stand in for other origins: an
origin is scheme, host and port (RFC 6454 §4), so 127.0.0.2 — all of
127.0.0.0/8 is loopback on Linux — or a second port on 127.0.0.1 is another
origin to a client, while requests still land in the same per-run hit list.
"""
import ipaddress
import threading

# Every listener's base URL, primary first; filled by open_all().
BASES: list = []


def loopback_host(host: str) -> bool:
    try:
        return ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        return False


def parse_listen(spec: str) -> tuple:
    """`HOST:PORT` (PORT 0 = ephemeral) -> (host, port); ValueError if bad."""
    host, sep, port = spec.rpartition(":")
    if not sep or not loopback_host(host) or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--extra-listen wants LOOPBACK-IPv4:PORT, got {spec!r}")
    return host, int(port)


def open_all(server_class, handler, addresses, tls_context=None) -> list:
    """Bind every (host, port); the first is the primary. Sets each server's
    `base` (scheme://host:port) and `listener` (host:port as bound)."""
    servers = []
    scheme = "https" if tls_context else "http"
    for host, port in addresses:
        server = server_class((host, port), handler)
        bound_host, bound_port = server.server_address[:2]
        server.listener = f"{bound_host}:{bound_port}"
        server.base = f"{scheme}://{bound_host}:{bound_port}"
        if tls_context is not None:
            # Handshake later, in the connection's own thread (Handler.setup).
            server.socket = tls_context.wrap_socket(server.socket, server_side=True,
                                                    do_handshake_on_connect=False)
        servers.append(server)
    BASES[:] = [s.base for s in servers]
    return servers


def serve_all(servers) -> None:
    for server in servers:
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                         daemon=True).start()


def close_all(servers) -> None:
    for server in servers:
        server.shutdown()
        server.server_close()


def other_base(own_base: str) -> str:
    """The first listener that is not `own_base`, or "" when there is none."""
    return next((b for b in BASES if b != own_base), "")
