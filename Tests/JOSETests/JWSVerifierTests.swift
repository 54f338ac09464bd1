@testable import JOSE
import Core
import Testing

/// The verifier's rules (JWSVerifier.swift): refused headers, accepted
/// algorithms, key choice, key size, and that any change to a signed token
/// makes it fail. Tokens here come from the RFC vectors or from our signer
/// with the RFC keys (our signatures are checked independently in
/// RFCVectorTests and InteropTests).
struct JWSVerifierTests {
    static let rsa = try! TestKeys.jwk(RFCVectors.rsaKey)
    static let otherRSA = try! TestKeys.jwk(RFCVectors.thumbprintKey) // a different 2048-bit public key
    static let p256 = try! TestKeys.jwk(RFCVectors.p256Key)
    static let p521 = try! TestKeys.jwk(RFCVectors.p521Key)
    static let ed25519 = try! TestKeys.jwk(RFCVectors.ed25519Key)
    static let secret = Array("a client secret of at least 32 bytes.".utf8)
    static let payload = Array(#"{"sub":"alice"}"#.utf8)

    static func keyed(_ key: JWK, kid: String?, alg: String? = nil, use: String? = nil, keyOps: [String]? = nil) -> JWK {
        var copy = key.publicKey
        copy.kid = kid
        copy.alg = alg
        copy.use = use
        copy.keyOps = keyOps
        return copy
    }

    static func sign(_ key: JWK, _ algorithm: JWSAlgorithm, header: JWSHeader = JWSHeader()) throws -> String {
        try JWSSigner(key: SigningKey(jwk: key), algorithm: algorithm).sign(payload: payload, header: header)
    }

    static func verifier(_ keys: [JWK], _ algorithms: Set<JWSAlgorithm> = JWSAlgorithm.asymmetric, secret: [UInt8]? = nil) -> JWSVerifier {
        JWSVerifier(keys: JWKSet(keys: keys), algorithms: algorithms, hmacSecret: secret)
    }

    // MARK: Headers and algorithms

    @Test(arguments: ["crit", "jku", "jwk", "x5u", "x5c"])
    func refusesHeadersThatBringKeysOrExtensions(_ name: String) throws {
        // Validly signed by a key of the set: the header alone is the reason.
        let token = try Self.sign(Self.p256, .es256, header: JWSHeader(extra: [name: .array([.string("x")])]))
        #expect(throws: JOSEError.refusedHeader(name)) { try Self.verifier([Self.p256.publicKey]).verify(token) }
        let plain = try Self.sign(Self.p256, .es256)
        #expect(try Self.verifier([Self.p256.publicKey]).verify(plain).payload == Self.payload)
    }

    @Test func refusesAnAlgorithmOutsideTheSet() throws {
        let token = try Self.sign(Self.p256, .es256)
        #expect(throws: JOSEError.algorithmNotAccepted(.es256)) { try Self.verifier([Self.p256.publicKey], [.rs256, .ps256]).verify(token) }
        #expect(throws: JOSEError.unknownAlgorithm("ES256K")) {
            try Self.verifier([Self.p256.publicKey]).verify(TestKeys.token(header: #"{"alg":"ES256K"}"#))
        }
    }

    @Test func hmacWithTheRSAPublicKeyAsSecretIsRefused() throws {
        // The classic key-confusion attack (RFC 8725 §2.1): HS256 keyed with the
        // text of the public key. HMAC is not in the asymmetric set.
        let token = try JWSSigner(secret: Array(Self.rsa.publicKey.json().utf8)).sign(payload: Self.payload)
        #expect(throws: JOSEError.algorithmNotAccepted(.hs256)) { try Self.verifier([Self.rsa.publicKey]).verify(token) }
    }

    @Test func unsignedOnlyWhenItIsTheWholeSet() throws {
        let token = TestKeys.token(header: #"{"alg":"none"}"#, signature: [])
        #expect(try Self.verifier([], [.unsecured]).verify(token).key == nil)
        #expect(throws: JOSEError.algorithmNotAccepted(.unsecured)) { try Self.verifier([], [.unsecured, .rs256]).verify(token) }
        #expect(throws: JOSEError.algorithmNotAccepted(.unsecured)) { try Self.verifier([Self.rsa.publicKey]).verify(token) }
        let withSignature = TestKeys.token(header: #"{"alg":"none"}"#, signature: [0])
        #expect(throws: JOSEError.badSignature) { try Self.verifier([], [.unsecured]).verify(withSignature) }
    }

    @Test(arguments: [JWSAlgorithm.hs256, .hs384, .hs512])
    func hmacNeedsTheSecret(_ algorithm: JWSAlgorithm) throws {
        let token = try JWSSigner(secret: Self.secret, algorithm: algorithm).sign(payload: Self.payload)
        let verified = try Self.verifier([], [algorithm], secret: Self.secret).verify(token)
        #expect(verified.payload == Self.payload)
        #expect(verified.summary == "signature \(algorithm.rawValue) (client secret)")
        #expect(throws: JOSEError.noSecret) { try Self.verifier([], [algorithm]).verify(token) }
        #expect(throws: JOSEError.noSecret) { try Self.verifier([], [algorithm], secret: []).verify(token) }
        var other = Self.secret
        other[other.count - 1] ^= 1
        #expect(throws: JOSEError.badSignature) { try Self.verifier([], [algorithm], secret: other).verify(token) }
        #expect(throws: JOSEError.badSignature) { try Self.verifier([], [algorithm], secret: Array(Self.secret.dropLast())).verify(token) }
    }

    // MARK: Key choice

    @Test func kidChoosesTheKey() throws {
        let token = try Self.sign(Self.rsa, .rs256, header: JWSHeader(keyID: "k2"))
        let keys = [Self.keyed(Self.otherRSA, kid: "k1"), Self.keyed(Self.rsa, kid: "k2")]
        let verified = try Self.verifier(keys).verify(token)
        #expect(verified.key?.kid == "k2")
        #expect(verified.summary == "signature RS256 kid k2")
        // The kid names the other key: that one is tried, and fails.
        let wrong = try Self.sign(Self.rsa, .rs256, header: JWSHeader(keyID: "k1"))
        #expect(throws: JOSEError.badSignature) { try Self.verifier(keys).verify(wrong) }
    }

    @Test func unknownKidSaysSoForRotation() throws {
        let token = try Self.sign(Self.rsa, .rs256, header: JWSHeader(keyID: "new"))
        #expect(throws: JOSEError.unknownKeyID("new")) { try Self.verifier([Self.keyed(Self.rsa, kid: "old")]).verify(token) }
        // Even a set whose only key would verify: the kid says another key signed.
        #expect(throws: JOSEError.unknownKeyID("new")) { try Self.verifier([Self.keyed(Self.rsa, kid: nil)]).verify(token) }
    }

    @Test func noKidWithOneKey() throws {
        let token = try Self.sign(Self.rsa, .ps256)
        #expect(try Self.verifier([Self.keyed(Self.rsa, kid: "only")]).verify(token).key?.kid == "only")
    }

    @Test func noKidTriesEveryFittingKeyInTurn() throws {
        let token = try Self.sign(Self.rsa, .rs512)
        let keys = [Self.keyed(Self.p256, kid: "ec"), Self.keyed(Self.otherRSA, kid: "first"), Self.keyed(Self.rsa, kid: "second")]
        #expect(try Self.verifier(keys).verify(token).key?.kid == "second")
        #expect(throws: JOSEError.badSignature) { try Self.verifier(Array(keys.prefix(2))).verify(token) }
    }

    @Test func keysThatDoNotFitAreNotTried() throws {
        let es256 = try Self.sign(Self.p256, .es256)
        // Wrong curve: a P-521 key never checks ES256 (RFC 7518 §3.4).
        #expect(throws: JOSEError.noUsableKey(.es256)) { try Self.verifier([Self.p521.publicKey, Self.rsa.publicKey]).verify(es256) }
        // The key's own use, alg and key_ops (RFC 7517 §4.2–4.4).
        for key in [Self.keyed(Self.p256, kid: nil, use: "enc"), Self.keyed(Self.p256, kid: nil, alg: "ES384"),
                    Self.keyed(Self.p256, kid: nil, keyOps: ["encrypt"]), Self.keyed(Self.p256, kid: nil, keyOps: [])] {
            #expect(throws: JOSEError.noUsableKey(.es256)) { try Self.verifier([key]).verify(es256) }
        }
        for key in [Self.keyed(Self.p256, kid: nil, alg: "ES256", use: "sig", keyOps: ["verify", "sign"])] {
            #expect(try Self.verifier([key]).verify(es256).algorithm == .es256)
        }
        // The header's alg changed to one of the key's type but another scheme.
        let rs256 = try Self.sign(Self.rsa, .rs256)
        let relabelled = Base64URL.encode(Array(#"{"alg":"PS256"}"#.utf8)) + rs256.drop { $0 != "." }
        #expect(throws: JOSEError.badSignature) { try Self.verifier([Self.rsa.publicKey]).verify(relabelled) }
    }

    @Test func rsaUnder2048BitsIsRefused() throws {
        // A 1024-bit modulus: refused before any signature check.
        let n = [UInt8](repeating: 0xC5, count: 128)
        let small = JWK(parameters: .rsa(n: n, e: [1, 0, 1]), kid: "small")
        let token = try Self.sign(Self.rsa, .rs256)
        #expect(throws: JOSEError.keyTooSmall(bits: 1024)) { try Self.verifier([small]).verify(token) }
        // Beside a good key it is skipped, and the good one verifies.
        #expect(try Self.verifier([small, Self.rsa.publicKey]).verify(token).key == Self.rsa.publicKey)
        let n2047 = [0x7F] + [UInt8](repeating: 0xC5, count: 255)
        #expect(throws: JOSEError.keyTooSmall(bits: 2047)) {
            try Self.verifier([JWK(parameters: .rsa(n: n2047, e: [1, 0, 1]))]).verify(token)
        }
    }

    @Test func invalidKeysAreNotUsed() throws {
        let es256 = try Self.sign(Self.p256, .es256)
        guard case .ec(let curve, let x, var y) = Self.p256.parameters else { Issue.record("not EC"); return }
        y[31] ^= 1 // (x, y') is not on P-256
        #expect(throws: JOSEError.invalidKey) { try Self.verifier([JWK(parameters: .ec(curve, x: x, y: y))]).verify(es256) }
        let rs256 = try Self.sign(Self.rsa, .rs256)
        guard case .rsa(let n, _) = Self.rsa.parameters else { Issue.record("not RSA"); return }
        for e: [UInt8] in [[1], [2], [1, 0, 0]] { // e = 1, an even e
            #expect(throws: JOSEError.invalidKey) { try Self.verifier([JWK(parameters: .rsa(n: n, e: e))]).verify(rs256) }
        }
        var even = n
        even[even.count - 1] &= 0xFE
        #expect(throws: JOSEError.invalidKey) { try Self.verifier([JWK(parameters: .rsa(n: even, e: [1, 0, 1]))]).verify(rs256) }
        // The largest exponent a key may have: a valid key, the signature just does not verify.
        let huge = JWK(parameters: .rsa(n: n, e: [UInt8](repeating: 0xFF, count: 8)))
        #expect(throws: JOSEError.badSignature) { try Self.verifier([huge]).verify(rs256) }
    }

    // MARK: Any change to a signed token fails

    static func signedTokens() throws -> [(String, JWSVerifier)] {
        let rsaSet = [Self.rsa.publicKey]
        return [
            (RFCVectors.rs256Token, Self.verifier(rsaSet)),
            (try Self.sign(Self.rsa, .ps384), Self.verifier(rsaSet)),
            (RFCVectors.es256Token, Self.verifier([Self.p256.publicKey])),
            (RFCVectors.es512Token, Self.verifier([Self.p521.publicKey])),
            (RFCVectors.edDSAToken, Self.verifier([Self.ed25519.publicKey])),
            (try JWSSigner(secret: Self.secret).sign(payload: Self.payload), Self.verifier([], [.hs256], secret: Self.secret)),
        ]
    }

    @Test func everySignatureByteMatters() throws {
        for (token, verifier) in try Self.signedTokens() {
            let signature = try CompactJWS(token).signature
            #expect(try verifier.verify(token).payload.isEmpty == false)
            for index in signature.indices {
                for flip: UInt8 in [0x01, 0x80] {
                    var changed = signature
                    changed[index] ^= flip
                    #expect(throws: JOSEError.badSignature, "byte \(index) of \(signature.count)") {
                        try verifier.verify(TestKeys.resigned(token, changed))
                    }
                }
            }
            for changed in [Array(signature.dropLast()), signature + [0], [0] + signature, [], [UInt8](repeating: 0, count: signature.count)] {
                #expect(throws: JOSEError.badSignature) { try verifier.verify(TestKeys.resigned(token, changed)) }
            }
        }
    }

    @Test func everySignedByteMatters() throws {
        for (token, verifier) in try Self.signedTokens() {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            let header = try CompactJWS(token).header
            let payload = try CompactJWS(token).payload
            var changedPayload = payload
            changedPayload[changedPayload.count / 2] ^= 0x20
            let tampered = parts[0] + "." + Base64URL.encode(changedPayload) + "." + parts[2]
            #expect(throws: JOSEError.badSignature) { try verifier.verify(tampered) }
            // The same header with one more member.
            var members = header
            members["zz"] = .bool(true)
            let rewritten = Base64URL.encode(Array(JSONText.serialize(.object(members)).utf8)) + "." + parts[1] + "." + parts[2]
            #expect(throws: JOSEError.badSignature) { try verifier.verify(rewritten) }
        }
    }

    @Test func ecdsaSignatureMustBeRawNotDER() throws {
        // RFC 7518 §3.4: R‖S, 64 bytes for ES256. The DER form of the same
        // (r, s) is another byte string and must not verify.
        let raw = try CompactJWS(RFCVectors.es256Token).signature
        let r = Array(raw[0..<32]), s = Array(raw[32...])
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            let value = bytes.first! >= 0x80 ? [0] + bytes : bytes
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(r) + integer(s)
        let der = [0x30, UInt8(body.count)] + body
        #expect(throws: JOSEError.badSignature) {
            try Self.verifier([Self.p256.publicKey]).verify(TestKeys.resigned(RFCVectors.es256Token, der))
        }
        // r = 0 or s = 0 is never valid (FIPS 186-4 §6.4).
        for zeroed in [[UInt8](repeating: 0, count: 32) + s, r + [UInt8](repeating: 0, count: 32)] {
            #expect(throws: JOSEError.badSignature) {
                try Self.verifier([Self.p256.publicKey]).verify(TestKeys.resigned(RFCVectors.es256Token, zeroed))
            }
        }
    }
}
