import Core
import HTTP

/// A server's DPoP nonce (RFC 9449 §8, §9): offered in a `DPoP-Nonce`
/// header, and demanded by an answer that says `use_dpop_nonce` — a 400
/// error object from an authorization server (§8), a 401 whose
/// `WWW-Authenticate` names that error from a resource server (§9).
package enum DPoPNonceChallenge {
    /// The nonce a response offers, if it is well-formed (§8.1: `1*NQCHAR`,
    /// printable ASCII without space, `"` or `\`).
    package static func offered(by response: HTTPResponse) -> String? {
        guard let nonce = response.headers.first(named: "DPoP-Nonce"), isWellFormed(nonce) else { return nil }
        return nonce
    }

    /// §8.1's grammar: `1*NQCHAR`.
    package static func isWellFormed(_ nonce: String) -> Bool {
        !nonce.isEmpty && nonce.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C })
    }

    /// The nonce to retry with when this answer demands one, else nil.
    package static func demanded(by response: HTTPResponse) -> String? {
        guard (400...499).contains(response.status), let nonce = offered(by: response) else { return nil }
        let inBody = OAuthErrorObject(response.body)?.error == "use_dpop_nonce"
        let inHeader = response.headers.all(named: "WWW-Authenticate").contains { $0.lowercased().contains("use_dpop_nonce") }
        return inBody || inHeader ? nonce : nil
    }
}
