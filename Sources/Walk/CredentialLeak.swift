import Core
import HTTP

/// Servers that take the authorization request only by GET (RFC 6749 §3.1
/// requires GET; POST is optional) may turn our POST into a GET by copying
/// every field of its body — `--form` values, password included — into a
/// URL: a `Location`, a refresh, a form's action or hidden `next=`, at once
/// or a page later, raw or nested in a `next=`/`callback_url=` parameter and
/// percent-encoded once more per level. Fetching or sending such a URL puts
/// the password into server logs, browser-style history and Referer
/// headers; this finds it before it leaves (Flow/MethodFallback.swift then
/// sends the authorization request again as a GET without `--form` values).
package struct CredentialLeak: Sendable {
    /// `name=value` of each `--form` value, as it reads once decoded.
    let pairs: [[UInt8]]

    /// Nested parameters are decoded this many times beyond the first.
    static let nestingLevels = 2

    package init(_ values: [NameValue]) {
        pairs = values.filter { !$0.name.isEmpty && !$0.value.isEmpty }.map { Array("\($0.name)=\($0.value)".utf8) }
    }

    /// Whether `request` would carry a `--form` value: as a parameter of its
    /// URL (unless `filledByUs`: a GET form we filled in ourselves), or
    /// nested inside the value of a URL parameter or of a field of its form
    /// body (a hidden `next` holding the copied request).
    func isCarried(by request: HTTPRequest, filledByUs: Bool) -> Bool {
        guard !pairs.isEmpty else { return false }
        if let query = URIReference(request.url)?.query {
            for (name, value) in FormEncoding.decode(query) {
                if !filledByUs, holds(Array("\(name)=\(value)".utf8)) { return true }
                if nests(value) { return true }
            }
        }
        if let body = request.body, request.headers.first(named: "Content-Type") == "application/x-www-form-urlencoded" {
            for (_, value) in FormEncoding.decode(String(decoding: body, as: UTF8.self)) where nests(value) { return true }
        }
        return false
    }

    /// A parameter value holding one of our pairs, decoded up to
    /// `nestingLevels` more times (`%253D` is `=` encoded twice).
    func nests(_ value: String) -> Bool {
        var text = value
        for level in 0...Self.nestingLevels {
            if holds(Array(text.utf8)) { return true }
            guard level < Self.nestingLevels, text.utf8.contains(UInt8(ascii: "%")) || text.utf8.contains(UInt8(ascii: "+")) else { break }
            text = FormEncoding.unescape(text[...])
        }
        return false
    }

    /// `text` holds a pair as a whole parameter: after its start or `?`,
    /// `&`, `;` or `#`, and before its end or `&`, `;` or `#`.
    func holds(_ text: [UInt8]) -> Bool {
        pairs.contains { pair in Self.occurs(pair, in: text) }
    }

    private static let before: Set<UInt8> = [UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "#")]
    private static let after: Set<UInt8> = [UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "#")]

    static func occurs(_ pair: [UInt8], in text: [UInt8]) -> Bool {
        guard let first = pair.first, pair.count <= text.count else { return false }
        var start = 0
        while start + pair.count <= text.count {
            guard let index = text[start...].firstIndex(of: first), index + pair.count <= text.count else { return false }
            let end = index + pair.count
            if (index == 0 || before.contains(text[index - 1])), (end == text.count || after.contains(text[end])),
               text[index..<end].elementsEqual(pair) {
                return true
            }
            start = index + 1
        }
        return false
    }
}
