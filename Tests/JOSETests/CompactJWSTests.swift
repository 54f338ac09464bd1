@testable import JOSE
import Core
import Testing

/// Reading a compact JWS (RFC 7515 §7.1, §5.2 steps 1–5): three parts of
/// strict base64url, the header a JSON object with a string alg.
struct CompactJWSTests {
    static let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#.utf8))
    static let payload = Base64URL.encode(Array(#"{"sub":"a"}"#.utf8))
    static let signature = Base64URL.encode([1, 2, 3, 4, 5])

    @Test func readsThePartsAndTheSigningInput() throws {
        let token = Self.header + "." + Self.payload + "." + Self.signature
        let jws = try CompactJWS(token)
        #expect(jws.algorithmName == "RS256")
        #expect(jws.algorithm == .rs256)
        #expect(jws.keyID == "k1")
        #expect(jws.type == "JWT")
        #expect(jws.payload == Array(#"{"sub":"a"}"#.utf8))
        #expect(JSONValue.parse(jws.payload) == .object(["sub": .string("a")]))
        #expect(jws.signature == [1, 2, 3, 4, 5])
        #expect(jws.signingInput == Array((Self.header + "." + Self.payload).utf8))
    }

    @Test func emptyPayloadAndSignatureAreParts() throws {
        let jws = try CompactJWS(Self.header + "..")
        #expect(jws.payload.isEmpty)
        #expect(jws.signature.isEmpty)
    }

    @Test func unknownAlgIsKeptByName() throws {
        let jws = try CompactJWS(TestKeys.token(header: #"{"alg":"RSA-OAEP"}"#))
        #expect(jws.algorithmName == "RSA-OAEP")
        #expect(jws.algorithm == nil)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let name: String
        let token: String
        let error: JOSEError
        var testDescription: String { name }
    }

    static let h = header, p = payload, s = signature
    static let bad: [Bad] = [
        Bad(name: "empty", token: "", error: .notCompact),
        Bad(name: "one part", token: h, error: .notCompact),
        Bad(name: "two parts", token: h + "." + p, error: .notCompact),
        Bad(name: "four parts", token: h + "." + p + "." + s + ".", error: .notCompact),
        Bad(name: "JWE (five parts)", token: [h, "", p, p, s].joined(separator: "."), error: .notCompact),
        Bad(name: "empty header", token: "." + p + "." + s, error: .badEncoding(.header)),
        Bad(name: "padded header", token: Base64URL.encodeStandard(Array(#"{"alg":"RS256" }"#.utf8)) + "." + p + "." + s,
            error: .badEncoding(.header)),
        Bad(name: "padded signature", token: h + "." + p + "." + s + "=", error: .badEncoding(.signature)),
        Bad(name: "standard alphabet", token: h + "." + p + "." + "ab+/", error: .badEncoding(.signature)),
        Bad(name: "space in the payload", token: h + ". " + p + "." + s, error: .badEncoding(.payload)),
        Bad(name: "newline at the end", token: h + "." + p + "." + s + "\n", error: .badEncoding(.signature)),
        Bad(name: "one char past a group", token: h + "." + p + "." + "abcde", error: .badEncoding(.signature)),
        // "AQ" is 0x01; "AR" has the same byte and a non-zero spare bit.
        Bad(name: "non-zero spare bits", token: h + "." + p + "." + "AR", error: .badEncoding(.signature)),
        Bad(name: "non-zero spare bits (3 chars)", token: h + "." + p + "." + "AQB", error: .badEncoding(.signature)),
        Bad(name: "non-UTF-8 byte", token: h + "." + p + "." + s + "\u{FF}", error: .badEncoding(.signature)),
        Bad(name: "header not JSON", token: Base64URL.encode(Array("alg".utf8)) + "." + p + "." + s, error: .headerNotObject),
        Bad(name: "header an array", token: TestKeys.token(header: #"["alg","RS256"]"#), error: .headerNotObject),
        Bad(name: "header a string", token: TestKeys.token(header: #""RS256""#), error: .headerNotObject),
        Bad(name: "no alg", token: TestKeys.token(header: #"{"typ":"JWT"}"#), error: .missingAlgorithm),
        Bad(name: "alg a number", token: TestKeys.token(header: #"{"alg":256}"#), error: .missingAlgorithm),
        Bad(name: "alg null", token: TestKeys.token(header: #"{"alg":null}"#), error: .missingAlgorithm),
        Bad(name: "kid a number", token: TestKeys.token(header: #"{"alg":"RS256","kid":1}"#), error: .badHeaderMember("kid")),
        Bad(name: "typ an object", token: TestKeys.token(header: #"{"alg":"RS256","typ":{}}"#), error: .badHeaderMember("typ")),
    ]

    @Test(arguments: bad)
    func refuses(_ item: Bad) {
        #expect(throws: item.error) { try CompactJWS(item.token) }
    }

    @Test func strictBase64URLTakesWhatEncodeMakes() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(StrictBase64URL.decode(Substring(Base64URL.encode(bytes))) == bytes)
        }
        #expect(StrictBase64URL.decode(Substring("AQ")) == [1])
        #expect(StrictBase64URL.decode(Substring("AR")) == nil)
        #expect(StrictBase64URL.decode(Substring("AQ==")) == nil)
        #expect(StrictBase64URL.decode(Substring("")) == [])
    }

    @Test func duplicateHeaderMembersKeepTheLast() throws {
        // RFC 7515 §5.2 step 4 allows "the lexically last duplicate member name".
        let jws = try CompactJWS(TestKeys.token(header: #"{"alg":"none","alg":"ES256"}"#))
        #expect(jws.algorithm == .es256)
    }
}
