import JOSE

/// `--client-key-alg`: the JWS algorithms a client signs with (RFC 7518
/// §3.1, RFC 8037 §3.1), never `none`; the HMAC ones for client_secret_jwt.
package enum SigningAlgorithm: String, Sendable, Equatable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case edDSA = "EdDSA"
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"

    package var jws: JWSAlgorithm { JWSAlgorithm(rawValue: rawValue)! }

    /// The FAPI 2.0 Security Profile's algorithms (§5.4.1).
    package static let fapi2: Set<JWSAlgorithm> = [.ps256, .es256, .edDSA]
}
