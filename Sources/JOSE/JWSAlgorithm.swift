/// The `alg` values of RFC 7518 §3.1 and RFC 8037 §3.1 this layer signs and
/// verifies, spelled as on the wire.
package enum JWSAlgorithm: String, CaseIterable, Sendable, Hashable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case edDSA = "EdDSA"
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"
    /// `none`: an Unsecured JWS (RFC 7515 §6, RFC 7518 §3.6).
    case unsecured = "none"

    /// Every public-key algorithm: what a verifier accepts when nothing
    /// narrows it (no HMAC, never `none`).
    package static let asymmetric: Set<JWSAlgorithm> = [
        .rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .es256, .es384, .es512, .edDSA,
    ]

    /// What kind of key makes and checks this algorithm's signatures.
    package enum KeyKind: Equatable, Sendable {
        case rsa
        /// ECDSA on exactly this curve (RFC 7518 §3.4: ES256 is P-256 only, …).
        case ec(JWK.Curve)
        case okp(JWK.Curve)
        /// HMAC with a shared secret (RFC 7518 §3.2).
        case secret
        case unsecured
    }

    package var keyKind: KeyKind {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: .rsa
        case .es256: .ec(.p256)
        case .es384: .ec(.p384)
        case .es512: .ec(.p521)
        case .edDSA: .okp(.ed25519)
        case .hs256, .hs384, .hs512: .secret
        case .unsecured: .unsecured
        }
    }

    /// Whether `key`'s type and curve can check this algorithm's signatures
    /// (RFC 7517 §4.1 kty, RFC 7518 §6.2.1.1 crv). `use`, `alg` and
    /// `key_ops` are the verifier's business.
    package func fits(_ key: JWK) -> Bool {
        switch (keyKind, key.parameters) {
        case (.rsa, .rsa): true
        case (.ec(let curve), .ec(let keyCurve, _, _)): curve == keyCurve
        case (.okp(let curve), .okp(let keyCurve, _)): curve == keyCurve
        default: false
        }
    }

    /// The default algorithm for a key (README.md, "Modern client profile": RSA → RS256; each NIST
    /// curve → its ES algorithm; Ed25519 → EdDSA).
    package static func defaultFor(_ parameters: JWK.PublicParameters) -> JWSAlgorithm? {
        switch parameters {
        case .rsa: .rs256
        case .ec(let curve, _, _):
            switch curve {
            case .p256: .es256
            case .p384: .es384
            case .p521: .es512
            case .ed25519: nil
            }
        case .okp(.ed25519, _): .edDSA
        case .okp, .oct: nil
        }
    }
}
