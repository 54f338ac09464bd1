import Core

/// What an error line may say about a response body, by the kind of
/// endpoint that sent it (EndpointKind.swift): the one rule for every call
/// site, so a token in a body that failed to parse never reaches a terminal
/// or a CI log.
package enum BodyInMessage {
    /// For a page, `: <excerpt>` (or nothing for an empty page); for a
    /// token-bearing endpoint, ` with N bytes of <type> (not shown: …)`,
    /// whether or not the body parses (or nothing for an empty body).
    package static func of(_ response: HTTPResponse, from kind: EndpointKind) -> String {
        guard kind != .page else { return Excerpt.of(response) }
        guard !response.body.isEmpty else { return "" }
        return " with " + size(response) + " (not shown: \(kind.withheldBecause))"
    }

    /// `312 bytes of text/html`. The media type is server text too: shown
    /// only when it is a plain `type/subtype` (RFC 9110 §8.3.1), short.
    static func size(_ response: HTTPResponse) -> String {
        let count = response.body.count
        let bytes = count == 1 ? "1 byte" : "\(count) bytes"
        guard let type = response.mediaType, !type.isEmpty else { return bytes + " without a Content-Type" }
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let readable = type.utf8.count <= 80 && parts.count == 2
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(Self.isTokenByte) }
        return bytes + (readable ? " of \(type)" : " of an unreadable Content-Type")
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isDigit(byte) || ASCII.isLetter(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
