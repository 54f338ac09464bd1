import Core
import HTTP
import OAuth

/// The DPoP nonces servers gave this flow (RFC 9449 §8, §9), by origin:
/// an authorization server's nonce serves its PAR and token endpoints, a
/// resource server's its own API. A later `DPoP-Nonce` replaces an earlier
/// one (§8.2: servers rotate them, on errors and on successes alike).
final class DPoPNonces {
    private var byOrigin: [String: String] = [:]

    func nonce(for url: String) -> String? {
        URIReference(url)?.origin.flatMap { byOrigin[$0] }
    }

    func learn(from response: HTTPResponse, for url: String) {
        guard let nonce = DPoPNonceChallenge.offered(by: response) else { return }
        give(nonce, for: url)
    }

    /// A nonce from elsewhere: `--dpop-nonce`, or a cache entry's.
    func give(_ nonce: String, for url: String) {
        guard let origin = URIReference(url)?.origin else { return }
        byOrigin[origin] = nonce
    }

    /// Every nonce by origin, for the cache entry.
    var all: [String: String] { byOrigin }
}
