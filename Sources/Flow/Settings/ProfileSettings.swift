import Core
import OAuth

/// The modern client profile (README "Modern client profile"): how the
/// client signs (RFC 7523, RFC 9101), binds its tokens (RFC 9449), and what
/// it asks the token to be for (RFC 8707, RFC 9396). ClientProfile.swift
/// signs with it.
package struct ProfileSettings: Equatable, Sendable {
    /// `--client-key`, read when the options were validated.
    package var clientKey: LoadedKey?
    package var clientKeyID: String?
    package var clientKeyAlg: SigningAlgorithm?
    /// Nil: the issuer when one is known, else the token endpoint's URL.
    package var assertionAud: AssertionAudience?
    package var par = false
    package var requestObject = false
    /// DPoP (RFC 9449) and with which key; nil: no DPoP.
    package var dpop: DPoPKey?
    package var dpopFor: DPoPTarget?
    /// `--dpop-nonce`: a resource server's nonce (RFC 9449 §9) for the
    /// `--dpop-for` proof.
    package var dpopNonce: String?
    package var resources: [String] = []
    package var authorizationDetails: String?
    /// `--front-param`: sent on the front-channel request too, even with PAR
    /// or a request object.
    package var frontParams: [NameValue] = []
    package var fapi2 = false

    package init() {}
}
