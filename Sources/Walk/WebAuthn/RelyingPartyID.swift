import Core
import HTTP

/// Whom a passkey may answer (WebAuthn Level 3 §5.1.3, §5.1.4.1: "effective
/// domain" and "registrable domain suffix"): the page's origin must be a
/// secure context, its host a domain, and the RP ID asked for that host or a
/// registrable suffix of it. Checked before anything is signed, so a page of
/// one site never gets a signature for another. Related origin requests
/// (§5.11, an RP ID vouched for by a `.well-known/webauthn` file) are not
/// followed.
enum RelyingPartyID {
    /// A checked request: the RP ID in lower case and the origin as the
    /// page has it.
    struct Scope: Equatable {
        var rpID: String
        var origin: String
    }

    /// `origin` must be a serialized origin (RFC 6454 §6.2, what
    /// `URIReference.origin` writes); `rpID` nil means the origin's host
    /// (the default of §5.1.4.1).
    static func check(_ rpID: String?, origin: String) throws(WebAuthnError) -> Scope {
        guard let uri = URIReference(origin), uri.origin == origin, let host = uri.host, let scheme = uri.scheme else {
            throw .notAnOrigin(origin)
        }
        if isIPLiteral(host) { throw .ipLiteral(host) }
        // A secure context (the API exists only in one): https, or http on
        // this machine (`localhost`, RFC 6761 §6.3; `*.localhost` too, as
        // browsers treat it).
        if scheme != "https", !(host == "localhost" || host.hasSuffix(".localhost")) { throw .insecureOrigin(origin) }
        guard isDomain(host) else { throw .notAnOrigin(origin) }
        let asked = (rpID ?? host).lowercased()
        if isIPLiteral(asked) { throw .ipLiteral(asked) }
        guard isDomain(asked) else { throw .invalidRPID(asked) }
        guard asked == host || isRegistrableSuffix(asked, of: host) else { throw .rpIDNotForOrigin(rpID: asked, origin: origin) }
        return Scope(rpID: asked, origin: origin)
    }

    /// A proper suffix on a label boundary that is not a public suffix.
    /// Without the Public Suffix List, only its default rule (`*`: every
    /// top-level label is a public suffix) is known, so `example.com` is
    /// allowed for `login.example.com` and `com` is not; a longer public
    /// suffix (`co.uk`) passes this test, and the FILE's own RP ID (which
    /// must equal the asked one) is what keeps a passkey to its site.
    static func isRegistrableSuffix(_ suffix: String, of host: String) -> Bool {
        host.hasSuffix("." + suffix) && suffix.contains(".")
    }

    /// A valid domain as the URL Standard's host parser leaves one, in
    /// ASCII: labels of 1–63 letters, digits and hyphens (no hyphen first or
    /// last), at most 253 bytes, no empty label (so no trailing dot).
    /// Internationalized names arrive as their A-labels (`xn--…`).
    static func isDomain(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...253).contains(bytes.count) else { return false }
        for label in bytes.split(separator: ASCII.dot, omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != hyphen, label.last != hyphen,
                  label.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == hyphen }) else { return false }
        }
        return true
    }

    /// An IPv6 literal (any colon or bracket), or a name the URL Standard
    /// parses as IPv4: one whose last label is a number — decimal, or hex
    /// after `0x` (its "ends in a number" checker), so `127.1` and `0x7f.1`
    /// count, as a browser would read them.
    static func isIPLiteral(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        if bytes.contains(ASCII.colon) || bytes.contains(ASCII.openBracket) { return true }
        var labels = bytes.split(separator: ASCII.dot, omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy(ASCII.isDigit) { return true }
        let lower = last.map { $0 | 0x20 }
        return lower.starts(with: Array("0x".utf8)) && lower.dropFirst(2).allSatisfy { ASCII.isDigit($0) || (0x61...0x66).contains($0) }
    }

    private static let hyphen = UInt8(ascii: "-")
}
