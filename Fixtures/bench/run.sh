#!/usr/bin/env bash
# make bench: start the fixture authorization server three times (as common
# servers are, without TCP_NODELAY; with --nodelay; and over https with a
# private CA made now by Fixtures/tls/make-certs.sh) and django-oauth-toolkit
# when its venv is there, run bench.py and lifecycle.py against them
# (authcode vs the curl + openssl + sed scripts next to this file), stop the
# servers. The Markdown report goes to stdout, progress to stderr.
#
#   Fixtures/bench/run.sh [--static] [--runs N] [--warmup N] [--rss-runs N]
#                         [--tls-only] [--tls-records N] [--tls-rounds N] path/to/authcode
#
# --tls-only runs only the http-against-https batch rows (lifecycle.py);
# --tls-records/--tls-rounds size them (default 1,000 users, 3 rounds).
# --static (or BENCH_STATIC=1) first builds authcode with --static-swift-stdlib
# into .build-static (about a minute) and measures that binary too.
# Exit status: 0 when everything ran, whatever the numbers; 1 when something
# could not run (server, build, a flow without a token); 2 for usage.
set -euo pipefail
usage="usage: run.sh [--static] [--runs N] [--warmup N] [--rss-runs N] [--tls-only] [--tls-records N] [--tls-rounds N] path/to/authcode"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

static=${BENCH_STATIC:-0}
bin=
extra=()
lifecycle_extra=()
tls_only=0
while [ $# -gt 0 ]; do
    case $1 in
        --static) static=1 ;;
        --runs|--warmup|--rss-runs)
            [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
            extra+=("$1" "$2"); shift ;;
        --tls-records|--tls-rounds)
            [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
            lifecycle_extra+=("$1" "$2"); shift ;;
        --tls-only) tls_only=1; lifecycle_extra+=(--only tls) ;;
        -h|--help) echo "$usage"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
        *) [ -z "$bin" ] || { echo "$usage" >&2; exit 2; }; bin=$1 ;;
    esac
    shift
