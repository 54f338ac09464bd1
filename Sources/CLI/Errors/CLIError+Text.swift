/// The words of the CLI's own errors (CLIError.swift); the exit codes are
/// ErrorReport.swift's.
extension PrintError {
    var text: ErrorText {
        switch self {
        case .missingField(let name): ErrorText("the token response has no \(name) to print")
        case .noExpiry: ErrorText("the token response says nothing usable about expiry (no numeric expires_in, and the access token is not a JWT with exp)")
        case .noIDTokenClaims: ErrorText("the token response has no id_token whose claims to print")
        case .noUserinfo: ErrorText("no userinfo answer to print")
        case .controlCharacters(let name): ErrorText("the token response's \(name) holds control characters; not printed")
        case .idToken(let error): error.text
        }
    }
}

extension OutputFailure {
    var text: ErrorText {
        switch self {
        case .result(let output, let reason, let lost):
            ErrorText("could not write the result to \(output) (\(reason)); " + Self.describe(lost))
        case .batchResults(let output, let reason):
            ErrorText("could not write the results to \(output): \(reason); the batch's tokens are lost")
        }
    }

    static func describe(_ lost: LostResult) -> String {
        switch lost {
        case .unredeemedCode: "the code was not redeemed"
        case .cached: "the token came from the cache and is still there"
        case .refreshed: "a refresh token was redeemed"
        case .redeemed: "the code was redeemed and its token is lost"
        case .nothing: "nothing was minted"
        }
    }
}
