import Core
import JOSE

/// Makes DPoP proofs (RFC 9449 §4): a JWT signed by the client's DPoP key
/// for one HTTP request, whose header carries the public key. A proof is
/// made for each request just before it is sent, never reused: servers
/// keep each `jti` and allow only seconds of `iat` skew.
package struct DPoPProver: Sendable {
    /// RFC 9449 §4.2 `typ`.
    package static let type = "dpop+jwt"

    let signer: JWSSigner
    let publicKey: JWK
    /// RFC 7638 thumbprint of the public key: `dpop_jkt` (§10), the `jkt`
    /// of `cnf` a bound token carries (§6.1).
    package let thumbprint: String

    package init(key: SigningKey, algorithm: JWSAlgorithm? = nil) throws(JOSEError) {
        signer = try JWSSigner(key: key, algorithm: algorithm)
        publicKey = key.publicJWK.publicKey
        thumbprint = key.thumbprint
    }

    package var algorithm: JWSAlgorithm { signer.algorithm }

    /// - Parameters:
    ///   - nonce: the server's latest `DPoP-Nonce` (§8, §9), if it gave one.
    ///   - accessToken: for a request that presents it (§7.1): `ath` binds
    ///     the proof to it.
    package func proof(method: String, url: String, now: Double, jti: String, nonce: String?, accessToken: String?) throws(JOSEError) -> String {
        var claims: [String: JSONValue] = [
            "jti": .string(jti), "htm": .string(method), "htu": .string(Self.htu(url)),
            // Rounded down: Glewlwyd refuses an iat even one second ahead of its clock.
            "iat": .number(now.rounded(.down)),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        if let accessToken { claims["ath"] = .string(Self.ath(accessToken)) }
        return try signer.sign(claims: .object(claims), header: JWSHeader(type: Self.type, publicKey: publicKey))
    }

    /// §4.2: `htu` is the request's URI without query and fragment.
    package static func htu(_ url: String) -> String {
        ASCII.prefix(ASCII.prefix(url, before: ASCII.hash), before: ASCII.question)
    }

    /// §4.2: base64url of the SHA-256 of the access token's ASCII bytes.
    package static func ath(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(accessToken.utf8))
    }
}
