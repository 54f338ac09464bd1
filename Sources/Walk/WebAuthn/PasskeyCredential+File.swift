import Core
import JOSE

/// The names of a passkey file's members (README "Passkeys", README "Passkeys").
package enum PasskeyFileField {
    package static let rpID = "rpId"
    package static let credentialID = "credentialId"
    package static let userHandle = "userHandle"
    package static let signCount = "signCount"
    package static let privateKey = "privateKey"
    static let all: Set<String> = [rpID, credentialID, userHandle, signCount, privateKey]
}

/// A passkey file: one JSON object, the IDs in base64url without padding,
/// the key as a JWK with `d` (RFC 7517, RFC 7518 §6.2), written on one line
/// in a fixed member order so a diff of two versions shows the count.
extension PasskeyCredential {
    /// Far more than a passkey file needs (about 400 bytes); a longer file
    /// is not one, and is not read into memory.
    package static let maximumFileSize = 16 * 1024

    /// Every problem names the member; no value read is ever repeated.
    package init(file contents: [UInt8]) throws(PasskeyFileProblem) {
        guard contents.count <= Self.maximumFileSize else { throw .tooLarge }
        guard case .object(let members)? = JSONValue.parse(contents) else { throw .notJSONObject }
        if let unknown = members.keys.sorted().first(where: { !PasskeyFileField.all.contains($0) }) {
            throw .unknownMember(unknown)
        }
        func string(_ name: String) throws(PasskeyFileProblem) -> String {
            guard let value = members[name] else { throw .missing(name) }
            guard case .string(let text) = value else { throw .wrongType(name, expected: "a string") }
            return text
        }
        func bytes(_ name: String) throws(PasskeyFileProblem) -> [UInt8] {
            guard let decoded = StrictBase64URL.decode(Substring(try string(name))) else { throw .notBase64URL(name) }
            return decoded
        }
        let rpID = try string(PasskeyFileField.rpID)
        let credentialID = try bytes(PasskeyFileField.credentialID)
        let userHandle = try bytes(PasskeyFileField.userHandle)
        guard let count = members[PasskeyFileField.signCount] else { throw .missing(PasskeyFileField.signCount) }
        guard case .number(let number) = count else { throw .wrongType(PasskeyFileField.signCount, expected: "a number") }
        guard number >= 0, number <= Double(UInt32.max), number == number.rounded() else { throw .badCount }
        guard let jwk = members[PasskeyFileField.privateKey] else { throw .missing(PasskeyFileField.privateKey) }
        guard case .object = jwk else { throw .wrongType(PasskeyFileField.privateKey, expected: "a JWK object") }
        let parsed: JWK
        do throws(JOSEError) { parsed = try JWK(json: jwk) } catch { throw .key(error) }
        guard parsed.keyType == .ec, parsed.curve == .p256 else { throw .notP256 }
        let key: SigningKey
        do throws(JOSEError) { key = try SigningKey(jwk: parsed) } catch { throw .key(error) }
        try self.init(rpID: rpID, credentialID: credentialID, userHandle: userHandle, key: key, signCount: UInt32(number))
    }

    /// The file's bytes, ending in a newline. Holds the private key: only
    /// ever written to a 0600 file (Flow/Passkey/PasskeyFile.swift).
    package func fileContents() throws(JOSEError) -> [UInt8] {
        let jwk = try key.privateJWK().json(includingPrivate: true)
        let text = "{" + [
            "\(JSONText.quote(PasskeyFileField.rpID)):\(JSONText.quote(rpID))",
            "\(JSONText.quote(PasskeyFileField.credentialID)):\(JSONText.quote(Base64URL.encode(credentialID)))",
            "\(JSONText.quote(PasskeyFileField.userHandle)):\(JSONText.quote(Base64URL.encode(userHandle)))",
            "\(JSONText.quote(PasskeyFileField.signCount)):\(signCount)",
            "\(JSONText.quote(PasskeyFileField.privateKey)):\(jwk)",
        ].joined(separator: ",") + "}\n"
        return Array(text.utf8)
    }
}
