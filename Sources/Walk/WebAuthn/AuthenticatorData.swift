import Core

/// The authenticator data (WebAuthn Level 3 §6.1): SHA-256 of the RP ID,
/// one byte of flags, the signature counter as a big-endian 32-bit number,
/// and with AT the attested credential data (§6.5.1): AAGUID, the
/// credential ID's length (2 bytes, big-endian) and the ID, then the
/// credential public key as a COSE_Key. No extensions, so ED is never set.
struct AuthenticatorData: Equatable {
    /// Bit 0 is the least significant (§6.1).
    struct Flags: OptionSet, Equatable {
        let rawValue: UInt8
        /// User present.
        static let userPresent = Flags(rawValue: 0x01)
        /// User verified.
        static let userVerified = Flags(rawValue: 0x04)
        /// Backup eligible, and backed up: never set here, a passkey file is
        /// one copy the user keeps (§6.1.3 "single-device credential").
        static let backupEligible = Flags(rawValue: 0x08)
        static let backedUp = Flags(rawValue: 0x10)
        /// Attested credential data included.
        static let attestedCredentialData = Flags(rawValue: 0x40)
    }

    struct AttestedCredential: Equatable {
        /// Sixteen zero bytes: a `none` attestation names no model (§6.5.1,
        /// §8.7), and a software authenticator has none to name.
        var aaguid = [UInt8](repeating: 0, count: 16)
        var credentialID: [UInt8]
        var publicKey: CBOR
    }

    var rpID: String
    var flags: Flags
    var signCount: UInt32
    var attested: AttestedCredential?

    var bytes: [UInt8] {
        var out = SHA256.hash(Array(rpID.utf8))
        out.append(flags.rawValue | (attested == nil ? 0 : Flags.attestedCredentialData.rawValue))
        out += (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * UInt32($0))) }
        if let attested {
            out += attested.aaguid
            out += [UInt8(truncatingIfNeeded: attested.credentialID.count >> 8), UInt8(truncatingIfNeeded: attested.credentialID.count)]
            out += attested.credentialID
            out += attested.publicKey.encoded
        }
        return out
    }
}
