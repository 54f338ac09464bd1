#!/usr/bin/env bash
# Builds the libFuzzer harnesses of Tests/Fuzz and runs each for a bounded time.
#
#   Fixtures/fuzz/run.sh [SECONDS_PER_HARNESS] [HARNESS...]
#   Fixtures/fuzz/run.sh HARNESS SECONDS     (one harness for a duration)
#
# SECONDS_PER_HARNESS defaults to 60; HARNESS names (Location, HTMLForms,
# Cookies, Arguments, IDToken, Redactor, JOSE, Drivers, PasskeyFile,
# ConfigFile) pick a subset, default all ten, run one after the other. Environment:
#   SWIFTC, CLANG      compilers (default: swiftc on PATH, else /opt/swift/usr/bin/swiftc;
#                      the clang next to swiftc, which ships libFuzzer)
#   FUZZ_OPT           optimisation flag for the harness builds (default -O)
#   FUZZ_NICE          nice level for the fuzzers (default 0)
#   FUZZ_BUILD_ONLY=1  build and stop
#   FUZZ_EXTRA         extra libFuzzer flags, e.g. "-seed=1 -len_control=0"
#
# Each harness is one executable: every file of the Swift layers (Sources/Core,
# HTTP, JOSE, OAuth, Walk, Flow, CLI) compiled together with one harness file, as one
# module AuthCodeFuzz (imports between layers dropped, so the harness can use
# internal API), with -sanitize=fuzzer,address; Sources/CCurl/shim.c and
# Sources/CCrypto/shim.c are compiled by clang with the same sanitizers and
# linked with libcurl and libcrypto.
# The seed corpus in git (Fixtures/fuzz/corpus/<corpus>: location, html-forms,
# cookies, arguments, id-token, redactor, jose, drivers, passkey-file,
# config-file) is copied into a work corpus under
# .build-fuzz/corpus/<corpus>, which grows between runs.
# Crashes, timeouts and OOMs land in .build-fuzz/artifacts/<harness>/.
# Inputs saved under Fixtures/fuzz/regressions/<corpus> are replayed first,
# always with every check on.
# Exits 1 if a regression input still fails or a harness found a crash,
# timeout or OOM; 2 if a build failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# HARNESS SECONDS is SECONDS HARNESS; harness names alone run 60 s each.
if [ $# -gt 0 ] && ! [[ "$1" =~ ^[0-9]+$ ]]; then
    if [ $# -eq 2 ] && [[ "$2" =~ ^[0-9]+$ ]]; then set -- "$2" "$1"; else set -- 60 "$@"; fi
fi
if [ $# -gt 0 ] && ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: usage: run.sh [SECONDS_PER_HARNESS] [HARNESS...] or run.sh HARNESS SECONDS (SECONDS a whole number above 0, not '$1')" >&2
    exit 2
fi
SECONDS_PER_HARNESS="${1:-60}"
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(Location HTMLForms Cookies Arguments IDToken Redactor JOSE Drivers PasskeyFile ConfigFile)

OUT="$ROOT/.build-fuzz"
LAYERS=(Core HTTP JOSE OAuth Walk Flow CLI)
SEEDS="$ROOT/Fixtures/fuzz/corpus"
if [ -z "${SWIFTC:-}" ]; then
    if command -v swiftc >/dev/null 2>&1; then SWIFTC="$(command -v swiftc)"; else SWIFTC=/opt/swift/usr/bin/swiftc; fi
fi

CLANG="${CLANG:-$(dirname "$SWIFTC")/clang}"
OPT="${FUZZ_OPT:--O}"
NICE="${FUZZ_NICE:-0}"

# Per-harness input size: an argv, a few cookie lines or a config file are
# short; pages are long.
max_len() {
    case "$1" in
        HTMLForms|Drivers) echo 65536 ;;
        IDToken|Redactor|JOSE|PasskeyFile) echo 16384 ;;
        Location) echo 8192 ;;
        *) echo 4096 ;;
    esac
}
corpus_name() {
    case "$1" in
        Location) echo location ;; HTMLForms) echo html-forms ;; Cookies) echo cookies ;;
        Arguments) echo arguments ;; IDToken) echo id-token ;; Redactor) echo redactor ;; JOSE) echo jose ;;
        Drivers) echo drivers ;; PasskeyFile) echo passkey-file ;; ConfigFile) echo config-file ;;
        *) echo "$1" ;;
    esac
}

