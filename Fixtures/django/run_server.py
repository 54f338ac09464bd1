#!/usr/bin/env python3
"""Start a throw-away django-oauth-toolkit authorization server for authcode's
interop tests.

Run with the fixture venv's python (see setup-venv.sh):

    VENV/bin/python Fixtures/django/run_server.py [--port N] [--watch-stdin] [--log]

It makes a fresh temp state dir (sqlite DB + a newly generated RSA key),
creates the schema, the user alice/wonderland and the clients conf-consent,
public-pkce and conf-skip, then serves HTTP on 127.0.0.1:PORT (--port 0, the
default, picks a free port: the socket is bound before anything else, so there
is no race). Once GET /o/.well-known/openid-configuration answers 200 it prints
exactly one line to stdout,

    READY http://127.0.0.1:PORT

and keeps serving until SIGTERM/SIGINT or, with --watch-stdin, until its stdin
reaches EOF; then it stops and deletes the state dir. Server logs go to stderr
only with --log (start-up errors always do).

The server runs in this process (Django's threaded WSGI server, as used by
`manage.py runserver`), which saves a second Django start-up.
"""
import argparse
import os
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REDIRECT_URI = "http://127.0.0.1:8765/callback"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: pick a free one)")
    p.add_argument("--watch-stdin", action="store_true", help="exit when stdin reaches EOF")
    p.add_argument("--log", action="store_true", help="send server logs to stderr")
    p.add_argument(
        "--real-migrations",
        action="store_true",
        help="run the apps' migration files instead of creating the tables straight "
        "from the models (same schema; ~2 s slower)",
    )
    return p.parse_args()


def write_rsa_key(path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,  # same as `openssl genrsa`
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)


def create_schema(real_migrations):
    from django.core.management import call_command

    if not real_migrations:
        # What Django's test runner does with MIGRATE=False: tables straight
        # from the models, skipping ~40 migration files (2.1 s -> 0.1 s).
        from django.apps import apps
        from django.conf import settings

        settings.MIGRATION_MODULES = {a.label: None for a in apps.get_app_configs()}
        call_command("migrate", run_syncdb=True, verbosity=0, interactive=False)
    else:
        call_command("migrate", verbosity=0, interactive=False)


def create_fixtures():
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from oauth2_provider.models import get_application_model

    User = get_user_model()
    User.objects.create_user(
        "alice", email="alice@example.org", password="wonderland", first_name="Alice"
    )
    # Batch minting (`--users`) logs in many people at once: user1..user50
    # with password pw-<n>, hashed with the fast test hasher of settings.py.
    User.objects.bulk_create(
        [User(username=f"user{n}", password=make_password(f"pw-{n}")) for n in range(1, 51)]
    )
    App = get_application_model()
    common = dict(
        authorization_grant_type=App.GRANT_AUTHORIZATION_CODE,
        algorithm=App.RS256_ALGORITHM,
        redirect_uris=REDIRECT_URI,
    )
    App.objects.create(
        name="conf-consent",
        client_id="conf-consent",
        client_secret="conf-secret",  # plaintext; DOT hashes it on save
        client_type=App.CLIENT_CONFIDENTIAL,
        skip_authorization=False,
        **common,
    )
    App.objects.create(
        name="public-pkce",
        client_id="public-pkce",
        client_secret="",
        client_type=App.CLIENT_PUBLIC,
        skip_authorization=True,
        **common,
    )
    App.objects.create(
        name="conf-skip",
        client_id="conf-skip",
        client_secret="conf-skip-secret",
        client_type=App.CLIENT_CONFIDENTIAL,
        skip_authorization=True,
        **common,
    )


def wait_ready(base, deadline_s=20.0):
    url = base + "/o/.well-known/openid-configuration"
    end = time.monotonic() + deadline_s
    last = None
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    r.read()
                    return
                last = f"HTTP {r.status}"
        except Exception as e:  # noqa: BLE001 - keep polling
            last = e
        time.sleep(0.05)
    raise RuntimeError(f"server did not answer {url} with 200: {last}")


def main():
    args = parse_args()
    stop = threading.Event()
    serving = False

    def on_signal(signum, _frame):
        stop.set()
        if not serving:  # still starting: unwind through the finally below
            raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)

    state_dir = tempfile.mkdtemp(prefix="authcode-dot-")
    server = None
    try:
        # Bind first: the issuer URL in the settings needs the real port.
        from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

        try:
            server = ThreadedWSGIServer(("127.0.0.1", args.port), WSGIRequestHandler, allow_reuse_address=True)
        except OSError as e:
            print(f"run_server: cannot listen on 127.0.0.1:{args.port}: {e.strerror}", file=sys.stderr)
            return 1
        port = server.server_address[1]
        base = f"http://127.0.0.1:{port}"

        write_rsa_key(os.path.join(state_dir, "oidc.key"))
        os.environ["IDP_STATE_DIR"] = state_dir
        os.environ["IDP_PORT"] = str(port)
        os.environ["IDP_SECRET_KEY"] = secrets.token_urlsafe(50)
        os.environ["DJANGO_SETTINGS_MODULE"] = "idp.settings"
        if args.log:
            os.environ["IDP_LOG"] = "1"
        sys.path.insert(0, HERE)

        import django

        django.setup()
        create_schema(args.real_migrations)
        create_fixtures()

        from django.core.wsgi import get_wsgi_application
        from django.db import connections

        connections.close_all()  # requests run in their own threads/connections
        server.set_app(get_wsgi_application())

        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        serving = True
        wait_ready(base)

        if args.watch_stdin:

            def watch():
                try:
                    while os.read(0, 65536):
                        pass
                except OSError:  # closed/broken stdin counts as EOF
                    pass
                stop.set()

            threading.Thread(target=watch, daemon=True).start()

        if not args.log:  # also silence stray prints (e.g. socketserver errors)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)

        sys.stdout.write(f"READY {base}\n")
        sys.stdout.flush()

        while not stop.wait(0.5):
            pass
        return 0
    finally:
        if server is not None:
            if serving:
                server.shutdown()
            server.server_close()
        shutil.rmtree(state_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
