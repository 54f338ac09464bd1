import Testing
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth

/// RFC 9449 §4: the shape of a proof. Its signature is checked end to end
/// by the fixture's `cryptography`, Glewlwyd, and in JOSETests.
struct DPoPProverTests {
    @Test(arguments: [
        ("https://as.example/token", "https://as.example/token"),
        ("https://as.example/token?x=1", "https://as.example/token"),
        ("https://as.example/token#f", "https://as.example/token"),
        ("https://as.example/token?x=1#f?g", "https://as.example/token"),
        ("http://127.0.0.1:8080/a/b/", "http://127.0.0.1:8080/a/b/"),
    ])
    func htu(url: String, expected: String) {
        #expect(DPoPProver.htu(url) == expected)
    }

    /// RFC 9449 §7.1's example access token and its `ath`.
    @Test func athVector() {
        #expect(DPoPProver.ath("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU") == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test func proofShape() throws {
        let key = try SigningKey.generate()
        let prover = try DPoPProver(key: key)
        let proof = try prover.proof(method: "POST", url: "https://as.example/token?q=1", now: 1_700_000_000.99, jti: "j1",
                                     nonce: "n1", accessToken: "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
        let (header, claims) = ProfileRequestTests.parts(proof)
        #expect(header["typ"] == .string("dpop+jwt"))
        #expect(header["alg"] == .string("ES256"))
        #expect(header["jwk"] == key.publicJWK.publicKey.jsonValue())
        #expect(header["jwk"]?["d"] == nil, "the public key only")
        #expect(claims == .object([
            "jti": .string("j1"), "htm": .string("POST"), "htu": .string("https://as.example/token"), "iat": .number(1_700_000_000),
            "nonce": .string("n1"), "ath": .string("fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"),
        ]))
        #expect(prover.thumbprint == key.thumbprint)
        let bare = ProfileRequestTests.parts(try prover.proof(method: "GET", url: "https://rs.example/", now: 5, jti: "j2", nonce: nil, accessToken: nil)).claims
        #expect(bare["nonce"] == nil && bare["ath"] == nil)
    }
}
