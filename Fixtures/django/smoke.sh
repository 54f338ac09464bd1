#!/usr/bin/env bash
# Smoke test of the django-oauth-toolkit fixture, independent of authcode:
# starts run_server.py and walks the authorization-code flow with curl
# (cookie jar, no -L) for conf-consent (login + consent), public-pkce
# (login, no consent, public client) and conf-skip (session reuse, no consent).
#
# Usage: smoke.sh VENV_DIR      (VENV_DIR made by setup-venv.sh)
# Prints each step's status; exits 0 on success.
# SMOKE_LOG=1: pass --log to the server (its log on stderr).
# SMOKE_KEEP=1: keep the temp dir with every response (NAME.headers/.body).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 VENV_DIR" >&2
    exit 2
fi
VENV=$(cd "$1" && pwd)
PY="$VENV/bin/python"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REDIRECT_URI="http://127.0.0.1:8765/callback"

TMP=$(mktemp -d)
SERVER_PID=
cleanup() {
    exec 3>&-                               # EOF on the server's stdin: it exits
    if [ -n "$SERVER_PID" ]; then
        for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "${SMOKE_KEEP:-}" ]; then echo "smoke: kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { printf '%-58s %s\n' "$1" "$2"; }

# --- start the server ------------------------------------------------------
mkfifo "$TMP/stdin"
t0=$(date +%s.%N)
"$PY" "$HERE/run_server.py" --watch-stdin ${SMOKE_LOG:+--log} <"$TMP/stdin" >"$TMP/server.out" &
SERVER_PID=$!
exec 3>"$TMP/stdin"
for _ in $(seq 300); do
    grep -q '^READY ' "$TMP/server.out" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || fail "run_server.py exited before READY"
    sleep 0.05
done
read -r ready BASE <"$TMP/server.out" || true
[ "$ready" = READY ] || fail "no READY line: $(cat "$TMP/server.out")"
t1=$(date +%s.%N)
step "run_server.py -> $ready $BASE" "$(awk "BEGIN{printf \"%.2fs\", $t1-$t0}")"
ISS="$BASE/o"

# --- helpers ---------------------------------------------------------------
# req NAME JAR CURL-ARGS...: one request, no redirects followed. Sets CODE,
# LOCATION (raw header) and BODY (file).
req() {
    local name=$1 jar=$2; shift 2
    BODY="$TMP/$name.body"
    CODE=$(curl -sS -o "$BODY" -D "$TMP/$name.headers" -b "$jar" -c "$jar" -w '%{http_code}' "$@")
    LOCATION=$(sed -n 's/^[Ll]ocation: *//p' "$TMP/$name.headers" | tr -d '\r')
}
expect() { [ "$CODE" = "$1" ] || { sed -n 1,40p "$BODY" >&2; fail "$2: HTTP $CODE, want $1"; }; }
absolute() { case $1 in http*) echo "$1" ;; *) echo "$BASE$1" ;; esac; }

