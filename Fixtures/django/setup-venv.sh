#!/usr/bin/env bash
# Idempotently create a Python venv with django-oauth-toolkit for the
# interop fixture. Usage: setup-venv.sh VENV_DIR
# Re-installs only when the venv is missing/broken or requirements.txt changed
# (a stamp file inside the venv holds the sha256 of requirements.txt).
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 VENV_DIR" >&2
    exit 2
fi
VENV=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REQ="$HERE/requirements.txt"
STAMP="$VENV/.authcode-requirements.sha256"
PY=${PYTHON:-python3}

want=$(sha256sum "$REQ" | cut -d' ' -f1)

if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] \
    && "$VENV/bin/python" -c 'import django, oauth2_provider, cryptography, webauthn' >/dev/null 2>&1; then
    echo "setup-venv: $VENV up to date"
    exit 0
fi

if ! command -v "$PY" >/dev/null 2>&1; then
    echo "setup-venv: $PY not found on PATH" >&2
    exit 1
fi

if ! "$PY" -m venv --help >/dev/null 2>&1 || ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup-venv: $PY -m venv unusable; installing python3-venv" >&2
        (apt-get install -y -q python3-venv >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q python3-venv >/dev/null 2>&1; }) \
            || { echo "setup-venv: apt-get install python3-venv failed" >&2; exit 1; }
    else
        echo "setup-venv: '$PY -m venv' does not work; install python3-venv" >&2
        exit 1
    fi
fi

action=updated
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    action=created
fi
rm -f "$STAMP"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
        -r "$REQ" >"$log" 2>&1; then
    cat "$log" >&2
    if grep -qiE 'No matching distribution|Could not find a version|connection|resolve|Max retries|timed out|Network is unreachable' "$log"; then
        echo "setup-venv: pip could not install from PyPI (is PyPI reachable?)" >&2
    else
        echo "setup-venv: pip install -r $REQ failed" >&2
    fi
    exit 1
fi
echo "$want" >"$STAMP"
echo "setup-venv: $action $VENV ($(sed -n 's/^\(django-oauth-toolkit==[^ ]*\).*/\1/p' "$REQ"), Django $("$VENV/bin/python" -c 'import django; print(django.get_version())'))"
