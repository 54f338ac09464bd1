import Core
import HTTP

/// What the Keycloak driver reads off a page rendered by a built-in theme
/// (`keycloak`, `keycloak.v2`; themes/src/main/resources/theme/…/login/*.ftl),
/// besides its forms, in one pass: the element ids that tell the pages
/// apart, the links the pages offer (page-expired's `#loginContinueLink`,
/// info.ftl's "proceed"), the text of the error and info pages, the OTP
/// devices of the v2 theme (tiles whose `onclick` names the credential),
/// the icons and headlines of select-authenticator's choices, and the
/// scripts (WebAuthn's arguments). Linear in the page; every list bounded.
struct KeycloakMarkup {
    var ids: Set<String> = []
    /// `href` of each `<a>` with an id.
    var links: [String: String] = [:]
    /// `href`s of the links inside `#kc-info-message`.
    var infoLinks: [String] = []
    /// Text of `#kc-error-message` and `#kc-info-message`.
    var texts: [String: String] = [:]
    /// v2's OTP tiles: the credential id each one selects, in page order.
    var otpTiles: [String] = []
    /// select-authenticator: each choice's icon classes and headline, in page order.
    var choiceIcons: [String] = []
    var choiceHeadlines: [String] = []
    /// The text of each inline `<script>`.
    var scripts: [String] = []

    static let maxItems = 64
    static let textLimit = 300
    private static let textIDs: Set<String> = ["kc-error-message", "kc-info-message"]

    private struct Collector {
        var name: String
        var isInfo = false
        var depth = 1
        var text = LineText(limit: KeycloakMarkup.textLimit)
        var finish: (inout KeycloakMarkup, String) -> Void
    }

    init(_ html: String) {
        var tokenizer = HTMLTokenizer(html, scriptText: true)
        var collectors: [Collector] = []
        var inScript = false
        var inInfo = 0
        var pendingIcon = false
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag):
                inScript = tag.name == "script" && !tag.selfClosing
                let void = LoginErrorText.isVoid(tag.name) || tag.selfClosing
                if !void {
                    for index in collectors.indices where collectors[index].name == tag.name { collectors[index].depth += 1 }
                }
                if inInfo > 0, tag.name == "a", let href = tag["href"], infoLinks.count < Self.maxItems { infoLinks.append(href) }
                if let id = tag["id"] {
                    if ids.count < Self.maxItems * 4 { ids.insert(id) }
                    if tag.name == "a", let href = tag["href"] { links[id] = href }
                    if id.hasPrefix("kc-otp-credential-"), let onclick = tag["onclick"], otpTiles.count < Self.maxItems,
                       let credential = Self.secondArgument(of: onclick) {
                        otpTiles.append(credential)
                    }
                    if Self.textIDs.contains(id), !void, collectors.count < 32 {
                        if id == "kc-info-message" { inInfo += 1 }
                        collectors.append(Collector(name: tag.name, isInfo: id == "kc-info-message") { markup, text in markup.texts[id] = text })
                    }
                }
                let classes = tag["class"] ?? ""
                if tag.name == "i", pendingIcon || classes.contains("select-auth-box-icon-properties") {
                    // v1 marks the icon itself; v2 puts it in a box.
                    if choiceIcons.count < Self.maxItems { choiceIcons.append(classes) }
                    pendingIcon = false
                } else if classes.split(separator: " ").contains("select-auth-box-icon") {
                    pendingIcon = true
                }
                if classes.contains("select-auth-box-headline"), !void, collectors.count < 32 {
                    collectors.append(Collector(name: tag.name) { markup, text in
                        if markup.choiceHeadlines.count < Self.maxItems { markup.choiceHeadlines.append(text) }
                    })
                }
            case .endTag(let name):
                inScript = false
                var index = collectors.count - 1
                while index >= 0 {
                    if collectors[index].name == name {
                        collectors[index].depth -= 1
                        if collectors[index].depth == 0 {
                            let done = collectors.remove(at: index)
                            if done.isInfo { inInfo -= 1 }
                            done.finish(&self, done.text.result)
                        }
                    }
                    index -= 1
                }
            case .text(let range):
                if inScript {
                    if scripts.count < Self.maxItems { scripts.append(tokenizer.rawText(range)) }
                    inScript = false
                    continue
                }
                guard !collectors.isEmpty else { continue }
                let text = tokenizer.text(range)
                for index in collectors.indices { collectors[index].text.append(text) }
            }
        }
        for done in collectors.reversed() { done.finish(&self, done.text.result) }
    }

    /// `toggleOTP(0, 'id')` → `id`: the second argument, a string literal.
    static func secondArgument(of call: String) -> String? {
        guard let open = call.firstIndex(of: "("), let comma = call[open...].firstIndex(of: ",") else { return nil }
        let rest = String(call[call.index(after: comma)...])
        return ScriptLiteral.value(in: rest)?.stringValue
    }
}
