import Core

/// The redactor's HTTP-shaped views: a form, a URL, a header line, each with
/// the values of secret names masked and every remembered secret scrubbed.
extension Redactor {
    /// Name=value pairs for the trace.
    package func fields(_ fields: [(String, String)]) -> String {
        fields.map { name, value in
            "\(name)=\(Self.isSecretName(name) ? Self.mask : scrub(value))"
        }.joined(separator: "&")
    }

    /// A URL with the values of secret query and fragment parameters masked.
    package func url(_ text: String) -> String {
        guard var reference = URIReference(text)?.maskingUserinfoPassword(with: Self.mask) else { return scrub(text) }
        if let query = reference.query { reference.query = maskParameters(query) }
        if let fragment = reference.fragment { reference.fragment = maskParameters(fragment) }
        return scrub(reference.text)
    }

    func maskParameters(_ query: String) -> String {
        Array(query.utf8).split(separator: ASCII.ampersand, omittingEmptySubsequences: false).map { piece in
            guard let equals = piece.firstIndex(of: ASCII.equals) else { return ASCII.string(piece) }
            let rawName = ASCII.string(piece[..<equals])
            return Self.isSecretName(FormEncoding.unescape(Substring(rawName))) ? "\(rawName)=\(Self.mask)" : ASCII.string(piece)
        }.joined(separator: "&")
    }

    /// The name of `name=value`, cut at the `=` byte (as a Character, `=`
    /// followed by a combining mark is unseen and the value would show).
    /// A nameless cookie (no `=`: all of it is the value, RFC 6265bis
    /// §5.6) has the empty name.
    static func cookieName(_ pair: ArraySlice<UInt8>) -> String {
        guard let equals = pair.firstIndex(of: ASCII.equals) else { return "" }
        return ASCII.string(pair[..<equals]).trimmed
    }

    /// The value of `name=value`, or all of a nameless cookie.
    static func cookieValue(_ pair: ArraySlice<UInt8>) -> String {
        guard let equals = pair.firstIndex(of: ASCII.equals) else { return ASCII.string(pair).trimmed }
        return ASCII.string(pair[(equals + 1)...]).trimmed
    }

    /// A `-H` value: whole, the credential after an auth scheme
    /// (`Bearer x`), a Basic credential decoded (`id:secret`, and the
    /// secret alone: RFC 7617 §2), and each cookie value of a Cookie header.
    package func remember(header: HTTPHeader) {
        remember(header.value)
        let lower = header.name.lowercased()
        if lower == "cookie" {
            for pair in Array(header.value.utf8).split(separator: UInt8(ascii: ";")) { remember(Self.cookieValue(pair)) }
        } else if let space = header.value.firstIndex(of: " ") {
            let credential = header.value[header.value.index(after: space)...].trimmed
            remember(credential)
            if header.value[..<space].lowercased() == "basic", let decoded = Base64URL.decode(Substring(credential)),
               let pair = String(validating: decoded, as: UTF8.self) {
                remember(pair)
                if let colon = pair.firstIndex(of: ":") { remember(String(pair[pair.index(after: colon)...])) }
            }
        }
    }

    /// The value of each cookie a server sets, named or nameless: the jar
    /// sends it back, and a page may echo it.
    package func remember(setCookies: [String]) {
        for header in setCookies {
            let pair = Array(header.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first ?? []
            remember(Self.cookieValue(pair))
        }
    }

    /// A header line for the trace: credentials and cookie values masked,
    /// cookie names kept so the trace still shows which cookies travel.
    func header(_ header: HTTPHeader) -> String {
        let lower = header.name.lowercased()
        let value: String
        switch lower {
        case "authorization", "proxy-authorization":
            let scheme = header.value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            value = scheme.isEmpty || scheme == header.value ? Self.mask : "\(scheme) \(Self.mask)"
        case "cookie":
            value = Array(header.value.utf8).split(separator: UInt8(ascii: ";")).map { "\(Self.cookieName($0))=\(Self.mask)" }.joined(separator: "; ")
        case "set-cookie":
            let pair = Array(header.value.utf8).split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first ?? []
            value = "\(Self.cookieName(pair))=\(Self.mask)"
        case "location", "refresh", "content-location":
            value = url(header.value)
        default:
            value = Self.isSecretName(lower) ? Self.mask : scrub(header.value)
        }
        return "\(header.name): \(value)"
    }
}
