import Core
import JOSE

/// A client assertion (RFC 7523 §2.2, §3; OIDC Core §9): a JWT the client
/// signs with its private key (private_key_jwt) or MACs with its secret
/// (client_secret_jwt) for each request it authenticates. Each one is made
/// for one request: a fresh `jti`, a short life, the audience of the
/// endpoint it goes to.
package struct ClientAssertion: Sendable {
    /// RFC 7523 §2.2 `client_assertion_type`.
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Seconds from `iat` to `exp`: RFC 7523 §3 item 4 asks for a short life
    /// (Glewlwyd refuses one of two hours; about an hour is its limit).
    package static let lifetime = 60.0

    let signer: JWSSigner
    /// The header `kid`: `--client-key-id`, else the JWK's kid, else its
    /// RFC 7638 thumbprint (chosen by the caller); none for a MAC.
    let keyID: String?
    let clientID: String

    package init(signer: JWSSigner, keyID: String?, clientID: String) {
        self.signer = signer
        self.keyID = keyID
        self.clientID = clientID
    }

    package var algorithm: JWSAlgorithm { signer.algorithm }

    /// `iss` = `sub` = client_id (RFC 7523 §3 items 1-2), `aud` (item 3),
    /// `jti` (item 7), `iat` rounded down (a server may refuse an `iat` a
    /// second ahead of its clock), `exp` a minute later.
    package func make(audience: String, now: Double, jti: String) throws(JOSEError) -> String {
        let issuedAt = now.rounded(.down)
        let claims: JSONValue = .object([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(jti), "iat": .number(issuedAt), "exp": .number(issuedAt + Self.lifetime),
        ])
        return try signer.sign(claims: claims, header: JWSHeader(keyID: keyID))
    }
}

/// `--assertion-aud`: whom a client assertion names as its audience.
package enum AssertionAudience: Equatable, Sendable {
    /// The issuer identifier (draft-ietf-oauth-rfc7523bis §4, FAPI 2.0).
    case issuer
    /// The URL of the endpoint receiving it: the PAR endpoint's at PAR, the
    /// token endpoint's at token (RFC 7523 §3 item 3 as older servers such
    /// as Glewlwyd read it).
    case endpoint
    /// A value the server names.
    case literal(String)

    /// - Parameters:
    ///   - rule: nil is the default: the issuer when one is known, else the
    ///     token endpoint's URL.
    package static func audience(_ rule: AssertionAudience?, issuer: String?, endpoint: String, tokenEndpoint: String) -> String {
        switch rule {
        case .issuer?: issuer ?? tokenEndpoint
        case .endpoint?: endpoint
        case .literal(let value)?: value
        case nil: issuer ?? tokenEndpoint
        }
    }
}
