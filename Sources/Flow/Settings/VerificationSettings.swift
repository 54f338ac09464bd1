import JOSE

/// What is verified and against what (OIDC Core §3.1.3.7, JARM, §5.3):
/// Flow/Verification/. The last three are a client profile's (`--fapi2`),
/// set by the rules rather than by an option of their own.
package struct VerificationSettings: Equatable, Sendable {
    /// `--jwks`: the key set itself (a file, or JSON given inline), or its URL.
    package var jwks: KeySetSource?
    /// `--id-token-alg`: the only algorithms accepted (`none` only alone).
    package var idTokenAlgs: [JWSAlgorithm]?
    /// `--trust-audience`: audiences an id_token may name besides the client.
    package var trustAudiences: [String] = []
    package var clockSkew = 60.0
    package var userinfo = false
    /// The algorithms a client profile allows an id_token (`--fapi2`: PS256,
    /// ES256, EdDSA), intersected with what it accepts otherwise; nil when
    /// no profile limits them.
    package var profileIDTokenAlgorithms: [String]?
    /// An id_token must carry a verified signature, whatever else would let
    /// it pass unverified (`--fapi2`).
    package var requireSignedIDToken = false
    /// The authorization response must carry `iss` (RFC 9207; `--fapi2`).
    package var requireIss = false

    package init() {}
}
