#!/usr/bin/env bash
# Records which functions of authcode run in common runs (a flow, a walk, a
# batch over https, --version) with valgrind's callgrind, and writes them,
# first run first, to Fixtures/layout/hot-functions.txt: the release link
# (Makefile, `make build`) hands that list to ld.lld's
# --symbol-ordering-file, so the code a run executes lies together instead
# of spread over the 5.6 MB text section, and the kernel maps far fewer
# pages of it (each page fault maps its 64 KiB neighbourhood: README,
# "Performance").
#
#   Fixtures/layout/record.sh path/to/authcode      (needs valgrind, openssl)
#
# Regenerate after large changes; a stale list only costs memory: symbols
# that no longer exist are ignored, new ones are placed after the listed ones
# (`make bench` says how much of the list the binary still has).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
given=${1:?usage: record.sh path/to/authcode}
command -v valgrind >/dev/null || { echo "record.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
command -v objcopy >/dev/null || { echo "record.sh: objcopy not found (apt-get install binutils)" >&2; exit 1; }
work=$(mktemp -d)
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information the
# toolchain writes and gives up on the whole binary; callgrind needs only
# the symbol table, so it traces a copy without the debug sections. The
# copy keeps the name, so the list names the same object.
bin=$work/bin/authcode
mkdir -p "$work/bin"
objcopy --strip-debug "$given" "$bin"
# The runs' trust is --cacert alone: OpenSSL's variables of the caller's
# environment would change which code a run executes.
unset SSL_CERT_FILE SSL_CERT_DIR
pids=()
cleanup() {
    for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

start() { # NAME ARGS...: starts the fixture, sets `url` from its READY line
    local name=$1; shift
    python3 "$root/Fixtures/server/fixture_server.py" --port 0 --nodelay "$@" > "$work/$name.out" 2>&1 &
    pids+=($!)
    url=
    for _ in $(seq 1 100); do
        # The file may not exist yet (the shell opens it in the background).
        url=$(awk '/^READY / {print $2; exit}' "$work/$name.out" 2>/dev/null || true)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "record.sh: the fixture ($name) did not start" >&2
    exit 1
}
bash "$root/Fixtures/tls/make-certs.sh" "$work/pki" >/dev/null
start plain
plain=$url
start tls --tls-cert "$work/pki/server.pem" --tls-key "$work/pki/server.key"
tls=$url
printf 'username,password\nuser1,pw-1\nuser2,pw-2\nuser3,pw-3\n' > "$work/users.csv"
printf 'demo-secret\n' > "$work/secret"
printf 'wonderland\n' > "$work/password"

n=0
traced() { # ARGS...: one authcode run under callgrind; must succeed
    n=$((n + 1))
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/run-$n.out" "$bin" "$@" > /dev/null 2> "$work/run-$n.err" \
        || { echo "record.sh: run $n failed: $*" >&2; tail -5 "$work/run-$n.err" >&2; exit 1; }
}
# The runs of `make bench` (Fixtures/bench/bench.py): secrets from files.
client=(--client-id demo-app --client-secret "@$work/secret" --redirect-uri http://127.0.0.1:8765/callback --scope profile --pkce S256)
issuer() { echo "$1/t/layout-$n/$2"; }
traced --authorize-url "$(issuer "$plain" direct)/authorize" --token-url "$(issuer "$plain" direct)/token" "${client[@]}"
traced --authorize-url "$(issuer "$tls" direct)/authorize" --token-url "$(issuer "$tls" direct)/token" "${client[@]}" \
    --cacert "$work/pki/ca.pem"
traced --authorize-url "$(issuer "$plain" login-consent)/authorize" --token-url "$(issuer "$plain" login-consent)/token" "${client[@]}" \
    --form username=alice --form "password=@$work/password"
traced --authorize-url "$(issuer "$tls" login-consent)/authorize" --token-url "$(issuer "$tls" login-consent)/token" "${client[@]}" \
    --cacert "$work/pki/ca.pem" --users "$work/users.csv" --parallel 2
traced --version
# Names the runtime's whole-file code sections define go last (whole_file_names.py).
python3 "$here/whole_file_names.py" "$given" > "$work/last.txt"
python3 "$here/executed_functions.py" --last "$work/last.txt" "$(basename "$bin")" \
    $(for i in $(seq 1 "$n"); do echo "$work/run-$i.out"; done) > "$here/hot-functions.txt"
echo "record.sh: $(wc -l < "$here/hot-functions.txt") functions written to Fixtures/layout/hot-functions.txt" >&2
