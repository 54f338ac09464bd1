"""Token answers that hold a real, working token but are not the JSON a
client expects: it must never quote them (the token would land in a
terminal or a CI log after the code was spent).

The code is validated and redeemed as usual (the token is issued and works);
only the body on the wire is spoiled:

token-junk-before   200 application/json: PHP warnings, then the JSON
token-junk-after    200 application/json: the JSON, then an HTML comment
token-bad-utf8      200 application/json: the JSON with the bytes C3 28 (an
                    invalid UTF-8 sequence) inside the scope string
token-truncated     200 application/json: the JSON without its last 12 bytes
                    (Content-Length matches what is sent)
token-500-echo      500 text/html: an error page quoting the JSON in <pre>
token-text-plain    200 text/plain: access_token=…&token_type=bearer&scope=…
token-error-echo    500 application/json: a well-formed error object whose
                    error_description quotes the JSON it failed to send
"""
import json
from urllib.parse import urlencode

SCENARIOS = {
    "token-junk-before", "token-junk-after", "token-bad-utf8", "token-truncated",
    "token-500-echo", "token-text-plain", "token-error-echo",
}
JUNK_BEFORE = (b"<br />\n<b>Warning</b>:  session_start(): Session cannot be started after headers "
               b"have already been sent in <b>/srv/www/token.php</b> on line <b>12</b><br />\n")
JUNK_AFTER = b"\n<!-- served by token.php in 0.2 ms -->\n"
_MARK = "\u0000scope\u0000"


def body(scenario, obj):
    """(status, content type, bytes) for a spoiled scenario, else None."""
    if scenario not in SCENARIOS:
        return None
    text = json.dumps(obj, separators=(",", ":")).encode()
    if scenario == "token-junk-before":
        return 200, "application/json", JUNK_BEFORE + text
    if scenario == "token-junk-after":
        return 200, "application/json", text + JUNK_AFTER
    if scenario == "token-bad-utf8":
        marked = json.dumps({**obj, "scope": _MARK}, separators=(",", ":")).encode()
        return 200, "application/json", marked.replace(json.dumps(_MARK).encode(), b'"caf\xc3\x28"', 1)
    if scenario == "token-truncated":
        return 200, "application/json", text[:-12]
    if scenario == "token-500-echo":
        page = (b"<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body>"
                b"<h1>Internal Server Error</h1><p>TypeError while sending the response:</p><pre>"
                + text + b"</pre></body></html>")
        return 500, "text/html; charset=utf-8", page
    if scenario == "token-error-echo":
        error = {"error": "server_error", "error_description": "could not send " + text.decode()}
        return 500, "application/json", json.dumps(error, separators=(",", ":")).encode()
    form = urlencode([(k, v) for k, v in obj.items() if k in ("access_token", "token_type", "scope")])
    return 200, "text/plain", form.replace("Bearer", "bearer").encode()
