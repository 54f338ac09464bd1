#!/usr/bin/env python3
"""Self-test of the Keycloak replica (keycloak.md), playing Keycloak's own
browser side: a browser submitting the server-rendered forms of the
`keycloak` and `keycloak.v2` themes, a Keycloakify app reading
window.kcContext, webauthn*.js through a software authenticator
(selftest_passkey.py). It starts its own fixture server and reaches it as
http://localhost:PORT (WebAuthn forbids IP literals as rpId).

    .venv/bin/python Fixtures/server/replicas/selftest_keycloak.py

One line per check, then `N passed, M failed`; exit status 0 iff none failed.
Needs the venv (pyotp, webauthn, cbor2, cryptography).
"""
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import selftest_keycloak_flows as flows  # noqa: E402
import selftest_keycloak_webauthn as webauthn_checks  # noqa: E402


def main():
    server = os.path.join(os.path.dirname(HERE), "fixture_server.py")
    proc = subprocess.Popen([sys.executable, server, "--watch-stdin"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    base = proc.stdout.readline().split()[1].replace("127.0.0.1", "localhost")
    tests = [(n, f) for m in (flows, webauthn_checks) for n, f in vars(m).items() if n.startswith("t_")]
    passed = failed = 0
    for name, fn in tests:
        try:
            fn(base)
            passed += 1
            print(f"ok   {name}")
        except Exception:
            failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()}")
    alive = proc.poll() is None
    proc.stdin.close()
    proc.wait(timeout=5)
    if not alive:
        failed += 1
        print("FAIL the fixture server died during the run")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