# form_body FILE [EXTRA=VALUE...]: the named, non-submit inputs of the first
# <form> in FILE, url-encoded, plus the extras (e.g. a chosen submit button).
form_body() {
    "$PY" - "$@" <<'EOF'
import sys, html.parser, urllib.parse
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.depth = 0; self.done = False; self.fields = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not self.done: self.depth = 1
        elif tag == "input" and self.depth and a.get("name") and a.get("type") != "submit":
            self.fields.append((a["name"], a.get("value") or ""))
    def handle_endtag(self, tag):
        if tag == "form" and self.depth: self.depth = 0; self.done = True
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
fields = [f for f in p.fields]
extra = dict(kv.split("=", 1) for kv in sys.argv[2:])
fields = [(k, extra.pop(k, v)) for k, v in fields] + list(extra.items())
print(urllib.parse.urlencode(fields))
EOF
}
query_param() { "$PY" -c 'import sys,urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query).get(sys.argv[2],[""])[0])' "$1" "$2"; }
json_field() { "$PY" -c 'import sys,json; print(json.load(open(sys.argv[1])).get(sys.argv[2],""))' "$1" "$2"; }
jwt_claim() { "$PY" -c 'import sys,json,base64; p=sys.argv[1].split(".")[1]; print(json.loads(base64.urlsafe_b64decode(p+"="*(-len(p)%4))).get(sys.argv[2],""))' "$1" "$2"; }
pkce() {
    VERIFIER=$(head -c 48 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
    CHALLENGE=$(printf %s "$VERIFIER" | openssl dgst -sha256 -binary | base64 | tr '+/' '-_' | tr -d '=\n')
}
authorize_url() { # CLIENT_ID STATE
    echo "$BASE/o/authorize/?response_type=code&client_id=$1&redirect_uri=$(printf %s "$REDIRECT_URI" | sed 's/:/%3A/g; s#/#%2F#g')&scope=openid+profile&state=$2&code_challenge=$CHALLENGE&code_challenge_method=S256"
}
# login JAR NAME: from a 302 to the login page, log alice in; ends at the 302 back.
login() {
    local jar=$1 name=$2
    case $LOCATION in /accounts/login/\?next=*) ;; *) fail "$name: not sent to login: $LOCATION" ;; esac
    req "$name-login-get" "$jar" "$(absolute "$LOCATION")"
    expect 200 "GET login"
    grep -q 'name="csrfmiddlewaretoken"' "$BODY" || fail "login form without csrf token"
    grep -q 'name="next"' "$BODY" || fail "login form without next"
    step "$name: GET /accounts/login/?next=... (login form)" "$CODE"
    local login_url=$BASE/accounts/login/
    req "$name-login-post" "$jar" "$login_url" --data "$(form_body "$BODY" username=alice password=wonderland)"
    expect 302 "POST login"
    case $LOCATION in /o/authorize/\?*) ;; *) fail "$name: login did not return to authorize: $LOCATION" ;; esac
    step "$name: POST /accounts/login/ alice -> $(echo "$LOCATION" | cut -c1-22)..." "$CODE"
}
# check_redirect NAME STATE: LOCATION must be the redirect_uri with code, state, iss.
check_redirect() {
    case $LOCATION in "$REDIRECT_URI?"*) ;; *) fail "$1: final redirect not to redirect_uri: $LOCATION" ;; esac
    AUTH_CODE=$(query_param "$LOCATION" code)
    [ -n "$AUTH_CODE" ] || fail "$1: no code in $LOCATION"
    [ "$(query_param "$LOCATION" state)" = "$2" ] || fail "$1: state mismatch in $LOCATION"
    [ "$(query_param "$LOCATION" iss)" = "$ISS" ] || fail "$1: iss != $ISS in $LOCATION"
    step "$1: 302 -> redirect_uri?code&state&iss" "$CODE"
    echo "    Location: $LOCATION"
}
# check_tokens NAME CLIENT_ID: BODY must be token JSON with access_token and a valid-looking id_token.
check_tokens() {
    expect 200 "$1 token request"
    local at idt
    at=$(json_field "$BODY" access_token); idt=$(json_field "$BODY" id_token)
    [ -n "$at" ] || fail "$1: no access_token: $(cat "$BODY")"
    [ -n "$idt" ] || fail "$1: no id_token: $(cat "$BODY")"
    [ "$(json_field "$BODY" token_type)" = Bearer ] || fail "$1: token_type not Bearer"
    [ "$(jwt_claim "$idt" iss)" = "$ISS" ] || fail "$1: id_token iss mismatch"
    [ "$(jwt_claim "$idt" aud)" = "$2" ] || fail "$1: id_token aud != $2"
    step "$1: POST /o/token/ -> access_token, id_token (iss, aud ok)" "$CODE"
    echo "    token JSON keys: $("$PY" -c 'import sys,json; print(" ".join(sorted(json.load(open(sys.argv[1])))))' "$BODY")"
}

