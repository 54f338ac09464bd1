#!/usr/bin/env bash
# Install Glewlwyd (Debian's package) for authcode's interop tests, idempotently.
# Usage: install.sh            (called by `make glewlwyd`, a prerequisite of `make test`)
#
# Glewlwyd's postinst fails with the default debconf answer (it asks which
# database to configure), so "No configuration" is preseeded first; we make our
# own throw-away SQLite database per run (start.py). Works as root or with
# sudo, with no stdin (CI). Does nothing when the binary, its SQL schema,
# sqlite3 and openssl (start.py makes its keys with it; a minimal Debian image
# lacks it) are already there.
set -euo pipefail

SCHEMA=/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz
PACKAGES=(glewlwyd dbconfig-no-thanks sqlite3 openssl)

if command -v glewlwyd >/dev/null 2>&1 && [ -r "$SCHEMA" ] && command -v sqlite3 >/dev/null 2>&1 \
    && command -v openssl >/dev/null 2>&1; then
    echo "glewlwyd: installed ($(dpkg-query -W -f='${Version}' glewlwyd 2>/dev/null || echo '?'))"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "glewlwyd: not installed and no apt-get here; install Glewlwyd 2.7, sqlite3 and openssl, then retry" >&2
    exit 1
fi

if [ "$(id -u)" = 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "glewlwyd: not installed; run 'Fixtures/glewlwyd/install.sh' as root (apt-get install glewlwyd)" >&2
    exit 1
fi

as_root() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive "$@" </dev/null; }
APT=(apt-get -o DPkg::Lock::Timeout=600 -y -q --no-install-recommends)

echo "glewlwyd: installing ${PACKAGES[*]} with apt-get"
echo "glewlwyd glewlwyd/config_type select No configuration" | "${SUDO[@]}" debconf-set-selections

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# apt-get update only when the package is unknown to the local lists (a fresh
# machine or container has none).
if ! apt-cache show glewlwyd >/dev/null 2>&1; then
    as_root apt-get -o DPkg::Lock::Timeout=600 update -q >"$log" 2>&1 || { cat "$log" >&2; echo "glewlwyd: apt-get update failed" >&2; exit 1; }
fi
if ! as_root "${APT[@]}" install "${PACKAGES[@]}" >"$log" 2>&1; then
    # Stale lists (a package version gone from the mirror): refresh once and retry.
    as_root apt-get -o DPkg::Lock::Timeout=600 update -q >>"$log" 2>&1 || true
    if ! as_root "${APT[@]}" install "${PACKAGES[@]}" >>"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "glewlwyd: apt-get install ${PACKAGES[*]} failed" >&2
        exit 1
    fi
fi
# The package enables and starts a system service on systems with systemd;
# the tests start their own instance, so a system one only costs memory.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    "${SUDO[@]}" systemctl disable --now glewlwyd >/dev/null 2>&1 || true
fi
if ! command -v glewlwyd >/dev/null 2>&1 || [ ! -r "$SCHEMA" ]; then
    echo "glewlwyd: installed, but glewlwyd or $SCHEMA is missing" >&2
    exit 1
fi
echo "glewlwyd: installed $(dpkg-query -W -f='${Version}' glewlwyd)"
