/// Which authorization server: its issuer (discovery, the expected `iss`),
/// or its endpoints by hand.
package struct ServerSettings: Equatable, Sendable {
    /// `--issuer`: endpoints discovered from its metadata; also the expected `iss`.
    package var issuer: String?
    package var authorizeURL: String?
    package var tokenURL: String?
    /// `--expect-iss`: the expected `iss` when endpoints are given by hand.
    package var expectIss: String?

    package init() {}

    /// The issuer the answers must come from, and the client names as an
    /// audience: `--expect-iss`, else `--issuer` (which discovery checked
    /// equals the metadata's).
    package var expectedIssuer: String? { expectIss ?? issuer }
}
