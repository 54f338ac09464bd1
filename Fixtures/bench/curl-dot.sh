#!/usr/bin/env bash
# The baseline for a walk through django-oauth-toolkit (Fixtures/django): what
# authcode's `--form username=alice --form password=@FILE` does against the
# client `conf-consent`, written out with curl and a cookie jar.
#
#   curl-dot.sh BASE PASSWORD_FILE    e.g. http://127.0.0.1:PORT (the READY line)
#
# Environment (defaults match Fixtures/django/run_server.py):
#   USERNAME=alice CLIENT_ID=conf-consent CLIENT_SECRET=conf-secret SCOPE=read
#   REDIRECT_URI=http://127.0.0.1:8765/callback
# Steps: GET /o/authorize/?… (PKCE S256) -> 302 login -> GET the login page
# (csrftoken cookie) -> cut csrfmiddlewaretoken and next out of it -> POST the
# login -> 302 back to /o/authorize/?… -> GET the consent page -> cut its hidden
# fields out of it -> POST them with allow=Authorize -> 302
# redirect_uri?code=..&state=..&iss=.. -> state check -> token request.
# Prints the token JSON on stdout.
set -euo pipefail
base=${1:?usage: curl-dot.sh BASE PASSWORD_FILE}
password_file=${2:?usage: curl-dot.sh BASE PASSWORD_FILE}
username=${USERNAME:-alice}
client_id=${CLIENT_ID:-conf-consent}
client_secret=${CLIENT_SECRET:-conf-secret}
redirect_uri=${REDIRECT_URI:-http://127.0.0.1:8765/callback}
scope=${SCOPE:-read}
IFS= read -r password < "$password_file" || true

jar=$(mktemp)
trap 'rm -f "$jar"' EXIT
c() { curl -sS -b "$jar" -c "$jar" "$@"; }
location() { tr -d '\r' | sed -n 's/^[Ll]ocation: //p'; }
# value="..." of the input named $1 in the HTML on stdin, entities undone;
# empty when the page has no such value (the consent page's nonce without openid).
field() { { grep -o "name=\"$1\" value=\"[^\"]*\"" || true; } | head -n 1 | sed 's/.*value="\([^"]*\)"/\1/; s/&amp;/\&/g; s/&quot;/"/g; s/&#x27;/'"'"'/g'; }

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
verifier=$(openssl rand 32 | b64url)
challenge=$(printf '%s' "$verifier" | openssl dgst -sha256 -binary | b64url)
state=$(openssl rand 16 | b64url)

login_url=$(c -o /dev/null -D - -G \
    --data-urlencode response_type=code \
    --data-urlencode "client_id=$client_id" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "scope=$scope" \
    --data-urlencode "state=$state" \
    --data-urlencode "code_challenge=$challenge" \
    --data-urlencode code_challenge_method=S256 \
    "$base/o/authorize/" | location)
[ -n "$login_url" ] || { echo "curl-dot: authorize did not redirect to the login page" >&2; exit 6; }
case $login_url in /*) login_url=$base$login_url ;; esac

login_page=$(c "$login_url")
csrf=$(printf '%s\n' "$login_page" | field csrfmiddlewaretoken)
next=$(printf '%s\n' "$login_page" | field next)
[ -n "$csrf" ] || { echo "curl-dot: no csrfmiddlewaretoken on the login page" >&2; exit 6; }

back=$(c -o /dev/null -D - \
    --data-urlencode "csrfmiddlewaretoken=$csrf" \
    --data-urlencode "username=$username" \
    --data-urlencode "password=$password" \
    --data-urlencode "next=$next" \
    "$base/accounts/login/" | location)
[ -n "$back" ] || { echo "curl-dot: login rejected" >&2; exit 6; }
case $back in /*) back=$base$back ;; esac

consent=$(c "$back")
args=()
for name in redirect_uri scope nonce client_id state response_type code_challenge code_challenge_method claims resource csrfmiddlewaretoken; do
    args+=(--data-urlencode "$name=$(printf '%s\n' "$consent" | field "$name")")
done
location=$(c -o /dev/null -D - "${args[@]}" -d allow=Authorize "$base/o/authorize/" | location)

code=$(printf '%s\n' "$location" | sed -n 's/.*[?&]code=\([^&#]*\).*/\1/p')
returned_state=$(printf '%s\n' "$location" | sed -n 's/.*[?&]state=\([^&#]*\).*/\1/p')
[ -n "$code" ] || { echo "curl-dot: no code in the authorization response" >&2; exit 6; }
[ "$returned_state" = "$state" ] || { echo "curl-dot: state mismatch" >&2; exit 5; }

# The token endpoint is a back-channel call: no cookies.
curl -sS --fail-with-body -u "$client_id:$client_secret" \
    -d grant_type=authorization_code \
    -d "code=$code" \
    --data-urlencode "redirect_uri=$redirect_uri" \
    --data-urlencode "code_verifier=$verifier" \
    "$base/o/token/"
echo
