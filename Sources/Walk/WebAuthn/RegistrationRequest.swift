/// What a page or an API asks of `navigator.credentials.create` (WebAuthn
/// Level 3 §5.4, PublicKeyCredentialCreationOptions), as a driver took it.
package struct RegistrationRequest: Sendable, Equatable {
    /// `user` (§5.4.3): its `id` becomes the credential's user handle; the
    /// names are only shown by a browser, and kept for `-v`.
    package struct User: Sendable, Equatable {
        package var id: [UInt8]
        package var name: String
        package var displayName: String

        package init(id: [UInt8], name: String = "", displayName: String = "") {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    package var challenge: [UInt8]
    /// The page's origin, serialized, as for an assertion.
    package var origin: String
    /// `rp.id`; nil: the origin's host (§5.1.3).
    package var rpID: String?
    package var user: User
    /// `pubKeyCredParams`' algorithms (COSE identifiers); empty means the
    /// default of §5.4 (ES256 and RS256).
    package var algorithms: [Int]
    /// `excludeCredentials`' IDs: a fresh credential is never one of them,
    /// but a driver passes them on as the page gave them.
    package var excludeCredentials: [[UInt8]]
    package var userVerification: UserVerification

    package init(challenge: [UInt8], origin: String, rpID: String? = nil, user: User, algorithms: [Int] = [],
                 excludeCredentials: [[UInt8]] = [], userVerification: UserVerification = .preferred) {
        self.challenge = challenge
        self.origin = origin
        self.rpID = rpID
        self.user = user
        self.algorithms = algorithms
        self.excludeCredentials = excludeCredentials
        self.userVerification = userVerification
    }
}
