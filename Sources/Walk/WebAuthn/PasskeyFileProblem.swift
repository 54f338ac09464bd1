import JOSE

/// What is wrong with a passkey file (README "Passkeys" shows its shape).
/// Field names only: never a value read from it.
package enum PasskeyFileProblem: Error, Equatable, Sendable {
    /// There is no file (and no `--passkey-register` to make one).
    case absent
    /// Its directory cannot be written: the file is rewritten after each
    /// use, and made there by a registration.
    case directoryNotWritable
    /// Group or others may read or write it; its permission bits.
    case exposed(mode: UInt32)
    /// Longer than any passkey file (`PasskeyCredential.maximumFileSize`).
    case tooLarge
    case notJSONObject
    case missing(String)
    /// A member a passkey file does not have (a misspelt one, say): refused
    /// rather than dropped when the file is rewritten.
    case unknownMember(String)
    /// A member of the wrong JSON type; what it should be.
    case wrongType(String, expected: String)
    case notBase64URL(String)
    /// A byte string of a length outside what WebAuthn allows.
    case badLength(String, allowed: ClosedRange<Int>)
    /// `rpId` is not a domain.
    case badRPID
    /// `signCount` is not a whole number from 0 to 2³²−1.
    case badCount
    /// `privateKey` is not a usable JWK with `d`.
    case key(JOSEError)
    /// `privateKey` is a key of another type or curve than P-256.
    case notP256
}
