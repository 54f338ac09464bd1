import Core
import HTTP

/// A login page that only a script can fill: no form with a field or a
/// button, but `<script>` elements (a single-page app, a Keycloakify theme
/// with its `kcContext`, the Okta and Entra sign-in widgets). A browser
/// without scripting shows nothing to submit there, and neither can
/// authcode; the server's JSON login API, driven with `--step`, can.
package enum ScriptPage {
    /// Whether the page holds a `<script>` element (inline or `src`).
    static func holdsScripts(_ html: String) -> Bool {
        var tokenizer = HTMLTokenizer(html, keepAttributes: { _ in false })
        while let token = tokenizer.next() {
            if case .startTag(let tag) = token, tag.name == "script" { return true }
        }
        return false
    }

    static func failure(at place: String) -> WalkError {
        .needsJavaScript(at: place)
    }
}
