import Core
import Walk

/// The words of a passkey error (Walk/WebAuthn/WebAuthnError.swift); the
/// exit code and hint are ErrorReport.swift's. Server values are marked;
/// nothing here holds a key.
extension WebAuthnError {
    /// `place`: the URL of the page or API that asked, when there is one.
    func text(at place: String? = nil) -> ErrorText {
        let passkey = OptionTable.flag(\.flow.walk.passkeyFile)
        func shown(_ text: String) -> String { "'" + ServerText.printable(text, limit: 200) + "'" }
        return switch self {
        case .noPasskey:
            ErrorText("the login asks for a passkey, and no \(passkey) was given", at: place)
        case .registrationNotAllowed:
            ErrorText("the login asks to register a passkey, and \(OptionTable.flag(\.flow.walk.passkeyRegister)) was not given", at: place)
        case .passkeyExists(let path):
            ErrorText("the login asks to register a passkey, and '\(path)' already holds one; authcode never replaces it", at: place)
        case .noCredentialYet(let path):
            ErrorText("the login asks for a passkey, and '\(path)' does not exist yet", at: place)
        case .notAnOrigin(let origin):
            ErrorText("a passkey is asked for by \(shown(origin)), which is not an http(s) origin", at: place)
        case .insecureOrigin(let origin):
            ErrorText("a passkey is asked for by \(shown(origin)), which is neither https nor localhost; WebAuthn needs a secure context", at: place)
        case .ipLiteral(let host):
            ErrorText("a passkey is asked for with the IP address \(shown(host)), and WebAuthn has no RP ID for an address; nothing was signed", at: place)
        case .invalidRPID(let rpID):
            ErrorText("the RP ID \(shown(rpID)) of the passkey request is not a domain; nothing was signed", at: place)
        case .rpIDNotForOrigin(let rpID, let origin):
            ErrorText("\(shown(origin)) asks for a passkey of \(shown(rpID)), which is neither its host nor a parent domain of it; nothing was signed",
                      at: place)
        case .rpIDMismatch(let asked, let file):
            ErrorText("the login asks for a passkey of \(shown(asked)), and the one in \(passkey) is for \(shown(file)); nothing was signed", at: place)
        case .credentialNotAllowed:
            ErrorText("the server does not accept the passkey in \(passkey) (its credential ID is not in allowCredentials); nothing was signed", at: place)
        case .emptyChallenge:
            ErrorText("the passkey request has no challenge; nothing was signed", at: place)
        case .noSupportedAlgorithm(let algorithms):
            ErrorText("the server takes none of the passkey algorithms authcode makes (it offers COSE "
                      + "\(algorithms.map(String.init).joined(separator: ", ")); authcode makes ES256, -7)", at: place)
        case .badUserHandle(let bytes):
            ErrorText("the server's user handle for the new passkey is \(bytes) bytes; WebAuthn allows 1 to 64", at: place)
        case .counterExhausted:
            ErrorText("the passkey's signCount is 4294967295, the largest there is: it can sign no more", at: place)
        case .file(let problem, let path):
            ErrorText("the passkey file '\(path)' \(problem.phrase)")
        case .signing(let error):
            ErrorText("cannot sign with the passkey: \(error.message)", at: place)
        case .store(let error):
            error.text
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
}
