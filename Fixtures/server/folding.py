"""Header sections with obs-fold lines (RFC 9112 §5.2): a line that starts
with SP or HTAB continues the field before it. A client that reads it as a
new field sees a Location or Set-Cookie no other client sees.

fold-location  authorize → 302 whose fields are `X-Trace: a1`, then the
               folded line ` Location: <issuer>/evil`, then
               `Location: <issuer>/next?txn=…`. Read right, X-Trace is
               `a1 Location: <issuer>/evil` and the one Location is `next`
fold-cookie    authorize → 302 to `<issuer>/next?txn=…` with
               `Set-Cookie: good=1; Path=/`, `X-Trace: a1` and the folded
               line `<TAB>Set-Cookie: evil=1; Path=/` (part of X-Trace)
fold-first     authorize → 302 whose first line after the status line is
               folded (` Location: <issuer>/evil`), then
               `Location: <issuer>/next?txn=…`: nothing to continue, the
               response is malformed

`<issuer>/next` answers with the code (302 to the redirect_uri);
`<issuer>/evil` answers 200 `evil reached`, so its hits show a client that
was fooled.
"""
from authorize import answer_code
import pages

SCENARIOS = ("fold-location", "fold-cookie", "fold-first")


def _raw_302(ex, lines):
    body = b"Redirecting\n"
    head = ["HTTP/1.1 302 Found", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Cache-Control: no-store", *lines]
    ex.raw(("\r\n".join(head) + "\r\n\r\n").encode() + body, close=False)


def authorize(ex, pending):
    nxt = f"{ex.issuer}/next?txn={ex.state.put_txn(pending)}"
    evil = f"{ex.issuer}/evil"
    if ex.scenario == "fold-location":
        return _raw_302(ex, ["X-Trace: a1", f" Location: {evil}", f"Location: {nxt}"])
    if ex.scenario == "fold-cookie":
        return _raw_302(ex, [f"Location: {nxt}", "Set-Cookie: good=1; Path=/", "X-Trace: a1",
                             "\tSet-Cookie: evil=1; Path=/"])
    # fold-first: the fold right after the status line, written by hand.
    body = b"Redirecting\n"
    ex.raw((f"HTTP/1.1 302 Found\r\n Location: {evil}\r\nLocation: {nxt}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body, close=False)


def next_hop(ex):
    pending = ex.state.get_txn(ex.query_params.get("txn"), pop=True)
    if pending is None:
        return ex.html(400, pages.message_page("Error", "Unknown transaction."))
    answer_code(ex, pending, "alice")


AUTHORIZE = {name: authorize for name in SCENARIOS}
PAGES = {
    **{(name, "next"): next_hop for name in SCENARIOS},
    **{(name, "evil"): (lambda ex: ex.send(200, "evil reached\n")) for name in SCENARIOS},
}
