import Core
import JOSE
import Testing
@testable import Walk

/// A passkey file's contents: what is read, what is refused (naming the
/// member, never a value), and that the private key shows in no message.
struct PasskeyFileFormatTests {
    static let d = "aff907c99f9ad3aae6c4cdf21122bce2bd68b5283e6907154ad911840fa208cf"
    static let jwk = #"{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM8"}"#

    static func file(_ members: [String: String]) -> [UInt8] {
        Array(("{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}").utf8)
    }

    static let good: [String: String] = [
        "rpId": #""example.com""#, "credentialId": #""AAECAwQFBgcICQoLDA0ODw""#, "userHandle": #""dXNlci0x""#,
        "signCount": "41", "privateKey": jwk,
    ]

    @Test func readsAndWritesTheSameCredential() throws {
        let credential = try PasskeyCredential(file: Self.file(Self.good))
        #expect(credential.rpID == "example.com")
        #expect(credential.credentialID == Array(0...15))
        #expect(credential.userHandle == Array("user-1".utf8))
        #expect(credential.signCount == 41)
        let written = try credential.fileContents()
        #expect(written.last == 0x0A)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix(#"{"rpId":"example.com","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":41,"privateKey":{"#))
        #expect(try PasskeyCredential(file: written) == credential)
        // The key written is the key read: d and the point.
        let again = try PasskeyCredential(file: written)
        #expect(try again.key.privateJWK().privateParameters.first?.bytes == PyWebAuthn.hex(Self.d))
    }

    static func without(_ name: String) -> [UInt8] {
        var members = good
        members[name] = nil
        return file(members)
    }

    static func with(_ name: String, _ value: String) -> [UInt8] {
        var members = good
        members[name] = value
        return file(members)
    }

    static let publicJWK = #"{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw"}"#
    static let p384 = #"{"kty":"EC","crv":"P-384","x":"AA","y":"AA","d":"AA"}"#
    static let rsa = #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQAB"}"#
    static let wrongD = #"{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM4"}"#

    static let problems: [([UInt8], PasskeyFileProblem)] = [
        (Array("".utf8), .notJSONObject),
        (Array("[]".utf8), .notJSONObject),
        (Array("{\"rpId\":".utf8), .notJSONObject),
        ([UInt8](repeating: 0x20, count: PasskeyCredential.maximumFileSize + 1), .tooLarge),
        (without("rpId"), .missing("rpId")),
        (without("credentialId"), .missing("credentialId")),
        (without("userHandle"), .missing("userHandle")),
        (without("signCount"), .missing("signCount")),
        (without("privateKey"), .missing("privateKey")),
        (with("signcount", "1"), .unknownMember("signcount")),
        (with("rpId", "1"), .wrongType("rpId", expected: "a string")),
        (with("signCount", #""41""#), .wrongType("signCount", expected: "a number")),
        (with("privateKey", #""r_kHyZ""#), .wrongType("privateKey", expected: "a JWK object")),
        (with("credentialId", #""AAECAw==""#), .notBase64URL("credentialId")),
        (with("userHandle", #""dXNlci0x+""#), .notBase64URL("userHandle")),
        (with("credentialId", #""""#), .badLength("credentialId", allowed: 1...1023)),
        (with("userHandle", #""""#), .badLength("userHandle", allowed: 1...64)),
        (with("userHandle", "\"" + Base64URL.encode(Array(repeating: 7, count: 65)) + "\""), .badLength("userHandle", allowed: 1...64)),
        (with("rpId", #""Example.com""#), .badRPID),
        (with("rpId", #""127.0.0.1""#), .badRPID),
        (with("rpId", #""https://example.com""#), .badRPID),
        (with("signCount", "-1"), .badCount),
        (with("signCount", "4294967296"), .badCount),
        (with("signCount", "1.5"), .badCount),
        (with("privateKey", publicJWK), .key(.notPrivateKey)),
        (with("privateKey", p384), .notP256),
        (with("privateKey", rsa), .notP256),
        (with("privateKey", wrongD), .key(.badKey("libcrypto refused the key (d does not match the public part?)"))),
    ]

    @Test(arguments: problems.indices)
    func refusedNamingTheMember(_ index: Int) {
        let (contents, problem) = Self.problems[index]
        #expect(throws: problem) { try PasskeyCredential(file: contents) }
    }

    /// Every refusal as a value, and a credential's description: no form of
    /// the private key in any of them (the CLI's words around a refusal add
    /// none: Tests/CLITests/ErrorReportTests.swift).
    @Test func noMessageHoldsTheKey() throws {
        let d = PyWebAuthn.hex(Self.d)
        let forms = [Self.d, Self.d.uppercased(), Base64URL.encode(d), Base64URL.encodeStandard(d), "r_kHyZ", "r/kHyZ"]
        var texts: [String] = []
        for (contents, _) in Self.problems {
            do throws(PasskeyFileProblem) {
                _ = try PasskeyCredential(file: contents)
            } catch {
                let refusal = WebAuthnError.file(error, path: "/ci/passkey.json")
                texts += ["\(refusal)", String(reflecting: refusal), "\(error)"]
            }
        }
        let credential = try PasskeyCredential(file: Self.file(Self.good))
        texts += ["\(credential)", String(reflecting: credential), "\(credential.key)"]
        #expect(texts.count == Self.problems.count * 3 + 3)
        for text in texts {
            for form in forms {
                #expect(!text.contains(form), "\(text)")
            }
        }
    }

    /// The run's redactor scrubs the key in every form once it knows the passkey.
    @Test func redactorScrubsTheKey() throws {
        let credential = try PasskeyCredential(file: Self.file(Self.good))
        let redactor = Redactor()
        redactor.remember(passkey: credential)
        let d = PyWebAuthn.hex(Self.d)
        for form in [Self.d, Self.d.uppercased(), Base64URL.encode(d), Base64URL.encodeStandard(d),
                     String(Base64URL.encodeStandard(d).dropLast()), "%22" + Base64URL.encode(d) + "%22"] {
            let scrubbed = redactor.scrub("page says \(form) here")
            #expect(!scrubbed.contains(form) && scrubbed.contains(Redactor.mask), "\(scrubbed)")
        }
    }
}
