#!/usr/bin/env python3
"""Self-test of the Keycloak replica (keycloak.md), playing Keycloak's own
browser side: a browser submitting the server-rendered forms of the
`keycloak` and `keycloak.v2` themes, a Keycloakify app reading
window.kcContext, webauthn*.js through a software authenticator
(selftest_passkey.py). It starts its own fixture server, reached as
http://localhost:PORT (selftest_runner.py).

    .venv/bin/python Fixtures/server/replicas/selftest_keycloak.py

One line per check, then `N passed, M failed`; exit status 0 iff none failed.
Needs the venv (pyotp, webauthn, cbor2, cryptography).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import selftest_keycloak_flows as flows  # noqa: E402
import selftest_keycloak_webauthn as webauthn_checks  # noqa: E402
from selftest_runner import run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run((flows, webauthn_checks)))
