import Core
import OAuth

/// A token endpoint's answer with the time it arrived: every expiry
/// (`--min-ttl`, `expires_at`, `expirationTimestamp`) counts from then,
/// also for an answer read back from the cache.
package struct MintedToken: Sendable {
    /// Where this token came from, for the `-v` trace.
    package enum Source: String, Sendable {
        case flow = "a new authorization flow"
        case refresh = "a refresh"
        case cache = "the cache"
    }

    package var response: TokenResponse
    package var receivedAt: Double
    package var source: Source
    /// `--dpop-for`: a DPoP proof for that request, signed after the token
    /// was obtained, for `--print header`'s second line (ResourceProof.swift).
    package var resourceProof: String?
    /// `--userinfo`: the userinfo answer that came with this token.
    package var userinfo: UserInfo?
    /// `--call`: the resource server's answer to the request made with it.
    package var call: CallAnswer?
    /// The DPoP nonces resource servers gave, by origin (RFC 9449 §9): kept
    /// in the cache entry, so a run that reuses the token starts with them.
    package var dpopNonces: [String: String] = [:]

    package init(response: TokenResponse, receivedAt: Double, source: Source) {
        self.response = response
        self.receivedAt = receivedAt
        self.source = source
    }

    package var accessTokenExpiry: Double? {
        TokenLifetime.accessTokenExpiry(response, receivedAt: receivedAt)
    }

    package var idTokenExpiry: Double? {
        TokenLifetime.idTokenExpiry(response)
    }
}
