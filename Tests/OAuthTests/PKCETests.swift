import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct PKCETests {
    /// RFC 7636 Appendix B: the 32 octets of the example verifier.
    static let appendixB: [UInt8] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
        22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ]

    @Test func appendixBVector() {
        let pkce = PKCE(method: .s256, randomBytes: Self.appendixB)
        #expect(pkce.verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        // The RFC's value; note the capital J in "...WbuGJSstw-cM".
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == .s256)
        #expect(pkce.method.rawValue == "S256")
    }

    @Test func plainChallengeIsTheVerifier() {
        let pkce = PKCE(method: .plain, randomBytes: Self.appendixB)
        #expect(pkce.verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == pkce.verifier)
        #expect(pkce.method.rawValue == "plain")
    }

    @Test func offHasNoChallenge() {
        let pkce = PKCE(method: .off, randomBytes: Self.appendixB)
        #expect(pkce.challenge == "")
        #expect(pkce.method.rawValue == "off")
    }

    /// Known fixed inputs (digests from Python: base64url(sha256(verifier))).
    @Test(arguments: [
        ([UInt8](repeating: 3, count: 32), "AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM", "g77gcvvTQj90gfwWOCFjatjPtz-u8N0FgfOXnqDHMbk"),
        ([UInt8](repeating: 2, count: 32), "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI", "bB1ju9q0N8VDaMu9iIaohqea2XcpfiZe6_H19fAVM7k"),
    ])
    func fixedInputs(bytes: [UInt8], verifier: String, challenge: String) {
        let pkce = PKCE(method: .s256, randomBytes: bytes)
        #expect(pkce.verifier == verifier)
        #expect(pkce.challenge == challenge)
    }

    /// RFC 7636 §4.1: 43..128 characters of [A-Z a-z 0-9 - . _ ~]; 32 bytes give 43.
    @Test(arguments: 0..<20)
    func randomVerifierShape(round: Int) {
        let pkce = PKCE(method: .s256, randomBytes: Randomness.bytes(32))
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(pkce.verifier.count == 43)
        #expect(pkce.verifier.allSatisfy { allowed.contains($0) })
        #expect(pkce.challenge.count == 43)
        #expect(pkce.challenge.allSatisfy { allowed.contains($0) && $0 != "=" })
        #expect(pkce.challenge == Base64URL.encode(SHA256.hash(pkce.verifier.utf8)))
    }

    @Test(arguments: PKCEMethod.allCases)
    func methodsParseFromTheirWireNames(method: PKCEMethod) {
        #expect(PKCEMethod(rawValue: method.rawValue) == method)
    }
}
