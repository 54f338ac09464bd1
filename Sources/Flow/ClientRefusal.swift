import Core
import OAuth

/// `invalid_client` from the token endpoint (RFC 6749 §5.2): the client's
/// own authentication failed, not the user's. After a code grant the login
/// itself worked, so say so; the hint follows how the client authenticated.
enum ClientRefusal {
    static func failure(_ error: Failure, options: Options, grant: Grant) -> Failure {
        var failure = error
        if case .authorizationCode = grant { failure.message = "the login worked, but " + error.message }
        switch options.authMethod {
        case .none:
            failure.hint = "The client was sent as public, with no secret; if it is confidential, pass --client-secret."
        case .clientSecretBasic:
            failure.hint = "Check --client-secret, or try --auth-method client_secret_post (the secret in the body, not the Authorization header)."
        case .clientSecretPost:
            failure.hint = "Check --client-secret, or try --auth-method client_secret_basic (the secret in the Authorization header)."
        }
        return failure
    }
}
