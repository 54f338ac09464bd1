@testable import JOSE
import Core
import Foundation
import Testing

/// Our signatures checked by an independent implementation, and theirs by
/// ours: Fixtures/jose/jose_tool.py (PyPI `cryptography`) makes the keys in
/// every file format, signs tokens, and verifies the tokens we sign.
struct JOSEInteropTests {
    /// The algorithms each fixture key signs.
    static let plan: [(key: String, algorithms: [JWSAlgorithm])] = [
        ("rsa2048", [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]),
        ("rsa3072", [.rs256, .ps512]),
        ("p256", [.es256]),
        ("p384", [.es384]),
        ("p521", [.es512]),
        ("ed25519", [.edDSA]),
    ]

    static func read(_ path: String?) throws -> [UInt8] {
        guard let path else { throw PythonJOSE.Failure(description: "the fixture has no such file") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func withoutKid(_ jwk: JSONValue) -> JSONValue {
        guard case .object(var members) = jwk else { return jwk }
        members["kid"] = nil
        return .object(members)
    }

    /// The key files of `name` in each format we read: PEM PKCS#8, PEM
    /// PKCS#1 or SEC1 (not for Ed25519), a JWK with d, and a JWK Set holding
    /// that private key beside another key's public part.
    static func formats(of name: String, in fixture: PythonJOSE.Fixture) throws -> [(String, SigningKey)] {
        let files = try #require(fixture.keys[name]).files
        var keys: [(String, SigningKey)] = [("pkcs8", try SigningKey.load(read(files["pkcs8"])))]
        if let traditional = files["traditional"] {
            keys.append(("traditional", try SigningKey.load(read(traditional))))
        }
        let jwk = try read(files["jwk"])
        keys.append(("jwk", try SigningKey.load(jwk)))
        let other = try #require(fixture.keys[name == "p256" ? "p384" : "p256"]).publicJWK
        let set = Array(#"{"keys":[\#(JSONText.serialize(other)),\#(String(decoding: jwk, as: UTF8.self))]}"#.utf8)
        keys.append(("jwks", try SigningKey.load(set)))
        return keys
    }

    @Test func pythonVerifiesEverySignatureWeMake() throws {
        let fixture = try PythonJOSE.fixture()
        var jobs: [PythonJOSE.Job] = []
        var labels: [String] = []
        let payload = Array(#"{"iss":"cli","sub":"cli","aud":"https://as.example/token","jti":"ü-1"}"#.utf8)
        for (name, algorithms) in Self.plan {
            let publicJWK = try #require(fixture.keys[name]).publicJWK
            for (format, key) in try Self.formats(of: name, in: fixture) {
                // The public key we derive from the private one is the one Python made.
                #expect(try JWK(json: publicJWK).parameters == key.publicJWK.parameters, "\(name) \(format)")
                for algorithm in algorithms {
                    // A DPoP-like header from PEM keys (typ + the public jwk), an assertion-like one from JWKs (kid).
                    let fromPEM = format == "pkcs8" || format == "traditional"
                    let header = fromPEM ? JWSHeader(type: "dpop+jwt", publicKey: key.publicJWK)
                                         : JWSHeader(type: "JWT", keyID: key.kid)
                    let token = try JWSSigner(key: key, algorithm: algorithm).sign(payload: payload, header: header)
                    jobs.append(PythonJOSE.Job(token: token, alg: algorithm.rawValue, key: publicJWK, typ: header.type,
                                               kid: header.keyID, jwk: fromPEM ? Self.withoutKid(publicJWK) : nil, payload: payload))
                    labels.append("\(name) \(format) \(algorithm.rawValue)")
                }
            }
        }
        // Fresh keys (DPoP, RFC 9449 §5): the public jwk we put in the header is the key Python checks with.
        for curve in [JWK.Curve.p256, .p384, .p521] {
            let key = try SigningKey.generate(curve: curve)
            let header = JWSHeader(type: "dpop+jwt", publicKey: key.publicJWK)
            let token = try JWSSigner(key: key).sign(payload: payload, header: header)
            jobs.append(PythonJOSE.Job(token: token, alg: key.defaultAlgorithm.rawValue, key: key.publicJWK.jsonValue(),
                                       typ: "dpop+jwt", jwk: key.publicJWK.jsonValue(), payload: payload))
            labels.append("generated \(curve.rawValue)")
        }
        let secret = (0..<48).map { _ in UInt8.random(in: 0...255) }
        for algorithm in [JWSAlgorithm.hs256, .hs384, .hs512] {
            let token = try JWSSigner(secret: secret, algorithm: algorithm).sign(claims: .object(["sub": .string("a")]))
            jobs.append(PythonJOSE.Job(token: token, alg: algorithm.rawValue, secret: secret, payload: Array(#"{"sub":"a"}"#.utf8)))
            labels.append("secret \(algorithm.rawValue)")
        }
        // Controls: Python's verifier does fail (one signature byte changed, a wrong key, another alg).
        var broken = jobs[0]
        var signature = try CompactJWS(broken.token).signature
        signature[7] ^= 1
        broken.token = TestKeys.resigned(broken.token, signature)
        var wrongKey = jobs[0]
        wrongKey.key = try #require(fixture.keys["rsa2048b"]).publicJWK
        var wrongAlg = jobs[0]
        wrongAlg.alg = "PS256"
        let verdicts = try PythonJOSE.verify(jobs + [broken, wrongKey, wrongAlg])
        #expect(jobs.count == 53) // 47 key/format/alg signatures, 3 fresh keys, 3 HMAC
        #expect(verdicts.count == jobs.count + 3)
        for (label, verdict) in zip(labels, verdicts) {
            #expect(verdict == "ok", "\(label)")
        }
        #expect(Array(verdicts.suffix(3)) == ["fail: bad signature", "fail: bad signature", "fail: alg is 'RS256'"])
    }

    @Test func weVerifyEveryTokenPythonSigns() throws {
        let fixture = try PythonJOSE.fixture()
        let keys = JWKSet(keys: try fixture.keys.values.map { try JWK(json: $0.publicJWK) })
        #expect(fixture.tokens.count == 17)
        for token in fixture.tokens {
            guard let algorithm = JWSAlgorithm(rawValue: token.alg) else { Issue.record("alg \(token.alg)"); continue }
            let verifier = JWSVerifier(keys: keys, algorithms: [algorithm], hmacSecret: token.secret)
            switch (token.key, token.kind) {
            case ("rsa1024"?, _):
                #expect(throws: JOSEError.keyTooSmall(bits: 1024)) { try verifier.verify(token.token) }
            case (_, "max-salt"?):
                // PSS with the longest salt is not PS256 (RFC 7518 §3.5: salt = hash length).
                #expect(throws: JOSEError.badSignature) { try verifier.verify(token.token) }
            default:
                let verified = try verifier.verify(token.token)
                #expect(verified.payload == token.payload, "\(token.alg) \(token.key ?? "secret")")
                #expect(verified.algorithm == algorithm)
                #expect(verified.key?.kid == token.key)
            }
        }
    }

    @Test func everyPEMFormat() throws {
        let fixture = try PythonJOSE.fixture()
        let defaults: [String: JWSAlgorithm] = ["rsa2048": .rs256, "rsa2048b": .rs256, "rsa3072": .rs256,
                                                "p256": .es256, "p384": .es384, "p521": .es512, "ed25519": .edDSA]
        for (name, key) in fixture.keys {
            let expected = try JWK(json: key.publicJWK)
            for format in ["pkcs8", "traditional"] {
                guard let path = key.files[format] else { continue }
                if name == "rsa1024" {
                    #expect(throws: JOSEError.keyTooSmall(bits: 1024)) { try SigningKey.load(Self.read(path)) }
                    continue
                }
                let loaded = try SigningKey(pem: Self.read(path))
                #expect(loaded.publicJWK.parameters == expected.parameters, "\(name) \(format)")
                #expect(loaded.thumbprint == expected.thumbprint)
                #expect(loaded.defaultAlgorithm == defaults[name], "\(name)")
                #expect(loaded.kid == nil)
            }
            for format in ["encrypted", "traditional_encrypted"] {
                guard let path = key.files[format] else { continue }
                #expect(throws: JOSEError.encryptedPEM, "\(name) \(format)") { try SigningKey.load(Self.read(path)) }
            }
        }
    }

    @Test func sec1WithItsParametersBlock() throws {
        // `openssl ecparam -genkey` writes an EC PARAMETERS block (the P-256 OID) before the key.
        let fixture = try PythonJOSE.fixture()
        let sec1 = try Self.read(try #require(fixture.keys["p256"]).files["traditional"])
        let parameters = Array("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n".utf8)
        let key = try SigningKey.load(parameters + sec1)
        #expect(key.publicJWK.parameters == (try JWK(json: try #require(fixture.keys["p256"]).publicJWK)).parameters)
    }

    @Test func privateJWKsAndSets() throws {
        let fixture = try PythonJOSE.fixture()
        let rsa = String(decoding: try Self.read(fixture.keys["rsa2048"]?.files["jwk"]), as: UTF8.self)
        let ec = String(decoding: try Self.read(fixture.keys["p256"]?.files["jwk"]), as: UTF8.self)
        let ecPublic = JSONText.serialize(try #require(fixture.keys["p256"]).publicJWK)

        let single = try SigningKey.load(Array(rsa.utf8))
        #expect(single.kid == "rsa2048")
        let both = Array(#"{"keys":[\#(rsa),\#(ec)]}"#.utf8)
        #expect(throws: JOSEError.ambiguousKey(kids: ["rsa2048", "p256"])) { try SigningKey.load(both) }
        #expect(try SigningKey.load(both, selecting: "p256").defaultAlgorithm == .es256)
        #expect(throws: JOSEError.keyIDNotInSet("nope", kids: ["rsa2048", "p256"])) { try SigningKey.load(both, selecting: "nope") }
        // A set of one key is that key, whatever kid is asked for: the header's kid is --client-key-id (issue 31 item 13).
        #expect(try SigningKey.load(Array(#"{"keys":[\#(ec)]}"#.utf8), selecting: "my-kid").defaultAlgorithm == .es256)
        #expect(throws: JOSEError.notPrivateKey) { try SigningKey.load(Array(#"{"keys":[\#(ecPublic)]}"#.utf8)) }
        #expect(throws: JOSEError.notPrivateKey) { try SigningKey.load(Array(ecPublic.utf8)) }
        #expect(throws: JOSEError.notJSON) { try SigningKey.load(Array("{\"keys\":".utf8)) }
        #expect(throws: JOSEError.badPEM) { try SigningKey.load(Array("not a key".utf8)) }
        #expect(throws: JOSEError.badPEM) { try SigningKey.load([]) }
    }
}
