@testable import JOSE
import Core
import Testing

/// The JWS and JWK examples of RFC 7515 Appendix A, RFC 8037 Appendix A and
/// RFC 7638 §3.1: our verifier accepts the published tokens, and where the
/// algorithm is deterministic (HMAC, RSASSA-PKCS1-v1_5, Ed25519) our signer
/// makes the published signature byte for byte.
struct RFCVectorTests {
    @Test func rfc7515A1HS256() throws {
        let secret = try TestKeys.jwk(RFCVectors.hs256Key).privateParameters[0].bytes
        let verifier = JWSVerifier(keys: JWKSet(keys: []), algorithms: [.hs256], hmacSecret: secret)
        let verified = try verifier.verify(RFCVectors.hs256Token)
        #expect(verified.payload == TestKeys.bytes(RFCVectors.payload))
        #expect(verified.algorithm == .hs256)
        #expect(verified.key == nil)
        #expect(verified.jws.type == "JWT")

        let jws = try CompactJWS(RFCVectors.hs256Token)
        #expect(try CryptoKey.mac(jws.signingInput, secret: secret, algorithm: .hs256) == jws.signature)
    }

    @Test func rfc7515A2RS256() throws {
        let key = try TestKeys.jwk(RFCVectors.rsaKey)
        let verifier = JWSVerifier(keys: JWKSet(keys: [key.publicKey]), algorithms: JWSAlgorithm.asymmetric)
        let verified = try verifier.verify(RFCVectors.rs256Token)
        #expect(verified.payload == TestKeys.bytes(RFCVectors.payload))
        #expect(verified.algorithm == .rs256)
        #expect(verified.key == key.publicKey)
        #expect(key.rsaBits == 2048)

        // RSASSA-PKCS1-v1_5 is deterministic: the RFC's signature, exactly.
        let signer = try SigningKey(jwk: key)
        #expect(signer.defaultAlgorithm == .rs256)
        let signature = try signer.signature(of: TestKeys.bytes(RFCVectors.rs256SigningInput), algorithm: .rs256)
        #expect(Base64URL.encode(signature) == RFCVectors.rs256Signature)
    }

    @Test func rfc7515A2WithoutCRTValues() throws {
        // RFC 7518 §6.3.2: p, q, dp, dq, qi are optional; n, e, d sign alone.
        var members = JSONValue.parse(TestKeys.bytes(RFCVectors.rsaKey))!
        guard case .object(var object) = members else { Issue.record("not an object"); return }
        for name in ["p", "q", "dp", "dq", "qi"] { object[name] = nil }
        members = .object(object)
        let key = try JWK(json: members)
        #expect(key.privateParameters.count == 1)
        let signature = try SigningKey(jwk: key).signature(of: TestKeys.bytes(RFCVectors.rs256SigningInput), algorithm: .rs256)
        #expect(Base64URL.encode(signature) == RFCVectors.rs256Signature)
    }

    @Test func rfc7515A3ES256() throws {
        let verifier = JWSVerifier(keys: try TestKeys.publicSet(RFCVectors.p256Key), algorithms: [.es256])
        let verified = try verifier.verify(RFCVectors.es256Token)
        #expect(verified.payload == TestKeys.bytes(RFCVectors.payload))
        #expect(verified.algorithm == .es256)
    }

    @Test func rfc7515A4ES512() throws {
        let verifier = JWSVerifier(keys: try TestKeys.publicSet(RFCVectors.p521Key), algorithms: [.es512])
        let verified = try verifier.verify(RFCVectors.es512Token)
        #expect(verified.payload == TestKeys.bytes("Payload"))
        #expect(verified.algorithm == .es512)
    }

    @Test func rfc7515A5Unsecured() throws {
        let token = "eyJhbGciOiJub25lIn0." + RFCVectors.payloadPart + "."
        let verified = try JWSVerifier(keys: JWKSet(keys: []), algorithms: [.unsecured]).verify(token)
        #expect(verified.payload == TestKeys.bytes(RFCVectors.payload))
        #expect(verified.summary == "unsigned (alg none)")
        #expect(throws: JOSEError.algorithmNotAccepted(.unsecured)) {
            try JWSVerifier(keys: JWKSet(keys: []), algorithms: JWSAlgorithm.asymmetric).verify(token)
        }
    }

    @Test func rfc8037Ed25519() throws {
        let key = try TestKeys.jwk(RFCVectors.ed25519Key)
        #expect(key.thumbprint == RFCVectors.ed25519Thumbprint)
        let verified = try JWSVerifier(keys: JWKSet(keys: [key.publicKey]), algorithms: [.edDSA]).verify(RFCVectors.edDSAToken)
        #expect(verified.payload == TestKeys.bytes(RFCVectors.edDSAPayload))

        // Ed25519 is deterministic and our header for EdDSA is {"alg":"EdDSA"}: the RFC's token, exactly.
        let signingKey = try SigningKey(jwk: key)
        #expect(signingKey.defaultAlgorithm == .edDSA)
        let token = try JWSSigner(key: signingKey).sign(payload: TestKeys.bytes(RFCVectors.edDSAPayload))
        #expect(token == RFCVectors.edDSAToken)
    }

    @Test func rfc7638Thumbprint() throws {
        let key = try TestKeys.jwk(RFCVectors.thumbprintKey)
        #expect(key.thumbprint == RFCVectors.thumbprint)
        // Optional members do not change it (RFC 7638 §3.2).
        #expect(key.kid == "2011-04-29" && key.alg == "RS256")
        var bare = key
        bare.kid = nil
        bare.alg = nil
        #expect(bare.thumbprint == RFCVectors.thumbprint)
    }

    @Test func publicParametersOfAPrivateKeyAreTheJWKs() throws {
        for text in [RFCVectors.rsaKey, RFCVectors.p256Key, RFCVectors.p521Key, RFCVectors.ed25519Key] {
            let key = try TestKeys.jwk(text)
            let signer = try SigningKey(jwk: key)
            #expect(signer.publicJWK.parameters == key.parameters)
            #expect(signer.thumbprint == key.thumbprint)
        }
    }
}
