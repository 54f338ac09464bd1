#!/usr/bin/env bash
# Runs every self-test entry point of the fixture server, as `make test` does:
#
#   Fixtures/server/run-selftests.sh [PYTHON]
#
# Entry points are found by name, so a new one runs without another edit:
# Fixtures/server/selftest*.py and Fixtures/server/replicas/selftest_*.py
# that have a `__main__` block (the *_support.py, runner and kit modules are
# libraries they import). Each starts its own fixture server on ephemeral
# loopback ports, so they run four at a time. PYTHON defaults to python3;
# make test passes the venv's (cryptography, pyotp, webauthn).
#
# One line per entry point: its name, its last line (`N passed, M failed`)
# and its time; a failing one's whole output follows. Exit 1 if any entry
# point exits non-zero or its last line is not `N passed, 0 failed`.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${1:-python3}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

entries=()
for file in "$HERE"/selftest*.py "$HERE"/replicas/selftest_*.py; do
    [ -f "$file" ] && grep -q '^if __name__ == "__main__":' "$file" && entries+=("$file")
done
if [ ${#entries[@]} -eq 0 ]; then
    echo "fixture self-tests: no entry point found under $HERE" >&2
    exit 1
fi

# One entry point: its output to OUT/NAME.log, then "STATUS SECONDS" to OUT/NAME.status.
run_one() {
    local file=$1 name
    name="$(basename "$file" .py)"
    local start=$SECONDS
    "$PYTHON" "$file" > "$OUT/$name.log" 2>&1
    echo "$? $((SECONDS - start))" > "$OUT/$name.status"
}
export -f run_one
export PYTHON OUT

printf '%s\0' "${entries[@]}" | xargs -0 -n 1 -P 4 bash -c 'run_one "$1"' _

failed=0
for file in "${entries[@]}"; do
    name="$(basename "$file" .py)"
    read -r status seconds < "$OUT/$name.status" || { status=1; seconds=?; }
    last="$(tail -n 1 "$OUT/$name.log")"
    if [ "$status" -eq 0 ] && [[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
        echo "fixture self-test $name: $last (${seconds} s)"
    else
        failed=1
        echo "fixture self-test $name FAILED (exit $status, ${seconds} s):"
        sed 's/^/    /' "$OUT/$name.log"
    fi
done
exit $failed
