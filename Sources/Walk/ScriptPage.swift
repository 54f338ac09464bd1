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

    /// Whether only a script can make this form worth sending: it has no
    /// control a person fills or presses, and its hidden fields are empty
    /// and named by no `--form` value (Keycloak's WebAuthn form, whose six
    /// fields its script fills with the authenticator's answer). Posted as
    /// it is, it would only send blanks; a self-submitting form carries the
    /// values it passes on, and is sent.
    static func isFilledByScript(_ form: HTMLForm, values: [NameValue]) -> Bool {
        let given = Set(values.map(\.name))
        return form.fields.allSatisfy { $0.kind == .hidden && $0.value.isEmpty && !given.contains($0.name) }
    }

    static func failure(at place: String) -> WalkError {
        .needsJavaScript(at: place)
    }
}
