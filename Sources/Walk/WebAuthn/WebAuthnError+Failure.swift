import Core

extension WebAuthnError {
    /// The one place a passkey error becomes the run's exit code, line and
    /// hint (until the CLI maps every layer's errors, issue 25). `place`:
    /// the URL of the page or API that asked, for the error line. Server
    /// values are marked (ServerText.swift); nothing here holds a key.
    package func failure(at place: String? = nil) -> Failure {
        func refused(_ message: String, hint: String? = nil) -> Failure {
            Failure(.noAuthorizationResponse, message, at: place, hint: hint)
        }
        func shown(_ text: String) -> String { "'" + ServerText.printable(text, limit: 200) + "'" }
        switch self {
        case .noPasskey:
            return refused("the login asks for a passkey, and no --passkey was given",
                           hint: "Give the user's passkey file with --passkey FILE, or enrol one on a login that offers it with --passkey FILE --passkey-register (README \"Passkeys\").")
        case .registrationNotAllowed(let path):
            let file = path.map { "'\($0)'" } ?? "FILE"
            return refused("the login asks to register a passkey, and --passkey-register was not given",
                           hint: "Registering enrols a new factor on the account; to let authcode do it, pass --passkey-register with a --passkey \(file) that does not exist yet.")
        case .passkeyExists(let path):
            return refused("the login asks to register a passkey, and '\(path)' already holds one; authcode never replaces it",
                           hint: "The server does not know the passkey in it: remove the file to enrol a new one, or name another file.")
        case .noCredentialYet(let path):
            return refused("the login asks for a passkey, and '\(path)' does not exist yet",
                           hint: "It is made on a login that asks to register a passkey (--passkey-register).")
        case .notAnOrigin(let origin):
            return refused("a passkey is asked for by \(shown(origin)), which is not an http(s) origin")
        case .insecureOrigin(let origin):
            return refused("a passkey is asked for by \(shown(origin)), which is neither https nor localhost; WebAuthn needs a secure context")
        case .ipLiteral(let host):
            return refused("a passkey is asked for with the IP address \(shown(host)), and WebAuthn has no RP ID for an address; nothing was signed",
                           hint: "Reach the server by a host name (localhost works).")
        case .invalidRPID(let rpID):
            return refused("the RP ID \(shown(rpID)) of the passkey request is not a domain; nothing was signed")
        case .rpIDNotForOrigin(let rpID, let origin):
            return refused("\(shown(origin)) asks for a passkey of \(shown(rpID)), which is neither its host nor a parent domain of it; nothing was signed")
        case .rpIDMismatch(let asked, let file):
            return refused("the login asks for a passkey of \(shown(asked)), and the one in --passkey is for \(shown(file)); nothing was signed")
        case .credentialNotAllowed:
            return refused("the server does not accept the passkey in --passkey (its credential ID is not in allowCredentials); nothing was signed",
                           hint: "Give the passkey file this user enrolled, or enrol one with --passkey-register.")
        case .emptyChallenge:
            return refused("the passkey request has no challenge; nothing was signed")
        case .noSupportedAlgorithm(let algorithms):
            let offered = algorithms.map(String.init).joined(separator: ", ")
            return refused("the server takes none of the passkey algorithms authcode makes (it offers COSE \(offered); authcode makes ES256, -7)")
        case .badUserHandle(let bytes):
            return refused("the server's user handle for the new passkey is \(bytes) bytes; WebAuthn allows 1 to 64")
        case .counterExhausted:
            return Failure(.usage, "the passkey's signCount is 4294967295, the largest there is: it can sign no more", at: place,
                           hint: "Enrol a new passkey (--passkey-register with a new file).")
        case .file(let problem, let path):
            return Failure(.usage, "the passkey file '\(path)' \(problem.phrase)", hint: problem.hint(path))
        case .signing(let error):
            return Failure(.usage, "cannot sign with the passkey: \(error.message)", at: place)
        case .store(let failure):
            return failure
        }
    }
}

extension PasskeyFileProblem {
    /// What follows "the passkey file 'FILE' …".
    var phrase: String {
        switch self {
        case .exposed(let mode):
            "can be read or written by group or others (mode \(String(mode & 0o777, radix: 8))): it holds a private key"
        case .absent: "does not exist"
        case .directoryNotWritable: "is in a directory authcode cannot write, and it is rewritten after each use"
        case .tooLarge: "is larger than \(PasskeyCredential.maximumFileSize) bytes: not a passkey file"
        case .notJSONObject: "is not a JSON object"
        case .missing(let name): "has no \(name)"
        case .unknownMember(let name): "has a member authcode does not know: \(ServerText.printable(name, limit: 64))"
        case .wrongType(let name, let expected): "has a \(name) that is not \(expected)"
        case .notBase64URL(let name): "has a \(name) that is not base64url without padding"
        case .badLength(let name, let allowed): "has a \(name) that is not \(allowed.lowerBound) to \(allowed.upperBound) bytes long"
        case .badRPID: "has an rpId that is not a domain in lower case"
        case .badCount: "has a signCount that is not a whole number from 0 to 4294967295"
        case .key(let error): "has a privateKey that cannot be used: \(error.message)"
        case .notP256: "has a privateKey that is not an EC P-256 key"
        }
    }

    func hint(_ path: String) -> String {
        switch self {
        case .exposed: "Run chmod 600 '\(path)'; if others could read it, enrol a new passkey and remove this one from the account."
        case .absent: "A passkey file is made on a login that asks to register one: --passkey FILE --passkey-register."
        case .directoryNotWritable: "Keep the file in a directory of your own (a CI secret copied to a temporary directory, say)."
        default: "README \"Passkeys\" shows what a passkey file holds."
        }
    }
}
