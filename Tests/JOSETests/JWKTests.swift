@testable import JOSE
import Core
import Testing

/// Reading and writing JWKs and JWK Sets (RFC 7517, RFC 7518 §6, RFC 8037 §2).
struct JWKTests {
    static let p256 = #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#

    @Test func readsEachKeyType() throws {
        let rsa = try TestKeys.jwk(RFCVectors.rsaKey)
        #expect(rsa.keyType == .rsa && rsa.rsaBits == 2048 && rsa.isPrivate && rsa.privateParameters.count == 6)
        let ec = try TestKeys.jwk(RFCVectors.p521Key)
        #expect(ec.keyType == .ec && ec.curve == .p521 && ec.isPrivate)
        let okp = try TestKeys.jwk(RFCVectors.ed25519Key)
        #expect(okp.keyType == .okp && okp.curve == .ed25519)
        let oct = try TestKeys.jwk(RFCVectors.hs256Key)
        #expect(oct.keyType == .oct && oct.parameters == .oct && oct.privateParameters[0].bytes.count == 64)
        let meta = try TestKeys.jwk(#"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","kid":"k","use":"sig","alg":"ES256","key_ops":["verify"],"x5c":["ignored"]}"#)
        #expect(meta.kid == "k" && meta.use == "sig" && meta.alg == "ES256" && meta.keyOps == ["verify"] && !meta.isPrivate)
    }

    @Test func numbersAreCanonical() throws {
        // RSA: leading zero bytes of n and e are dropped (RFC 7518 §2 Base64urlUInt).
        let padded = try TestKeys.jwk(#"{"kty":"RSA","n":"AAEB","e":"AAEAAQ"}"#)
        #expect(padded.parameters == .rsa(n: [1, 1], e: [1, 0, 1]))
        // EC: a coordinate without its leading zero byte is padded back to the curve's size.
        let x = TestKeys.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")
        let short = try TestKeys.jwk(#"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode([UInt8](x.dropFirst(1))))","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#)
        guard case .ec(_, let readX, _) = short.parameters else { Issue.record("not EC"); return }
        #expect(readX == [0] + x.dropFirst(1))
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let json: String
        let error: JOSEError
        var testDescription: String { json }
    }

    static let bad: [Bad] = [
        Bad(json: #"[]"#, error: .badKey("not a JSON object")),
        Bad(json: #"{}"#, error: .badKey("kty missing")),
        Bad(json: #"{"kty":7}"#, error: .badKey("kty is not a string")),
        Bad(json: #"{"kty":"DSA"}"#, error: .unsupportedKey("DSA")),
        Bad(json: #"{"kty":"RSA","e":"AQAB"}"#, error: .badKey("n missing or zero")),
        Bad(json: #"{"kty":"RSA","n":"AAAA","e":"AQAB"}"#, error: .badKey("n missing or zero")),
        Bad(json: #"{"kty":"RSA","n":"AQAB"}"#, error: .badKey("e missing or zero")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQAB=="}"#, error: .badKey("e is not base64url")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQIDBAUGBwgJ"}"#, error: .badKey("e is longer than 64 bits")),
        Bad(json: #"{"kty":"RSA","n":"\#(String(repeating: "_", count: 2732))","e":"AQAB"}"#, error: .badKey("n is longer than 16384 bits")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQAB","oth":[]}"#, error: .unsupportedKey("RSA oth")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQ","p":"AQ"}"#, error: .badKey("some but not all of p, q, dp, dq, qi")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQAB","kid":5}"#, error: .badKey("kid is not a string")),
        Bad(json: #"{"kty":"RSA","n":"AQAB","e":"AQAB","key_ops":"verify"}"#, error: .badKey("key_ops is not an array of strings")),
        Bad(json: #"{"kty":"EC","x":"AQ","y":"AQ"}"#, error: .badKey("crv missing")),
        Bad(json: #"{"kty":"EC","crv":"secp256k1","x":"AQ","y":"AQ"}"#, error: .unsupportedKey("secp256k1")),
        Bad(json: #"{"kty":"EC","crv":"Ed25519","x":"AQ","y":"AQ"}"#, error: .unsupportedKey("Ed25519")),
        Bad(json: #"{"kty":"EC","crv":"P-256","x":"AQ"}"#, error: .badKey("x or y missing")),
        Bad(json: #"{"kty":"EC","crv":"P-256","x":"","y":"AQ"}"#, error: .badKey("x is not 32 bytes")),
        Bad(json: #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode([UInt8](repeating: 1, count: 33)))","y":"AQ"}"#, error: .badKey("x is not 32 bytes")),
        Bad(json: #"{"kty":"OKP","crv":"X25519","x":"AQ"}"#, error: .unsupportedKey("X25519")),
        Bad(json: #"{"kty":"OKP","crv":"Ed448","x":"AQ"}"#, error: .unsupportedKey("Ed448")),
        Bad(json: #"{"kty":"OKP","crv":"Ed25519","x":"AQ"}"#, error: .badKey("x is not 32 bytes")),
        Bad(json: #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"AQ"}"#, error: .badKey("d is not 32 bytes")),
        Bad(json: #"{"kty":"oct"}"#, error: .badKey("k missing")),
    ]

    @Test(arguments: bad)
    func refuses(_ item: Bad) {
        #expect(throws: item.error) { try TestKeys.jwk(item.json) }
    }

    @Test func keySetSkipsWhatItCannotUse() throws {
        let text = #"{"keys":[\#(Self.p256),{"kty":"OKP","crv":"X25519","x":"AQ"},"junk",17,{"kty":"RSA","n":"AQAB"},\#(RFCVectors.thumbprintKey)]}"#
        let set = try JWKSet(json: TestKeys.bytes(text))
        #expect(set.keys.count == 2)
        #expect(set.skipped == 4)
        #expect(set.keys(withID: "2011-04-29").count == 1)
        #expect(set.keys(withID: "other").isEmpty)
    }

    @Test(arguments: [
        ("", JOSEError.notJSON), ("<html>", .notJSON), ("{\"keys\":[", .notJSON),
        ("[]", .notKeySet), ("{}", .notKeySet), (#"{"keys":{}}"#, .notKeySet), (#"{"keys":"a"}"#, .notKeySet),
        (#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#, .notKeySet),
    ])
    func keySetErrors(_ text: String, _ error: JOSEError) {
        #expect(throws: error) { try JWKSet(json: TestKeys.bytes(text)) }
    }

    @Test func emptyKeySetIsASet() throws {
        #expect(try JWKSet(json: TestKeys.bytes(#"{"keys":[]}"#)).isEmpty)
    }

    @Test func writesWhatItReads() throws {
        for text in [RFCVectors.rsaKey, RFCVectors.p521Key, RFCVectors.ed25519Key, RFCVectors.hs256Key, RFCVectors.thumbprintKey] {
            let key = try TestKeys.jwk(text)
            #expect(try TestKeys.jwk(key.json(includingPrivate: true)) == key)
            let publicOnly = try? TestKeys.jwk(key.json())
            if key.keyType == .oct {
                #expect(publicOnly == nil) // an oct key is all private
            } else {
                #expect(publicOnly == key.publicKey)
                #expect(!key.json().contains("\"d\""))
            }
        }
        let set = JWKSet(keys: [try TestKeys.jwk(RFCVectors.p256Key), try TestKeys.jwk(RFCVectors.thumbprintKey)])
        let reread = try JWKSet(json: TestKeys.bytes(set.json))
        #expect(reread.keys == set.keys.map(\.publicKey))
    }

    @Test func descriptionNeverShowsPrivateParts() throws {
        for text in [RFCVectors.rsaKey, RFCVectors.p256Key, RFCVectors.ed25519Key, RFCVectors.hs256Key] {
            let key = try TestKeys.jwk(text)
            let described = [String(describing: key), String(reflecting: key), "\(key.privateParameters)",
                             String(describing: try? SigningKey(jwk: key))]
            for secret in key.privateParameters {
                let encoded = Base64URL.encode(secret.bytes)
                for text in described {
                    #expect(!text.contains(encoded))
                    #expect(!text.contains(String(encoded.prefix(12))))
                }
            }
        }
        #expect(String(describing: try TestKeys.jwk(RFCVectors.rsaKey)) == "JWK(RSA, 2048 bits, private)")
        // Nor do a verifier's or signer's HMAC secret.
        let secret = "s3cr3t-value-that-must-not-print"
        let holders: [Any] = [JWSVerifier(keys: JWKSet(keys: []), algorithms: [.hs256], hmacSecret: Array(secret.utf8)),
                              try JWSSigner(secret: Array(secret.utf8))]
        for holder in holders {
            #expect(!String(describing: holder).contains(secret))
            #expect(!String(reflecting: holder).contains(secret))
        }
    }

    @Test func thumbprintInputIsRFC7638() throws {
        #expect(try TestKeys.jwk(Self.p256).thumbprintInput
            == #"{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#)
        #expect(try TestKeys.jwk(RFCVectors.ed25519Key).thumbprintInput
            == #"{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)
    }
}
