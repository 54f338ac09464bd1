import JOSE

/// Which `alg` values a signature may use (RFC 8725 §3.1: the verifier
/// decides, never the token's header). `none` is accepted only when the
/// user gave it alone to `--id-token-alg` (OIDC Core §2: a client
/// registered for unsigned id_tokens), and never for what crosses the
/// front channel (JARM) or comes from another endpoint.
package enum AcceptedAlgorithms {
    /// Every algorithm authcode verifies, in a fixed order for messages.
    package static let supported = JWSAlgorithm.allCases.filter { $0 != .unsecured }

    /// id_tokens: `--id-token-alg`, else the metadata's
    /// `id_token_signing_alg_values_supported` that authcode supports,
    /// else every asymmetric algorithm (HMAC needs the server to say so:
    /// it is keyed with the client secret, OIDC Core §10.1).
    package static func idToken(pinned: [JWSAlgorithm]?, advertised: [String]?) -> Set<JWSAlgorithm> {
        if let pinned { return Set(pinned) }
        return fromMetadata(advertised) ?? JWSAlgorithm.asymmetric
    }

    /// JARM responses (JARM §3 `authorization_signing_alg_values_supported`)
    /// and signed userinfo (OIDC Discovery §3 `userinfo_signing_alg_values_supported`):
    /// the metadata's list, else the id_token's set; never `none`.
    package static func other(advertised: [String]?, idToken: Set<JWSAlgorithm>) -> Set<JWSAlgorithm> {
        (fromMetadata(advertised) ?? idToken).subtracting([.unsecured])
    }

    static func fromMetadata(_ names: [String]?) -> Set<JWSAlgorithm>? {
        names.map { Set($0.compactMap(JWSAlgorithm.init(rawValue:))).subtracting([.unsecured]) }
    }
}
