import Core
import HTTP
import JOSE
import OAuth

/// What one flow signs for the modern client profile: its client
/// assertions (RFC 7523), request objects (RFC 9101) and DPoP proofs (RFC
/// 9449), each made for one request just before it is sent, and remembered
/// as a secret so that no echo of it reaches stderr. One per flow: its DPoP
/// nonces are that flow's (DPoPNonces.swift), and `--dpop` without a kept
/// key makes the flow's key on first use. Sending is BackChannel.swift.
package final class ClientProfile {
    /// Who signs, and with what (its id, secret and method).
    let client: ClientSettings
    package let settings: ProfileSettings
    /// The issuer the client names as an audience (assertions, request
    /// objects): `--expect-iss`, else `--issuer` (ServerSettings.expectedIssuer).
    let issuer: String?
    let redactor: Redactor
    let now: () -> Double
    let random: (Int) -> [UInt8]
    let nonces = DPoPNonces()
    private var freshDPoPKey: SigningKey?
    /// Where a warning the user must see goes (TokenFlow: stderr, not with -q).
    var warn: (String) -> Void = { _ in }

    package init(client: ClientSettings, profile: ProfileSettings, issuer: String?, redactor: Redactor, now: @escaping () -> Double,
                 random: @escaping (Int) -> [UInt8] = Randomness.bytes) {
        self.client = client
        settings = profile
        self.issuer = issuer
        self.redactor = redactor
        self.now = now
        self.random = random
    }

    var credentials: ClientCredentials {
        ClientCredentials(id: client.id, secret: client.secret, method: client.authMethod)
    }

    /// A fresh `jti`: 128 random bits.
    func jti() -> String { Base64URL.encode(random(16)) }

    // MARK: Client authentication

    /// The client's authentication for one request to `endpoint`, with a
    /// new assertion when the method signs one.
    package func authentication(at endpoint: String, tokenEndpoint: String) throws(FlowError) -> ClientAuthentication {
        ClientAuthentication(credentials, assertion: try assertion(at: endpoint, tokenEndpoint: tokenEndpoint))
    }

    /// A new client assertion for one request to `endpoint` (RFC 7523
    /// §2.2), nil when the method signs none.
    package func assertion(at endpoint: String, tokenEndpoint: String) throws(FlowError) -> String? {
        guard let signer = try assertionSigner() else { return nil }
        let audience = AssertionAudience.audience(settings.assertionAud, issuer: issuer, endpoint: endpoint, tokenEndpoint: tokenEndpoint)
        let assertion = try signing(.assertion) { () throws(JOSEError) in
            try signer.make(audience: audience, now: now(), jti: jti())
        }
        redactor.remember(assertion)
        return assertion
    }

    func assertionSigner() throws(FlowError) -> ClientAssertion? {
        switch client.authMethod {
        case .privateKeyJWT:
            guard let loaded = settings.clientKey else { throw .clientKeyMissing }
            let signer = try signing(.assertion) { () throws(JOSEError) in try keySigner(loaded.key) }
            return ClientAssertion(signer: signer, keyID: keyID(loaded.key), clientID: client.id)
        case .clientSecretJWT:
            let signer = try signing(.assertion) { () throws(JOSEError) in try secretSigner() }
            return ClientAssertion(signer: signer, keyID: nil, clientID: client.id)
        default:
            return nil
        }
    }

    /// `--client-key-id`, else the JWK's kid, else its RFC 7638 thumbprint.
    func keyID(_ key: SigningKey) -> String {
        settings.clientKeyID ?? key.kid ?? key.thumbprint
    }

    /// `--client-key-alg`, else the key's own (PS256 for RSA under `--fapi2`).
    func keySigner(_ key: SigningKey) throws(JOSEError) -> JWSSigner {
        try JWSSigner(key: key, algorithm: Self.algorithm(for: key, given: settings.clientKeyAlg, fapi2: settings.fapi2))
    }

    func secretSigner() throws(JOSEError) -> JWSSigner {
        let algorithm = settings.clientKeyAlg.map(\.jws).flatMap { $0.keyKind == .secret ? $0 : nil } ?? .hs256
        return try JWSSigner(secret: Array((client.secret ?? "").utf8), algorithm: algorithm)
    }

    /// The algorithm a key signs with: the one given, else PS256 for an RSA
    /// key under `--fapi2` (FAPI 2.0 §5.4.1 allows no RS256), else the key's.
    package static func algorithm(for key: SigningKey, given: SigningAlgorithm?, fapi2: Bool) -> JWSAlgorithm {
        if let given { return given.jws }
        if fapi2, key.defaultAlgorithm.keyKind == .rsa { return .ps256 }
        return key.defaultAlgorithm
    }

    // MARK: Request objects

    /// The request object for these parameters (RFC 9101 §4), signed with
    /// the client key, else MACed with the client secret.
    func requestObject(_ parameters: [NameValue]) throws(FlowError) -> String {
        guard let audience = issuer else {
            throw .requestObjectWithoutIssuer
        }
        let object = try signing(.requestObject) { () throws(JOSEError) in
            let signer = if let key = settings.clientKey { try keySigner(key.key) } else { try secretSigner() }
            return try RequestObject.make(parameters: parameters, clientID: client.id, audience: audience, signer: signer,
                                          keyID: settings.clientKey.map { keyID($0.key) }, now: now(), jti: jti())
        }
        redactor.remember(object)
        return object
    }

    // MARK: DPoP

    /// The flow's DPoP prover: the kept key, else a fresh P-256 key made on
    /// first use; nil without `--dpop`.
    func dpopProver() throws(FlowError) -> DPoPProver? {
        guard let choice = settings.dpop else { return nil }
        return try signing(.dpopProof) { () throws(JOSEError) in
            let key: SigningKey
            if let kept = choice.kept?.key {
                key = kept
            } else if let made = freshDPoPKey {
                key = made
            } else {
                key = try SigningKey.generate()
                freshDPoPKey = key
            }
            return try DPoPProver(key: key, algorithm: Self.algorithm(for: key, given: nil, fapi2: settings.fapi2))
        }
    }

    /// A proof for one request, with the nonce its server gave last.
    package func proof(method: String, url: String, accessToken: String?) throws(FlowError) -> String? {
        guard let prover = try dpopProver() else { return nil }
        let proof = try signing(.dpopProof) { () throws(JOSEError) in
            try prover.proof(method: method, url: url, now: now(), jti: jti(), nonce: nonces.nonce(for: url), accessToken: accessToken)
        }
        redactor.remember(proof)
        return proof
    }

    /// A JOSE failure while signing is the client's own configuration.
    func signing<T>(_ what: ClientSignature, _ body: () throws(JOSEError) -> T) throws(FlowError) -> T {
        do throws(JOSEError) {
            return try body()
        } catch {
            throw .signing(what, error)
        }
    }
}
