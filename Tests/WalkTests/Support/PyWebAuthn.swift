import Core
import Foundation
import TestSupport
@testable import Walk

/// The relying party on the other side of the passkey tests:
/// Fixtures/webauthn/verify.py run with the test venv's python (PyPI
/// `webauthn`, py_webauthn). It keeps each registered credential's public
/// key and count across the jobs of one call, as a relying party would, so
/// a count that does not rise fails there and not by our say-so.
enum PyWebAuthn {
    /// One job of verify.py, as its docstring describes.
    struct Job {
        var members: [String: JSONValue]

        static func register(_ response: RegistrationResponse, challenge: [UInt8], rpID: String, origin: String,
                             requireUV: Bool = true) -> Job {
            ceremony("register", id: response.credentialID, challenge: challenge, rpID: rpID, origin: origin, requireUV: requireUV, response: [
                "clientDataJSON": response.clientDataJSON, "attestationObject": response.attestationObject,
            ])
        }

        static func authenticate(_ response: AssertionResponse, challenge: [UInt8], rpID: String, origin: String,
                                 requireUV: Bool = true) -> Job {
            ceremony("authenticate", id: response.credentialID, challenge: challenge, rpID: rpID, origin: origin, requireUV: requireUV, response: [
                "clientDataJSON": response.clientDataJSON, "authenticatorData": response.authenticatorData,
                "signature": response.signature, "userHandle": response.userHandle,
            ])
        }

        /// The JSON a browser's `PublicKeyCredential.toJSON()` gives (every
        /// byte string base64url), with what the relying party expects.
        private static func ceremony(_ op: String, id: [UInt8], challenge: [UInt8], rpID: String, origin: String, requireUV: Bool,
                                     response: [String: [UInt8]]) -> Job {
            let credential: JSONValue = .object([
                "id": .string(Base64URL.encode(id)),
                "rawId": .string(Base64URL.encode(id)),
                "type": .string("public-key"),
                "response": .object(response.mapValues { .string(Base64URL.encode($0)) }),
            ])
            return Job(members: ["op": .string(op), "challenge": .string(Base64URL.encode(challenge)), "rpId": .string(rpID),
                                 "origin": .string(origin), "credential": credential, "requireUV": .bool(requireUV)])
        }

        /// A credential the relying party knows from elsewhere (a published
        /// vector's public key, as COSE_Key bytes).
        static func enrol(credentialID: [UInt8], publicKey: [UInt8], signCount: Int) -> Job {
            Job(members: ["op": .string("enrol"), "credentialId": .string(Base64URL.encode(credentialID)),
                          "publicKey": .string(Base64URL.encode(publicKey)), "signCount": .number(Double(signCount))])
        }

        /// The same job with one base64url member of the credential's
        /// response replaced (a tampered answer).
        func replacing(_ name: String, with bytes: [UInt8]) -> Job {
            var copy = self
            guard case .object(var credential)? = members["credential"], case .object(var response)? = credential["response"] else { return self }
            response[name] = .string(Base64URL.encode(bytes))
            credential["response"] = .object(response)
            copy.members["credential"] = .object(credential)
            return copy
        }

        func with(_ name: String, _ value: JSONValue) -> Job {
            var copy = self
            copy.members[name] = value
            return copy
        }
    }

    /// verify.py's verdict on each job, in order.
    static func verify(_ jobs: [Job]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authcode-webauthn-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("jobs.jsonl").path
        try (jobs.map { JSONText.serialize(.object($0.members)) }.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return try VenvPython.run("Fixtures/webauthn/verify.py", [path]).split(separator: "\n").map(String.init)
    }

    static func hex(_ text: String) -> [UInt8] { VenvPython.hex(text) }
}
