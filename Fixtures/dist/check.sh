#!/usr/bin/env bash
# make dist's last step: checks a release tarball as a user on a machine
# without Swift would meet it.
#
#   Fixtures/dist/check.sh dist/authcode-VERSION-linux-ARCH.tar.gz VERSION COMMIT
#
# - the .sha256 beside it verifies (sha256sum -c);
# - it unpacks into a fresh directory holding exactly the binary, authcode.1,
#   the three completions, README.md and LICENSE;
# - ldd: every library resolves, none is Swift's runtime (libswift*,
#   Foundation, dispatch, BlocksRuntime, ICU): only libc, libcurl, OpenSSL
#   and their system dependencies;
# - with an empty environment (env -i) from the unpacked directory:
#   --version names VERSION and COMMIT, each completion script parses in its
#   shell, the man page lints clean, and a token is minted from the fixture
#   server (Fixtures/scripts/demo.sh) by the unpacked binary.
# Prints the contents and sizes; exits 1 on the first failure.
set -euo pipefail
tarball=$(realpath "${1:?usage: check.sh TARBALL VERSION COMMIT}")
version=${2:?usage: check.sh TARBALL VERSION COMMIT}
commit=${3:?usage: check.sh TARBALL VERSION COMMIT}
here=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "dist check: FAILED: $*" >&2; exit 1; }

(cd "$(dirname "$tarball")" && sha256sum --quiet -c "$(basename "$tarball").sha256") || fail "SHA-256 does not match"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
name=$(basename "$tarball" .tar.gz)
dir="$work/$name"
[ -d "$dir" ] || fail "the tarball has no top-level $name/"

expected=$(printf '%s\n' LICENSE README.md authcode authcode.1 completions/_authcode completions/authcode.bash completions/authcode.fish)
actual=$(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
[ "$actual" = "$expected" ] || fail "contents differ; expected:
$expected
got:
$actual"
[ "$(find "$dir" -type f -name authcode -perm -0755 | wc -l)" = 1 ] || fail "the binary is not mode 0755"

libraries=$(ldd "$dir/authcode")
if grep -q 'not found' <<<"$libraries"; then fail "unresolved libraries:
$libraries"; fi
if grep -Ei 'libswift|libFoundation|libdispatch|libBlocksRuntime|libicu|/swift' <<<"$libraries"; then
    fail "the binary needs the Swift runtime"
fi
grep -q 'libcurl' <<<"$libraries" || fail "the binary does not link libcurl"

cd "$dir"
out=$(env -i ./authcode --version) || fail "--version failed with an empty environment"
[ "$(sed -n 1p <<<"$out")" = "authcode $version" ] || fail "--version line 1: $(sed -n 1p <<<"$out")"
[ "$(sed -n 2p <<<"$out")" = "commit $commit" ] || fail "--version line 2: $(sed -n 2p <<<"$out"), expected commit $commit"
env -i ./authcode --help >/dev/null || fail "--help failed"
bash -n completions/authcode.bash || fail "bash cannot parse completions/authcode.bash"
if command -v zsh >/dev/null; then zsh -n completions/_authcode || fail "zsh cannot parse completions/_authcode"; fi
if command -v fish >/dev/null; then fish --no-execute completions/authcode.fish || fail "fish cannot parse completions/authcode.fish"; fi
if command -v mandoc >/dev/null; then
    lint=$(mandoc -T lint -W all authcode.1 2>&1) || true
    [ -z "$lint" ] || fail "mandoc -T lint: $lint"
fi
env -i PATH=/usr/bin:/bin "$here/scripts/demo.sh" "$dir/authcode" > "$work/token.json" 2> "$work/demo.err" \
    || fail "no token from the fixture server: $(cat "$work/demo.err")"
grep -q '"access_token"' "$work/token.json" || fail "the demo printed no token"

echo "dist check: $(basename "$tarball"): $(stat -c %s "$tarball") bytes; the binary $(stat -c %s authcode) bytes"
tar -tzvf "$tarball"
echo "ldd authcode:"
sed 's/^/  /' <<<"$libraries"
echo "dist check: OK: $(tr '\n' ' ' <<<"$out")"
