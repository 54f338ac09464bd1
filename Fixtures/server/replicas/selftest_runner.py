"""Runs a replica's self-test checks (REPLICAS.md): starts a fixture server,
reaches it as http://localhost:PORT (WebAuthn allows no IP literal as
rpId), runs every t_* function of the given modules with that base URL, one
line per check, then `N passed, M failed`. Exit status 0 iff none failed."""
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def run(modules) -> int:
    server = os.path.join(os.path.dirname(HERE), "fixture_server.py")
    proc = subprocess.Popen([sys.executable, server, "--watch-stdin"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    base = proc.stdout.readline().split()[1].replace("127.0.0.1", "localhost")
    tests = [(n, f) for m in modules for n, f in vars(m).items() if n.startswith("t_")]
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
