import Core
import JOSE

/// One WebAuthn credential held in software (a "public key credential
/// source", WebAuthn Level 3 §4): scoped to one RP ID, with its ID, the
/// user handle the relying party gave it, an ES256 key and the signature
/// counter (§6.1.1). What a passkey file holds (PasskeyCredential+File.swift).
/// `description` never shows the key's private part (SigningKey, JWK).
package struct PasskeyCredential: Equatable, Sendable {
    package let rpID: String
    package let credentialID: [UInt8]
    package let userHandle: [UInt8]
    package let key: SigningKey
    /// The count the last assertion carried (0 after registration).
    package var signCount: UInt32

    /// A credential ID is at most 1023 bytes (WebAuthn Level 3 §4
    /// "Credential ID", §6.5.1); a user handle 1 to 64 bytes (§5.4.3).
    package static let credentialIDLengths = 1...1023
    package static let userHandleLengths = 1...64
    /// Ours are 32 random bytes: §4 "Credential ID" asks for at least 16
    /// bytes with at least 100 bits of entropy.
    static let newCredentialIDLength = 32

    /// The public point, from the key (P-256: 32 bytes each).
    private let x: [UInt8]
    private let y: [UInt8]

    /// Checks what WebAuthn and this authenticator need: an RP ID that is a
    /// domain, IDs of a length WebAuthn allows, and a P-256 private key.
    package init(rpID: String, credentialID: [UInt8], userHandle: [UInt8], key: SigningKey,
                 signCount: UInt32) throws(PasskeyFileProblem) {
        guard RelyingPartyID.isDomain(rpID), !RelyingPartyID.isIPLiteral(rpID), rpID == rpID.lowercased() else { throw .badRPID }
        guard Self.credentialIDLengths.contains(credentialID.count) else {
            throw .badLength(PasskeyFileField.credentialID, allowed: Self.credentialIDLengths)
        }
        guard Self.userHandleLengths.contains(userHandle.count) else {
            throw .badLength(PasskeyFileField.userHandle, allowed: Self.userHandleLengths)
        }
        guard case .ec(.p256, let x, let y) = key.publicJWK.parameters else { throw .notP256 }
        self.rpID = rpID
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.key = key
        self.signCount = signCount
        self.x = x
        self.y = y
    }

    package static func == (lhs: PasskeyCredential, rhs: PasskeyCredential) -> Bool {
        lhs.rpID == rhs.rpID && lhs.credentialID == rhs.credentialID && lhs.userHandle == rhs.userHandle
            && lhs.key.thumbprint == rhs.key.thumbprint && lhs.signCount == rhs.signCount
    }

    /// The public key as a COSE_Key (§6.5.1.1): what the relying party keeps.
    var publicCOSEKey: CBOR {
        COSEKey.ec2P256(x: x, y: y)
    }
}
