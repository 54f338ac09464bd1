#!/usr/bin/env bash
# make bench: start the fixture authorization server, run bench.py against it
# (authcode vs the curl + openssl + sed scripts next to this file), stop the
# server. The Markdown report goes to stdout, progress to stderr.
#
#   Fixtures/bench/run.sh [--static] [--runs N] [--warmup N] path/to/authcode
#
# --static (or BENCH_STATIC=1) first builds authcode with --static-swift-stdlib
# into .build-static (about a minute) and measures that binary too.
# Exit status: 0 when everything ran, whatever the numbers; 1 when something
# could not run (server, build, a flow without a token); 2 for usage.
set -euo pipefail
usage="usage: run.sh [--static] [--runs N] [--warmup N] path/to/authcode"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

static=${BENCH_STATIC:-0}
bin=
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --static) static=1 ;;
        --runs|--warmup|--rss-runs)
            [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
            extra+=("$1" "$2"); shift ;;
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
server_pid=
stop_server() {
    # Closing our end of its stdin makes the server exit (--watch-stdin).
    exec 3>&- 2>/dev/null || true
    if [ -n "$server_pid" ]; then
        for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap stop_server EXIT
trap 'exit 130' INT TERM

mkfifo "$work/in"
python3 "$root/Fixtures/server/fixture_server.py" --port 0 --watch-stdin \
    < "$work/in" > "$work/ready" 2> "$work/server.log" &
server_pid=$!
exec 3> "$work/in"
base=
for _ in $(seq 1 200); do
    base=$(awk '/^READY / {print $2; exit}' "$work/ready" 2>/dev/null)
    [ -n "$base" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
done
if [ -z "$base" ]; then
    echo "run.sh: the fixture server did not start" >&2
    cat "$work/server.log" >&2 || true
    exit 1
fi
echo "run.sh: fixture server at $base" >&2

python3 "$here/bench.py" --authcode "$bin" --base "$base" "${static_args[@]}" ${extra[@]+"${extra[@]}"} || status=1
# Batch and cache rows: many users at once, token reuse (lifecycle.py).
python3 "$here/lifecycle.py" --authcode "$bin" --base "$base" --server-pid "$server_pid" || status=1
exit "$status"
