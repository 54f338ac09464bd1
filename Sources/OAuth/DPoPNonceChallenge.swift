import Core
import HTTP

/// A server's DPoP nonce (RFC 9449 §8, §9): offered in a `DPoP-Nonce`
/// header, and demanded by an answer that says `use_dpop_nonce` — a 400
/// error object from an authorization server (§8), a 401 whose
/// `WWW-Authenticate` names that error from a resource server (§9).
package enum DPoPNonceChallenge {
    /// The longest nonce sent back: §8.1 sets no bound, and a server's
    /// 100 KB nonce echoed into every proof made the next request fail
    /// with 431; real nonces are tens of bytes.
    static let maxLength = 1024

    /// The nonce a response offers, if it is well-formed (§8.1: `1*NQCHAR`,
    /// printable ASCII without space, `"` or `\`) and at most `maxLength` bytes.
    package static func offered(by response: HTTPResponse) -> String? {
        guard let nonce = response.headers.first(named: "DPoP-Nonce"), isNonce(nonce) else { return nil }
        return nonce
    }

    /// §8.1's grammar, `1*NQCHAR`, within `maxLength` (also a `--dpop-nonce`
    /// value's rule, CLI/OptionValues+Profile.swift).
    package static func isNonce(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxLength && text.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }
    }

    /// A `DPoP-Nonce` that is there but no nonce — outside §8.1's grammar
    /// or longer than `maxLength` — makes the answer malformed (exit 8,
    /// README "Modern client profile") for a client doing DPoP: it is never put into a
    /// proof, and never quoted (it is the server's text, of any length).
    package static func check(_ response: HTTPResponse, at place: String) throws(OAuthError) {
        let fields = response.headers.filter { $0.name.lowercased() == "dpop-nonce" }
        guard let bad = fields.first(where: { !isNonce($0.value) }) else { return }
        throw .dpopNonceMalformed(longerThan: bad.value.utf8.count > maxLength ? maxLength : nil, at: place)
    }

    /// The nonce to retry with when this answer demands one, else nil.
    package static func demanded(by response: HTTPResponse) -> String? {
        guard (400...499).contains(response.status), let nonce = offered(by: response) else { return nil }
        let inBody = OAuthErrorObject(response.body)?.error == "use_dpop_nonce"
        let inHeader = response.headers.all(named: "WWW-Authenticate").contains { $0.lowercased().contains("use_dpop_nonce") }
        return inBody || inHeader ? nonce : nil
    }
}
