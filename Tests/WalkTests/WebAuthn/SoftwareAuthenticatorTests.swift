import Core
import JOSE
import Testing
@testable import Walk

/// A passkey store in memory, for the authenticator's own rules; the file
/// with its lock is Flow's (FlowTests/PasskeyFileTests.swift).
final class MemoryPasskeyStore: PasskeyStore {
    var credential: PasskeyCredential?
    var mayRegister: Bool
    /// Saves made by `update`: a refused request saves nothing.
    var saves = 0

    init(_ credential: PasskeyCredential? = nil, mayRegister: Bool = false) {
        self.credential = credential
        self.mayRegister = mayRegister
    }

    func update<Answer>(_ use: (PasskeyCredential) throws(WebAuthnError) -> (Answer, PasskeyCredential)) throws(WebAuthnError) -> Answer {
        guard let credential else { throw .noCredentialYet(path: "memory") }
        let (answer, next) = try use(credential)
        self.credential = next
        saves += 1
        return answer
    }

    func checkRegistration() throws(WebAuthnError) {
        guard mayRegister else { throw .registrationNotAllowed(path: "memory") }
        if credential != nil { throw .passkeyExists(path: "memory") }
    }

    func create(_ credential: PasskeyCredential) throws(WebAuthnError) {
        guard self.credential == nil else { throw .passkeyExists(path: "memory") }
        self.credential = credential
    }
}

private let loginOrigin = "https://login.example.com"

/// The authenticator's answers and refusals (WebAuthn Level 3 §6.3.2,
/// §6.3.3), every answer checked by py_webauthn (Fixtures/webauthn/verify.py).
struct SoftwareAuthenticatorTests {
    static let origin = "https://login.example.com"
    static let challenge: [UInt8] = Array("a challenge of 32 random bytes!!".utf8)

    static func registered(rpID: String = "example.com") throws -> (Passkey, MemoryPasskeyStore, RegistrationResponse) {
        let store = MemoryPasskeyStore(mayRegister: true)
        let passkey = Passkey(store: store)
        let response = try passkey.create(RegistrationRequest(challenge: challenge, origin: origin, rpID: rpID,
                                                              user: .init(id: [0xA1, 0xB2, 0xC3], name: "alice"), algorithms: [-8, -7, -257]))
        return (passkey, store, response)
    }