# swiftc needs a module map for each C target; SwiftPM writes its own.
module_map() {
    local module="$1" folder="$OUT/$2" library="$3"
    mkdir -p "$folder"
    cat >"$folder/module.modulemap.new" <<EOF
module $module {
    header "$ROOT/Sources/$module/include/$module.h"
    link "$library"
    export *
}
EOF
    if ! cmp -s "$folder/module.modulemap.new" "$folder/module.modulemap" 2>/dev/null; then
        mv "$folder/module.modulemap.new" "$folder/module.modulemap"
    else
        rm -f "$folder/module.modulemap.new"
    fi
}
module_map CCurl ccurl curl
module_map CCrypto ccrypto crypto

build() {
    local name="$1" exe="$OUT/fuzz-$1" harness="$ROOT/Tests/Fuzz/Fuzz$1.swift"
    [ -f "$harness" ] || { echo "fuzz: no harness $harness" >&2; return 1; }
    # Rebuild when the binary is missing or older than any source it is made of.
    if [ -x "$exe" ] && [ -z "$(find "${LAYERS[@]/#/$ROOT/Sources/}" "$ROOT/Sources/CCurl" "$ROOT/Sources/CCrypto" "$harness" "$0" -newer "$exe" -type f -print -quit)" ]; then
        return 0
    fi
    echo "fuzz: building $name ($OPT)" >&2
    if [ ! -f "$OUT/shim.o" ] || [ "$ROOT/Sources/CCurl/shim.c" -nt "$OUT/shim.o" ]; then
        "$CLANG" -c -g -O1 -fsanitize=fuzzer-no-link,address -I "$ROOT/Sources/CCurl/include" \
            "$ROOT/Sources/CCurl/shim.c" -o "$OUT/shim.o" || return 1
    fi
    if [ ! -f "$OUT/crypto-shim.o" ] || [ "$ROOT/Sources/CCrypto/shim.c" -nt "$OUT/crypto-shim.o" ]; then
        "$CLANG" -c -g -O1 -fsanitize=fuzzer-no-link,address -I "$ROOT/Sources/CCrypto/include" \
            "$ROOT/Sources/CCrypto/shim.c" -o "$OUT/crypto-shim.o" || return 1
    fi
    # Compile a snapshot: others may be editing Sources/ while this builds,
    # and swiftc refuses inputs that change under it.
    local snap="$OUT/src-$name"
    rm -rf "$snap" && mkdir -p "$snap"
    mkdir -p "$snap/layers" && cp "$harness" "$snap/" || return 1
    local layer file
    # Every file of each layer, subfolders included (Flow/Cache, Flow/Batch).
    for layer in "${LAYERS[@]}"; do
        while IFS= read -r -d '' file; do
            local relative="${file#"$ROOT/Sources/"}"
            sed -E '/^import (Core|HTTP|JOSE|OAuth|Walk|Flow|CLI)$/d' "$file" >"$snap/layers/${relative//\//-}" || return 1
        done < <(find "$ROOT/Sources/$layer" -name '*.swift' -print0)
    done
    local sources=()
    while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "$snap/layers" -name '*.swift' -print0 | sort -z)
    local linker=()
    [ -x "$(dirname "$SWIFTC")/ld.lld" ] && linker=(-use-ld=lld)
    local work="$OUT/work-$name"
    mkdir -p "$work"
    # -wmo: one module optimised whole, as a release build (swift build -c
    # release) compiles the layers. File by file, a generic called from
    # another file (Base64URL.decode over a token's bytes) runs unspecialised
    # through witness tables, several times slower than the shipped code.
    (cd "$work" && "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
        -module-name AuthCodeFuzz -package-name authcode "$OPT" -wmo -g "${linker[@]}" \
        -I "$OUT/ccurl" -I "$ROOT/Sources/CCurl/include" -I "$OUT/ccrypto" -I "$ROOT/Sources/CCrypto/include" \
        "${sources[@]}" "$snap/Fuzz$name.swift" "$OUT/shim.o" "$OUT/crypto-shim.o" -lcurl -lcrypto -o "$exe.tmp") || return 1
    mv "$exe.tmp" "$exe"
}

status=0
for name in "${HARNESSES[@]}"; do
    build "$name" || { echo "fuzz: build of $name failed" >&2; exit 2; }
done
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

summary=()
for name in "${HARNESSES[@]}"; do
    # Regression inputs first, one by one, with every check on: a saved
    # crash that still crashes fails the run whatever the fuzzing finds.
    regressions="$ROOT/Fixtures/fuzz/regressions/$(corpus_name "$name")"
    failing=0
    mkdir -p "$OUT/tmp"
    for input in "$regressions"/*; do
        [ -f "$input" ] || continue
        if ! env FUZZ_TMPDIR="$OUT/tmp" SWIFT_BACKTRACE=enable=no "$OUT/fuzz-$name" -timeout=10 -rss_limit_mb=2048 "$input" >"$OUT/replay-$name.txt" 2>&1; then
            failing=$((failing + 1))
            echo "fuzz: $name still fails on regression input $input:" >&2
            grep -E 'Fatal error|ERROR|SUMMARY' "$OUT/replay-$name.txt" | head -3 >&2
        fi
    done
    if [ "$failing" -gt 0 ]; then
        status=1
        summary+=("$(printf '%-10s %s regression input(s) still fail' "$name" "$failing")")
    fi
    corpus="$OUT/corpus/$(corpus_name "$name")"
    artifacts="$OUT/artifacts/$name"
    log="$OUT/log-$name.txt"
    mkdir -p "$corpus" "$artifacts"
    cp -n "$SEEDS/$(corpus_name "$name")"/* "$corpus"/ 2>/dev/null || true
    before=$(find "$artifacts" -type f | wc -l)
    echo "fuzz: $name for ${SECONDS_PER_HARNESS}s (corpus $corpus, log $log)" >&2
    # ASAN_OPTIONS: Swift's runtime keeps caches that LeakSanitizer cannot
    # tell from leaks at exit; leaks found during a run are still reported.
    # SWIFT_BACKTRACE: the Swift runtime's own crash backtracer would hang
    # around holding the log open; libFuzzer and ASan print the stack.
    # FUZZ_TMPDIR: where a harness that writes files (PasskeyFile, ConfigFile) makes its
    # directory; emptied after the harness, so runs leave nothing in /tmp.
    FUZZ_TMPDIR="$OUT/tmp" \
    SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
    nice -n "$NICE" "$OUT/fuzz-$name" "$corpus" \
        -max_total_time="$SECONDS_PER_HARNESS" -max_len="$(max_len "$name")" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" \
        ${FUZZ_EXTRA:-} >"$log" 2>&1
    rc=$?
    rm -rf "${OUT:?}/tmp"
    after=$(find "$artifacts" -type f | wc -l)
    found=$((after - before))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    units=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    line=$(printf '%-10s execs %-10s exec/s %-7s cov %-6s ft %-7s corpus %-6s crashes %s (rc %s)' \
        "$name" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${units:-?}" "$found" "$rc")
    echo "$line"
    summary+=("$line")
    if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
        status=1
        echo "fuzz: $name failed; last lines of $log:" >&2
        grep -E 'ERROR|Fatal error|invariant broken|SUMMARY|Test unit written|#0 |#1 |#2 |#3 |#4 |#5 ' "$log" | head -30 >&2
        ls "$artifacts" >&2
    fi
done

echo
echo "fuzz summary (${SECONDS_PER_HARNESS}s each):"
printf '  %s\n' "${summary[@]}"
exit $status
