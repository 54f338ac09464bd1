#!/usr/bin/env bash
# The baseline for the login + consent walk: what authcode's
# `--form username=alice --form password=@FILE` does, written out with curl
# and a cookie jar against the fixture's `login-consent` scenario.
#
#   curl-walk.sh ISSUER PASSWORD_FILE   e.g. http://127.0.0.1:PORT/t/bench-2/login-consent
#
# Environment (defaults match the fixture server and bench.py):
#   USERNAME=alice CLIENT_ID=demo-app CLIENT_SECRET=demo-secret SCOPE=profile
#   REDIRECT_URI=http://127.0.0.1:8765/callback
# Steps: POST authorize -> 302 login (cookies sid, csrf) -> GET login page ->
# cut csrf_token out of it -> POST login -> 303 consent -> GET consent page ->
# cut txn out of it -> POST decision=allow -> 302 redirect_uri?code=..&state=..
# -> state check -> token request. Prints the token JSON on stdout.
set -euo pipefail
issuer=${1:?usage: curl-walk.sh ISSUER PASSWORD_FILE}
password_file=${2:?usage: curl-walk.sh ISSUER PASSWORD_FILE}
username=${USERNAME:-alice}
client_id=${CLIENT_ID:-demo-app}
client_secret=${CLIENT_SECRET:-demo-secret}
redirect_uri=${REDIRECT_URI:-http://127.0.0.1:8765/callback}
scope=${SCOPE:-profile}
IFS= read -r password < "$password_file" || true

jar=$(mktemp)
trap 'rm -f "$jar"' EXIT
c() { curl -sS -b "$jar" -c "$jar" "$@"; }
# Location of a response whose headers are on stdin.
location() { tr -d '\r' | sed -n 's/^[Ll]ocation: //p'; }
# value="..." of the input named $1 in the HTML on stdin, &amp; undone.
field() { grep -o "name=\"$1\" value=\"[^\"]*\"" | head -n 1 | sed 's/.*value="\([^"]*\)"/\1/; s/&amp;/\&/g'; }
# Relative references in this scenario are resolved by hand: the login form's
# action is "login" (next to the login page), the consent form's is absolute-path.
origin=$(printf '%s\n' "$issuer" | sed 's#^\([a-z]*://[^/]*\).*#\1#')

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
verifier=$(openssl rand 32 | b64url)
challenge=$(printf '%s' "$verifier" | openssl dgst -sha256 -binary | b64url)
state=$(openssl rand 16 | b64url)

login_url=$(c -o /dev/null -D - \
    --data-urlencode response_type=code \
    --data-urlencode "client_id=$client_id" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "scope=$scope" \
    --data-urlencode "state=$state" \
    --data-urlencode "code_challenge=$challenge" \
    --data-urlencode code_challenge_method=S256 \
    "$issuer/authorize" | location)
[ -n "$login_url" ] || { echo "curl-walk: authorize did not redirect to a login page" >&2; exit 6; }

login_page=$(c "$login_url")
csrf=$(printf '%s\n' "$login_page" | field csrf_token)
back=$(printf '%s\n' "$login_page" | field return)
[ -n "$csrf" ] || { echo "curl-walk: no csrf_token on the login page" >&2; exit 6; }

consent_url=$(c -o /dev/null -D - \
    --data-urlencode "csrf_token=$csrf" \
    --data-urlencode "return=$back" \
    --data-urlencode "username=$username" \
    --data-urlencode "password=$password" \
    -d remember=yes \
    "${login_url%%\?*}" | location)
[ -n "$consent_url" ] || { echo "curl-walk: login rejected" >&2; exit 6; }

consent_page=$(c "$consent_url")
txn=$(printf '%s\n' "$consent_page" | field txn)
consent_scope=$(printf '%s\n' "$consent_page" | field scope)
action=$(printf '%s\n' "$consent_page" | grep -o '<form method="post" action="[^"]*"' | head -n 1 | sed 's/.*action="\([^"]*\)"/\1/')
[ -n "$txn" ] && [ -n "$action" ] || { echo "curl-walk: no consent form" >&2; exit 6; }

location=$(c -o /dev/null -D - \
    --data-urlencode "txn=$txn" \
    --data-urlencode "scope=$consent_scope" \
    -d decision=allow \
    "$origin$action" | location)

code=$(printf '%s\n' "$location" | sed -n 's/.*[?&]code=\([^&#]*\).*/\1/p')
returned_state=$(printf '%s\n' "$location" | sed -n 's/.*[?&]state=\([^&#]*\).*/\1/p')
[ -n "$code" ] || { echo "curl-walk: no code in the authorization response" >&2; exit 6; }
[ "$returned_state" = "$state" ] || { echo "curl-walk: state mismatch" >&2; exit 5; }

# The token endpoint is a back-channel call: no cookies.
curl -sS --fail-with-body -u "$client_id:$client_secret" \
    -d grant_type=authorization_code \
    -d "code=$code" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "code_verifier=$verifier" \
    "$issuer/token"
echo