done
[ -n "$bin" ] || { echo "$usage" >&2; exit 2; }
[ -x "$bin" ] && [ -f "$bin" ] || { echo "run.sh: no executable at $bin (build it first: make build)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

status=0
static_args=(--static-note "not built (run.sh --static or BENCH_STATIC=1)")
if [ "$static" = 1 ]; then
    echo "run.sh: building authcode with --static-swift-stdlib into .build-static (about a minute)" >&2
    if (cd "$root" && "${SWIFT:-swift}" build -c release --product authcode \
            --static-swift-stdlib --scratch-path .build-static) >&2; then
        static_args=(--static-binary "$root/.build-static/release/authcode")
    else
        echo "run.sh: the --static-swift-stdlib build failed" >&2
        static_args=(--static-note "build failed")
        status=1
    fi
fi

work=$(mktemp -d)
server_pids=()
stop_servers() {
    # Closing our ends of their stdin makes the servers exit (--watch-stdin).
    exec 3>&- 4>&- 5>&- 6>&- 7>&- 2>/dev/null || true
    for pid in ${server_pids[@]+"${server_pids[@]}"}; do
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop_servers EXIT
trap 'exit 130' INT TERM

# start_server NAME FD SECONDS COMMAND...: runs COMMAND with a FIFO on stdin
# held open on FD (not in a subshell: the FD must stay open), waits for its
# READY line and sets `url` to it ('' if none came).
start_server() {
    local name=$1 fd=$2 seconds=$3
    url=
    shift 3
    mkfifo "$work/$name.in"
    "$@" --port 0 --watch-stdin < "$work/$name.in" > "$work/$name.ready" 2> "$work/$name.log" &
    server_pids+=($!)
    eval "exec $fd> \"\$work/\$name.in\""
    for _ in $(seq 1 $((seconds * 20))); do
        url=$(awk '/^READY / {print $2; exit}' "$work/$name.ready" 2>/dev/null)
        [ -n "$url" ] && break
        kill -0 "${server_pids[${#server_pids[@]}-1]}" 2>/dev/null || break
        sleep 0.05
    done
    [ -n "$url" ] || { echo "run.sh: $name did not start" >&2; cat "$work/$name.log" >&2 || true; }
}

fixture=$root/Fixtures/server/fixture_server.py
start_server fixture 3 10 python3 "$fixture"
base=$url
[ -n "$base" ] || exit 1
start_server fixture-nodelay 4 10 python3 "$fixture" --nodelay
base_nodelay=$url
[ -n "$base_nodelay" ] || exit 1
# https: a throwaway CA and server certificate (never committed), passed to
# authcode and curl with --cacert. TLS 1.3 with session tickets (Python's
# defaults); the server counts full and resumed handshakes itself.
bash "$root/Fixtures/tls/make-certs.sh" "$work/pki" || { echo "run.sh: make-certs.sh failed (openssl?)" >&2; exit 1; }
start_server fixture-tls 6 10 python3 "$fixture" --tls-cert "$work/pki/server.pem" --tls-key "$work/pki/server.key"
base_tls=$url
[ -n "$base_tls" ] || exit 1
start_server fixture-tls-nodelay 7 10 python3 "$fixture" --nodelay --tls-cert "$work/pki/server.pem" --tls-key "$work/pki/server.key"
base_tls_nodelay=$url
[ -n "$base_tls_nodelay" ] || exit 1
tls_args=(--base-tls "$base_tls" --cacert "$work/pki/ca.pem" --base-tls-nodelay "$base_tls_nodelay")
# The system's trust store with the test CA added, as a company adds its
# own CA: a hashed copy of /etc/ssl/certs (looked up, SSL_CERT_DIR) and the
# bundle with the CA appended (SSL_CERT_FILE). Rows without them say so.
system_dir=/etc/ssl/certs
if [ -f "$system_dir/ca-certificates.crt" ] && ls "$system_dir" | grep -qE '^[0-9a-f]{8}\.[0-9]+$'; then
    mkdir "$work/certs"
    cp -L "$system_dir"/*.pem "$work/certs/" 2>/dev/null || true
    cp "$work/pki/ca.pem" "$work/certs/authcode-bench-ca.pem"
    if openssl rehash "$work/certs" >/dev/null 2>&1; then
        tls_args+=(--cert-dir "$work/certs")
    else
        echo "run.sh: openssl rehash failed: no system store rows for the hashed directory" >&2
    fi
    cat "$system_dir/ca-certificates.crt" "$work/pki/ca.pem" > "$work/bundle.pem"
    tls_args+=(--cert-file "$work/bundle.pem")
else
    echo "run.sh: no hashed $system_dir with ca-certificates.crt: no system store rows" >&2
fi
echo "run.sh: fixture servers at $base, $base_nodelay (--nodelay), $base_tls (https) and $base_tls_nodelay (https, --nodelay)" >&2

# django-oauth-toolkit from the venv `make venv` builds (make bench does).
dot_args=(--dot-note "not run: no venv at .venv (make venv)")
python=${AUTHCODE_DJANGO_PYTHON:-$root/.venv/bin/python}
if [ -x "$python" ] && [ "$tls_only" = 0 ]; then
    start_server django-oauth-toolkit 5 60 "$python" "$root/Fixtures/django/run_server.py"
    dot=$url
    if [ -n "$dot" ]; then
        echo "run.sh: django-oauth-toolkit at $dot" >&2
        dot_args=(--dot "$dot")
    else
        dot_args=(--dot-note "not run: the server did not start")
        status=1
    fi
fi

[ "$tls_only" = 1 ] || python3 "$here/bench.py" --authcode "$bin" --base "$base" --base-nodelay "$base_nodelay" "${tls_args[@]}" "${dot_args[@]}" \
    "${static_args[@]}" ${extra[@]+"${extra[@]}"} || status=1
# Batch and cache rows: many users at once, token reuse (lifecycle.py), on
# the server without TCP_NODELAY (the first started); then the same batch
# over http and https.
python3 "$here/lifecycle.py" --authcode "$bin" --base "$base" --server-pid "${server_pids[0]}" "${tls_args[@]}" \
    --base-nodelay "$base_nodelay" \
    ${lifecycle_extra[@]+"${lifecycle_extra[@]}"} || status=1
exit "$status"
