import Core
import HTTP

/// What an error line says of a response body (HTTP/Quoting/BodyQuote.swift
/// decides what may be quoted), marked as server text: the run's redactor
/// scrubs it before it is bounded and escaped (Core/ServerText/ServerText.swift).
extension BodyQuote {
    /// The page says the redirect URI is wrong ("Mismatching redirect URI",
    /// "Invalid parameter: redirect_uri"): the hint points at `--redirect-uri`.
    var mentionsRedirectURI: Bool {
        let said: String
        switch self {
        case .page(let text, _), .alert(let text): said = text.lowercased()
        default: return false
        }
        return said.contains("redirect_uri") || said.contains("redirect uri") || said.contains("redirect url") || said.contains("redirect-uri")
    }

    /// `: <page text>`, ` with 312 bytes of text/html (not shown: …)`, or "".
    var text: String {
        switch self {
        case .nothing:
            return ""
        case .page(let raw, let html):
            return ": " + ServerText.printable(raw, limit: 120, html: html)
        case .alert(let alert):
            return ": " + ServerText.printable(alert, limit: 120)
        case .withheld(let bytes, let mediaType, .userinfo):
            // ` (text/html, 57 bytes)`: what the body was, never what it said.
            let type = mediaType.map { ServerText.printable($0, limit: 60) } ?? "no content type"
            return " (\(type), \(bytes) bytes)"
        case .withheld(let bytes, let mediaType, let kind):
            return " with " + Self.size(bytes, mediaType) + " (not shown: \(Self.withheldBecause(kind)))"
        }
    }

    /// `312 bytes of text/html`. The media type is server text too: shown
    /// only when it is a plain `type/subtype` (RFC 9110 §8.3.1), short.
    static func size(_ count: Int, _ mediaType: String?) -> String {
        let bytes = count == 1 ? "1 byte" : "\(count) bytes"
        guard let type = mediaType, !type.isEmpty else { return bytes + " without a Content-Type" }
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let readable = type.utf8.count <= 80 && parts.count == 2
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(Self.isTokenByte) }
        return bytes + (readable ? " of \(type)" : " of an unreadable Content-Type")
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || ASCII.isLetter(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }

    /// Why a body is not shown.
    static func withheldBecause(_ kind: EndpointKind) -> String {
        switch kind {
        case .page, .pushedAuthorization: "it may hold secrets"
        case .token: "it may hold tokens"
        case .userinfo: "it may hold personal data"
        }
    }
}

extension OAuthErrorObject {
    /// `error=<code>[: <description>]`, marked as server text.
    var text: String {
        "error=\(ServerText.printable(error, limit: 80))" + (description.map { ": \(ServerText.printable($0))" } ?? "")
            + (descriptionWithheld ? " (error_description not shown: it quotes a token)" : "")
    }
}
