"""HTML error pages as sites dress them: the message sits among a header,
navigation and a footer, for the rule that quotes a page's main text
(Sources/HTTP/Quoting/MainText.swift) and the walk's alert rules.

error-page-heading  400: no <main>; an h1, the paragraph under it (with
                    named and numeric entities), then a footer
error-page-alert    400: a role="alert" message beside a heading and intro
error-page-bare     400: no main, no heading: the whole visible text
"""
HEADER = """<header><a href="/">Example&nbsp;Corp</a>
<nav><a href="/help">Help</a> | <a href="/status">Status</a></nav></header>"""
FOOTER = "<footer><p>&copy; 2024 Example Corp &middot; <a href='/terms'>Terms</a></p></footer>"

BODIES = {
    "error-page-heading": f"""<!DOCTYPE html><html><head><title>Oops &ndash; Example</title></head><body>
{HEADER}
<div class="content"><h1>Something went wrong</h1>
<p>The client &lsquo;demo&rsquo; is not allowed here &#8212; ask your administrator.</p>
<p>Reference: 7f3a</p></div>
{FOOTER}</body></html>""",
    "error-page-alert": f"""<!DOCTYPE html><html><head><title>Error</title></head><body>
{HEADER}
<main><h2>Sign-in problem</h2><p>We could not sign you in.</p>
<div class="notice" role="alert">Your account is locked &amp; needs an administrator.</div></main>
{FOOTER}</body></html>""",
    "error-page-bare": "<html><body><p>Bad &quot;request&quot;</p> <p>try again</p></body></html>",
}


def _page(ex, pending):
    ex.send(400, BODIES[ex.scenario].encode(), "text/html; charset=utf-8")


AUTHORIZE = {name: _page for name in BODIES}
