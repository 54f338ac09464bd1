#!/usr/bin/env bash
# The baseline authcode is measured against: the authorization-code grant with
# PKCE as people script it today with openssl, curl and sed, against a server
# that answers the authorization request with a direct 302 (no login page).
#
#   curl-flow.sh ISSUER            e.g. http://127.0.0.1:PORT/t/bench-1/direct
#
# ISSUER/authorize and ISSUER/token are the endpoints. Client and request come
# from the environment (defaults match the fixture server and bench.py):
#   CLIENT_ID=demo-app CLIENT_SECRET=demo-secret SCOPE=profile
#   REDIRECT_URI=http://127.0.0.1:8765/callback
# and, for an https ISSUER signed by a private CA, CACERT=path/to/ca.pem
# (curl --cacert).
# Prints the token endpoint's JSON on stdout; exits non-zero when no code came
# back, the state did not match or the token endpoint refused.
set -euo pipefail
issuer=${1:?usage: curl-flow.sh ISSUER}
client_id=${CLIENT_ID:-demo-app}
client_secret=${CLIENT_SECRET:-demo-secret}
redirect_uri=${REDIRECT_URI:-http://127.0.0.1:8765/callback}
scope=${SCOPE:-profile}
tls=()
[ -n "${CACERT:-}" ] && tls=(--cacert "$CACERT")

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# PKCE (RFC 7636): 32 random bytes -> 43-character verifier, S256 challenge.
verifier=$(openssl rand 32 | b64url)
challenge=$(printf '%s' "$verifier" | openssl dgst -sha256 -binary | b64url)
state=$(openssl rand 16 | b64url)

# The authorization request as a form POST, redirects NOT followed: the 302's
# Location carries the code. Nothing listens on the redirect_uri.
location=$(curl -sS ${tls[@]+"${tls[@]}"} -o /dev/null -D - \
    --data-urlencode response_type=code \
    --data-urlencode "client_id=$client_id" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "scope=$scope" \
    --data-urlencode "state=$state" \
    --data-urlencode "code_challenge=$challenge" \
    --data-urlencode code_challenge_method=S256 \
    "$issuer/authorize" | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')

code=$(printf '%s\n' "$location" | sed -n 's/.*[?&]code=\([^&#]*\).*/\1/p')
returned_state=$(printf '%s\n' "$location" | sed -n 's/.*[?&]state=\([^&#]*\).*/\1/p')
if [ -z "$code" ]; then
    echo "curl-flow: no code in the authorization response (${location%%\?*})" >&2
    exit 6
fi
if [ "$returned_state" != "$state" ]; then
    echo "curl-flow: state mismatch" >&2
    exit 5
fi

# Token request, client_secret_basic. The code is already URL-encoded as it
# came in the Location, so it goes in with -d, not --data-urlencode.
curl -sS ${tls[@]+"${tls[@]}"} --fail-with-body -u "$client_id:$client_secret" \
    -d grant_type=authorization_code \
    -d "code=$code" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "code_verifier=$verifier" \
    "$issuer/token"
echo