# --- discovery -------------------------------------------------------------
JAR="$TMP/jar1"
req disco "$JAR" "$BASE/o/.well-known/openid-configuration"
expect 200 discovery
[ "$(json_field "$BODY" issuer)" = "$ISS" ] || fail "discovery issuer != $ISS"
[ "$(json_field "$BODY" authorization_response_iss_parameter_supported)" = True ] || fail "RFC 9207 not advertised"
step "GET /o/.well-known/openid-configuration (issuer $ISS)" "$CODE"

# --- conf-consent: login + consent + Basic auth ----------------------------
pkce; STATE=st-$RANDOM$RANDOM
req cc-authz "$JAR" "$(authorize_url conf-consent "$STATE")"
expect 302 "GET authorize (conf-consent)"
step "conf-consent: GET /o/authorize/ -> login" "$CODE"

# A wrong password re-shows the form with the error block.
req cc-bad-get "$JAR" "$(absolute "$LOCATION")"
req cc-bad-post "$JAR" "$BASE/accounts/login/" --data "$(form_body "$BODY" username=alice password=wrong)"
expect 200 "POST login with a wrong password"
grep -q 'class="errornote"' "$BODY" || fail "no error block for a wrong password"
step "conf-consent: POST /accounts/login/ wrong password (errornote)" "$CODE"

req cc-authz "$JAR" "$(authorize_url conf-consent "$STATE")"
expect 302 "GET authorize again (conf-consent)"
login "$JAR" conf-consent
req cc-consent "$JAR" "$(absolute "$LOCATION")"
expect 200 "GET authorize after login (consent page)"
grep -q 'name="allow"' "$BODY" || fail "no consent form"
step "conf-consent: GET /o/authorize/ (consent form)" "$CODE"
req cc-allow "$JAR" "$BASE/o/authorize/" --data "$(form_body "$BODY" allow=Authorize)"
expect 302 "POST consent"
check_redirect conf-consent "$STATE"
req cc-token "$JAR" "$BASE/o/token/" -u conf-consent:conf-secret \
    --data-urlencode grant_type=authorization_code --data-urlencode "code=$AUTH_CODE" \
    --data-urlencode "redirect_uri=$REDIRECT_URI" --data-urlencode "code_verifier=$VERIFIER"
check_tokens conf-consent conf-consent

# Consent is asked again on the next run (REQUEST_APPROVAL_PROMPT=force).
pkce
req cc-again "$JAR" "$(authorize_url conf-consent "$STATE")"
expect 200 "second authorize of conf-consent (consent again)"
grep -q 'name="allow"' "$BODY" || fail "consent not shown again"
step "conf-consent: again, same session -> consent shown again" "$CODE"

# --- conf-skip: same session, no consent -----------------------------------
pkce; STATE=st-$RANDOM$RANDOM
req cs-authz "$JAR" "$(authorize_url conf-skip "$STATE")"
expect 302 "GET authorize (conf-skip, logged in)"
check_redirect conf-skip "$STATE"
req cs-token "$JAR" "$BASE/o/token/" -u conf-skip:conf-skip-secret \
    --data-urlencode grant_type=authorization_code --data-urlencode "code=$AUTH_CODE" \
    --data-urlencode "redirect_uri=$REDIRECT_URI" --data-urlencode "code_verifier=$VERIFIER"
check_tokens conf-skip conf-skip

# --- public-pkce: fresh session, login, no consent, no secret --------------
JAR="$TMP/jar2"
pkce; STATE=st-$RANDOM$RANDOM
req pp-authz "$JAR" "$(authorize_url public-pkce "$STATE")"
expect 302 "GET authorize (public-pkce)"
step "public-pkce: GET /o/authorize/ -> login" "$CODE"
login "$JAR" public-pkce
req pp-back "$JAR" "$(absolute "$LOCATION")"
expect 302 "GET authorize after login (public-pkce)"
check_redirect public-pkce "$STATE"
req pp-token "$JAR" "$BASE/o/token/" --data-urlencode client_id=public-pkce \
    --data-urlencode grant_type=authorization_code --data-urlencode "code=$AUTH_CODE" \
    --data-urlencode "redirect_uri=$REDIRECT_URI" --data-urlencode "code_verifier=$VERIFIER"
check_tokens public-pkce public-pkce

echo "smoke: OK"
