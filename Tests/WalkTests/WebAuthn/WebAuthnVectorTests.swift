import Core
import JOSE
import Testing
@testable import Walk

/// The structures the authenticator writes, byte for byte against published
/// examples: WebAuthn Level 3's COSE_Key example (§6.5.1.1, whose point is
/// RFC 9052 Appendix C.7's P-256 key) and its test vectors ("ES256
/// Credential with No Attestation", all derived from the spec's HKDF seed).
struct WebAuthnVectorTests {
    static func hex(_ text: String) -> [UInt8] { PyWebAuthn.hex(text) }

    // WebAuthn Level 3 §6.5.1.1; RFC 9052 C.7.1 (public), C.7.2 (private).
    static let exampleX = "65eda5a12577c2bae829437fe338701a10aaa375e1bb5b5de108de439c08551d"
    static let exampleY = "1e52ed75701163f7f9e40ddf9f341b3dc9ba860af7e0ca7ca7e9eecd0084d19c"
    static let exampleD = "aff907c99f9ad3aae6c4cdf21122bce2bd68b5283e6907154ad911840fa208cf"

    // WebAuthn Level 3 test vectors, "ES256 Credential with No Attestation".
    enum NoneES256 {
        static let privateKey = "6e68e7a58484a3264f66b77f5d6dc5bc36a47085b615c9727ab334e8c369c2ee"
        static let x = "afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61"
        static let y = "930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220"
        static let aaguid = "8446ccb9ab1db374750b2367ff6f3a1f"
        static let credentialID = "f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4"
        static let attestationObject = "a363666d74646e6f6e656761747453746d74a068617574684461746158a4bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b559000000008446ccb9ab1db374750b2367ff6f3a1f0020f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4a5010203262001215820afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61225820930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220"
        static let assertionChallenge = "39c0e7521417ba54d43e8dc95174f423dee9bf3cd804ff6d65c857c9abf4d408"
        static let authenticatorData = "bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b51900000000"
        static let clientDataJSON = "7b2274797065223a22776562617574686e2e676574222c226368616c6c656e6765223a224f63446e55685158756c5455506f334a5558543049393770767a7a59425039745a63685879617630314167222c226f726967696e223a2268747470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73657d"
    }

    /// "ES256 Credential with "crossOrigin": true": its assertion's flags are
    /// UP and UV alone, count 0 — what this authenticator writes.
    static let crossOriginAuthenticatorData = "bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b50500000000"

    static func key(x: String, y: String, d: String) throws -> SigningKey {
        try SigningKey(jwk: JWK(parameters: .ec(.p256, x: hex(x), y: hex(y)), privateParameters: [SecretBytes(hex(d))]))
    }

    @Test func coseKeyExampleOfSection6511() {
        let encoded = COSEKey.ec2P256(x: Self.hex(Self.exampleX), y: Self.hex(Self.exampleY)).encoded
        #expect(encoded == Self.hex("a5" + "0102" + "0326" + "2001" + "215820" + Self.exampleX + "225820" + Self.exampleY))
    }

    /// RFC 9052 C.7.2's d is the private key of that point: libcrypto
    /// refuses a d that does not give (x, y), and the key we hold encodes to
    /// the same COSE_Key.
    @Test func rfc9052PrivateKeyGivesTheExamplePoint() throws {
        let key = try Self.key(x: Self.exampleX, y: Self.exampleY, d: Self.exampleD)
        let credential = try PasskeyCredential(rpID: "example.org", credentialID: [1, 2, 3], userHandle: [4], key: key, signCount: 0)
        #expect(credential.publicCOSEKey.encoded == COSEKey.ec2P256(x: Self.hex(Self.exampleX), y: Self.hex(Self.exampleY)).encoded)
        // A d one bit off is refused by libcrypto, so the check above is real.
        var wrong = Self.hex(Self.exampleD)
        wrong[31] ^= 1
        #expect(throws: JOSEError.self) {
            try SigningKey(jwk: JWK(parameters: .ec(.p256, x: Self.hex(Self.exampleX), y: Self.hex(Self.exampleY)),
                                    privateParameters: [SecretBytes(wrong)]))
        }
    }

    /// The vector's attestation object, from its parts: rpIdHash of
    /// example.org, flags 0x59 (UP, BE, BS, AT), count 0, its AAGUID and
    /// credential ID, the key's COSE_Key — in the `none` format.
    @Test func noneAttestationObjectOfTheTestVector() throws {
        let key = try Self.key(x: NoneES256.x, y: NoneES256.y, d: NoneES256.privateKey)
        let credential = try PasskeyCredential(rpID: "example.org", credentialID: Self.hex(NoneES256.credentialID), userHandle: [1],
                                               key: key, signCount: 0)
        let data = AuthenticatorData(
            rpID: "example.org", flags: [.userPresent, .backupEligible, .backedUp], signCount: 0,
            attested: .init(aaguid: Self.hex(NoneES256.aaguid), credentialID: credential.credentialID, publicKey: credential.publicCOSEKey))
        #expect(AttestationObject.none(authenticatorData: data.bytes) == Self.hex(NoneES256.attestationObject))
    }

    @Test func assertionStructuresOfTheTestVectors() {
        let vector = AuthenticatorData(rpID: "example.org", flags: [.userPresent, .backupEligible, .backedUp], signCount: 0, attested: nil)
        #expect(vector.bytes == Self.hex(NoneES256.authenticatorData))
        let ours = AuthenticatorData(rpID: "example.org", flags: SoftwareAuthenticator.flags, signCount: 0, attested: nil)
        #expect(ours.bytes == Self.hex(Self.crossOriginAuthenticatorData))
        let clientData = CollectedClientData(kind: .get, challenge: Self.hex(NoneES256.assertionChallenge), origin: "https://example.org")
        #expect(clientData.json == Self.hex(NoneES256.clientDataJSON))
    }

    /// Our assertions with the vector's credential, checked by py_webauthn
    /// with the public key as the vector publishes it (the COSE_Key bytes cut
    /// from its attestation object, not written by our encoder).
    @Test func pyWebAuthnAcceptsOurAssertionsWithTheVectorKey() throws {
        let key = try Self.key(x: NoneES256.x, y: NoneES256.y, d: NoneES256.privateKey)
        let credentialID = Self.hex(NoneES256.credentialID)
        let published = Array(Self.hex(NoneES256.attestationObject).suffix(77))
        #expect(published.first == 0xA5)
        var credential = try PasskeyCredential(rpID: "example.org", credentialID: credentialID, userHandle: [9, 9], key: key, signCount: 0)
        var jobs = [PyWebAuthn.Job.enrol(credentialID: credentialID, publicKey: published, signCount: 0)]
        for round in 0..<3 {
            let challenge = Self.hex(NoneES256.assertionChallenge) + [UInt8(round)]
            let request = AssertionRequest(challenge: challenge, origin: "https://example.org", rpID: "example.org",
                                           allowCredentials: [credentialID])
            let (response, next) = try SoftwareAuthenticator.assertion(request, with: credential)
            credential = next
            jobs.append(.authenticate(response, challenge: challenge, rpID: "example.org", origin: "https://example.org"))
        }
        #expect(try PyWebAuthn.verify(jobs) == ["ok", "ok count=1 uv=true", "ok count=2 uv=true", "ok count=3 uv=true"])
    }
}
