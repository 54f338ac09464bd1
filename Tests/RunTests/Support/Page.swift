import Foundation

/// Pages as real login servers build them: a site frame whose header holds a
/// search form before the login form, so the walk must choose by meaning.
enum Page {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func frame(_ title: String, _ main: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title)) - Scripted Identity</title></head>
        <body>
        <header><a href="/">Scripted Identity</a>
          <nav><a href="/help">Help</a><form action="/search" method="get"><input name="q" placeholder="Search"></form></nav>
        </header>
        <main>
        <h1>\(escape(title))</h1>
        \(main)
        </main>
        <footer><p>For tests only.</p></footer>
        </body></html>
        """
    }

    static func hidden(_ fields: [(String, String)]) -> String {
        fields.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }.joined(separator: "\n")
    }

    /// A username and password form; `error` is shown as an alert after
    /// `banner` (HTML of the caller's own, shown on every visit).
    static func login(action: String, hidden fields: [(String, String)], error: String? = nil, banner: String = "") -> String {
        let alert = error.map { #"<div class="alert alert-error" role="alert">\#(escape($0))</div>"# + "\n" } ?? ""
        return frame("Sign in", banner + alert + """
            <form method="post" action="\(escape(action))">
            \(hidden(fields))
              <label>Username <input type="text" name="username"></label>
              <label>Password <input type="password" name="password"></label>
              <label><input type="checkbox" name="remember" value="yes" checked> Remember me</label>
              <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// Deny first: the walk must pick Allow by its meaning, not its place.
    static func consent(action: String, txn: String, scope: String) -> String {
        frame("Authorize access", """
            <p>The app wants <code>\(escape(scope))</code>.</p>
            <form method="post" action="\(escape(action))">
            \(hidden([("txn", txn)]))
              <button type="submit" name="decision" value="deny">Deny</button>
              <button type="submit" name="decision" value="allow">Allow</button>
            </form>
            """)
    }

    /// OAuth 2.0 Form Post Response Mode: a form to the redirect_uri.
    static func formPost(to action: String, _ fields: [(String, String)]) -> String {
        """
        <!DOCTYPE html><html><head><title>Submit This Form</title></head>
        <body onload="document.forms[0].submit()">
        <form method="post" action="\(escape(action))">
        \(hidden(fields))
        <noscript><button type="submit">Continue</button></noscript>
        </form></body></html>
        """
    }

    static func message(_ title: String, _ text: String) -> String {
        frame(title, "<p>\(escape(text))</p>")
    }

    /// The json-login scenario's page: its form never logs anyone in (the
    /// JSON API must be used).
    static func pleaseLogIn(error: String?) -> String {
        let alert = error.map { #"<div class="alert alert-error" role="alert">\#(escape($0))</div>"# + "\n" } ?? ""
        return frame("Please log in", alert + """
            <p>Please log in.</p>
            <form method="post" action="login">
              <input type="text" name="username">
              <input type="password" name="password">
              <button type="submit">Log in</button>
            </form>
            """)
    }
}
