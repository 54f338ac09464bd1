#!/usr/bin/env bash
# make demo: start the fixture authorization server on 127.0.0.1, then let
# authcode walk its login and consent pages and mint a token. Nothing listens
# on the redirect_uri: authcode refuses that redirect and reads the code from it.
set -euo pipefail
bin=${1:?usage: demo.sh path/to/authcode}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; rm -rf "$work"' EXIT

# The server exits when our end of its stdin pipe closes (--watch-stdin).
mkfifo "$work/in"
python3 "$here/server/fixture_server.py" --port 0 --watch-stdin < "$work/in" > "$work/ready" &
exec 3> "$work/in"
for _ in $(seq 1 100); do grep -q READY "$work/ready" 2>/dev/null && break; sleep 0.05; done
base=$(awk '/READY/ {print $2}' "$work/ready")
[ -n "$base" ] || { echo "demo: the fixture server did not start" >&2; exit 1; }

issuer="$base/t/demo/login-consent"
printf 'demo-secret\n' > "$work/secret"
printf 'wonderland\n' > "$work/password"
echo "demo: fixture server at $base; walking login + consent as alice…" >&2
start=$(date +%s%N)
"$bin" --authorize-url "$issuer/authorize" --token-url "$issuer/token" \
       --client-id demo-app --client-secret "@$work/secret" \
       --redirect-uri http://127.0.0.1:8765/callback --scope "openid profile" \
       --expect-iss "$issuer" --form username=alice --form "password=@$work/password"
end=$(date +%s%N)
echo "demo: token minted in $(( (end - start) / 1000000 )) ms; the redirect_uri was never fetched." >&2