    /// A registration and assertions after it, as one relying party sees
    /// them: every one accepted, the counts 0 (registration), 1, 2, 3.
    @Test func pyWebAuthnAcceptsARegistrationAndItsAssertions() throws {
        let (passkey, store, registration) = try Self.registered()
        var jobs = [PyWebAuthn.Job.register(registration, challenge: Self.challenge, rpID: "example.com", origin: Self.origin)]
        for round in 1...3 {
            let challenge = Self.challenge + [UInt8(round)]
            let assertion = try passkey.get(AssertionRequest(challenge: challenge, origin: Self.origin, rpID: "example.com",
                                                             allowCredentials: [[7, 7, 7], registration.credentialID],
                                                             userVerification: .required))
            #expect(assertion.signCount == UInt32(round))
            #expect(assertion.userHandle == [0xA1, 0xB2, 0xC3])
            #expect(assertion.credentialID == registration.credentialID)
            jobs.append(.authenticate(assertion, challenge: challenge, rpID: "example.com", origin: Self.origin))
        }
        #expect(store.credential?.signCount == 3)
        #expect(try PyWebAuthn.verify(jobs) == [
            "ok fmt=none alg=-7 count=0 uv=true aaguid=00000000000000000000000000000000",
            "ok count=1 uv=true", "ok count=2 uv=true", "ok count=3 uv=true",
        ])
    }

    /// The relying party refuses what was changed on the way, and an
    /// assertion replayed (its count no higher than the last one seen).
    @Test func pyWebAuthnRefusesTamperedAnswers() throws {
        let (passkey, _, registration) = try Self.registered(rpID: "login.example.com")
        let register = PyWebAuthn.Job.register(registration, challenge: Self.challenge, rpID: "login.example.com", origin: Self.origin)
        let assertion = try passkey.get(AssertionRequest(challenge: Self.challenge, origin: Self.origin))
        let authenticate = PyWebAuthn.Job.authenticate(assertion, challenge: Self.challenge, rpID: "login.example.com", origin: Self.origin)
        var signature = assertion.signature
        signature[signature.count - 1] ^= 1
        var data = assertion.authenticatorData
        data[32] &= ~0x01  // UP cleared
        var attestation = registration.attestationObject
        attestation[62] &= ~0x01  // UP cleared in authData (after 28 bytes of map and keys, the 2-byte head, rpIdHash)
        let verdicts = try PyWebAuthn.verify([
            register.replacing("attestationObject", with: attestation),
            register.with("rpId", .string("example.com")),
            register,
            authenticate.replacing("signature", with: signature),
            authenticate.replacing("authenticatorData", with: data),
            authenticate.with("origin", .string("https://evil.example")),
            authenticate,
            authenticate,
        ])
        #expect(verdicts.count == 8)
        #expect(verdicts[0] == "fail: User presence was required, but was not present during attestation")
        #expect(verdicts[1] == "fail: Unexpected RP ID hash")
        #expect(verdicts[2] == "ok fmt=none alg=-7 count=0 uv=true aaguid=00000000000000000000000000000000")
        #expect(verdicts[3] == "fail: Could not verify authentication signature")
        #expect(verdicts[4] == "fail: User was not present during authentication")
        #expect(verdicts[5] == "fail: Unexpected client data origin \"https://login.example.com\", expected \"https://evil.example\"")
        #expect(verdicts[6] == "ok count=1 uv=true")
        #expect(verdicts[7] == "fail: Response sign count of 1 was not greater than current count of 1")
    }

    @Test func assertionBytes() throws {
        let (passkey, _, registration) = try Self.registered()
        let assertion = try passkey.get(AssertionRequest(challenge: [1, 2, 3], origin: Self.origin, rpID: "example.com"))
        #expect(assertion.authenticatorData == SHA256.hash(Array("example.com".utf8)) + [0x05, 0, 0, 0, 1])
        #expect(String(decoding: assertion.clientDataJSON, as: UTF8.self)
            == #"{"type":"webauthn.get","challenge":"AQID","origin":"https://login.example.com","crossOrigin":false}"#)
        // X9.62 DER: SEQUENCE { INTEGER r, INTEGER s }, at most 72 bytes for P-256.
        #expect(assertion.signature.first == 0x30)
        #expect(Int(assertion.signature[1]) == assertion.signature.count - 2)
        #expect((8...72).contains(assertion.signature.count))
        #expect(registration.credentialID.count == 32)
    }

    @Test func registrationBytes() throws {
        let (_, store, registration) = try Self.registered()
        #expect(String(decoding: registration.clientDataJSON, as: UTF8.self)
            == #"{"type":"webauthn.create","challenge":"YSBjaGFsbGVuZ2Ugb2YgMzIgcmFuZG9tIGJ5dGVzISE","origin":"https://login.example.com","crossOrigin":false}"#)
        let data = registration.authenticatorData
        #expect(Array(data[0..<32]) == SHA256.hash(Array("example.com".utf8)))
        #expect(data[32] == 0x45)  // UP, UV, AT
        #expect(Array(data[33..<37]) == [0, 0, 0, 0])
        #expect(Array(data[37..<53]) == [UInt8](repeating: 0, count: 16))  // AAGUID
        #expect(Array(data[53..<55]) == [0, 32])
        #expect(Array(data[55..<87]) == registration.credentialID)
        let credential = try #require(store.credential)
        #expect(Array(data[87...]) == credential.publicCOSEKey.encoded)
        #expect(registration.attestationObject == PyWebAuthn.hex("a363666d74646e6f6e656761747453746d74a068617574684461746158") + [UInt8(data.count)] + data)
        #expect(registration.publicKeyAlgorithm == -7)
        #expect(credential.rpID == "example.com" && credential.userHandle == [0xA1, 0xB2, 0xC3] && credential.signCount == 0)
    }

    /// Each refusal comes before anything is signed or saved.
    @Test(arguments: [
        (AssertionRequest(challenge: [1], origin: loginOrigin, rpID: "other.example"), WebAuthnError.rpIDNotForOrigin(rpID: "other.example", origin: loginOrigin)),
        (AssertionRequest(challenge: [1], origin: "https://other.example", rpID: "other.example"), .rpIDMismatch(asked: "other.example", file: "example.com")),
        (AssertionRequest(challenge: [1], origin: loginOrigin), .rpIDMismatch(asked: "login.example.com", file: "example.com")),
        (AssertionRequest(challenge: [1], origin: loginOrigin, rpID: "example.com", allowCredentials: [[1, 2, 3]]), .credentialNotAllowed),
        (AssertionRequest(challenge: [], origin: loginOrigin, rpID: "example.com"), .emptyChallenge),
        (AssertionRequest(challenge: [1], origin: "http://login.example.com", rpID: "example.com"), .insecureOrigin("http://login.example.com")),
        (AssertionRequest(challenge: [1], origin: "https://127.0.0.1", rpID: "example.com"), .ipLiteral("127.0.0.1")),
    ])
    func assertionRefusals(_ request: AssertionRequest, _ error: WebAuthnError) throws {
        let (passkey, store, _) = try Self.registered()
        #expect(throws: error) { try passkey.get(request) }
        #expect(store.saves == 0)
        #expect(store.credential?.signCount == 0)
    }

    @Test func registrationRefusals() throws {
        let user = RegistrationRequest.User(id: [1])
        let cases: [(RegistrationRequest, WebAuthnError)] = [
            (RegistrationRequest(challenge: [1], origin: Self.origin, user: user, algorithms: [-257, -8]), .noSupportedAlgorithm([-257, -8])),
            (RegistrationRequest(challenge: [1], origin: Self.origin, user: .init(id: [])), .badUserHandle(bytes: 0)),
            (RegistrationRequest(challenge: [1], origin: Self.origin, user: .init(id: Array(repeating: 1, count: 65))), .badUserHandle(bytes: 65)),
            (RegistrationRequest(challenge: [], origin: Self.origin, user: user), .emptyChallenge),
            (RegistrationRequest(challenge: [1], origin: Self.origin, rpID: "com", user: user), .rpIDNotForOrigin(rpID: "com", origin: Self.origin)),
        ]
        for (request, error) in cases {
            let store = MemoryPasskeyStore(mayRegister: true)
            #expect(throws: error) { try Passkey(store: store).create(request) }
            #expect(store.credential == nil)
        }
        // Without --passkey-register, with a passkey saved, without --passkey.
        let request = RegistrationRequest(challenge: [1], origin: Self.origin, user: user)
        #expect(throws: WebAuthnError.registrationNotAllowed(path: "memory")) { try Passkey(store: MemoryPasskeyStore()).create(request) }
        let (passkey, _, _) = try Self.registered()
        #expect(throws: WebAuthnError.passkeyExists(path: "memory")) { try passkey.create(request) }
        #expect(throws: WebAuthnError.registrationNotAllowed(path: nil)) { try Passkey().create(request) }
        #expect(throws: WebAuthnError.noPasskey) { try Passkey().get(AssertionRequest(challenge: [1], origin: Self.origin)) }
        #expect(!Passkey().isAvailable)
    }

    /// 2³²−1 is the last count: the credential is spent, nothing signed.
    @Test func counterAtItsLargestSignsNothing() throws {
        let (_, store, _) = try Self.registered()
        var credential = try #require(store.credential)
        credential.signCount = UInt32.max - 1
        let request = AssertionRequest(challenge: [1], origin: Self.origin, rpID: "example.com")
        let (response, last) = try SoftwareAuthenticator.assertion(request, with: credential)
        #expect(response.signCount == UInt32.max)
        #expect(Array(response.authenticatorData[33..<37]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: WebAuthnError.counterExhausted) { try SoftwareAuthenticator.assertion(request, with: last) }
    }

    /// UV is set whatever the relying party prefers (README "Passkeys").
    @Test(arguments: [UserVerification.required, .preferred, .discouraged])
    func userVerifiedFlagAlwaysSet(_ preference: UserVerification) throws {
        let (passkey, _, _) = try Self.registered()
        let assertion = try passkey.get(AssertionRequest(challenge: [1], origin: Self.origin, rpID: "example.com", userVerification: preference))
        #expect(assertion.authenticatorData[32] == 0x05)
        #expect(UserVerification("required") == .required && UserVerification("bogus") == .preferred && UserVerification(nil) == .preferred)
    }
}
