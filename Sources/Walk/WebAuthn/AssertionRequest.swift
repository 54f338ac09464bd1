/// What a page or an API asks of `navigator.credentials.get` (WebAuthn
/// Level 3 §5.5, PublicKeyCredentialRequestOptions), as bytes and strings
/// a driver took from it; decoding base64url or a provider's own encoding
/// is the driver's.
package struct AssertionRequest: Sendable, Equatable {
    package var challenge: [UInt8]
    /// The page's origin, serialized (`URIReference(pageURL)?.origin`):
    /// it goes into clientDataJSON and the RP ID is checked against it.
    package var origin: String
    /// Nil: the origin's host (§5.1.4.1).
    package var rpID: String?
    /// `allowCredentials`' IDs; empty means any (a discoverable credential).
    package var allowCredentials: [[UInt8]]
    package var userVerification: UserVerification

    package init(challenge: [UInt8], origin: String, rpID: String? = nil, allowCredentials: [[UInt8]] = [],
                 userVerification: UserVerification = .preferred) {
        self.challenge = challenge
        self.origin = origin
        self.rpID = rpID
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}
