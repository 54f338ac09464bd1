import Core

/// A Keycloakify theme's page (keycloakify/keycloakify
/// src/bin/keycloakify/generateFtl/kcContextDeclarationTemplate.ftl): no
/// form, a script declaring the template's whole data model as a literal,
/// `const kcContext = {…};`, then `kcContext.pageId = "login.ftl";` and
/// friends, and `window.kcContext = kcContext`. The app posts to
/// `url.loginAction` (`url.oauthAction` on the consent page) with the field
/// names of Keycloak's own templates, so the driver does what the app would.
struct KeycloakContext {
    /// The data model: `url`, `realm`, `auth`, `message`, `otpLogin`,
    /// `oauth`, the WebAuthn values… (messagesPerField's functions read as null).
    let model: JSONValue
    /// The template the page stands for (`login.ftl`).
    let pageID: String?
    /// The field errors the declaration wrote into messagesPerField's
    /// functions (`return decodeHtmlEntities("…")`), in order.
    let fieldErrors: [String]

    /// Names the model may be declared under, most specific first.
    private static let declarations = ["const kcContext", "var kcContext", "let kcContext", "window.kcContext"]

    /// The context in one of the page's scripts, if any.
    init?(scripts: [String]) {
        for script in scripts where script.contains("kcContext") {
            var model: JSONValue?
            for name in Self.declarations {
                let found = ScriptLiteral.assigned(name, in: script)
                if case .object = found {
                    model = found
                    break
                }
            }
            guard case .object(var members)? = model else { continue }
            // Members set after the literal (`kcContext.pageId = "…";`).
            for name in ["pageId", "ftlTemplateFileName"] where members[name] == nil {
                if let value = ScriptLiteral.assigned("kcContext." + name, in: script) { members[name] = value }
            }
            self.model = .object(members)
            pageID = (members["pageId"] ?? members["ftlTemplateFileName"])?.stringValue
            fieldErrors = Self.decodedErrors(in: script)
            return
        }
        return nil
    }

    subscript(_ path: String...) -> JSONValue? {
        var value: JSONValue? = model
        for key in path { value = value?[key] }
        return value
    }

    /// The page's message: `message.summary` (Keycloak puts every message
    /// there, field errors too), else the first field error.
    var message: String? {
        if let summary = self["message", "summary"]?.stringValue.map(KeycloakText.plain), !summary.isEmpty { return summary }
        return fieldErrors.first
    }

    /// Whether the message is an error (not a warning or an info line).
    var showsError: Bool {
        if let type = self["message", "type"]?.stringValue { return type == "error" }
        return !fieldErrors.isEmpty
    }

    /// `decodeHtmlEntities("…")` arguments: the texts messagesPerField returns.
    private static func decodedErrors(in script: String) -> [String] {
        let bytes = Array(script.utf8)
        let call = Array("decodeHtmlEntities(".utf8)
        var errors: [String] = []
        var index = 0
        while index + call.count <= bytes.count, errors.count < 16 {
            guard bytes[index] == call[0], bytes[index..<(index + call.count)].elementsEqual(call) else {
                index += 1
                continue
            }
            index += call.count
            let argument = String(decoding: bytes[index..<min(bytes.count, index + 4_096)], as: UTF8.self)
            if let text = ScriptLiteral.value(in: argument)?.stringValue.map(KeycloakText.plain), !text.isEmpty, !errors.contains(text) {
                errors.append(text)
            }
        }
        return errors
    }
}
