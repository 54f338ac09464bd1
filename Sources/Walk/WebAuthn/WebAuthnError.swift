import Core
import JOSE

/// Every way the software authenticator (README "Passkeys") refuses, as a value
/// a test compares: no prose and no exit code here; the CLI words each case
/// and picks its exit code (CLI/Errors/WebAuthnError+Text.swift,
/// ErrorReport.swift). Nothing here holds
/// key material; `rpID` and `origin` are what a page or a server sent.
package enum WebAuthnError: Error, Equatable, Sendable {
    // What the login asks for and the run cannot give.
    /// A page or API asks for a passkey and the run has none.
    case noPasskey
    /// A login asks to register a passkey and the run may not (a typo in a
    /// path must not enrol a factor on an account); the file, if one was given.
    case registrationNotAllowed(path: String?)
    /// A login asks to register a passkey and FILE already holds one: it is
    /// never replaced.
    case passkeyExists(path: String)
    /// A login asks for an assertion and FILE is not made yet (it was
    /// given for a registration that has not happened).
    case noCredentialYet(path: String)

    // The request, refused before anything is signed (WebAuthn Level 3
    // §5.1.3, §5.1.4, §6.3.2, §6.3.3).
    /// Not a serialized http(s) origin (`https://host[:port]`).
    case notAnOrigin(String)
    /// A secure context is https, or http on this machine.
    case insecureOrigin(String)
    /// The origin's host or the asked rpId is an IP literal: WebAuthn has
    /// no RP ID for one.
    case ipLiteral(String)
    /// The asked rpId is not a domain (empty, a label too long, a character
    /// that no host name has).
    case invalidRPID(String)
    /// The rpId is neither the origin's host nor a registrable suffix of it.
    case rpIDNotForOrigin(rpID: String, origin: String)
    /// The credential in FILE is scoped to another RP ID.
    case rpIDMismatch(asked: String, file: String)
    /// `allowCredentials` lists credentials, and not ours.
    case credentialNotAllowed
    /// The relying party sent no challenge.
    case emptyChallenge
    /// `pubKeyCredParams` offers no algorithm this authenticator makes
    /// (ES256, COSE -7); the identifiers offered.
    case noSupportedAlgorithm([Int])
    /// `user.id` is not 1 to 64 bytes (WebAuthn Level 3 §5.4.3); its length.
    case badUserHandle(bytes: Int)

    // The credential and its file.
    /// The signature counter is at 2³²−1: no assertion can count higher
    /// (§6.1.1), so the credential is spent.
    case counterExhausted
    /// FILE cannot be used as it is; `path` names it.
    case file(PasskeyFileProblem, path: String)
    /// libcrypto failed to sign or to make a key.
    case signing(JOSEError)
    /// Reading, locking or writing FILE failed in the file helpers the token
    /// cache shares (Flow/Cache/CacheFileOpen.swift, FileLock.swift,
    /// CacheFiles.swift).
    case store(FileError)
}

extension WebAuthnError {
    /// Whether the login cannot go on this way: what the page asked for is
    /// something the run's passkey cannot give, so a driver's walk ends
    /// there like any other (`WalkError.isDeadEnd`). False for a spent
    /// counter, a file, a lock or a key that fails: the user fixes those
    /// before running again. CLITests/ErrorReportTests.swift pins this to
    /// the exit code the CLI gives each case.
    package var isDeadEnd: Bool {
        switch self {
        case .noPasskey, .registrationNotAllowed, .passkeyExists, .noCredentialYet, .notAnOrigin, .insecureOrigin, .ipLiteral, .invalidRPID,
             .rpIDNotForOrigin, .rpIDMismatch, .credentialNotAllowed, .emptyChallenge, .noSupportedAlgorithm, .badUserHandle:
            true
        case .counterExhausted, .file, .signing, .store:
            false
        }
    }
}
