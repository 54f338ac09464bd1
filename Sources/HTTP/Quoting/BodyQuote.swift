import Core

/// What an error line may quote of a response body, decided once by the
/// kind of endpoint that sent it (EndpointKind.swift) — the one rule for
/// every call site, so a token in a body that failed to parse never reaches
/// a terminal or a CI log. A value: the CLI words it (CLI/Errors/), and the
/// run's redactor scrubs it before it is bounded (Core/ServerText/ServerText.swift).
package enum BodyQuote: Equatable, Sendable {
    /// Nothing: an empty body, or a page with no text.
    case nothing
    /// A page's text, raw: enough of the body (its main part, MainText.swift)
    /// to recognise the page once its tags are stripped and it is bounded —
    /// which happens only after the run's secrets are scrubbed from it, since
    /// stripping first would change a secret that holds `<` or `>`.
    case page(String, html: Bool)
    /// The text a page shows as its alert or error (Walk/LoginErrorText.swift).
    case alert(String)
    /// A token-bearing endpoint's body: never its text, parsed or not; only
    /// its size and media type (for the userinfo endpoint even when empty).
    case withheld(bytes: Int, mediaType: String?, EndpointKind)

    /// Raw bytes carried past what the visible text needs, so that a secret
    /// running across that point is still whole when it is scrubbed.
    static let slack = 8_192

    /// For a page, its text (or nothing for an empty page); for a
    /// token-bearing endpoint, its size (or nothing for an empty body, but
    /// at the userinfo endpoint, whose answers are described by their shape).
    package static func of(_ response: HTTPResponse, from kind: EndpointKind) -> BodyQuote {
        guard kind == .page else {
            guard !response.body.isEmpty || kind == .userinfo else { return .nothing }
            return .withheld(bytes: response.body.count, mediaType: response.mediaType, kind)
        }
        var body = response.body
        let html = response.mediaType == "text/html" || body.prefix(VisibleText.limit).contains(UInt8(ascii: "<"))
        // The page's main text, not the site around it (MainText.swift).
        if html, let main = MainText.range(in: body), !VisibleText.of(Array(body[main]), html: true).isEmpty {
            body = Array(body[main])
        }
        guard !VisibleText.of(body, html: html).isEmpty else { return .nothing }
        let raw = body.prefix(VisibleText.extent(of: body, html: html) + slack)
        return .page(String(decoding: raw, as: UTF8.self), html: html)
    }

    /// A page's text (`of(_:from: .page)`).
    package static func page(_ response: HTTPResponse) -> BodyQuote {
        of(response, from: .page)
    }
}
